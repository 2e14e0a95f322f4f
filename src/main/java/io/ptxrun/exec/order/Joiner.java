package io.ptxrun.exec.order;

/**
 * The knowledge gathered by one barrier instance or mbarrier phase: every arrival's release
 * (and complete-tx of async copies) joined, handed to the threads it releases when it completes.
 * Arrivals that share one knowledge array (threads since the last barrier) are joined once.
 */
final class Joiner {
    private int[] acc;
    private int[] lastJoined;
    private ForeignClocks foreign;

    /** Thread t arrives (releasing what it knows and did), then its counter advances. */
    void arrive(ThreadClocks c, int t) {
        joinKnown(c.known[t]);
        if (c.clock[t] > acc[t]) {
            acc[t] = c.clock[t];
        }
        if (c.agentKnown[t] > acc[c.threads + t]) {
            acc[c.threads + t] = c.agentKnown[t];
        }
        if (c.foreign[t] != null) {
            foreign = ForeignClocks.merge(foreign, c.foreign[t], c.cluster);
        }
        c.tick(t);
    }

    /**
     * {@link #arrive} of the 32 threads from slot {@code first}, a whole warp whose threads are
     * {@link ThreadClocks#alike}: their shared knowledge joined once, then each one's counters.
     */
    void arriveWarp(ThreadClocks c, int first) {
        joinKnown(c.known[first]);
        int[] clock = c.clock, agentKnown = c.agentKnown;
        for (int t = first, agent = c.threads + first; t < first + 32; t++, agent++) {
            acc[t] = Math.max(acc[t], clock[t]);
            acc[agent] = Math.max(acc[agent], agentKnown[t]);
        }
        for (int t = first; t < first + 32; t++) {
            c.tick(t);
        }
    }

    /** Joins an arrival's knowledge array in, once for arrivals that share it. */
    private void joinKnown(int[] k) {
        if (acc == null) {
            acc = k.clone();
            lastJoined = k;
        } else if (k != lastJoined) {
            for (int i = 0; i < acc.length; i++) {
                if (k[i] > acc[i]) {
                    acc[i] = k[i];
                }
            }
            lastJoined = k;
        }
    }

    /**
     * A relaxed arrive of thread t: it releases nothing by itself, but after a fence it hands on
     * what the thread had then (the fence-then-relaxed release pattern).
     */
    void arriveRelaxed(ThreadClocks c, int t) {
        int[] k = c.fenced[t];
        if (k != null) {
            if (acc == null) {
                acc = k.clone();
            } else {
                for (int i = 0; i < acc.length; i++) {
                    if (k[i] > acc[i]) {
                        acc[i] = k[i];
                    }
                }
            }
            lastJoined = null;
            if (c.fencedClock[t] > acc[t]) {
                acc[t] = c.fencedClock[t];
            }
            if (c.fencedForeign[t] != null) {
                foreign = ForeignClocks.merge(foreign, c.fencedForeign[t], c.cluster);
            }
        }
        c.tick(t);
    }

    /** An async agent's copies up to counter {@code clock} completed into this phase. */
    void complete(ThreadClocks c, int agentSlot, int clock) {
        if (acc == null) {
            acc = new int[c.slots];
            lastJoined = null;
        }
        if (clock > acc[agentSlot]) {
            acc[agentSlot] = clock;
        }
    }

    /** The joined knowledge, and a fresh start for the next instance. */
    Release take(int cluster) {
        Release r = acc == null ? null : new Release(cluster, acc, foreign);
        acc = null;
        lastJoined = null;
        foreign = null;
        return r;
    }
}
