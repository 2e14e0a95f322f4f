package io.ptxrun.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;

/** Process CPU time and peak heap, as the interpreter benchmarks report them. */
final class Measure {
    private Measure() {}

    /** CPU time of the whole process (all threads, JIT and GC included). */
    static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** Runs of one launch back to back: how many, their wall and process CPU seconds, and the last result. */
    record Sample(int runs, double wallSeconds, double cpuSeconds, io.ptxrun.launch.RunResult last) {}

    /**
     * Runs the launch back to back until at least {@code minSeconds} of wall time have passed (and
     * at least once): the process CPU clock advances in steps of 10 ms on Linux, as much as a
     * small launch takes, so one run alone would give its rate per CPU-second to within a step.
     * Stops at the first run that is not ok (its result is the sample's last).
     */
    static Sample sample(java.util.concurrent.Callable<io.ptxrun.launch.RunResult> launch, double minSeconds)
            throws Exception {
        long cpu0 = processCpuNanos();
        long t0 = System.nanoTime();
        int runs = 0;
        io.ptxrun.launch.RunResult last;
        do {
            last = launch.call();
            runs++;
        } while (last.status().jsonName().equals("ok") && System.nanoTime() - t0 < minSeconds * 1e9);
        return new Sample(runs, (System.nanoTime() - t0) / 1e9, (processCpuNanos() - cpu0) / 1e9, last);
    }

    static void resetPeaks() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pool.resetPeakUsage();
            }
        }
    }

    /** The peak heap of one run of the launch (a sample's runs leave their garbage for each other). */
    static long peakHeapOfOneRun(java.util.concurrent.Callable<?> launch) throws Exception {
        System.gc();
        resetPeaks();
        launch.call();
        return peakHeapBytes();
    }

    /** Sum of the heap pools' peaks since the last reset: an upper bound of the peak heap in use. */
    static long peakHeapBytes() {
        long sum = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                sum += pool.getPeakUsage().getUsed();
            }
        }
        return sum;
    }

    /**
     * Runs the action and returns the most heap in use after any collection during it (the live
     * set's high-water mark; young garbage does not count), or -1 when no collection happened.
     */
    static long liveHeapHighWater(java.util.concurrent.Callable<?> action) throws Exception {
        java.util.concurrent.atomic.AtomicLong high = new java.util.concurrent.atomic.AtomicLong(-1);
        javax.management.NotificationListener listener = (n, hb) -> {
            var info = com.sun.management.GarbageCollectionNotificationInfo.from(
                    (javax.management.openmbean.CompositeData) n.getUserData());
            long used = info.getGcInfo().getMemoryUsageAfterGc().values().stream()
                    .mapToLong(java.lang.management.MemoryUsage::getUsed).sum();
            high.accumulateAndGet(used, Math::max);
        };
        var beans = ManagementFactory.getGarbageCollectorMXBeans();
        for (var gc : beans) {
            ((javax.management.NotificationEmitter) gc).addNotificationListener(listener, null, null);
        }
        try {
            action.call();
            System.gc();
            Thread.sleep(100); // notifications arrive on another thread
        } finally {
            for (var gc : beans) {
                ((javax.management.NotificationEmitter) gc).removeNotificationListener(listener);
            }
        }
        return high.get();
    }
}
