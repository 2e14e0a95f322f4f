package io.ptxrun.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ptxrun.TestData;
import io.ptxrun.exec.Compilation;
import io.ptxrun.exec.KernelLaunch;
import io.ptxrun.exec.SyncOptions;
import io.ptxrun.launch.LaunchFile;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Loads and stores of compiled regions one op at a time for the group (not fused with the ops
 * around them; shared ones the region runs itself when the detector is off): a guarded vector
 * load into its own address register (shared and global), global loads and stores in a loop run
 * in place, with a thread whose load leaves its buffer or is misaligned in an early or a late
 * pass, and a warp whose lanes load from two buffers. Values and faults must be the
 * interpreter's, detector on and off, every region compiled at once and when hot; fault-free
 * values are computed here too.
 */
class RegionMemoryTest {
    private static final Path VECTOR_SELF = TestData.ROOT.resolve("compiler/vector-self-load/kernel.ptx");
    private static final Path GLOBAL = TestData.ROOT.resolve("compiler/global-access/kernel.ptx");
    private static final int ITERATIONS = 40;
    private static final int THREADS = 128;

    @Test
    void vectorLoadIntoItsAddressRegister() throws Exception {
        String interpreted = sameInEveryMode(VECTOR_SELF, LaunchFile.read(VECTOR_SELF.resolveSibling("launch.json")));
        StringBuilder values = new StringBuilder();
        for (int t = 0; t < 32; t++) {
            values.append(t == 0 ? "" : ",").append(15 * t + 1);
        }
        assertTrue(interpreted.contains("\"values\":[" + values + "]"), interpreted);
    }

    @Test
    void globalValuesAsComputed() throws Exception {
        String interpreted = sameInEveryMode(GLOBAL, global(1000, 0, 0, 0));
        assertTrue(interpreted.contains("\"status\":\"ok\""), interpreted);
        StringBuilder values = new StringBuilder();
        for (int g = 0; g < THREADS; g++) {
            int acc = 0, stored = 0;
            for (int i = 0; i < ITERATIONS; i++) {
                acc = ((acc * 3 + input(g)) ^ input(g)) + i;
                stored = acc;
                acc = (acc + g * 1000 + 5) ^ (g * 77 + 3);
            }
            values.append(g == 0 ? "" : ",").append(Integer.toUnsignedString(stored));
        }
        assertTrue(interpreted.contains("\"values\":[" + values + "]"), interpreted);
    }

    @Test
    void globalLanesInTwoBuffers() throws Exception {
        // Thread 9 of each CTA reads its own out[g] where the others read in[g]: the warp's
        // second load spans two allocations, which the per-lane form resolves.
        String interpreted = sameInEveryMode(GLOBAL, global(1000, 9, 0, 1));
        assertTrue(interpreted.contains("\"status\":\"ok\""), interpreted);
    }

    @ParameterizedTest(name = "thread {0}, pass {1}, +{2}")
    @CsvSource({"5, 0, 16777216", "5, 17, 16777216", "40, 39, -65536", "31, 3, 2", "63, 20, 1", "0, 9, 512"})
    void globalFaultsAsInterpreted(int tid, int pass, int delta) throws Exception {
        String interpreted = sameInEveryMode(GLOBAL, global(pass, tid, delta, 0));
        assertTrue(interpreted.contains("\"status\":\"error\""), interpreted);
        assertTrue(interpreted.contains("ld.global.u32"), interpreted);
        assertTrue(interpreted.contains("tid (" + tid + ",0,0)"), interpreted);
    }

    private static LaunchFile global(int badPass, int badTid, int delta, int other) throws Exception {
        StringBuilder in = new StringBuilder(), pairs = new StringBuilder();
        for (int g = 0; g < THREADS; g++) {
            in.append(g == 0 ? "" : ",").append(Integer.toUnsignedString(input(g)));
            pairs.append(g == 0 ? "" : ",").append(g * 1000 + 5).append(',').append(g * 77 + 3);
        }
        return LaunchFile.parse("{\"kernel\": \"global_access\", \"grid\": [2], \"block\": [64], \"buffers\": {"
                + "\"out\": {\"type\": \"u32\", \"count\": " + THREADS + ", \"init\": 0},"
                + " \"in\": {\"type\": \"u32\", \"values\": [" + in + "]},"
                + " \"pairs\": {\"type\": \"u64\", \"values\": [" + pairs + "]}},"
                + " \"params\": [\"out\", \"in\", \"pairs\", {\"u32\": " + ITERATIONS + "}, {\"u32\": " + badPass
                + "}, {\"u32\": " + badTid + "}, {\"s32\": " + delta + "}, {\"u32\": " + other + "}],"
                + " \"dump\": [\"out\"]}");
    }

    private static int input(int g) {
        return (g * 7 + 1) * 0x9e3779b1;
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
        KernelLaunch.Limits limits = new KernelLaunch.Limits(Long.MAX_VALUE, OptionalLong.empty(), 1,
                SyncOptions.DEFAULT.withHazards(hazards)).withCompilation(compilation);
        return CompiledRuns.result(kernel.toString(), TestData.read(kernel), launch, limits);
    }
}
