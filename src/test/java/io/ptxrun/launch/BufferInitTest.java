package io.ptxrun.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every init kind for every element type against numpy, run through the harness's own
 * {@code init_buffer} and {@code to_json_values} (see {@code generate_expected.py}).
 */
class BufferInitTest {
    private static final ObjectMapper MAPPER = TestData.MAPPER;

    @TestFactory
    Stream<DynamicTest> initialContentsMatchNumpy() {
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode c : TestData.resource("init-cases.json")) {
            String spec = TestData.json(c.get("spec"));
            tests.add(
                    DynamicTest.dynamicTest(
                            spec,
                            () -> {
                                BufferSpec buffer = parse(spec);
                                byte[] contents = buffer.initialContents();
                                assertEquals(c.get("bytes").asInt(), contents.length, "size");
                                if (c.has("hex")) {
                                    assertEquals(c.get("hex").asText(), HexFormat.of().formatHex(contents));
                                }
                                assertEquals(c.get("sha256").asText(), sha256(contents));
                            }));
        }
        return tests.stream();
    }

    /**
     * What the harness prints for a buffer reads back as the same bytes, and what we print reads as
     * the same numbers as what the harness prints.
     */
    @TestFactory
    Stream<DynamicTest> resultValuesAgreeWithHarnessOutput() {
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode c : TestData.resource("init-cases.json")) {
            if (!c.has("values")) {
                continue;
            }
            String spec = TestData.json(c.get("spec"));
            tests.add(
                    DynamicTest.dynamicTest(
                            spec,
                            () -> {
                                BufferSpec buffer = parse(spec);
                                String type = c.get("spec").get("type").asText();
                                String harnessResult =
                                        "{\"kernel\": \"k\", \"status\": \"ok\", \"buffers\": {\"b\": {\"type\": \""
                                                + type + "\", \"values\": " + TestData.json(c.get("values")) + "}}}";
                                RunResult read = ResultJson.read(harnessResult);
                                byte[] expected = buffer.initialContents();
                                RunResult ours =
                                        new RunResult(
                                                read.kernel(), RunStatus.OK,
                                                java.util.Map.of("b", new ResultBuffer(buffer.type(), expected)),
                                                List.of(), java.util.Map.of());
                                assertTrue(
                                        ResultComparison.compare(ours, read).isEmpty(),
                                        () -> ResultComparison.compare(ours, read).toString());

                                JsonNode ourValues =
                                        MAPPER.readTree(ResultJson.write(ours)).get("buffers").get("b").get("values");
                                JsonNode harnessValues = c.get("values");
                                assertEquals(harnessValues.size(), ourValues.size());
                                for (int i = 0; i < harnessValues.size(); i++) {
                                    JsonNode want = harnessValues.get(i);
                                    JsonNode got = ourValues.get(i);
                                    if (want.isTextual() || want.isIntegralNumber()) {
                                        assertEquals(want, got, "element " + i);
                                    } else {
                                        // Same decimal, perhaps spelt differently (1e-45 and 1.0E-45).
                                        assertEquals(
                                                0, want.decimalValue().compareTo(got.decimalValue()), "element " + i + ": " + want + " vs " + got);
                                        assertEquals(Math.copySign(1.0, want.doubleValue()), Math.copySign(1.0, got.doubleValue()));
                                    }
                                }
                            }));
        }
        return tests.stream();
    }

    private static BufferSpec parse(String spec) {
        return LaunchFile.parse(TestData.launchWithBuffers("{\"b\": " + spec + "}")).buffers().get("b");
    }

    private static String sha256(byte[] data) throws NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
    }
}
