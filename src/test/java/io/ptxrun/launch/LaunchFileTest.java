package io.ptxrun.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ptxrun.launch.ParamValue.BufferAddress;
import io.ptxrun.launch.ParamValue.Scalar;
import io.ptxrun.launch.ParamValue.TensorMapParam;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class LaunchFileTest {

    private static Path resource(String name) throws URISyntaxException {
        return Path.of(LaunchFileTest.class.getResource("/launch/files/" + name).toURI());
    }

    @Test
    void readsTheContractExample() throws Exception {
        LaunchFile launch = LaunchFile.read(resource("contract-example.json"));
        assertEquals(Optional.of("_Z9sum_asyncPKiPii"), launch.kernel());
        assertEquals(new Dim3(4, 1, 1), launch.grid());
        assertEquals(new Dim3(256, 1, 1), launch.block());
        assertEquals(Optional.of(new Dim3(2, 1, 1)), launch.cluster());
        assertEquals(0, launch.sharedBytes());
        assertEquals(List.of("in", "out", "w", "r", "A"), List.copyOf(launch.buffers().keySet()));
        assertEquals(new BufferSpec(ElementType.S32, 1024, new BufferInit.Iota()), launch.buffers().get("in"));
        assertEquals(new BufferSpec(ElementType.S32, 4, new BufferInit.Constant(0)), launch.buffers().get("out"));
        assertEquals(
                BufferSpec.ofValues(
                        ElementType.F32,
                        List.of(
                                (long) Float.floatToRawIntBits(1.0f),
                                (long) Float.floatToRawIntBits(2.5f),
                                Float.floatToRawIntBits(-3.0f) & 0xFFFFFFFFL)),
                launch.buffers().get("w"));
        assertEquals(new BufferSpec(ElementType.U32, 64, new BufferInit.Random(7)), launch.buffers().get("r"));
        TensorMapSpec tmA = launch.tensorMaps().get("tmA");
        assertEquals("A", tmA.buffer());
        assertEquals(List.of(64L, 64L), tmA.dims());
        assertEquals(List.of(256L), tmA.strides());
        assertEquals(List.of(16, 16), tmA.box());
        assertEquals(TensorMap.Swizzle.NONE, tmA.swizzle());
        assertEquals(
                List.of(
                        new BufferAddress("in"),
                        new BufferAddress("out"),
                        new Scalar(ElementType.U32, 1024),
                        new TensorMapParam("tmA")),
                launch.params());
        assertEquals(List.of("out"), launch.dump());
        assertEquals(List.of(), launch.warnings(), "'about' is a note, far from every key");
    }

    /** Reference launch files give rank-1 maps one unused stride (the driver binding needs it). */
    @Test
    void rankOneTensorMapDropsItsUnusedStrideWithAWarning() {
        LaunchFile launch = LaunchFile.parse("{\"grid\": [1], \"block\": [32], \"buffers\": {\"a\": {\"type\": "
                + "\"f32\", \"count\": 64}}, \"tensorMaps\": {\"t\": {\"buffer\": \"a\", \"type\": \"f32\", "
                + "\"dims\": [64], \"strides\": [256], \"box\": [16]}}}");
        assertEquals(List.of(), launch.tensorMaps().get("t").strides());
        assertEquals(List.of("tensorMaps.t.strides: a rank-1 tensor map has no strides; ignored"), launch.warnings());
    }

    @Test
    void defaults() {
        LaunchFile launch = LaunchFile.parse("{\"grid\": [2], \"block\": [32, 2], \"buffers\": {\"a\": {\"type\": \"u8\", \"count\": 3}, \"b\": {\"type\": \"b16\", \"values\": [1]}}}");
        assertEquals(Optional.empty(), launch.kernel());
        assertEquals(new Dim3(2, 1, 1), launch.grid());
        assertEquals(new Dim3(32, 2, 1), launch.block());
        assertEquals(Optional.empty(), launch.cluster());
        assertEquals(Dim3.ONE, launch.clusterOrDefault());
        assertEquals(0, launch.sharedBytes());
        assertEquals(new BufferSpec(ElementType.U8, 3, new BufferInit.Constant(0)), launch.buffers().get("a"));
        assertEquals(ElementType.B16, launch.buffers().get("b").type());
        assertEquals(List.of("a", "b"), launch.dump(), "every buffer, in order");
        assertEquals(List.of(), launch.params());
        assertEquals(Tolerance.EXACT, launch.tolerance());
    }

    @Test
    void scalarParamsKeepRawBits() {
        LaunchFile launch =
                LaunchFile.parse(
                        "{\"grid\": [1], \"block\": [1], \"params\": [{\"s32\": -1}, {\"u64\": 18446744073709551615},"
                                + " {\"f32\": 0.1}, {\"f64\": -0.0}, {\"s64\": -9223372036854775808}, {\"u32\": 4294967295},"
                                + " {\"f32\": NaN}]}");
        assertEquals(
                List.of(
                        new Scalar(ElementType.S32, 0xFFFFFFFFL),
                        new Scalar(ElementType.U64, -1L),
                        new Scalar(ElementType.F32, Float.floatToRawIntBits(0.1f)),
                        new Scalar(ElementType.F64, Double.doubleToRawLongBits(-0.0)),
                        new Scalar(ElementType.S64, Long.MIN_VALUE),
                        new Scalar(ElementType.U32, 0xFFFFFFFFL),
                        new Scalar(ElementType.F32, 0x7FC00000L)),
                launch.params());
        Scalar f32 = (Scalar) launch.params().get(2);
        assertEquals(4, f32.byteSize());
        assertEquals(List.of((byte) 0xCD, (byte) 0xCC, (byte) 0xCC, (byte) 0x3D), toList(f32.littleEndianBytes()));
        assertEquals(128, new TensorMapParam("t").byteSize());
        assertEquals(8, new BufferAddress("b").byteSize());
    }

    @Test
    void structMembersAreLaidOutAsInC() {
        LaunchFile launch = LaunchFile.parse("{\"grid\": [1], \"block\": [1], \"buffers\": {\"A\": {\"type\": \"u16\", \"count\": 64}},"
                + " \"tensorMaps\": {\"tm\": {\"buffer\": \"A\", \"type\": \"u16\", \"dims\": [64], \"box\": [64]}},"
                + " \"params\": [{\"struct\": [{\"u16\": 15360}, \"A\", {\"u8\": 7}, {\"tensorMap\": \"tm\"}, {\"s32\": -1}, {\"zeros\": 60}]}]}");
        ParamValue.Struct struct = (ParamValue.Struct) launch.params().get(0);
        // half at 0, pointer at 8, char at 16, CUtensorMap (alignas 64) at 64, int at 192, padding to 256
        assertEquals(List.of(0, 8, 16, 64, 192, 196), java.util.Arrays.stream(struct.offsets()).boxed().toList());
        assertEquals(256, struct.byteSize());
        assertEquals(64, struct.alignment());
        assertEquals(0, new ParamValue.Struct(List.of()).byteSize());
    }

    private static List<Byte> toList(byte[] bytes) {
        java.util.ArrayList<Byte> list = new java.util.ArrayList<>();
        for (byte b : bytes) {
            list.add(b);
        }
        return list;
    }

    @Test
    void misspeltKeysGiveWarnings() {
        LaunchFile launch =
                LaunchFile.parse(
                        "{\"grid\": [1], \"block\": [1], \"bufers\": {}, \"SharedBytes\": 4, \"about\": \"x\", \"tags\": [\"a\"],"
                                + " \"buffers\": {\"a\": {\"type\": \"u8\", \"cout\": 3, \"values\": [1], \"note\": \"n\"}},"
                                + " \"tensorMaps\": {}}");
        assertEquals(
                List.of(
                        "unknown key 'bufers' — did you mean 'buffers'?",
                        "unknown key 'SharedBytes' — did you mean 'sharedBytes'?",
                        "buffers.a: unknown key 'cout' — did you mean 'count'?"),
                launch.warnings());
        assertEquals(0, launch.sharedBytes(), "a misspelt key is still ignored");
    }

    @Test
    void tolerances() {
        LaunchFile launch =
                LaunchFile.parse(
                        "{\"grid\": [1], \"block\": [1], \"tolerance\": 1, \"buffers\": {"
                                + "\"a\": {\"type\": \"f32\", \"count\": 1, \"tolerance\": 2},"
                                + "\"b\": {\"type\": \"f64\", \"count\": 1, \"tolerance\": {\"ulps\": 3}},"
                                + "\"c\": {\"type\": \"f32\", \"count\": 1, \"tolerance\": \"1e-5 relative\"},"
                                + "\"d\": {\"type\": \"s32\", \"count\": 1, \"tolerance\": 4},"
                                + "\"e\": {\"type\": \"f32\", \"count\": 1, \"tolerance\": {\"rel\": 0.001}},"
                                + "\"f\": {\"type\": \"f32\", \"count\": 1}}}");
        Tolerance tolerance = launch.tolerance();
        assertEquals(List.of(Tolerance.Bound.ulps(2)), tolerance.boundsFor("a"));
        assertEquals(List.of(Tolerance.Bound.ulps(3)), tolerance.boundsFor("b"));
        assertEquals(List.of(Tolerance.Bound.ulps(1)), tolerance.boundsFor("c"));
        assertEquals(List.of(Tolerance.Bound.ulps(1)), tolerance.boundsFor("f"));
        assertEquals(
                List.of(
                        "buffers.c.tolerance: unsupported tolerance \"1e-5 relative\"" + FORMS,
                        "buffers.d.tolerance: ignored, s32 elements are always compared exactly",
                        "buffers.e.tolerance: unsupported tolerance {\"rel\":0.001}" + FORMS),
                launch.warnings());
    }

    private static final String FORMS = " ignored (expected a number of ulps, or {\"ulps\": n} / {\"absolute\": d} / {\"relative\": d} with optional \"elements\": [from, to] and \"source\")";

    static List<String[]> badFiles() {
        String ok = "\"grid\": [1], \"block\": [1]";
        return List.of(
                new String[] {"[1, 2]", "expected a JSON object at the top level, got an array"},
                new String[] {"{\"block\": [1]}", "grid: missing (expected 1 to 3 positive integers)"},
        new String[] {"{\"grid\": [1], \"blok\": [1]}", "block: missing (expected 1 to 3 positive integers; is 'blok' a misspelling?)"},
        new String[] {"{\"grid\": [1], \"block\": [1], \"buffers\": {\"a\": {\"type\": \"u8\", \"cout\": 1}}}", "buffers.a: expected 'values', or 'count' with an optional 'init' (is 'cout' a misspelling?)"},
                new String[] {"{\"grid\": [1, 2, 3, 4], \"block\": [1]}", "grid: expected 1 to 3 positive integers, got [1,2,3,4]"},
                new String[] {"{\"grid\": [0], \"block\": [1]}", "grid[0]: expected a positive integer (at most 2147483647), got 0"},
                new String[] {"{\"grid\": 4, \"block\": [1]}", "grid: expected 1 to 3 positive integers, got 4"},
                new String[] {"{\"grid\": [1], \"block\": [1.5]}", "block[0]: expected a positive integer (at most 2147483647), got 1.5"},
                new String[] {"{\"grid\": [1], \"block\": [1024, 2]}", "block: [1024, 2, 1] is 2048 threads, more than the 1024 a CTA can have"},
                new String[] {"{\"grid\": [1], \"block\": [1, 1, 65]}", "block: x and y are at most 1024 and z at most 64, got [1, 1, 65]"},
                new String[] {"{\"grid\": [1, 70000], \"block\": [1]}", "grid: y and z are at most 65535, got [1, 70000, 1]"},
                new String[] {"{\"grid\": [3], \"block\": [1], \"cluster\": [2]}", "cluster: grid [3, 1, 1] is not a whole number of clusters [2, 1, 1]"},
                new String[] {"{\"grid\": [16], \"block\": [1], \"cluster\": [16]}", "cluster: [16, 1, 1] is 16 CTAs, more than the portable limit of 8"},
                new String[] {"{" + ok + ", \"sharedBytes\": -1}", "sharedBytes: expected a non-negative integer, got -1"},
                new String[] {"{" + ok + ", \"kernel\": 7}", "kernel: expected a string, got 7"},
                new String[] {"{" + ok + ", \"buffers\": {\"in\": {\"type\": \"s32\", \"count\": \"x\"}}}", "buffers.in.count: expected a non-negative integer, got \"x\""},
                new String[] {"{" + ok + ", \"buffers\": {\"in\": {\"type\": \"s32\", \"count\": -4}}}", "buffers.in.count: expected a non-negative integer, got -4"},
                new String[] {"{" + ok + ", \"buffers\": {\"in\": {\"count\": 4}}}", "buffers.in.type: missing (expected an element type such as \"s32\")"},
                new String[] {"{" + ok + ", \"buffers\": {\"in\": {\"type\": \"int\", \"count\": 4}}}", "buffers.in.type: unknown element type 'int' (expected one of u8, s8, u16, s16, u32, s32, u64, s64, f32, f64, b8, b16, b32, b64)"},
                new String[] {"{" + ok + ", \"buffers\": {\"in\": {\"type\": \"s32\"}}}", "buffers.in: expected 'values', or 'count' with an optional 'init'"},
                new String[] {"{" + ok + ", \"buffers\": {\"in\": {\"type\": \"u8\", \"count\": 2, \"init\": 256}}}", "buffers.in.init: 256 is out of range for u8 (0 to 255)"},
                new String[] {"{" + ok + ", \"buffers\": {\"in\": {\"type\": \"u32\", \"count\": 2, \"init\": -1}}}", "buffers.in.init: -1 is out of range for u32 (0 to 4294967295)"},
                new String[] {"{" + ok + ", \"buffers\": {\"in\": {\"type\": \"s32\", \"count\": 2, \"init\": 2.5}}}", "buffers.in.init: expected an integer for s32, got 2.5"},
                new String[] {"{" + ok + ", \"buffers\": {\"in\": {\"type\": \"f32\", \"count\": 2, \"init\": 1e39}}}", "buffers.in.init: 1.0E39 is out of range for f32"},
                new String[] {"{" + ok + ", \"buffers\": {\"in\": {\"type\": \"s8\", \"values\": [1, -129]}}}", "buffers.in.values[1]: -129 is out of range for s8 (-128 to 127)"},
                new String[] {"{" + ok + ", \"buffers\": {\"in\": {\"type\": \"s8\", \"values\": [1, \"2\"]}}}", "buffers.in.values[1]: expected an integer for s8, got \"2\""},
                new String[] {"{" + ok + ", \"buffers\": {\"in\": {\"type\": \"u64\", \"values\": [18446744073709551616]}}}", "buffers.in.values[0]: 18446744073709551616 is out of range for u64 (0 to 18446744073709551615)"},
                new String[] {"{" + ok + ", \"buffers\": {\"in\": {\"type\": \"s32\", \"count\": 4, \"init\": \"itoa\"}}}", "buffers.in.init: expected a number, \"iota\" or {\"random\": seed}, got \"itoa\" — did you mean 'iota'?"},
                new String[] {"{" + ok + ", \"buffers\": {\"in\": {\"type\": \"s32\", \"count\": 4, \"init\": {\"random\": 1.5}}}}", "buffers.in.init.random: expected an integer seed between -2^63 and 2^64-1, got 1.5"},
                new String[] {"{" + ok + ", \"buffers\": {\"in\": {\"type\": \"s32\", \"count\": 4, \"init\": {\"seed\": 1}}}}", "buffers.in.init.random: missing (expected {\"random\": seed} with an integer seed)"},
                new String[] {"{" + ok + ", \"buffers\": {\"in\": {\"type\": \"s32\", \"count\": 2, \"values\": [1, 2, 3]}}}", "buffers.in.count: 2 does not match the 3 values given"},
                new String[] {"{" + ok + ", \"buffers\": {\"in\": {\"type\": \"s32\", \"init\": 0, \"values\": [1]}}}", "buffers.in.init: a buffer gives either 'values' or 'count' and 'init', not both"},
                new String[] {"{" + ok + ", \"buffers\": [1]}", "buffers: expected an object, got [1]"},
                new String[] {"{" + ok + ", \"buffers\": {\"big\": {\"type\": \"f64\", \"count\": 1000000000}}}", "buffers.big.count: 1000000000 elements of f64 exceed the buffer size limit of 2147483639 bytes"},
                new String[] {"{" + ok + ", \"buffers\": {\"in\": {\"type\": \"s32\", \"count\": 1}}, \"params\": [\"in\", 1, \"foo\"]}", "params[1]: expected a buffer name, a scalar like {\"u32\": 1024}, {\"tensorMap\": name} or {\"struct\": [...]}, got 1"},
                new String[] {"{" + ok + ", \"buffers\": {\"in\": {\"type\": \"s32\", \"count\": 1}}, \"params\": [\"in\", {\"u32\": 1}, \"foo\"]}", "params[2]: buffer 'foo' is not declared in buffers"},
                new String[] {"{" + ok + ", \"buffers\": {\"input\": {\"type\": \"s32\", \"count\": 1}}, \"params\": [\"inptu\"]}", "params[0]: buffer 'inptu' is not declared in buffers — did you mean 'input'?"},
                new String[] {"{" + ok + ", \"params\": [{\"u32\": 4294967296}]}", "params[0].u32: 4294967296 is out of range for u32 (0 to 4294967295)"},
                new String[] {"{" + ok + ", \"params\": [{\"s32\": 1.5}]}", "params[0].s32: expected an integer for s32, got 1.5"},
                new String[] {"{" + ok + ", \"params\": [{\"u16\": 1}]}", "params[0]: unknown parameter kind 'u16' (expected one of u32, s32, u64, s64, f32, f64, tensorMap, struct) — did you mean 'u32'?"},
                new String[] {"{" + ok + ", \"params\": [{\"u32\": 1, \"s32\": 2}]}", "params[0]: expected a buffer name, a scalar like {\"u32\": 1024}, {\"tensorMap\": name} or {\"struct\": [...]}, got an object with 2 keys"},
                new String[] {"{" + ok + ", \"params\": [{\"f32\": \"1.5\"}]}", "params[0].f32: expected a number for f32, got \"1.5\""},
                new String[] {"{" + ok + ", \"params\": [{\"struct\": [{\"u16\": 1}, {\"half\": 2}]}]}", "params[0].struct[1]: unknown member kind 'half' (expected one of u8, s8, u16, s16, u32, s32, u64, s64, f32, f64, tensorMap, struct, zeros)"},
                new String[] {"{" + ok + ", \"params\": [{\"struct\": [{\"zeros\": 0}]}]}", "params[0].struct[0].zeros: expected a positive byte count, got 0"},
                new String[] {"{" + ok + ", \"params\": [{\"zeros\": 4}]}", "params[0]: unknown parameter kind 'zeros' (expected one of u32, s32, u64, s64, f32, f64, tensorMap, struct)"},
                new String[] {"{" + ok + ", \"params\": [{\"struct\": [\"nope\"]}]}", "params[0].struct[0]: buffer 'nope' is not declared in buffers"},
                new String[] {"{" + ok + ", \"params\": [{\"struct\": [{\"zeros\": 40000}]}]}", "params[0].struct: the struct is larger than the 32764 bytes kernel parameters may take"},
                new String[] {"{" + ok + ", \"params\": [{\"struct\": [{\"zeros\": 2147483647}, {\"zeros\": 2147483647}]}]}", "params[0].struct: the struct is larger than the 32764 bytes kernel parameters may take"},
                new String[] {"{" + ok + ", \"params\": [{\"tensorMap\": \"tm\"}]}", "params[0]: tensor map 'tm' is not declared in tensorMaps"},
                new String[] {"{" + ok + ", \"params\": \"in\"}", "params: expected an array, got \"in\""},
                new String[] {"{" + ok + ", \"buffers\": {\"a\": {\"type\": \"s32\", \"count\": 1}}, \"dump\": [\"b\"]}", "dump[0]: buffer 'b' is not declared in buffers — did you mean 'a'?"},
                new String[] {"{" + ok + ", \"buffers\": {\"a\": {\"type\": \"s32\", \"count\": 1}}, \"dump\": [\"a\", \"a\"]}", "dump[1]: buffer 'a' is listed twice"},
                new String[] {"{" + ok + ", \"buffers\": {\"a\": {\"type\": \"s32\", \"count\": 1}}, \"dump\": \"a\"}", "dump: expected an array, got \"a\""},
                new String[] {"{" + ok + ", \"tensorMaps\": {\"tm\": {\"buffer\": \"A\", \"type\": \"f32\", \"dims\": [64], \"box\": [16]}}}", "tensorMaps.tm.buffer: buffer 'A' is not declared in buffers"},
                new String[] {"{" + ok + ", \"buffers\": {\"A\": {\"type\": \"f32\", \"count\": 100}}, \"tensorMaps\": {\"tm\": {\"buffer\": \"A\", \"type\": \"f32\", \"dims\": [16, 16], \"strides\": [64], \"box\": [16, 16]}}}", "tensorMaps.tm: the tensor spans 1024 bytes but buffer 'A' has 400"},
                new String[] {"{" + ok + ", \"buffers\": {\"A\": {\"type\": \"f32\", \"count\": 4096}}, \"tensorMaps\": {\"tm\": {\"buffer\": \"A\", \"type\": \"f32\", \"dims\": [64, 64], \"strides\": [256], \"box\": [300, 16]}}}", "tensorMaps.tm.box[0]: must be between 1 and 256, got 300"},
                new String[] {"{" + ok + ", \"buffers\": {\"A\": {\"type\": \"f32\", \"count\": 4096}}, \"tensorMaps\": {\"tm\": {\"buffer\": \"A\", \"type\": \"f32\", \"dims\": [64, 64], \"box\": [16, 16]}}}", "tensorMaps.tm.strides: expected 1 byte strides (one for each dimension after the first) for rank 2, got 0"},
                new String[] {"{" + ok + ", \"buffers\": {\"A\": {\"type\": \"f32\", \"count\": 4096}}, \"tensorMaps\": {\"tm\": {\"buffer\": \"A\", \"type\": \"f32\", \"dims\": [64, 64], \"strides\": [256], \"box\": [16, 16], \"swizzle\": \"128b\"}}}", "tensorMaps.tm.swizzle: expected one of none, 32B, 64B, 128B, got \"128b\" — did you mean '128B'?"},
                new String[] {"{" + ok + ", \"buffers\": {\"A\": {\"type\": \"f32\", \"count\": 4096}}, \"tensorMaps\": {\"tm\": {\"buffer\": \"A\", \"dims\": [64], \"box\": [16]}}}", "tensorMaps.tm.type: missing (expected an element type such as \"f32\")"},
                new String[] {"{" + ok + ", \"buffers\": {\"A\": {\"type\": \"f32\", \"count\": 4096}}, \"tensorMaps\": {\"tm\": {\"buffer\": \"A\", \"type\": \"s8\", \"dims\": [64], \"box\": [16]}}}", "tensorMaps.tm.type: a tensor map element type is one of u8, u16, u32, s32, u64, s64, f32, f64, not s8"},
                new String[] {"{\"grid\": [1], \"block\": [1], \"grid\": [2]}", "1:35: malformed JSON: duplicate key 'grid'"},
                new String[] {"", "1:1: malformed JSON: the input is empty"},
                new String[] {"{\"grid\": [1], \"block\": [1]} {}", "1:29: malformed JSON: unexpected text after the end of the JSON value"},
                new String[] {"{\"grid\": [1], \"block\": [1],}", "1:28: malformed JSON: unexpected character '}': was expecting double-quote to start field name"},
                new String[] {"{\"grid\": [1], \"block\": [1]", "1:27: malformed JSON: unexpected end of input (an object, array or string is not closed)"},
                new String[] {"{'grid': [1]}", "1:2: malformed JSON: unexpected character ''': was expecting double-quote to start field name"},
                new String[] {"{\"grid\": [1], \"block\": tru}", "1:24: malformed JSON: unrecognized token 'tru': was expecting (JSON String, Number (or 'NaN'/'+INF'/'-INF'), Array, Object or token 'null', 'true' or 'false')"});
    }

    @ParameterizedTest
    @MethodSource("badFiles")
    void badLaunchFilesSayWhereAndWhat(String json, String expectedMessage) {
        LaunchException e = assertThrows(LaunchException.class, () -> LaunchFile.parse(json));
        assertEquals(expectedMessage, e.getMessage());
        assertFalse(e.getMessage().contains("Exception"), "no class names");
        assertFalse(e.getMessage().contains("jackson"), "no library names");
        assertFalse(e.getMessage().contains("Source:"), "no source excerpts");
        assertTrue(e.getStackTrace().length == 0, "messages for people, not stack traces");
    }

    @Test
    void fileErrorsStartWithTheFileName(@TempDir Path dir) throws Exception {
        LaunchException malformed =
                assertThrows(LaunchException.class, () -> LaunchFile.read(resource("malformed.json")));
        assertTrue(
                malformed.getMessage().endsWith("malformed.json: 4:3: malformed JSON: unexpected character '\"': was expecting comma to separate Object entries"),
                malformed.getMessage());

        Path bad = dir.resolve("launch.json");
        Files.writeString(bad, "{\"grid\": [1], \"block\": [1], \"params\": [\"nope\"]}");
        LaunchException e = assertThrows(LaunchException.class, () -> LaunchFile.read(bad));
        assertEquals(bad + ": params[0]: buffer 'nope' is not declared in buffers", e.getMessage());
        assertEquals("params[0]", e.path());
        assertEquals("buffer 'nope' is not declared in buffers", e.problem());

        LaunchException missing =
                assertThrows(LaunchException.class, () -> LaunchFile.read(dir.resolve("absent.json")));
        assertEquals(dir.resolve("absent.json") + ": no such file", missing.getMessage());

        Path binary = dir.resolve("binary.json");
        Files.write(binary, new byte[] {(byte) 0xFF, (byte) 0xFE, 0x7B});
        assertEquals(
                binary + ": not UTF-8 text",
                assertThrows(LaunchException.class, () -> LaunchFile.read(binary)).getMessage());
    }

    @Test
    void pythonJsonLiteralsAreAccepted() throws IOException {
        LaunchFile launch =
                LaunchFile.parse(
                        TestData.launchWithBuffers(
                                "{\"f\": {\"type\": \"f64\", \"values\": [NaN, Infinity, -Infinity, \"NaN\", -0.0, 1e3]},"
                                        + " \"i\": {\"type\": \"s16\", \"values\": [1e3, -2.0]}}"));
        BufferSpec f = launch.buffers().get("f");
        assertTrue(Double.isNaN(Double.longBitsToDouble(f.initialBits(0))));
        assertEquals(Double.POSITIVE_INFINITY, Double.longBitsToDouble(f.initialBits(1)));
        assertEquals(Double.NEGATIVE_INFINITY, Double.longBitsToDouble(f.initialBits(2)));
        assertEquals(Double.doubleToRawLongBits(-0.0), f.initialBits(4));
        assertEquals(1000L, launch.buffers().get("i").initialBits(0));
        assertEquals(0xFFFEL, launch.buffers().get("i").initialBits(1));
    }
}
