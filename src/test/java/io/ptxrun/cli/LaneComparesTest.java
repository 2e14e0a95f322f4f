package io.ptxrun.cli;


import io.ptxrun.TestData;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every 32-bit integer comparison of setp in loop bodies that the compiled tier runs lane by lane,
 * where it compares the ints it holds the registers in (testdata/compiler/lane-compares): values
 * on both sides of the sign bit, equal ones, immediates, and a triangle guarded by a comparison.
 * The result files must be the interpreter's with every region compiled at once and when hot (the
 * detector on and off), and the values those of the kernel's loops computed here.
 */
class LaneComparesTest {
    private static final Path KERNEL = TestData.ROOT.resolve("compiler/lane-compares/kernel.ptx");
    private static final int CTAS = 2, THREADS = 72;

    @ParameterizedTest(name = "n {0}")
    @CsvSource({"1", "4", "40"})
    void valuesAsComputed(int n) throws Exception {
        String json = "{\"kernel\": \"lane_compares\", \"grid\": [" + CTAS + "], \"block\": [" + THREADS + "],"
                + " \"buffers\": {\"out\": {\"type\": \"u32\", \"count\": " + 3 * CTAS * THREADS + ", \"init\": 0}},"
                + " \"params\": [\"out\", {\"u32\": " + n + "}], \"dump\": [\"out\"]}";
        String interpreted = CompiledRuns.sameInEveryMode(KERNEL, json, Long.MAX_VALUE, OptionalLong.empty());
        CompiledRuns.assertStores(interpreted, CTAS * THREADS, t -> expected(t, n));
    }

    /** What global thread t stores: the kernel's three loops, done here. */
    private static int[] expected(int t, int n) {
        int a0 = ((t % THREADS) & 31) << 27;
        int signed = 0, unsigned = 0, triangle = 0;
        int i = 0;
        do {
            int a = a0 + i, b = (i & 3) == 0 ? a : i * -1640531535;
            boolean[] outcomes = {a < b, a <= b, a > b, a >= b, a == b, a != b, a < -5,
                Integer.compareUnsigned(a, Integer.MAX_VALUE) > 0};
            signed = signed * 31 + mask(outcomes);
            int u = Integer.compareUnsigned(a, b);
            unsigned = unsigned * 31 + mask(new boolean[] {u < 0, u <= 0, u > 0, u >= 0, u < 0, u <= 0, u > 0, u >= 0});
            i++;
        } while (Integer.compareUnsigned(i, n) < 0);
        i = 0;
        do {
            int a = a0 + i, b = i * -1640531535;
            if (a >= b) {
                triangle ^= a;
                triangle += Integer.compareUnsigned(a, b) >= 0 ? 3 : 5;
            }
            triangle = triangle * 7 + i;
            i++;
        } while (Integer.compareUnsigned(i, n) < 0);
        return new int[] {signed, unsigned, triangle};
    }

    private static int mask(boolean[] outcomes) {
        int m = 0;
        for (int k = 0; k < outcomes.length; k++) {
            m |= (outcomes[k] ? 1 : 0) << k;
        }
        return m;
    }
}
