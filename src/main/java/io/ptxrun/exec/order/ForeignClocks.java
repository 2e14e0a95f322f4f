package io.ptxrun.exec.order;

import java.util.HashMap;
import java.util.Map;

/**
 * What a thread knows of threads in other clusters: per cluster index, a vector clock over that
 * cluster's slots. Only atomics and fences on global memory carry such knowledge (the "last
 * block" and flag patterns), so it is usually absent (null) and always immutable.
 */
final class ForeignClocks {
    private final Map<Integer, int[]> byCluster;

    private ForeignClocks(Map<Integer, int[]> byCluster) {
        this.byCluster = byCluster;
    }

    static ForeignClocks of(int cluster, int[] clock) {
        Map<Integer, int[]> m = new HashMap<>();
        m.put(cluster, clock);
        return new ForeignClocks(m);
    }

    /** Whether the epoch of launch-wide slot {@code slot} at {@code clock} is known. */
    boolean knows(long slot, int clock, int slotsPerCluster) {
        int[] c = byCluster.get((int) (slot / slotsPerCluster));
        return c != null && clock <= c[(int) (slot % slotsPerCluster)];
    }

    int[] of(int cluster) {
        return byCluster.get(cluster);
    }

    Iterable<Map.Entry<Integer, int[]>> entries() {
        return byCluster.entrySet();
    }

    /** The join of two (either may be null), without the entry of cluster {@code own}. */
    static ForeignClocks merge(ForeignClocks a, ForeignClocks b, int own) {
        if (b == null || a == b) {
            return a;
        }
        Map<Integer, int[]> m = a == null ? new HashMap<>() : new HashMap<>(a.byCluster);
        for (Map.Entry<Integer, int[]> e : b.byCluster.entrySet()) {
            if (e.getKey() == own) {
                continue;
            }
            int[] prev = m.get(e.getKey());
            m.put(e.getKey(), prev == null ? e.getValue() : ThreadClocks.max(prev, e.getValue()));
        }
        return m.isEmpty() ? null : new ForeignClocks(m);
    }
}
