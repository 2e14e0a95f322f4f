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
 * Shared-memory loads that compiled regions run with the arithmetic around them in one loop over
 * the lanes, and the stores between them: with the detector off they take a path of their own, so
 * its values and its faults (an access outside shared memory or misaligned, by one thread of a
 * whole or a diverged warp, late enough that the loop runs compiled when hot) must be the
 * interpreter's: the same result file (status, buffers, the diagnostic naming the instruction and
 * the thread, statistics), with the detector off and on, every region compiled at once and when hot.
 * The values of fault-free runs are also checked against the kernel's arithmetic done here.
 */
class SharedLoadRegionTest {
    private static final Path KERNEL = TestData.ROOT.resolve("compiler/shared-loads/kernel.ptx");
    private static final int ITERATIONS = 80;

    @ParameterizedTest(name = "lanes below {0} skip the loads")
    @CsvSource({"0", "8", "31"})
    void valuesAsComputed(int split) throws Exception {
        String interpreted = sameInEveryMode(split, 1000, 0, 0);
        assertTrue(interpreted.contains("\"status\":\"ok\""), interpreted);
        StringBuilder values = new StringBuilder();
        for (int cta = 0; cta < 2; cta++) {
            for (int tid = 0; tid < 64; tid++) {
                values.append(values.length() == 0 ? "" : ",").append(Integer.toUnsignedString(expected(tid, split)));
            }
        }
        assertTrue(interpreted.contains("\"values\":[" + values + "]"), interpreted);
    }

    @ParameterizedTest(name = "split {0}, thread {1}, load +{2}, store +{3}: {4}")
    @CsvSource({
        "0, 5, 4096, 0, outside the 1024-byte shared space",
        "8, 9, 4096, 0, outside the 1024-byte shared space",
        "8, 9, 2, 0, misaligned 4-byte shared access",
        "0, 40, 1, 0, misaligned 4-byte shared access",
        "0, 63, -8192, 0, names CTA rank 254, but the cluster has 1 CTAs",
        "8, 31, 0, 4096, outside the 1024-byte shared space",
        "0, 0, 0, 2, misaligned 4-byte shared access",
    })
    void faultsAsInterpreted(int split, int tid, int loadDelta, int storeDelta, String message) throws Exception {
        String interpreted = sameInEveryMode(split, tid, loadDelta, storeDelta);
        assertTrue(interpreted.contains("\"status\":\"error\""), interpreted);
        assertTrue(interpreted.contains(message), interpreted);
        assertTrue(interpreted.contains("tid (" + tid + ",0,0)") || interpreted.contains("tid=" + tid)
                || interpreted.contains("\"tid\":[" + tid + ",0,0]"), interpreted);
    }

    /** The interpreter's result file, having checked that the compiled tier gives the same. */
    private static String sameInEveryMode(int split, int tid, int loadDelta, int storeDelta) throws Exception {
        String json = "{\"kernel\": \"shared_loads\", \"grid\": [2], \"block\": [64], \"buffers\": {\"out\":"
                + " {\"type\": \"u32\", \"count\": 128, \"init\": 0}}, \"params\": [\"out\", {\"u32\": " + ITERATIONS
                + "}, {\"u32\": " + split + "}, {\"u32\": 70}, {\"u32\": " + tid + "}, {\"s32\": " + loadDelta
                + "}, {\"s32\": " + storeDelta + "}], \"dump\": [\"out\"]}";
        LaunchFile launch = LaunchFile.parse(json);
        String interpreted = null;
        for (boolean hazards : new boolean[] {true, false}) {
            String reference = result(launch, Compilation.NONE, hazards);
            assertEquals(reference, result(launch, Compilation.ALL, hazards), hazards ? "" : "--no-hazards");
            assertEquals(reference, result(launch, Compilation.HOT, hazards), hazards ? "" : "--no-hazards");
            if (interpreted == null) {
                interpreted = reference;
            }
        }
        return interpreted;
    }

    /** What thread tid of either CTA stores: the kernel's loop, done here. */
    private static int expected(int tid, int split) {
        int acc = 0;
        if (tid % 32 < split) {
            return 0;
        }
        for (int i = 0; i < ITERATIONS; i++) {
            int v = word((tid + i) & 63);
            acc += v;
            acc += (byte) (v >>> 8);
            acc ^= word(2);
            acc += word(3);
            acc += word(3);
            acc += acc;
        }
        return acc;
    }

    private static int word(int k) {
        return (3 * k + 1) * 0x9e3779b1;
    }

    private static String result(LaunchFile launch, Compilation compilation, boolean hazards) throws Exception {
        KernelLaunch.Limits limits = new KernelLaunch.Limits(Long.MAX_VALUE, OptionalLong.empty(), 1,
                SyncOptions.DEFAULT.withHazards(hazards)).withCompilation(compilation);
        return CompiledRuns.result(KERNEL.toString(), TestData.read(KERNEL), launch, limits);
    }
}
