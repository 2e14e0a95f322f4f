package io.ptxrun.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ptxrun.ast.Module;
import io.ptxrun.exec.KernelLaunch;
import io.ptxrun.launch.LaunchFile;
import io.ptxrun.launch.ResultJson;
import io.ptxrun.launch.RunResult;
import io.ptxrun.syntax.PtxParser;
import java.util.LinkedHashMap;

/**
 * A launch's whole result as JSON without its wall-clock time: what the tests comparing the
 * compiled tier with the interpreter require to be identical (buffers, status, diagnostics,
 * statistics, printed output).
 */
public final class CompiledRuns {
    private CompiledRuns() {}

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
}
