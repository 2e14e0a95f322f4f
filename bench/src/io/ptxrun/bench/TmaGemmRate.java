package io.ptxrun.bench;

import io.ptxrun.ast.Module;
import io.ptxrun.cli.KernelRunner;
import io.ptxrun.exec.KernelLaunch;
import io.ptxrun.launch.LaunchFile;
import io.ptxrun.launch.ResultJson;
import io.ptxrun.launch.RunResult;
import io.ptxrun.syntax.PtxParser;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * Interpreter speed on one kernel and launch file (bench/tma-gemm.sh: the warp-specialised TMA +
 * mbarrier SGEMM of testdata/run/tma-gemm-pipeline at a larger size): thread-instructions per
 * second by wall clock and per CPU-second of the whole process, and the peak heap, best of N
 * runs after one warm-up run on one thread. The last run's result JSON goes to RESULT_JSON so that
 * the caller can check it.
 * Usage: TmaGemmRate KERNEL_PTX LAUNCH_JSON RESULT_JSON [REPETITIONS]
 */
public final class TmaGemmRate {
    public static void main(String[] args) throws Exception {
        Path ptx = Path.of(args[0]);
        LaunchFile launch = LaunchFile.parse(Files.readString(Path.of(args[1])));
        Path resultFile = Path.of(args[2]);
        int reps = args.length > 3 ? Integer.parseInt(args[3]) : 3;
        PtxParser.Parsed<Module> parsed = PtxParser.parseModule(ptx.toString(), Files.readString(ptx));
        if (!parsed.ok()) {
            throw new IllegalArgumentException(parsed.diagnostics().toString());
        }
        Module module = parsed.value();
        double off = measure(module, launch, resultFile, reps, false);
        double on = measure(module, launch, resultFile, reps, true);
        System.out.printf("hazard detector overhead: %.2fx (per CPU-second)%n", off / on);
    }

    /** Runs the GEMM {@code reps} times and returns the best rate per CPU-second. */
    private static double measure(Module module, LaunchFile launch, Path resultFile, int reps, boolean hazards)
            throws Exception {
        KernelLaunch.Limits limits = new KernelLaunch.Limits(Long.MAX_VALUE, OptionalLong.empty(), 1,
                io.ptxrun.exec.SyncOptions.DEFAULT.withHazards(hazards));
        RunResult result = KernelRunner.run(module, launch, limits);
        double bestWall = 0;
        double bestCpu = 0;
        long instructions = 0;
        long peakHeap = 0;
        for (int r = 0; r < reps; r++) {
            System.gc();
            Measure.resetPeaks();
            long cpu0 = Measure.processCpuNanos();
            long t0 = System.nanoTime();
            result = KernelRunner.run(module, launch, limits);
            double seconds = (System.nanoTime() - t0) / 1e9;
            double cpuSeconds = (Measure.processCpuNanos() - cpu0) / 1e9;
            if (!result.status().jsonName().equals("ok")) {
                Files.writeString(resultFile, ResultJson.write(result));
                throw new IllegalStateException(result.status() + " " + result.diagnostics());
            }
            instructions = ((Number) result.stats().get("instructions")).longValue();
            bestWall = Math.max(bestWall, instructions / seconds);
            bestCpu = Math.max(bestCpu, instructions / cpuSeconds);
            peakHeap = Math.max(peakHeap, Measure.peakHeapBytes());
            System.out.printf("  run %d: %.2f s wall, %.2f s CPU%n", r + 1, seconds, cpuSeconds);
        }
        Files.writeString(resultFile, ResultJson.write(result));
        System.out.printf("detector %s: %,d thread-instructions; best of %d: %.1f M thread-instr/s wall, %.1f M per"
                + " CPU-second; peak heap %.1f MiB%n", hazards ? "on" : "off", instructions, reps, bestWall / 1e6,
                bestCpu / 1e6, peakHeap / 1048576.0);
        return bestCpu;
    }
}
