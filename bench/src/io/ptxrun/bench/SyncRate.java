package io.ptxrun.bench;

import io.ptxrun.ast.Module;
import io.ptxrun.cli.KernelRunner;
import io.ptxrun.exec.KernelLaunch;
import io.ptxrun.exec.SyncOptions;
import io.ptxrun.launch.LaunchFile;
import io.ptxrun.launch.RunResult;
import io.ptxrun.syntax.PtxParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * Synchronization throughput: runs each kernel (KERNEL.ptx with its launch file KERNEL.json) a
 * number of times in one JVM, with the hazard detector off and on, and prints the best rate in
 * thread-instructions per second, or, for a kernel expected to deadlock, the best time until the
 * deadlock is reported; then the detector's overhead (the ratio of the two best times).
 *
 * <p>Usage: SyncRate REPEATS TIMING KERNEL...  (TIMING as --async-copies takes it)
 */
public final class SyncRate {
    private SyncRate() {}

    public static void main(String[] args) throws Exception {
        int repeats = Integer.parseInt(args[0]);
        SyncOptions sync = SyncOptions.parse(args[1], false);
        for (int k = 2; k < args.length; k++) {
            Path ptx = Path.of(args[k] + ".ptx");
            Module module = PtxParser.parseModule(ptx.toString(), Files.readString(ptx)).value();
            LaunchFile launch = LaunchFile.read(Path.of(args[k] + ".json"));
            String name = ptx.getFileName().toString();
            double off = measure(name, module, launch, sync.withHazards(false), repeats);
            double on = measure(name, module, launch, sync.withHazards(true), repeats);
            System.out.printf("%-26s hazard detector overhead %.2fx%n", name, on / off);
        }
    }

    /** Runs the kernel {@code repeats} times, prints the best run and returns its time in nanoseconds. */
    private static double measure(String name, Module module, LaunchFile launch, SyncOptions sync, int repeats)
            throws Exception {
        KernelLaunch.Limits limits = new KernelLaunch.Limits(2_000_000_000L, OptionalLong.empty(), sync);
        long bestNanos = Long.MAX_VALUE;
        RunResult last = null;
        for (int r = 0; r < repeats; r++) {
            long start = System.nanoTime();
            last = KernelRunner.run(module, launch, limits);
            bestNanos = Math.min(bestNanos, System.nanoTime() - start);
        }
        long instructions = ((Number) last.stats().get("instructions")).longValue();
        String detector = sync.detectHazards() ? "on" : "off";
        if (last.status().jsonName().equals("deadlock")) {
            System.out.printf("%-26s detector %-3s: deadlock reported in %.1f ms (best of %d; %d thread-instructions)%n",
                    name, detector, bestNanos / 1e6, repeats, instructions);
        } else {
            System.out.printf("%-26s detector %-3s: %s, %d thread-instructions, best %.1f ms: %.1f M thread-instructions/s%n",
                    name, detector, last.status().jsonName(), instructions, bestNanos / 1e6,
                    instructions / (bestNanos / 1e3));
        }
        return bestNanos;
    }
}
