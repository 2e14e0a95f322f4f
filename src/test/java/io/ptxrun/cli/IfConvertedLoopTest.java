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
 * Loop bodies whose small diamonds and triangles each lane runs without branching
 * (testdata/compiler/if-conversion): arms that write the same register, one arm alone writing
 * 32-bit, 64-bit, f32 and predicate registers (the diamond's own guard among them), guarded ops
 * in and after arms, and diamonds inside a diamond's arms. The result files (buffers, the order
 * in which threads finish their loops, diagnostics, statistics) must be the interpreter's, with
 * the detector on and off, every region compiled at once and when hot, for budgets that run out
 * at every point of the first warps' first turns and over the launch, and under seeded
 * schedules. The values are also computed here.
 */
class IfConvertedLoopTest {
    private static final Path KERNEL = TestData.ROOT.resolve("compiler/if-conversion/kernel.ptx");
    private static final int CTAS = 2, THREADS = 81;
    /** Thread-instructions of the launch with n = 40. */
    private static final long TOTAL = 226_003;

    @ParameterizedTest(name = "n {0}")
    @CsvSource({"1", "2", "40"})
    void valuesAsComputed(int n) throws Exception {
        String interpreted = CompiledRuns.sameInEveryMode(KERNEL, launch(n), Long.MAX_VALUE, OptionalLong.empty());
        assertTrue(interpreted.contains("\"status\":\"ok\""), interpreted);
        String key = "\"out\":{\"type\":\"u32\",\"values\":[";
        int from = interpreted.indexOf(key) + key.length();
        String[] out = interpreted.substring(from, interpreted.indexOf(']', from)).split(",");
        assertEquals(8 * CTAS * THREADS, out.length, interpreted);
        java.util.BitSet tickets = new java.util.BitSet();
        for (int t = 0; t < CTAS * THREADS; t++) {
            int[] v = expected(t, n);
            for (int k = 0; k < v.length; k++) {
                assertEquals(Integer.toUnsignedString(v[k]), out[8 * t + k], "thread " + t + ", value " + k);
            }
            // The ticket: the order of finishing, which the interpreter's schedule decides.
            tickets.set(Integer.parseInt(out[8 * t + 7]));
        }
        assertEquals(CTAS * THREADS, tickets.cardinality());
        assertEquals(CTAS * THREADS, tickets.length());
        assertTrue(interpreted.contains("\"values\":[" + CTAS * THREADS + "]"), interpreted);
        if (n == 40) {
            assertTrue(interpreted.contains("\"instructions\":" + TOTAL), interpreted);
        }
    }

    static Stream<Long> budgets() {
        // Through the first turns of the first CTA's warps, then spread over the launch.
        return Stream.concat(LongStream.rangeClosed(300, 12_000).filter(b -> b % 197 == 0).boxed(),
                LongStream.rangeClosed(1, 12).map(k -> k * TOTAL / 13 + k).boxed());
    }

    @ParameterizedTest(name = "budget {0}")
    @MethodSource("budgets")
    void budgetRunsOutAsInterpreted(long budget) throws Exception {
        String interpreted = CompiledRuns.sameInEveryMode(KERNEL, launch(40), budget, OptionalLong.empty());
        assertTrue(interpreted.contains("\"timeout\""), interpreted);
    }

    @ParameterizedTest(name = "seed {0}")
    @CsvSource({"1", "2", "3"})
    void seededSchedulesAsInterpreted(long seed) throws Exception {
        CompiledRuns.sameInEveryMode(KERNEL, launch(40), Long.MAX_VALUE, OptionalLong.of(seed));
    }

    private static String launch(int n) {
        return "{\"kernel\": \"if_conversion\", \"grid\": [" + CTAS + "], \"block\": [" + THREADS + "], \"buffers\":"
                + " {\"out\": {\"type\": \"u32\", \"count\": " + 8 * CTAS * THREADS + ", \"init\": 0},"
                + " \"counter\": {\"type\": \"u32\", \"count\": 1, \"init\": 0}},"
                + " \"params\": [\"out\", \"counter\", {\"u32\": " + n + "}], \"dump\": [\"out\", \"counter\"]}";
    }

    /** What global thread t stores before its ticket: r5, r10, r11, r12, rd6 (low, high), f1's bits. */
    private static int[] expected(int t, int n) {
        int lane = (t % THREADS) & 31;
        int r5 = t * -1640531535;
        int trip = n + lane % 3;
        int r10 = 0, r11 = 0, r12 = 0;
        long rd6 = 0;
        float f1 = 1f, f2 = 0.5f, f3 = lane;
        int r7 = 0;
        do {
            int r8 = r7 & 31;
            int r9 = r5 & 3;
            if (r9 != 0) {
                r5 += r8;
                r10 = r5 << 2;
                r5 ^= r10;
            }
            r9 = r5 & 16;
            boolean p2 = r9 != 0;
            if (p2) {
                r5 *= 3;
                p2 = Integer.compareUnsigned(r5, 100_000_000) > 0;
                f1 = Math.fma(f1, f2, f3);
            } else {
                r5 >>>= 1;
                r11++;
                rd6 += (r5 & 0xffffffffL) * (r8 & 0xffffffffL);
            }
            if (p2) {
                r12 += r9;
            }
            if (lane >= 9) {
                if (p2) {
                    r12 ^= r5;
                }
                f1 = f1 + f2;
            }
            r7++;
        } while (Integer.compareUnsigned(r7, trip) < 0);
        r7 = 0;
        do {
            int r8 = r7 & 31;
            boolean p1 = lane < r8;
            if (!p1) {
                if ((r5 & 4) != 0) {
                    r5 ^= 1431655765;
                }
                r5 += 7;
            } else if ((r5 & 8) != 0) {
                r5 = r5 * 5 + 1;
                r10 = r5 >>> 3;
            } else {
                r5 -= lane;
                r10 = r5 << 1;
            }
            r5 += r10;
            r5 += p1 ? 3 : 5;
            r7++;
        } while (Integer.compareUnsigned(r7, trip) < 0);
        return new int[] {r5, r10, r11, r12, (int) rd6, (int) (rd6 >>> 32), Float.floatToRawIntBits(f1)};
    }
}
