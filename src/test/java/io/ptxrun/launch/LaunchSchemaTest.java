package io.ptxrun.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * schema/launch.schema.json (JSON Schema 2020-12, for editors and CI): every launch file of
 * testdata conforms to it, and a wrong launch file is rejected at the key that is wrong.
 */
class LaunchSchemaTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Schema SCHEMA = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
            .getSchema(read(Path.of("schema/launch.schema.json")));

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static Stream<Path> launchFiles() throws Exception {
        // (testdata/fuzz holds launch files that are wrong on purpose.)
        return Files.walk(Path.of("testdata")).filter(p -> p.getFileName().toString().equals("launch.json"))
                .filter(p -> !p.startsWith(Path.of("testdata", "fuzz"))).sorted();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("launchFiles")
    void everyLaunchFileConforms(Path file) throws Exception {
        List<Error> errors = SCHEMA.validate(JSON.readTree(file.toFile()));
        assertEquals(List.of(), errors.stream().map(e -> e.getInstanceLocation() + ": " + e.getMessage()).toList());
        // and ptxrun reads it
        LaunchFile.read(file);
    }

    private static List<String> errors(String json) throws Exception {
        JsonNode node = JSON.readTree(json);
        return SCHEMA.validate(node).stream().map(e -> e.getInstanceLocation().toString()).distinct().toList();
    }

    @Test
    void errorsPointAtTheKey() throws Exception {
        List<String> type = errors("{\"grid\": [1], \"block\": [32], \"buffers\": {\"in\": {\"type\": \"i32\", \"count\": 4}}}");
        assertTrue(type.contains("/buffers/in/type"), type::toString);
        assertTrue(errors("{\"grid\": [0], \"block\": [32]}").contains("/grid/0"));
        List<String> param = errors("{\"grid\": [1], \"block\": [32], \"params\": [\"in\", {\"u16\": 3}]}");
        assertTrue(param.stream().allMatch(l -> l.startsWith("/params/1")) && !param.isEmpty(), param::toString);
        assertTrue(errors("{\"grid\": [1]}").contains(""), "a missing key is reported at its object");
        assertEquals(List.of(), errors("{\"grid\": [1], \"block\": [32], \"about\": \"notes are allowed\"}"));
    }
}
