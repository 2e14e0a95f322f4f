package io.ptxrun.bench;

import io.ptxrun.ast.Module;
import io.ptxrun.cli.KernelRunner;
import io.ptxrun.exec.KernelLaunch;
import io.ptxrun.launch.LaunchFile;
import io.ptxrun.launch.RunResult;
import io.ptxrun.syntax.PtxParser;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * Interpreter speed in thread-instructions per second for three kernels, on one CTA thread and on
 * one per processor, with the peak heap of each run:
 * (a) a converged integer/float loop, (b) a loop whose lanes diverge every iteration, (c) the
 * tiled SGEMM of testdata/run/nvcc-matmul-tiled at 256x256x256; then (d) the live heap of one
 * small kernel on grids of 64 to 16,384 CTAs.
 * Usage: ExecRate REPO_ROOT [REPETITIONS]
 */
public final class ExecRate {
    private static final String HEADER = ".version 8.0\n.target sm_90\n.address_size 64\n";

    /** Per thread n rounds of integer and float work; every lane takes the same path. */
    private static final String CONVERGED = HEADER + """
            .visible .entry converged(.param .u64 out, .param .u32 n)
            {
                .reg .pred %p;
                .reg .b32 %t, %i, %s, %n;
                .reg .f32 %x, %y;
                .reg .b64 %o, %w;
                ld.param.u32 %n, [n];
                mov.u32 %t, %tid.x;
                mov.u32 %s, 0;
                mov.u32 %i, 0;
                cvt.rn.f32.u32 %x, %t;
                mov.f32 %y, 0f3F800000;
            LOOP:
                mad.lo.u32 %s, %s, 3, %i;
                xor.b32 %s, %s, %t;
                fma.rn.f32 %y, %y, 0f3F7FF000, %x;
                add.u32 %i, %i, 1;
                setp.lt.u32 %p, %i, %n;
                @%p bra LOOP;
                cvt.rzi.u32.f32 %t, %y;
                add.u32 %s, %s, %t;
                ld.param.u64 %o, [out];
                mov.u32 %t, %tid.x;
                mul.wide.u32 %w, %t, 4;
                add.s64 %o, %o, %w;
                st.global.u32 [%o], %s;
                ret;
            }
            """;

    /** Each round splits every warp in two by lane and round number, then joins it again. */
    private static final String DIVERGENT = HEADER + """
            .visible .entry divergent(.param .u64 out, .param .u32 n)
            {
                .reg .pred %p, %q;
                .reg .b32 %t, %l, %i, %s, %n, %k;
                .reg .b64 %o, %w;
                ld.param.u32 %n, [n];
                mov.u32 %t, %tid.x;
                and.b32 %l, %t, 31;
                mov.u32 %s, 0;
                mov.u32 %i, 0;
            LOOP:
                and.b32 %k, %i, 31;
                setp.lt.u32 %q, %l, %k;
                @%q bra ODD;
                mad.lo.u32 %s, %s, 5, %l;
                xor.b32 %s, %s, %i;
                bra.uni JOIN;
            ODD:
                add.u32 %s, %s, %k;
                shl.b32 %k, %s, 3;
                xor.b32 %s, %s, %k;
            JOIN:
                add.u32 %i, %i, 1;
                setp.lt.u32 %p, %i, %n;
                @%p bra LOOP;
                ld.param.u64 %o, [out];
                mul.wide.u32 %w, %t, 4;
                add.s64 %o, %o, %w;
                st.global.u32 [%o], %s;
                ret;
            }
            """;

    /** One atomic add per thread into a single word, after a shared-memory round trip and a barrier. */
    private static final String GRID_SUM = HEADER + """
            .visible .entry sum(.param .u64 out)
            {
                .reg .b32 %r<4>;
                .reg .b64 %rd<3>;
                .shared .align 4 .b32 s[256];
                ld.param.u64 %rd1, [out];
                cvta.to.global.u64 %rd2, %rd1;
                mov.u32 %r1, %tid.x;
                mov.u32 %r2, s;
                shl.b32 %r3, %r1, 2;
                add.u32 %r2, %r2, %r3;
                st.shared.u32 [%r2], %r1;
                bar.sync 0;
                ld.shared.u32 %r3, [%r2];
                red.global.add.u32 [%rd2], %r3;
                ret;
            }
            """;

    private record Workload(String name, Module module, LaunchFile launch) {}

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args.length > 0 ? args[0] : ".");
        int reps = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int cores = Runtime.getRuntime().availableProcessors();
        Workload[] work = {
            new Workload("(a) converged int/float loop, 32 CTAs x 256 threads", parse(CONVERGED), LaunchFile.parse("""
                    {"grid": [32], "block": [256], "buffers": {"out": {"type": "u32", "count": 256, "init": 0}},
                     "params": ["out", {"u32": 3000}], "dump": []}""")),
            new Workload("(b) divergent loop, 32 CTAs x 256 threads", parse(DIVERGENT), LaunchFile.parse("""
                    {"grid": [32], "block": [256], "buffers": {"out": {"type": "u32", "count": 256, "init": 0}},
                     "params": ["out", {"u32": 1500}], "dump": []}""")),
            new Workload("(c) tiled SGEMM 256x256x256, 16x16 CTAs x 256 threads",
                    parse(Files.readString(root.resolve("testdata/run/nvcc-matmul-tiled/kernel.ptx"))),
                    LaunchFile.parse("""
                    {"kernel": "matmul_tiled", "grid": [16, 16], "block": [16, 16],
                     "buffers": {"A": {"type": "f32", "count": 65536, "init": {"random": 1}},
                                 "B": {"type": "f32", "count": 65536, "init": {"random": 2}},
                                 "C": {"type": "f32", "count": 65536, "init": 0}},
                     "params": ["A", "B", "C", {"s32": 256}, {"s32": 256}, {"s32": 256}], "dump": []}""")),
        };
        System.out.printf("processors: %d; best of %d samples (each a second or more of runs) after one warm-up run%n",
                cores, reps);
        for (Workload w : work) {
            for (int threads : cores > 1 ? new int[] {1, cores} : new int[] {1}) {
                double off = measure(w, threads, reps, false);
                double on = measure(w, threads, reps, true);
                System.out.printf("%-56s %2d thread(s): hazard detector overhead %.2fx (per CPU-second)%n",
                        w.name, threads, off / on);
            }
        }
        // Only the CTAs in flight hold memory: the live heap must not grow with the grid.
        Module sum = parse(GRID_SUM);
        for (int grid : new int[] {64, 1024, 16384}) {
            LaunchFile launch = LaunchFile.parse("{\"grid\": [" + grid + "], \"block\": [256], \"buffers\": {\"out\":"
                    + " {\"type\": \"u32\", \"count\": 1, \"init\": 0}}, \"params\": [\"out\"], \"dump\": []}");
            KernelLaunch.Limits limits = new KernelLaunch.Limits(Long.MAX_VALUE, OptionalLong.empty(), cores,
                    io.ptxrun.exec.SyncOptions.DEFAULT);
            System.gc();
            long high = Measure.liveHeapHighWater(() -> KernelRunner.run(sum, launch, limits));
            System.out.printf("(d) live heap high-water mark, grid %5d x 256 threads, detector on: %.1f MiB%n",
                    grid, high / 1048576.0);
        }
    }

    /** Runs the workload and returns its best rate per CPU-second (each of the reps a second or more of runs). */
    private static double measure(Workload w, int threads, int reps, boolean hazards) throws Exception {
        KernelLaunch.Limits limits = new KernelLaunch.Limits(Long.MAX_VALUE, OptionalLong.empty(), threads,
                io.ptxrun.exec.SyncOptions.DEFAULT.withHazards(hazards));
        KernelRunner.run(w.module, w.launch, limits);
        double best = 0;
        double bestPerCpu = 0;
        long instructions = 0;
        for (int r = 0; r < reps; r++) {
            System.gc();
            Measure.Sample sample = Measure.sample(() -> KernelRunner.run(w.module, w.launch, limits), 1.0);
            RunResult result = sample.last();
            if (!result.status().jsonName().equals("ok")) {
                throw new IllegalStateException(w.name + ": " + result.status() + " " + result.diagnostics());
            }
            instructions = ((Number) result.stats().get("instructions")).longValue();
            best = Math.max(best, sample.runs() * instructions / sample.wallSeconds());
            bestPerCpu = Math.max(bestPerCpu, sample.runs() * instructions / sample.cpuSeconds());
        }
        long peakHeap = Measure.peakHeapOfOneRun(() -> KernelRunner.run(w.module, w.launch, limits));
        System.out.printf("%-56s %2d thread(s), detector %-3s: %7.1f M thread-instr/s wall, %7.1f M per CPU-second"
                + "  (%,d thread-instructions, peak heap %.1f MiB)%n",
                w.name, threads, hazards ? "on" : "off", best / 1e6, bestPerCpu / 1e6, instructions,
                peakHeap / 1048576.0);
        return bestPerCpu;
    }

    /**
     * CPU time of the whole process (all threads, JIT and GC included): on a loaded machine the
     * rate per CPU-second says what the interpreter does with the cycles it actually gets.
     */

    private static Module parse(String ptx) {
        PtxParser.Parsed<Module> parsed = PtxParser.parseModule("bench.ptx", ptx);
        if (!parsed.ok()) {
            throw new IllegalArgumentException(parsed.diagnostics().toString());
        }
        return parsed.value();
    }
}
