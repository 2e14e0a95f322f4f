package io.ptxrun.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ptxrun.TestData;
import io.ptxrun.ast.Module;
import io.ptxrun.exec.Compilation;
import io.ptxrun.exec.KernelLaunch;
import io.ptxrun.exec.SyncOptions;
import io.ptxrun.launch.LaunchFile;
import io.ptxrun.launch.ResultJson;
import io.ptxrun.launch.RunResult;
import io.ptxrun.syntax.PtxParser;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.OptionalLong;

/**
 * A launch's whole result as JSON without its wall-clock time: what the tests comparing the
 * compiled tier with the interpreter require to be identical (buffers, status, diagnostics,
 * statistics, printed output).
 */
public final class CompiledRuns {
    private CompiledRuns() {}

    /**
     * Asserts that a run's result JSON says `ok` and dumps, as one buffer, the unsigned values
     * {@code perThread} gives for global threads 0 .. threads - 1, in that order.
     */
    public static void assertStores(String result, int threads, java.util.function.IntFunction<int[]> perThread) {
        assertTrue(result.contains("\"status\":\"ok\""), result);
        java.util.StringJoiner values = new java.util.StringJoiner(",");
        for (int t = 0; t < threads; t++) {
            for (int v : perThread.apply(t)) {
                values.add(Integer.toUnsignedString(v));
            }
        }
        assertTrue(result.contains("\"values\":[" + values + "]"), result);
    }

    public static String result(String name, String ptx, LaunchFile launch, KernelLaunch.Limits limits)
            throws Exception {
        PtxParser.Parsed<Module> parsed = PtxParser.parseModule(name, ptx);
        assertTrue(parsed.ok(), parsed.diagnostics()::toString);
        RunResult r = KernelRunner.run(parsed.value(), launch, limits);
        LinkedHashMap<String, Object> stats = new LinkedHashMap<>(r.stats());
        stats.remove("wallMillis");
        return ResultJson.write(new RunResult(r.kernel(), r.status(), r.buffers(), r.diagnostics(), stats,
                r.printed()));
    }

    /**
     * The interpreter's result file of the kernel at {@code kernel} for the launch {@code json} on
     * one worker, having checked that the compiled tier (all, hot) gives the same, with the hazard
     * detector on and off.
     */
    public static String sameInEveryMode(Path kernel, String json, long budget, OptionalLong seed) throws Exception {
        LaunchFile launch = LaunchFile.parse(json);
        String ptx = TestData.read(kernel);
        String interpreted = null;
        for (boolean hazards : new boolean[] {true, false}) {
            String reference = result(kernel, ptx, launch, Compilation.NONE, hazards, budget, seed);
            String where = (hazards ? "" : "--no-hazards ") + json;
            assertEquals(reference, result(kernel, ptx, launch, Compilation.ALL, hazards, budget, seed), where);
            assertEquals(reference, result(kernel, ptx, launch, Compilation.HOT, hazards, budget, seed), where);
            if (interpreted == null) {
                interpreted = reference;
            }
        }
        return interpreted;
    }

    private static String result(Path kernel, String ptx, LaunchFile launch, Compilation compilation, boolean hazards,
            long budget, OptionalLong seed) throws Exception {
        KernelLaunch.Limits limits = new KernelLaunch.Limits(budget, seed, 1, SyncOptions.DEFAULT.withHazards(hazards))
                .withCompilation(compilation);
        return result(kernel.toString(), ptx, launch, limits);
    }
}
