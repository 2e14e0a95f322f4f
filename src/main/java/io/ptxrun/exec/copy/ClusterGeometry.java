package io.ptxrun.exec.copy;

import io.ptxrun.launch.Dim3;

/**
 * Where a CTA sits in its cluster: the values of the cluster special registers for a grid of
 * {@code nctaid} CTAs in clusters of {@code clusterShape}, and the meaning of a multicast
 * {@code ctaMask}. A launch without an explicit cluster runs each CTA as a cluster of one
 * ({@code %is_explicit_cluster} false). {@code clusterShape} is {@code %cluster_nctaid}.
 *
 * <p>Ranks are x-fastest: {@code %cluster_ctarank = cx + ncx * (cy + ncy * cz)}.
 */
public record ClusterGeometry(Dim3 nctaid, Dim3 clusterShape, boolean explicitCluster) {

    /** A zero-based 3D index ({@code %ctaid}, {@code %clusterid}, ...); {@link Dim3} holds extents. */
    public record Index(int x, int y, int z) {}

    public ClusterGeometry {
        if (nctaid.x() % clusterShape.x() != 0
                || nctaid.y() % clusterShape.y() != 0
                || nctaid.z() % clusterShape.z() != 0) {
            throw new IllegalArgumentException(
                    "grid " + nctaid + " is not a whole number of clusters of " + clusterShape);
        }
    }

    /** A launch without {@code .reqnctapercluster} / cluster dims: clusters of one CTA. */
    public static ClusterGeometry implicit(Dim3 nctaid) {
        return new ClusterGeometry(nctaid, Dim3.ONE, false);
    }

    /** {@code %cluster_nctarank}: CTAs in a cluster. */
    public int clusterNctarank() {
        return (int) clusterShape.count();
    }

    /** {@code %nclusterid}. */
    public Dim3 nclusterid() {
        return new Dim3(
                nctaid.x() / clusterShape.x(), nctaid.y() / clusterShape.y(), nctaid.z() / clusterShape.z());
    }

    /** {@code %clusterid} of the CTA {@code ctaid}. */
    public Index clusterid(Index ctaid) {
        return new Index(
                ctaid.x() / clusterShape.x(), ctaid.y() / clusterShape.y(), ctaid.z() / clusterShape.z());
    }

    /** {@code %cluster_ctaid} of the CTA {@code ctaid}. */
    public Index clusterCtaid(Index ctaid) {
        return new Index(
                ctaid.x() % clusterShape.x(), ctaid.y() % clusterShape.y(), ctaid.z() % clusterShape.z());
    }

    /** {@code %cluster_ctarank} of the CTA {@code ctaid}. */
    public int clusterCtarank(Index ctaid) {
        int cx = ctaid.x() % clusterShape.x();
        int cy = ctaid.y() % clusterShape.y();
        int cz = ctaid.z() % clusterShape.z();
        return cx + clusterShape.x() * (cy + clusterShape.y() * cz);
    }

    /** {@code %is_explicit_cluster}. */
    public boolean isExplicitCluster() {
        return explicitCluster;
    }

    /** The {@code %ctaid} of rank {@code rank} in the cluster that holds {@code ctaid}. */
    public Index ctaidOfRank(Index ctaid, int rank) {
        if (rank < 0 || rank >= clusterNctarank()) {
            throw new IllegalArgumentException(
                    "rank " + rank + " outside a cluster of " + clusterNctarank() + " CTAs");
        }
        int cx = rank % clusterShape.x();
        int cy = (rank / clusterShape.x()) % clusterShape.y();
        int cz = rank / (clusterShape.x() * clusterShape.y());
        return new Index(
                ctaid.x() - ctaid.x() % clusterShape.x() + cx,
                ctaid.y() - ctaid.y() % clusterShape.y() + cy,
                ctaid.z() - ctaid.z() % clusterShape.z() + cz);
    }

    /**
     * Null when every bit of the 16-bit multicast {@code ctaMask} names a CTA of the cluster (bit
     * k is cluster rank k), else what is wrong, for the engine to report as an error.
     */
    public String multicastMaskProblem(int ctaMask) {
        int mask = ctaMask & 0xffff;
        int valid = (1 << clusterNctarank()) - 1;
        if ((mask & ~valid) != 0) {
            return String.format(
                    "ctaMask 0x%04x names rank %d, but the cluster has %d CTAs (ranks 0 to %d)",
                    mask, 31 - Integer.numberOfLeadingZeros(mask & ~valid), clusterNctarank(), clusterNctarank() - 1);
        }
        return null;
    }

    /**
     * The ranks a multicast reaches, lowest first, as the next set bit of the mask after
     * {@code previous} ({@code -1} to start); -1 when none is left. Iterates without allocating.
     */
    public static int nextMulticastRank(int ctaMask, int previous) {
        int rest = (ctaMask & 0xffff) & (-1 << (previous + 1));
        return rest == 0 ? -1 : Integer.numberOfTrailingZeros(rest);
    }
}
