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
 * number of times in one JVM and prints the best rate in thread-instructions per second, or, for
 * a kernel expected to deadlock, the best time until the deadlock is reported.
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
            KernelLaunch.Limits limits = new KernelLaunch.Limits(2_000_000_000L, OptionalLong.empty(), sync);
            long bestNanos = Long.MAX_VALUE;
            RunResult last = null;
            for (int r = 0; r < repeats; r++) {
                long start = System.nanoTime();
                last = KernelRunner.run(module, launch, limits);
                bestNanos = Math.min(bestNanos, System.nanoTime() - start);
            }
            long instructions = ((Number) last.stats().get("instructions")).longValue();
            String name = ptx.getFileName().toString();
            if (last.status().jsonName().equals("deadlock")) {
                System.out.printf("%-26s deadlock reported in %.1f ms (best of %d; %d thread-instructions)%n",
                        name, bestNanos / 1e6, repeats, instructions);
            } else {
                System.out.printf("%-26s %s, %d thread-instructions, best %.1f ms: %.1f M thread-instructions/s%n",
                        name, last.status().jsonName(), instructions, bestNanos / 1e6, instructions / (bestNanos / 1e3));
            }
        }
    }
}
