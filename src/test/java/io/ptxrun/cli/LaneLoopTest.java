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
 * Loops that the compiled tier runs lane by lane, each lane's passes with its registers in JVM
 * locals (testdata/compiler/lane-loops): a loop without branches of f32 and 32-bit integer
 * arithmetic with a guarded op, and a loop body with an if-then-else, after a warp has split and
 * joined again; lanes leave each loop after different numbers of passes, f32 values overflow and
 * become NaN in some lanes, warp turns end inside the loop bodies (3 warps of a CTA, the last one
 * of 17 lanes); and a loop body with three paths whose turns end inside a pass, beside lanes that
 * wait after the loop (testdata/compiler/lane-resume). The result files (buffers, diagnostics,
 * statistics) must be the interpreter's, with the detector on and off, every region compiled at
 * once and when hot, for budgets that run out at every point of the first warp's first turns and
 * over the launch, and under seeded schedules. The values of fault-free runs are also computed here.
 */
class LaneLoopTest {
    private static final Path KERNEL = TestData.ROOT.resolve("compiler/lane-loops/kernel.ptx");
    private static final int CTAS = 2, THREADS = 81;

    @ParameterizedTest(name = "n {0}")
    @CsvSource({"1", "2", "60"})
    void valuesAsComputed(int n) throws Exception {
        String interpreted = CompiledRuns.sameInEveryMode(KERNEL, launch(n), Long.MAX_VALUE, OptionalLong.empty());
        CompiledRuns.assertStores(interpreted, CTAS * THREADS, t -> expected(t, n));
    }

    static Stream<Long> budgets() {
        // Through the first turns of warp 0 of the first CTA, then spread over the launch.
        return Stream.concat(LongStream.rangeClosed(500, 9_000).filter(b -> b % 173 == 0).boxed(),
                LongStream.rangeClosed(1, 12).map(k -> k * 227_593 / 13 + k).boxed());
    }

    @ParameterizedTest(name = "budget {0}")
    @MethodSource("budgets")
    void budgetRunsOutAsInterpreted(long budget) throws Exception {
        String interpreted = CompiledRuns.sameInEveryMode(KERNEL, launch(60), budget, OptionalLong.empty());
        assertTrue(interpreted.contains("\"timeout\""), interpreted);
    }

    @ParameterizedTest(name = "seed {0}")
    @CsvSource({"1", "2"})
    void seededSchedulesAsInterpreted(long seed) throws Exception {
        CompiledRuns.sameInEveryMode(KERNEL, launch(60), Long.MAX_VALUE, OptionalLong.of(seed));
    }

    private static final Path RESUME = TestData.ROOT.resolve("compiler/lane-resume/kernel.ptx");

    /**
     * A loop body with three paths (testdata/compiler/lane-resume) whose warps' turns end inside
     * it, so that the next turn runs each lane from its own op, beside lanes that skipped the loop
     * and wait after it and lanes that have returned.
     */
    @ParameterizedTest(name = "n {0}")
    @CsvSource({"1", "3", "40"})
    void resumedPassesAsComputed(int n) throws Exception {
        String interpreted = CompiledRuns.sameInEveryMode(RESUME, resumeLaunch(n), Long.MAX_VALUE, OptionalLong.empty());
        CompiledRuns.assertStores(interpreted, CTAS * THREADS, t -> resumed(t, n));
    }

    static Stream<Long> resumeBudgets() {
        // Through the first turns of the first CTA's warps, then spread over the launch (66,770 instructions).
        return Stream.concat(LongStream.rangeClosed(300, 12_000).filter(b -> b % 211 == 0).boxed(),
                LongStream.rangeClosed(1, 12).map(k -> k * 66_770 / 13 + k).boxed());
    }

    @ParameterizedTest(name = "budget {0}")
    @MethodSource("resumeBudgets")
    void resumedBudgetRunsOutAsInterpreted(long budget) throws Exception {
        String interpreted = CompiledRuns.sameInEveryMode(RESUME, resumeLaunch(40), budget, OptionalLong.empty());
        assertTrue(interpreted.contains("\"timeout\""), interpreted);
    }

    @ParameterizedTest(name = "seed {0}")
    @CsvSource({"1", "2", "3"})
    void resumedSeededSchedulesAsInterpreted(long seed) throws Exception {
        CompiledRuns.sameInEveryMode(RESUME, resumeLaunch(40), Long.MAX_VALUE, OptionalLong.of(seed));
    }

    private static String resumeLaunch(int n) {
        return "{\"kernel\": \"lane_resume\", \"grid\": [" + CTAS + "], \"block\": [" + THREADS + "], \"buffers\":"
                + " {\"out\": {\"type\": \"u32\", \"count\": " + 2 * CTAS * THREADS + ", \"init\": 0}},"
                + " \"params\": [\"out\", {\"u32\": " + n + "}], \"dump\": [\"out\"]}";
    }

    /** What global thread t of lane_resume stores: its loop, done here. */
    private static int[] resumed(int t, int n) {
        int lane = (t % THREADS) & 31;
        if (lane % 11 == 10) {
            return new int[] {0, 0};
        }
        int r7 = t * -1640531535;
        int r10 = 7;
        if (lane % 7 == 6) {
            return new int[] {r7, r10};
        }
        int trip = lane % 3 + n;
        int r8 = 0;
        do {
            int r9 = r8 & 31;
            if (lane < r9) {
                if ((r7 & 1) == 0) {
                    r7 *= 3;
                    r10 = r7 >>> 5;
                } else {
                    r7 += r9;
                    r10 = r7 << 3;
                }
                r7 ^= r10;
            } else {
                r7 = r7 * 5 + lane;
                r7 ^= r8;
                r10 = r7 >>> 7;
                if (lane > 16) {
                    r7 += r10;
                }
            }
            r8++;
        } while (Integer.compareUnsigned(r8, trip) < 0);
        return new int[] {r7, r10};
    }

    private static String launch(int n) {
        return "{\"kernel\": \"lane_loops\", \"grid\": [" + CTAS + "], \"block\": [" + THREADS + "], \"buffers\":"
                + " {\"out\": {\"type\": \"u32\", \"count\": " + 3 * CTAS * THREADS + ", \"init\": 0}},"
                + " \"params\": [\"out\", {\"u32\": " + n + "}], \"dump\": [\"out\"]}";
    }

    /** What global thread t stores: the kernel's loops, done here. */
    private static int[] expected(int t, int n) {
        int lane = (t % THREADS) & 31;
        int r7 = t * -1640531535;
        if (lane % 3 == 0) {
            r7 = (r7 ^ 1234567) << 1;
        }
        int trip1 = n + 3 * (lane % 5);
        float f1 = Math.fma((float) lane, 0.125f, 1f);
        float f2 = 1f, f3 = 0f;
        int i = 0;
        do {
            f2 = Math.fma(f2, f1, 1f);
            float f4 = f2 * 0.25f;
            f3 = f3 + (f4 - f4);
            f3 = f3 + f4;
            r7 = r7 * 3 + i;
            if (lane > 20) {
                r7 ^= lane;
            }
            r7 += r7 >>> 29;
            i++;
        } while (Integer.compareUnsigned(i, trip1) < 0);
        int trip2 = (lane & 3) + n;
        int j = 0;
        do {
            if ((r7 & 3) == 0) {
                r7 += j;
                r7 ^= r7 << 7;
            } else {
                r7 ^= r7 >>> 3;
                r7 *= 5;
            }
            j++;
        } while (Integer.compareUnsigned(j, trip2) < 0);
        boolean nan = Float.isNaN(f3);
        // A NaN result is the canonical NaN.
        return new int[] {r7, nan ? 0x7fffffff : Float.floatToRawIntBits(f3), nan ? 1 : 0};
    }
}
