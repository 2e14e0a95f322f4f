package io.ptxrun.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class ResultJsonTest {

    private static ResultBuffer buffer(ElementType type, long... bits) {
        byte[] contents = new byte[bits.length * type.byteSize()];
        for (int i = 0; i < bits.length; i++) {
            type.store(contents, i, bits[i]);
        }
        return new ResultBuffer(type, contents);
    }

    private static long f32(float value) {
        return Float.floatToRawIntBits(value) & 0xFFFFFFFFL;
    }

    private static long f64(double value) {
        return Double.doubleToRawLongBits(value);
    }

    @Test
    void writesTheContractFormat() {
        Map<String, ResultBuffer> buffers = new LinkedHashMap<>();
        buffers.put("out", buffer(ElementType.S32, 130816, 392960, 655104, 917248));
        buffers.put("big", buffer(ElementType.U64, -1L, 1L << 63, 5));
        buffers.put("neg", buffer(ElementType.S64, -1L, Long.MIN_VALUE));
        buffers.put("bits", buffer(ElementType.B8, 0xFF));
        buffers.put("small", buffer(ElementType.S8, 0x80, 0x7F));
        buffers.put("f", buffer(ElementType.F32, f32(0.1f), f32(Float.MIN_VALUE), f32(Float.MAX_VALUE), f32(-0.0f),
                f32(Float.NaN), f32(Float.POSITIVE_INFINITY), f32(Float.NEGATIVE_INFINITY), f32(1.0f)));
        buffers.put("d", buffer(ElementType.F64, f64(2.0e-3), f64(1.0e23), f64(Double.MIN_VALUE), f64(0.1)));
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("threads", 1024);
        stats.put("instructions", 123456L);
        RunResult result =
                new RunResult(
                        Optional.of("_Z9sum_asyncPKiPii"),
                        RunStatus.OK,
                        buffers,
                        List.of(
                                ResultDiagnostic.at(io.ptxrun.diag.Severity.WARNING, "uninitialised read", "k.ptx", 12, 5)
                                        .inThread("(1,0,0)", "0", "(3,0,0)", null)),
                        stats);
        assertEquals(
                "{\"kernel\":\"_Z9sum_asyncPKiPii\",\"status\":\"ok\",\"buffers\":{"
                        + "\"out\":{\"type\":\"s32\",\"values\":[130816,392960,655104,917248]},"
                        + "\"big\":{\"type\":\"u64\",\"values\":[18446744073709551615,9223372036854775808,5]},"
                        + "\"neg\":{\"type\":\"s64\",\"values\":[-1,-9223372036854775808]},"
                        + "\"bits\":{\"type\":\"b8\",\"values\":[255]},"
                        + "\"small\":{\"type\":\"s8\",\"values\":[-128,127]},"
                        + "\"f\":{\"type\":\"f32\",\"values\":[0.1,1.0E-45,3.4028235E38,-0.0,\"NaN\",\"Infinity\",\"-Infinity\",1.0]},"
                        + "\"d\":{\"type\":\"f64\",\"values\":[0.002,1.0E23,5.0E-324,0.1]}},"
                        + "\"diagnostics\":[{\"severity\":\"warning\",\"message\":\"uninitialised read\",\"file\":\"k.ptx\","
                        + "\"line\":12,\"column\":5,\"thread\":\"(1,0,0)\",\"warp\":\"0\",\"cta\":\"(3,0,0)\"}],"
                        + "\"stats\":{\"threads\":1024,\"instructions\":123456}}",
                ResultJson.write(result));
        RunResult read = ResultJson.read(ResultJson.write(result));
        assertEquals(result.kernel(), read.kernel());
        assertEquals(result.diagnostics(), read.diagnostics());
        assertEquals(Map.of("threads", 1024, "instructions", 123456), read.stats());
        assertEquals(List.of(), ResultComparison.compare(result, read));
        assertEquals(buffers.get("big"), read.buffers().get("big"));
        assertEquals(buffers.get("d"), read.buffers().get("d"));
    }

    @Test
    void readsWhatTheHarnessPrints() {
        // json.dumps output of harness.py: Python floats, no diagnostics, no stats.
        RunResult ok =
                ResultJson.read(
                        "{\"kernel\": \"k\", \"status\": \"ok\", \"buffers\": {\"out\": {\"type\": \"f32\","
                                + " \"values\": [0.1, 1e-45, 3.4028234663852886e+38, -0.0, \"NaN\", \"-Infinity\", 16777216.0]}}}");
        ResultBuffer out = ok.buffers().get("out");
        assertEquals(f32(0.1f), out.bits(0));
        assertEquals(f32(Float.MIN_VALUE), out.bits(1));
        assertEquals(f32(Float.MAX_VALUE), out.bits(2));
        assertEquals(f32(-0.0f), out.bits(3));
        assertTrue(Float.isNaN(Float.intBitsToFloat((int) out.bits(4))));
        assertEquals(f32(Float.NEGATIVE_INFINITY), out.bits(5));
        assertEquals(f32(16777216f), out.bits(6));
        assertEquals(List.of(), ok.diagnostics());
        assertEquals(Map.of(), ok.stats());

        RunResult failed =
                ResultJson.read(
                        "{\"status\": \"error\", \"buffers\": {}, \"diagnostics\": [{\"message\": \"cuModuleLoadData failed: CUDA_ERROR_INVALID_PTX\"}]}");
        assertEquals(Optional.empty(), failed.kernel());
        assertEquals(RunStatus.ERROR, failed.status());
        assertEquals(
                List.of(ResultDiagnostic.error("cuModuleLoadData failed: CUDA_ERROR_INVALID_PTX")), failed.diagnostics());
        assertEquals(RunStatus.TIMEOUT, ResultJson.read("{\"kernel\": \"k\", \"status\": \"timeout\", \"buffers\": {}}").status());
    }

    @Test
    void badResultsSayWhereAndWhat() {
        assertBad("{\"buffers\": {}}", "status: missing (expected one of ok, trap, error, deadlock, timeout)");
        assertBad("{\"status\": \"OK\"}", "status: expected one of ok, trap, error, deadlock, timeout, got \"OK\"");
        assertBad("{\"status\": \"ok\", \"buffers\": {\"o\": {\"type\": \"u8\", \"values\": [256]}}}",
                "buffers.o.values[0]: 256 is out of range for u8 (0 to 255)");
        assertBad("{\"status\": \"ok\", \"buffers\": {\"o\": {\"type\": \"i8\", \"values\": []}}}",
                "buffers.o.type: unknown element type 'i8' (expected one of u8, s8, u16, s16, u32, s32, u64, s64, f32, f64, b8, b16, b32, b64) — did you mean 'u8'?");
        assertBad("{\"status\": \"ok\", \"buffers\": {\"o\": {\"type\": \"f32\"}}}", "buffers.o.values: missing (expected an array)");
        assertBad("{\"status\": \"ok\", \"diagnostics\": [{\"line\": 3}]}", "diagnostics[0].message: missing (expected a string)");
        assertBad("{\"status\": \"ok\"", "1:16: malformed JSON: unexpected end of input (an object, array or string is not closed)");
    }

    private static void assertBad(String json, String message) {
        assertEquals(message, assertThrows(LaunchException.class, () -> ResultJson.read(json)).getMessage());
    }

    @Provide
    Arbitrary<ResultBuffer> buffers() {
        return Arbitraries.of(ElementType.values())
                .flatMap(
                        type ->
                                Arbitraries.bytes()
                                        .array(byte[].class)
                                        .ofMaxSize(64)
                                        .map(bytes -> new ResultBuffer(type, java.util.Arrays.copyOf(bytes, bytes.length / type.byteSize() * type.byteSize()))));
    }

    /** Every element survives writing and reading: same bits, except that a NaN stays only a NaN. */
    @Property(tries = 500)
    void buffersRoundTrip(@ForAll("buffers") ResultBuffer buffer) {
        RunResult result = new RunResult(Optional.of("k"), RunStatus.OK, Map.of("b", buffer), List.of(), Map.of());
        RunResult read = ResultJson.read(ResultJson.write(result));
        ResultBuffer back = read.buffers().get("b");
        assertEquals(buffer.type(), back.type());
        assertEquals(buffer.count(), back.count());
        for (int i = 0; i < buffer.count(); i++) {
            long bits = buffer.bits(i);
            if (buffer.type().isFloat() && Double.isNaN(buffer.type().doubleOf(bits))) {
                assertTrue(Double.isNaN(buffer.type().doubleOf(back.bits(i))));
            } else {
                assertEquals(bits, back.bits(i), buffer.type() + " element " + i);
            }
        }
    }
}
