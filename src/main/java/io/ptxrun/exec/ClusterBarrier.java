package io.ptxrun.exec;

/**
 * barrier.cluster (PTX ISA 9.7.13.3): one split barrier over every thread of the cluster. An
 * arrive marks the thread as arrived on the current phase and does not wait; a wait holds the
 * thread until the phase it arrived on has completed. A phase completes once every thread still
 * live in the cluster has arrived: threads that exit no longer hold it up (exit, 9.7.8.11).
 */
final class ClusterBarrier {
    private Engine engine;
    private Cta[] ctas;
    private int clusterSize;
    private int phase;
    /** Live threads that arrived on the current phase. */
    private int arrived;

    /** Prepares the barrier of a new cluster (its CTAs already started). */
    void startCluster(Cta[] ctas, int clusterSize, Engine engine) {
        this.engine = engine;
        this.ctas = ctas;
        this.clusterSize = clusterSize;
        this.phase = 0;
        this.arrived = 0;
    }

    void arrive(Engine engine, Cta cta, Warp w, Op op, int pc, int lanes, Hazards hazards) {
        for (int m = lanes; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            int t = w.id * 32 + l;
            if (cta.clusterArrival[t] == phase) {
                hazards.undefined(op, pc, "exec.barrier", "barrier.cluster.arrive again before the matching"
                        + " barrier.cluster.wait (9.7.13.3)", engine.where(w, l));
                continue;
            }
            cta.clusterArrival[t] = phase;
            arrived++;
            if (engine.order != null) {
                engine.order.clusterArrive(engine.order.slot(cta.rank, t), op.relaxed());
            }
        }
        engine.progressed();
        tryComplete();
    }

    /** barrier.cluster.wait at pc: lanes whose arrival's phase is still open block until it completes. */
    void await(Cta cta, Warp w, Op op, int pc, int lanes) {
        int blocked = 0;
        for (int m = lanes; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            if (cta.clusterArrival[w.id * 32 + l] == phase) {
                blocked |= 1 << l;
            }
        }
        if (engine.order != null) {
            // Lanes whose phase already completed pass and acquire it now; the others when it completes.
            for (int m = lanes & ~blocked; m != 0; m &= m - 1) {
                engine.order.clusterWaited(engine.ordering.slot(w, Integer.numberOfTrailingZeros(m)), op.relaxed());
            }
        }
        w.blocked |= blocked;
        for (int m = blocked; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            w.waitKind[l] = Warp.WAIT_CLUSTER;
            w.blockedAt[l] = pc;
        }
    }

    /** Lanes of {@code w} exited: arrivals of theirs no longer count, and they are no longer awaited. */
    void exited(Cta cta, Warp w, int lanes) {
        for (int m = lanes; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            if (cta.clusterArrival[w.id * 32 + l] == phase) {
                cta.clusterArrival[w.id * 32 + l] = -1;
                arrived--;
            }
        }
        tryComplete();
    }

    private void tryComplete() {
        int live = 0;
        for (int k = 0; k < clusterSize; k++) {
            live += ctas[k].liveThreads;
        }
        if (arrived == 0 || arrived < live) {
            return;
        }
        phase++;
        arrived = 0;
        if (engine.order != null) {
            engine.order.clusterComplete();
        }
        for (int k = 0; k < clusterSize; k++) {
            for (Warp w : ctas[k].warps) {
                for (int m = w.blocked; m != 0; m &= m - 1) {
                    int l = Integer.numberOfTrailingZeros(m);
                    if (w.waitKind[l] == Warp.WAIT_CLUSTER) {
                        w.blocked &= ~(1 << l);
                        if (engine.order != null) {
                            engine.order.clusterWaited(engine.order.slot(ctas[k].rank, w.id * 32 + l),
                                    engine.opAt(w.blockedAt[l]).relaxed());
                        }
                    }
                }
            }
        }
    }

    /** The barrier's state for a deadlock report. */
    String describe() {
        int live = 0;
        for (int k = 0; k < clusterSize; k++) {
            live += ctas[k].liveThreads;
        }
        return String.format("barrier.cluster: %d of %d live threads of the cluster arrived", arrived, live);
    }
}
