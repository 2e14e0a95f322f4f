package io.ptxrun.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** --compile hot|all|none: the same result file whichever tier runs the kernel; other values are refused. */
class CompileFlagTest {
    private static final String CASE = "testdata/run/nvcc-matmul-tiled/";

    @Test
    void everyModeGivesTheSameResult() {
        String expected = null;
        for (String mode : new String[] {"none", "hot", "all"}) {
            CliRun.Run r = CliRun.run(CASE + "kernel.ptx", "--launch", CASE + "launch.json", "--json", "--compile", mode);
            assertEquals(ExitCode.OK, r.code(), mode + ": " + r.err());
            String result = r.out().replaceAll("\"wallMillis\":[0-9]+", "");
            if (expected == null) {
                expected = result;
            }
            assertEquals(expected, result, mode);
        }
    }

    @Test
    void otherModesAreRefused() {
        CliRun.Run bad = CliRun.run(CASE + "kernel.ptx", "--launch", CASE + "launch.json", "--compile", "jit");
        assertEquals(ExitCode.USAGE, bad.code());
        assertTrue(bad.err().contains("--compile must be 'hot', 'all' or 'none', got 'jit'"), bad.err());
    }
}
