package io.ptxrun.exec;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs the clusters of a grid on a few threads (with clusters of one CTA, the CTAs). Separate
 * clusters cannot see each other's shared memory or barriers, so each worker (an {@link Engine}
 * with its own cluster state, run by its {@link Scheduler}) takes the next cluster in grid order
 * until none is left; only global memory is shared, and it is thread-safe.
 *
 * <p>Results stay deterministic for race-free kernels: a cluster's own execution does not depend
 * on which worker runs it, and when clusters stop the run (fault, trap, deadlock, budget), the one
 * lowest in grid order is reported; clusters after it are not started, those before it all finish
 * (the stop says whether clusters after it had started already: their effects are in memory).
 */
final class CtaPool {
    private CtaPool() {}

    /** What stopped the run, or null; the workers' instruction counts are theirs to report. */
    static Engine.Stop run(Scheduler[] workers, int clusters) {
        AtomicInteger next = new AtomicInteger();
        AtomicInteger firstStopped = new AtomicInteger(Integer.MAX_VALUE);
        Engine.Stop[] stops = new Engine.Stop[workers.length];
        int[] stoppedAt = new int[workers.length];
        // The last cluster each worker started (workers take clusters in grid order).
        int[] started = new int[workers.length];
        AtomicReference<Throwable> crash = new AtomicReference<>();
        Runnable[] loops = new Runnable[workers.length];
        for (int k = 0; k < workers.length; k++) {
            final int worker = k;
            loops[k] = () -> {
                try {
                    while (true) {
                        int cluster = next.getAndIncrement();
                        if (cluster >= clusters || cluster > firstStopped.get()) {
                            return;
                        }
                        started[worker] = cluster;
                        try {
                            workers[worker].runCluster(cluster);
                        } catch (Engine.Stop s) {
                            stops[worker] = s;
                            stoppedAt[worker] = cluster;
                            firstStopped.accumulateAndGet(cluster, Math::min);
                            return;
                        }
                    }
                } catch (RuntimeException | Error e) {
                    crash.compareAndSet(null, e);
                    firstStopped.set(-1);
                }
            };
        }
        Thread[] threads = new Thread[workers.length - 1];
        for (int k = 1; k < workers.length; k++) {
            // Same stack as the command line's main thread.
            threads[k - 1] = new Thread(null, loops[k], "cta-worker-" + k, 16L << 20);
            threads[k - 1].start();
        }
        // The calling thread is worker 0.
        loops[0].run();
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while CTAs run", e);
            }
        }
        Throwable failure = crash.get();
        if (failure instanceof RuntimeException r) {
            throw r;
        }
        if (failure instanceof Error e) {
            throw e;
        }
        Engine.Stop first = null;
        int firstCta = Integer.MAX_VALUE;
        for (int k = 0; k < workers.length; k++) {
            if (stops[k] != null && stoppedAt[k] < firstCta) {
                first = stops[k];
                firstCta = stoppedAt[k];
            }
        }
        for (int k = 0; first != null && k < workers.length; k++) {
            first.laterClustersRan |= started[k] > firstCta;
        }
        return first;
    }
}
