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
import org.junit.jupiter.api.Test;

/**
 * Loads and stores that compiled regions run themselves when the detector is off, one op at a
 * time for the group (not fused with the ops around them): their values and faults must be the
 * interpreter's, detector on and off, every region compiled at once and when hot.
 */
class RegionMemoryTest {
    private static final Path VECTOR_SELF = TestData.ROOT.resolve("compiler/vector-self-load/kernel.ptx");

    @Test
    void vectorLoadIntoItsAddressRegister() throws Exception {
        String interpreted = sameInEveryMode(VECTOR_SELF, LaunchFile.read(VECTOR_SELF.resolveSibling("launch.json")));
        StringBuilder values = new StringBuilder();
        for (int t = 0; t < 32; t++) {
            values.append(t == 0 ? "" : ",").append(15 * t + 1);
        }
        assertTrue(interpreted.contains("\"values\":[" + values + "]"), interpreted);
    }

    /** The interpreter's result file, having checked that the compiled tier gives the same. */
    private static String sameInEveryMode(Path kernel, LaunchFile launch) throws Exception {
        String interpreted = null;
        for (boolean hazards : new boolean[] {true, false}) {
            String reference = result(kernel, launch, Compilation.NONE, hazards);
            String where = hazards ? "" : "--no-hazards";
            assertEquals(reference, result(kernel, launch, Compilation.ALL, hazards), where);
            assertEquals(reference, result(kernel, launch, Compilation.HOT, hazards), where);
            if (interpreted == null) {
                interpreted = reference;
            }
        }
        return interpreted;
    }

    private static String result(Path kernel, LaunchFile launch, Compilation compilation, boolean hazards)
            throws Exception {
        PtxParser.Parsed<Module> parsed = PtxParser.parseModule(kernel.toString(), TestData.read(kernel));
        assertTrue(parsed.ok(), parsed.diagnostics()::toString);
        KernelLaunch.Limits limits = new KernelLaunch.Limits(Long.MAX_VALUE, OptionalLong.empty(), 1,
                SyncOptions.DEFAULT.withHazards(hazards)).withCompilation(compilation);
        RunResult r = KernelRunner.run(parsed.value(), launch, limits);
        LinkedHashMap<String, Object> stats = new LinkedHashMap<>(r.stats());
        stats.remove("wallMillis");
        return ResultJson.write(new RunResult(r.kernel(), r.status(), r.buffers(), r.diagnostics(), stats,
                r.printed()));
    }
}
