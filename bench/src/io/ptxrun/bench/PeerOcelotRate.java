package io.ptxrun.bench;

import io.ptxrun.ast.Module;
import io.ptxrun.cli.KernelRunner;
import io.ptxrun.exec.Compilation;
import io.ptxrun.exec.KernelLaunch;
import io.ptxrun.exec.SyncOptions;
import io.ptxrun.launch.LaunchFile;
import io.ptxrun.launch.RunResult;
import io.ptxrun.syntax.PtxParser;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.StringJoiner;

/**
 * The side-by-side kernels of the GPU Ocelot comparison (PEER_DIR/kernels: arith, diverge and
 * sgemm, the launches bench.py makes) in thread-instructions per second of launch time, as
 * bench.py measures ptxrun (stats.wallMillis), and per CPU-second of the process; next to the
 * figures recorded for Ocelot's LLVM JIT in PEER_DIR/README.md (not measured here). Each launch
 * runs in a fresh engine (decoding, bytecode generation), but the region classes of an earlier
 * launch of the same code, and the JVM's compilation of them, are reused, as in any process that
 * launches a kernel again; a process's first launch, the JVM's compilation included, is what the
 * whole-process part of peer-ocelot.sh measures. Best of N runs after one warm-up run.
 * Usage: PeerOcelotRate PEER_DIR [REPETITIONS [KERNEL]] (KERNEL: arith, sgemm or diverge; all three when
 * absent), or PeerOcelotRate --sgemm-launch (prints that launch file)
 */
public final class PeerOcelotRate {
    /** Ocelot's PTX->LLVM JIT on a quiet 2-core machine, launch only (PEER_DIR/README.md): 1 and 2 workers. */
    private static final double[][] OCELOT = {{3.0e9, 5.2e9}, {6.8e8, 1.4e9}, {3.9e9, 5.8e9}};
    private static final String[] KERNELS = {"arith", "sgemm", "diverge"};

    private record Rate(double launch, double perCpu, long instructions, long peakHeap) {}

    public static void main(String[] args) throws Exception {
        if (args[0].equals("--sgemm-launch")) {
            System.out.println(sgemmLaunch(384));
            return;
        }
        Path peer = Path.of(args[0]);
        int reps = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        String only = args.length > 2 ? args[2] : null;
        if (only != null && !java.util.List.of(KERNELS).contains(only)) {
            throw new IllegalArgumentException("unknown kernel '" + only + "': arith, sgemm or diverge");
        }
        System.out.printf("processors: %d; best of %d samples (each a second or more of launches) after one warm-up"
                + " launch; rates in thread-instructions per second of launch time (the best launch's) and per"
                + " CPU-second of the process (the sample's)%n",
                Runtime.getRuntime().availableProcessors(), reps);
        for (int k = 0; k < KERNELS.length; k++) {
            String name = KERNELS[k];
            if (only != null && !only.equals(name)) {
                continue;
            }
            Module module = parse(peer.resolve("kernels/" + name + ".sm90.ptx"));
            LaunchFile launch = name.equals("sgemm") ? LaunchFile.parse(sgemmLaunch(384))
                    : LaunchFile.read(peer.resolve("kernels/" + name + ".json"));
            Rate interpreted = measure(module, launch, Compilation.NONE, 1, false, reps);
            print(name, "interpreter", 1, false, interpreted, OCELOT[k][0]);
            for (Compilation c : new Compilation[] {Compilation.HOT, Compilation.ALL}) {
                for (int workers = 1; workers <= 2; workers++) {
                    Rate off = measure(module, launch, c, workers, false, reps);
                    print(name, "compile " + c.name().toLowerCase(), workers, false, off, OCELOT[k][workers - 1]);
                    Rate on = measure(module, launch, c, workers, true, reps);
                    print(name, "compile " + c.name().toLowerCase(), workers, true, on, OCELOT[k][workers - 1]);
                    System.out.printf("%-8s %-12s %d worker(s): hazard detector overhead %.2fx (launch time),"
                            + " %.2fx (per CPU-second)%n", name, "compile " + c.name().toLowerCase(), workers,
                            off.launch / on.launch, off.perCpu / on.perCpu);
                }
            }
        }
    }

    private static void print(String kernel, String mode, int workers, boolean hazards, Rate r, double ocelot) {
        System.out.printf("%-8s %-12s %d worker(s), detector %-3s: %9.3g /s launch, %9.3g per CPU-s;"
                        + " Ocelot JIT %.2g: %5.2fx of it (%,d thread-instructions, peak heap %.0f MiB)%n",
                kernel, mode, workers, hazards ? "on" : "off", r.launch, r.perCpu, ocelot, r.launch / ocelot,
                r.instructions, r.peakHeap / 1048576.0);
    }

    private static Rate measure(Module module, LaunchFile launch, Compilation c, int workers, boolean hazards,
                                int reps) throws Exception {
        KernelLaunch.Limits limits = new KernelLaunch.Limits(Long.MAX_VALUE, OptionalLong.empty(), workers,
                SyncOptions.DEFAULT.withHazards(hazards)).withCompilation(c);
        KernelRunner.run(module, launch, limits);
        double best = 0, bestPerCpu = 0;
        long instructions = 0;
        for (int r = 0; r < reps; r++) {
            System.gc();
            // The launch rate is the best single run's (its own launch time); the rate per
            // CPU-second that of a second or more of runs, for the CPU clock's 10 ms steps.
            double[] bestMillis = {Double.MAX_VALUE};
            Measure.Sample sample = Measure.sample(() -> {
                RunResult run = KernelRunner.run(module, launch, limits);
                if (run.status().jsonName().equals("ok")) {
                    bestMillis[0] = Math.min(bestMillis[0],
                            Math.max(1, ((Number) run.stats().get("wallMillis")).doubleValue()));
                }
                return run;
            }, 1.0);
            RunResult result = sample.last();
            if (!result.status().jsonName().equals("ok")) {
                throw new IllegalStateException(result.status() + " " + result.diagnostics());
            }
            instructions = ((Number) result.stats().get("instructions")).longValue();
            best = Math.max(best, instructions / (bestMillis[0] / 1e3));
            bestPerCpu = Math.max(bestPerCpu, sample.runs() * instructions / sample.cpuSeconds());
        }
        long peak = Measure.peakHeapOfOneRun(() -> KernelRunner.run(module, launch, limits));
        return new Rate(best, bestPerCpu, instructions, peak);
    }

    /** The launch bench.py builds for sgemm: n x n matrices of small integers, so every sum is exact. */
    static String sgemmLaunch(int n) {
        StringJoiner a = new StringJoiner(","), b = new StringJoiner(",");
        for (int i = 0; i < n * n; i++) {
            a.add(Integer.toString((i * 7) % 13 - 6));
            b.add(Integer.toString((i * 5) % 11 - 5));
        }
        return "{\"kernel\": \"matmul_tiled\", \"grid\": [" + n / 16 + ", " + n / 16 + "], \"block\": [16, 16],"
                + " \"buffers\": {\"A\": {\"type\": \"f32\", \"values\": [" + a + "]},"
                + " \"B\": {\"type\": \"f32\", \"values\": [" + b + "]},"
                + " \"C\": {\"type\": \"f32\", \"count\": " + n * n + ", \"init\": 0}},"
                + " \"params\": [\"A\", \"B\", \"C\", {\"s32\": " + n + "}, {\"s32\": " + n + "}, {\"s32\": " + n + "}],"
                + " \"dump\": [\"C\"]}";
    }

    private static Module parse(Path ptx) throws Exception {
        PtxParser.Parsed<Module> parsed = PtxParser.parseModule(ptx.toString(), Files.readString(ptx));
        if (!parsed.ok()) {
            throw new IllegalArgumentException(parsed.diagnostics().toString());
        }
        return parsed.value();
    }
}
