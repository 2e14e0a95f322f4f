package io.ptxrun.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ptxrun.TestData;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A loop whose body is one straight region ending in the branch back to its start, which compiled
 * code runs pass after pass in place while the whole warp's runnable lanes jump together: its
 * values, a fault in a late pass (a global load off by delta bytes, by one thread of a whole warp,
 * of a warp whose other lanes have returned, or of one whose other lanes wait after the loop), an
 * instruction budget running out at every point of the first passes and spread over the launch,
 * and seeded schedules. The result files (status, buffers, the diagnostic naming the instruction
 * and the thread, statistics) must be the interpreter's, with the detector on and off, every
 * region compiled at once and when hot. Values of fault-free runs are also computed here.
 */
class LoopRegionTest {
    private static final Path KERNEL = TestData.ROOT.resolve("compiler/straight-loop/kernel.ptx");
    private static final int ITERATIONS = 40;

    @ParameterizedTest(name = "lanes below {0} skip the loop, leave {1}")
    @CsvSource({"0, 0", "8, 0", "8, 1", "31, 1"})
    void valuesAsComputed(int split, int leave) throws Exception {
        String interpreted = CompiledRuns.sameInEveryMode(KERNEL, launch(split, leave, 1000, 0, 0), Long.MAX_VALUE, OptionalLong.empty());
        assertTrue(interpreted.contains("\"status\":\"ok\""), interpreted);
        StringBuilder values = new StringBuilder();
        for (int cta = 0; cta < 2; cta++) {
            for (int tid = 0; tid < 64; tid++) {
                values.append(values.length() == 0 ? "" : ",").append(Integer.toUnsignedString(expected(tid, split, leave)));
            }
        }
        assertTrue(interpreted.contains("\"values\":[" + values + "]"), interpreted);
    }

    @ParameterizedTest(name = "split {0}, leave {1}, thread {2}, pass {3}, load +{4}")
    @CsvSource({
        "0, 0, 5, 0, 1048576",
        "0, 0, 5, 17, 1048576",
        "0, 0, 31, 39, 2",
        "8, 1, 9, 17, 1048576",
        "8, 1, 40, 25, -4096",
        "8, 0, 12, 17, 1048576",
        "8, 0, 63, 30, 1",
    })
    void faultsAsInterpreted(int split, int leave, int tid, int pass, int delta) throws Exception {
        String interpreted = CompiledRuns.sameInEveryMode(KERNEL, launch(split, leave, pass, tid, delta), Long.MAX_VALUE,
                OptionalLong.empty());
        assertTrue(interpreted.contains("\"status\":\"error\""), interpreted);
        assertTrue(interpreted.contains("ld.global.u32"), interpreted);
        assertTrue(interpreted.contains("tid (" + tid + ",0,0)"), interpreted);
    }

    static Stream<Long> budgets() {
        // Every budget in the first passes of warp 0 of the first CTA, then spread over the launch.
        return Stream.concat(LongStream.rangeClosed(400, 1_400).filter(b -> b % 13 == 0).boxed(),
                LongStream.rangeClosed(1, 12).map(k -> k * 60_000 / 13 + k).boxed());
    }

    @ParameterizedTest(name = "budget {0}")
    @MethodSource("budgets")
    void budgetRunsOutAsInterpreted(long budget) throws Exception {
        for (String launch : new String[] {launch(0, 0, 1000, 0, 0), launch(8, 1, 1000, 0, 0)}) {
            String interpreted = CompiledRuns.sameInEveryMode(KERNEL, launch, budget, OptionalLong.empty());
            assertTrue(interpreted.contains("\"timeout\""), interpreted);
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @CsvSource({"1", "2"})
    void seededSchedulesAsInterpreted(long seed) throws Exception {
        CompiledRuns.sameInEveryMode(KERNEL, launch(8, 0, 1000, 0, 0), Long.MAX_VALUE, OptionalLong.of(seed));
        CompiledRuns.sameInEveryMode(KERNEL, launch(8, 1, 17, 40, 1048576), Long.MAX_VALUE, OptionalLong.of(seed));
    }

    private static String launch(int split, int leave, int badPass, int badTid, int delta) {
        StringBuilder in = new StringBuilder();
        for (int tid = 0; tid < 64; tid++) {
            in.append(tid == 0 ? "" : ",").append(Integer.toUnsignedString(input(tid)));
        }
        return "{\"kernel\": \"straight_loop\", \"grid\": [2], \"block\": [64], \"buffers\": {\"out\": {\"type\":"
                + " \"u32\", \"count\": 128, \"init\": 0}, \"in\": {\"type\": \"u32\", \"values\": [" + in + "]}},"
                + " \"params\": [\"out\", \"in\", {\"u32\": " + ITERATIONS + "}, {\"u32\": " + split + "}, {\"u32\": "
                + leave + "}, {\"u32\": " + badPass + "}, {\"u32\": " + badTid + "}, {\"s32\": " + delta + "}],"
                + " \"dump\": [\"out\"]}";
    }

    private static int input(int tid) {
        return (tid * 7 + 1) * 0x9e3779b1;
    }

    /** What thread tid of either CTA stores: the kernel's loop, done here (nothing where it returned). */
    private static int expected(int tid, int split, int leave) {
        if (tid % 32 < split) {
            return 0;
        }
        int acc = 0;
        for (int i = 0; i < ITERATIONS; i++) {
            acc = (acc * 3 + input(tid)) ^ input(tid);
            acc += i;
        }
        return acc;
    }
}
