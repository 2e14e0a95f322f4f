package io.ptxrun.exec.order;

/**
 * What a release hands on: a vector clock over the slots of one cluster and, rarely, knowledge of
 * other clusters. Immutable once made.
 */
public record Release(int cluster, int[] clock, ForeignClocks foreign) {

    /** Both releases' knowledge in one. */
    static Release join(Release a, Release b) {
        if (a == null || a == b) {
            return b;
        }
        if (b == null) {
            return a;
        }
        if (a.cluster == b.cluster) {
            return new Release(a.cluster, ThreadClocks.max(a.clock, b.clock),
                    ForeignClocks.merge(a.foreign, b.foreign, a.cluster));
        }
        ForeignClocks f = ForeignClocks.merge(a.foreign, ForeignClocks.of(b.cluster, b.clock), a.cluster);
        return new Release(a.cluster, a.clock, ForeignClocks.merge(f, b.foreign, a.cluster));
    }
}
