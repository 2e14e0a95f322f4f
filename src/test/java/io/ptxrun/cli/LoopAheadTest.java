package io.ptxrun.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * Warps whose lanes run a divergent loop ahead of their turns (testdata/compiler/loop-ahead,
 * {@code exec.LoopAhead}), beside a warp of each CTA that stores %clock once a pass: the clock it
 * reads counts the instructions the other warps ran in each of their turns, and the ticket each
 * thread takes after the loop and the clock it reads then depend on where each warp's last turn
 * in the loop ends. The result files must be the interpreter's (detector on and off, every region
 * compiled at once and when hot), for trip counts from one pass to many turns, budgets and seeded
 * schedules; the loop's values are also computed here.
 */
class LoopAheadTest {
    private static final Path KERNEL = TestData.ROOT.resolve("compiler/loop-ahead/kernel.ptx");
    private static final int CTAS = 2, THREADS = 81, CLOCKS = 400;

    /**
     * n passes at least; m samples of the clock (m = 1: warp 0 leaves at once, and the rounds in
     * which the other warps run their loops have no event, which the spin detector looks at).
     * 1,100 and 5,000 passes are more than a warp's lanes run ahead at first: their registers go
     * back, and they run ahead again with a longer log (two and eight times as long). 33,000
     * are more than the longest log: the loop runs turn by turn.
     */
    @ParameterizedTest(name = "n {0}, m {1}")
    @CsvSource({"1, 400", "2, 400", "11, 400", "40, 400", "300, 400", "300, 1", "1100, 400", "5000, 400",
            "33000, 400"})
    void asInterpreted(int n, int m) throws Exception {
        String interpreted = CompiledRuns.sameInEveryMode(KERNEL, launch(n, m), Long.MAX_VALUE,
                OptionalLong.empty());
        assertTrue(interpreted.contains("\"status\":\"ok\""), interpreted);
        String key = "\"out\":{\"type\":\"u32\",\"values\":[";
        int from = interpreted.indexOf(key) + key.length();
        String[] out = interpreted.substring(from, interpreted.indexOf(']', from)).split(",");
        java.util.BitSet tickets = new java.util.BitSet();
        for (int c = 0; c < CTAS; c++) {
            for (int tid = 32; tid < THREADS; tid++) {
                int t = c * THREADS + tid;
                assertEquals(Integer.toUnsignedString(expected(t, tid & 31, n)), out[3 * t], "thread " + t);
                tickets.set(Integer.parseInt(out[3 * t + 1]));
            }
        }
        assertEquals(CTAS * (THREADS - 32), tickets.cardinality());
        assertEquals(CTAS * (THREADS - 32), tickets.length());
    }

    static Stream<Long> budgets() {
        return LongStream.rangeClosed(1, 8).map(k -> k * 45_000 + 7 * k).boxed();
    }

    @ParameterizedTest(name = "budget {0}")
    @MethodSource("budgets")
    void budgetRunsOutAsInterpreted(long budget) throws Exception {
        CompiledRuns.sameInEveryMode(KERNEL, launch(40, CLOCKS), budget, OptionalLong.empty());
    }

    /**
     * 5,000 passes under budgets that cover the worst case of a longer log only up to 1,024, 2,048
     * or 4,096 passes: the lanes run ahead with as many as the budget allows, and where they do not
     * leave within them, the loop runs turn by turn.
     */
    @ParameterizedTest(name = "budget {0}")
    @CsvSource({"7000000", "12000000", "22000000"})
    void longLoopUnderABudgetAsInterpreted(long budget) throws Exception {
        CompiledRuns.sameInEveryMode(KERNEL, launch(5000, CLOCKS), budget, OptionalLong.empty());
    }

    @ParameterizedTest(name = "seed {0}")
    @CsvSource({"1", "2"})
    void seededSchedulesAsInterpreted(long seed) throws Exception {
        CompiledRuns.sameInEveryMode(KERNEL, launch(40, CLOCKS), Long.MAX_VALUE, OptionalLong.of(seed));
    }

    private static String launch(int n, int m) {
        return "{\"kernel\": \"loop_ahead\", \"grid\": [" + CTAS + "], \"block\": [" + THREADS + "], \"buffers\":"
                + " {\"out\": {\"type\": \"u32\", \"count\": " + 3 * CTAS * THREADS + ", \"init\": 0},"
                + " \"clocks\": {\"type\": \"u32\", \"count\": " + CTAS * CLOCKS * 32 + ", \"init\": 0},"
                + " \"counter\": {\"type\": \"u32\", \"count\": 1, \"init\": 0}},"
                + " \"params\": [\"out\", \"clocks\", \"counter\", {\"u32\": " + n + "}, {\"u32\": " + m + "}],"
                + " \"dump\": [\"out\", \"clocks\", \"counter\"]}";
    }

    /** The value global thread t (lane l) has after its loop. */
    private static int expected(int t, int l, int n) {
        int trip = n + l % 5;
        int v = t * -1640531535;
        int k = 0;
        do {
            int r8 = k & 31;
            if (l >= r8) {
                v = v * 5 + l;
                v ^= k;
                v += v >>> 7;
            } else if ((v & 1) != 0) {
                v += r8;
                v ^= v << 3;
            } else {
                v = v * 3 + 1;
            }
            k++;
        } while (Integer.compareUnsigned(k, trip) < 0);
        return v;
    }
}
