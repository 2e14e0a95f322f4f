package io.ptxrun.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.ptxrun.TestData;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The launch-file reader and schema/launch.schema.json agree: on each file of testdata/launch,
 * listed in cases.tsv with the JSON Pointer of the key at fault ("ok" for a good file), the reader
 * fails at that key ({@link LaunchException#pointer()}) and a JSON Schema validator reports it
 * there too; a missing key at the object that lacks it (schema validators name the object), and
 * cross-references (a parameter or dump naming a buffer that does not exist), which a schema
 * cannot express, by the reader alone ("reader only" in the schema column).
 */
class LaunchAgreementTest {
    private static final Path DIR = TestData.ROOT.resolve("launch");
    private static final Schema SCHEMA = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
            .getSchema(TestData.read(Path.of("schema/launch.schema.json")));

    record Case(String file, String pointer, String schema) {
        @Override
        public String toString() {
            return file;
        }
    }

    static Stream<Case> cases() {
        return TestData.read(DIR.resolve("cases.tsv")).lines()
                .filter(l -> !l.isBlank() && !l.startsWith("#"))
                .map(l -> l.split("\t", -1))
                .map(f -> new Case(f[0], f[1], f[2]));
    }

    @Test
    void everyFileIsListed() {
        List<String> listed = cases().map(Case::file).sorted().toList();
        List<String> files = TestData.files("launch", ".json").stream().map(p -> p.getFileName().toString()).sorted().toList();
        assertEquals(files, listed);
    }

    @Test
    void pointersEscapeKeysAsRfc6901Says() {
        assertEquals("", new LaunchException("whole input").pointer());
        assertEquals("/params/2/f32", new LaunchException(JsonPaths.key(JsonPaths.index("params", 2), "f32"), "x").pointer());
        String odd = JsonPaths.key(JsonPaths.key("buffers", "a/b~c \"q\" \\"), "count");
        assertEquals("buffers[\"a/b~c \\\"q\\\" \\\\\"].count", odd);
        assertEquals("/buffers/a~1b~0c \"q\" \\/count", new LaunchException(odd, "x").pointer());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void readerAndSchemaNameTheSameKey(Case c) throws Exception {
        Path file = DIR.resolve(c.file());
        List<String> schemaAt = SCHEMA.validate(new ObjectMapper().readTree(file.toFile())).stream()
                .map(e -> e.getInstanceLocation().toString()).distinct().toList();
        String readerAt;
        try {
            LaunchFile.read(file);
            readerAt = "ok";
        } catch (LaunchException e) {
            readerAt = e.pointer();
            assertTrue(e.getMessage().startsWith(file + ": " + (e.path().isEmpty() ? "" : e.path() + ": ")), e::getMessage);
        }
        assertEquals(c.pointer(), readerAt, "the reader's key (schema: " + schemaAt + ")");
        switch (c.schema()) {
            case "same" -> assertTrue(schemaAt.contains(c.pointer()), () -> "schema reports " + schemaAt);
            case "parent" -> assertEquals(List.of(c.pointer().substring(0, c.pointer().lastIndexOf('/'))), schemaAt,
                    "a missing key is reported at its object");
            case "reader only", "ok" -> assertEquals(List.of(), schemaAt);
            default -> fail("schema column: same, parent, reader only or ok, not " + c.schema());
        }
    }
}
