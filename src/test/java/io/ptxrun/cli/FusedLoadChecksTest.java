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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Fused shared-memory loads whose address checks stand for each other (four loads from one
 * register, one alignment, offsets 0, 8, 64 and 4: the lowest offset and the highest end are
 * checked for all): an address below the shared space, one past its end for the load at +64
 * alone (a load in the middle of the run, neither the first nor the last), misaligned ones, by one
 * thread in an early or a late iteration. The result files must be the interpreter's, detector on
 * and off, every region compiled at once and when hot; fault-free values are computed here too.
 */
class FusedLoadChecksTest {
    private static final Path KERNEL = TestData.ROOT.resolve("compiler/shared-load-groups/kernel.ptx");
    private static final int ITERATIONS = 80;
    private static final int[] QUARTER = {0, 0x55555555, 0x33333333, 0x0f0f0f0f};

    @ParameterizedTest(name = "delta {0} in bounds")
    @CsvSource({"0", "4", "-4", "8"})
    void valuesAsComputed(int delta) throws Exception {
        // Thread 5 at iteration 3 reads 4 * (8 + delta / 4) instead: in bounds, so still values.
        String interpreted = sameInEveryMode(launch(3, 5, delta));
        assertTrue(interpreted.contains("\"status\":\"ok\""), interpreted);
        StringBuilder values = new StringBuilder();
        for (int cta = 0; cta < 2; cta++) {
            for (int tid = 0; tid < 64; tid++) {
                values.append(values.length() == 0 ? "" : ",").append(Integer.toUnsignedString(expected(tid, 3, 5, delta)));
            }
        }
        assertTrue(interpreted.contains("\"values\":[" + values + "]"), interpreted);
    }

    @ParameterizedTest(name = "thread {0}, iteration {1}, +{2}: {3}")
    @CsvSource({
        "0, 0, -4, '\"line\":58,'",
        "9, 40, -200, '\"line\":58,'",
        // Line 58 is the load at +0, 61 the one at +64. 4 * ((9 + 40) mod 64) = 196: the address
        // becomes 960, 1000 or 1012, and only +64 ends past 1024.
        "9, 40, 764, '\"line\":61,'",
        "9, 40, 804, '\"line\":61,'",
        "9, 40, 816, '\"line\":61,'",
        "63, 79, 2, misaligned",
        "31, 1, 1, misaligned",
        "40, 7, 6, misaligned",
    })
    void faultsAsInterpreted(int tid, int iteration, int delta, String message) throws Exception {
        String interpreted = sameInEveryMode(launch(iteration, tid, delta));
        assertTrue(interpreted.contains("\"status\":\"error\""), interpreted);
        assertTrue(interpreted.contains(message), interpreted);
        assertTrue(interpreted.contains("tid (" + tid + ",0,0)"), interpreted);
    }

    private static String launch(int badIteration, int badTid, int delta) {
        return "{\"kernel\": \"shared_load_groups\", \"grid\": [2], \"block\": [64], \"buffers\": {\"out\":"
                + " {\"type\": \"u32\", \"count\": 128, \"init\": 0}}, \"params\": [\"out\", {\"u32\": " + ITERATIONS
                + "}, {\"u32\": " + badIteration + "}, {\"u32\": " + badTid + "}, {\"s32\": " + delta + "}],"
                + " \"dump\": [\"out\"]}";
    }

    /** The word at byte offset b (a multiple of 4) of the shared array as the kernel fills it. */
    private static int word(int b) {
        int t = (b % 256) / 4;
        return (3 * t + 1) * 0x9e3779b1 ^ QUARTER[b / 256];
    }

    /** What thread tid of either CTA stores: the kernel's loop, done here. */
    private static int expected(int tid, int badIteration, int badTid, int delta) {
        int acc = 0;
        for (int i = 0; i < ITERATIONS; i++) {
            int b = 4 * ((tid + i) & 63) + (i == badIteration && tid == badTid ? delta : 0);
            acc += word(b);
            acc ^= word(b + 8);
            acc += word(b + 64);
            acc *= 3;
            acc += word(b + 4);
            acc += word(b) >>> 16;
        }
        return acc;
    }

    /** The interpreter's result file, having checked that the compiled tier gives the same. */
    private static String sameInEveryMode(String json) throws Exception {
        LaunchFile launch = LaunchFile.parse(json);
        String interpreted = null;
        for (boolean hazards : new boolean[] {true, false}) {
            String reference = result(launch, Compilation.NONE, hazards);
            String where = (hazards ? "" : "--no-hazards ") + json;
            assertEquals(reference, result(launch, Compilation.ALL, hazards), where);
            assertEquals(reference, result(launch, Compilation.HOT, hazards), where);
            if (interpreted == null) {
                interpreted = reference;
            }
        }
        return interpreted;
    }

    private static String result(LaunchFile launch, Compilation compilation, boolean hazards) throws Exception {
        KernelLaunch.Limits limits = new KernelLaunch.Limits(Long.MAX_VALUE, OptionalLong.empty(), 1,
                SyncOptions.DEFAULT.withHazards(hazards)).withCompilation(compilation);
        return CompiledRuns.result(KERNEL.toString(), TestData.read(KERNEL), launch, limits);
    }
}
