package io.ptxrun.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ptxrun.TestData;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.StringJoiner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A loop body run lane by lane writes its registers back whether the lane wrote them or not, as
 * its locals hold them, only where that changes nothing (testdata/compiler/lane-write-back): an
 * f32 register that half the lanes never write holds a NaN with a payload in some of them, which
 * an f32 local would not give back, loaded there after the loop ran once with values it does
 * give back (so a warp's lanes checked before must be checked again); the register must keep its
 * bits, and the lanes that write it get the sums (or the canonical NaN) as computed here. The
 * result files must be the interpreter's with every region compiled at once and when hot (the
 * detector on and off).
 */
class LaneWriteBackTest {
    private static final Path KERNEL = TestData.ROOT.resolve("compiler/lane-write-back/kernel.ptx");
    private static final int CTAS = 2, THREADS = 64;
    private static final int PAYLOAD_NAN = 0x7fc12345;

    @ParameterizedTest(name = "n {0}")
    @CsvSource({"1", "5", "20"})
    void unwrittenRegistersKeepTheirBits(int n) throws Exception {
        String json = "{\"kernel\": \"lane_write_back\", \"grid\": [" + CTAS + "], \"block\": [" + THREADS + "],"
                + " \"buffers\": {\"out\": {\"type\": \"u32\", \"count\": " + 2 * CTAS * THREADS + ", \"init\": 0},"
                + " \"in\": {\"type\": \"u32\", \"values\": [" + PAYLOAD_NAN + ", " + Float.floatToRawIntBits(1.5f) + "]}},"
                + " \"params\": [\"out\", \"in\", {\"u32\": " + n + "}], \"dump\": [\"out\"]}";
        String interpreted = CompiledRuns.sameInEveryMode(KERNEL, json, Long.MAX_VALUE, OptionalLong.empty());
        assertTrue(interpreted.contains("\"status\":\"ok\""), interpreted);
        StringJoiner values = new StringJoiner(",");
        for (int t = 0; t < CTAS * THREADS; t++) {
            int lane = (t % THREADS) & 31;
            boolean writes = lane >= 16;
            int bits;
            if (lane % 2 == 0) {
                bits = writes ? 0x7fffffff : PAYLOAD_NAN;
            } else {
                // Loaded again before the second run, which adds to it.
                float f = 1.5f;
                for (int i = 1; writes && i <= n; i++) {
                    f += i;
                }
                bits = Float.floatToRawIntBits(f);
            }
            values.add(Integer.toUnsignedString(bits));
            values.add(Integer.toString(writes ? 0 : n));
        }
        assertTrue(interpreted.contains("\"values\":[" + values + "]"), interpreted);
    }
}
