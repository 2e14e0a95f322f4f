package io.ptxrun.launch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** Expected values written by {@code src/test/resources/launch/generate_expected.py}. */
final class TestData {
    /** Python's {@code json} writes NaN and Infinity as bare literals; so do the expected files. */
    static final ObjectMapper MAPPER =
            JsonMapper.builder()
                    .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
                    .disable(JsonWriteFeature.WRITE_NAN_AS_STRINGS)
                    .build();

    private TestData() {}

    static JsonNode resource(String name) {
        try (InputStream in = TestData.class.getResourceAsStream("/launch/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource /launch/" + name);
            }
            return MAPPER.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String json(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A launch file with one thread and the given buffers object. */
    static String launchWithBuffers(String buffersJson) {
        return "{\"grid\": [1], \"block\": [1], \"buffers\": " + buffersJson + "}";
    }
}
