package io.ptxrun.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ptxrun.launch.ParamValue.BufferAddress;
import io.ptxrun.launch.ParamValue.Scalar;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class LaunchArgsTest {

    private static LaunchFile launch(String grid, String block, List<String> args, List<String> dump) {
        return LaunchArgs.of(null, grid, block, null, null, args, dump).toLaunchFile();
    }

    @Test
    void sameLaunchAsTheEquivalentLaunchFile() {
        LaunchFile fromFlags =
                LaunchArgs.of(
                                "k",
                                "4,1,1",
                                "256",
                                "2",
                                "1024",
                                List.of(
                                        "in=s32[1024]:iota",
                                        "out=s32[4]:0",
                                        "r=u32[64]:random:7",
                                        "w=f32:[1.0,2.5,-3.0]",
                                        "u32:1024",
                                        "f32:1.5",
                                        "in"),
                                List.of("out"))
                        .toLaunchFile();
        LaunchFile fromFile =
                LaunchFile.parse(
                        "{\"kernel\": \"k\", \"grid\": [4, 1, 1], \"block\": [256], \"cluster\": [2], \"sharedBytes\": 1024,"
                                + " \"buffers\": {"
                                + "  \"in\": {\"type\": \"s32\", \"count\": 1024, \"init\": \"iota\"},"
                                + "  \"out\": {\"type\": \"s32\", \"count\": 4, \"init\": 0},"
                                + "  \"r\": {\"type\": \"u32\", \"count\": 64, \"init\": {\"random\": 7}},"
                                + "  \"w\": {\"type\": \"f32\", \"values\": [1.0, 2.5, -3.0]}},"
                                + " \"params\": [\"in\", \"out\", \"r\", \"w\", {\"u32\": 1024}, {\"f32\": 1.5}, \"in\"],"
                                + " \"dump\": [\"out\"]}");
        assertEquals(fromFile, fromFlags);
    }

    @Test
    void defaultsToOneThreadAndEveryBuffer() {
        LaunchFile launch = launch(null, null, List.of("a=u8[3]", "b=f64[2]:nan"), null);
        assertEquals(Dim3.ONE, launch.grid());
        assertEquals(Dim3.ONE, launch.block());
        assertEquals(Optional.empty(), launch.cluster());
        assertEquals(Optional.empty(), launch.kernel());
        assertEquals(new BufferSpec(ElementType.U8, 3, new BufferInit.Constant(0)), launch.buffers().get("a"));
        assertEquals(0x7FF8000000000000L, launch.buffers().get("b").initialBits(1));
        assertEquals(List.of("a", "b"), launch.dump());
    }

    @Test
    void scalarsAndValuesInEveryNotation() {
        LaunchFile launch =
                launch(
                        "2,3",
                        "32,2,1",
                        List.of(
                                "s32:-5", "u32:0xff", "u64:18446744073709551615", "s64:-0x10", "f64:-inf", "f32:1e-3",
                                "h=s8:[-128, 127, 0x7f]", "e=u16:[]", "z=s16[2]:-0x8000", "q=u64[1]:random:-1"),
                        List.of("h,e", "z"));
        assertEquals(new Dim3(2, 3, 1), launch.grid());
        assertEquals(
                List.of(
                        new Scalar(ElementType.S32, -5),
                        new Scalar(ElementType.U32, 255),
                        new Scalar(ElementType.U64, -1L),
                        new Scalar(ElementType.S64, -16),
                        new Scalar(ElementType.F64, Double.doubleToRawLongBits(Double.NEGATIVE_INFINITY)),
                        new Scalar(ElementType.F32, Float.floatToRawIntBits(1e-3f)),
                        new BufferAddress("h"),
                        new BufferAddress("e"),
                        new BufferAddress("z"),
                        new BufferAddress("q")),
                launch.params());
        assertEquals(BufferSpec.ofValues(ElementType.S8, List.of(0x80L, 0x7FL, 0x7FL)), launch.buffers().get("h"));
        assertEquals(0, launch.buffers().get("e").count());
        assertEquals(0x8000L, launch.buffers().get("z").initialBits(0));
        assertEquals(new BufferInit.Random(-1), launch.buffers().get("q").init());
        assertEquals(List.of("h", "e", "z"), launch.dump());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            textBlock =
                    """
                    in=s32[x]:iota      | --arg in=s32[x]:iota: the element count 'x' is not a non-negative integer
                    in=i32[4]:iota      | --arg in=i32[4]:iota: unknown element type 'i32' (expected one of u8, s8, u16, s16, u32, s32, u64, s64, f32, f64, b8, b16, b32, b64) — did you mean 'u32'?
                    in=s32[4]:itoa      | --arg in=s32[4]:itoa: the initial value 'itoa' is not iota, random:SEED or a value of s32 (expected an integer for s32, got 'itoa')
                    in=u8[4]:256        | --arg in=u8[4]:256: the initial value '256' is not iota, random:SEED or a value of u8 (256 is out of range for u8 (0 to 255))
                    r=u32[4]:random:x   | --arg r=u32[4]:random:x: the random seed 'x' is not an integer between -2^63 and 2^64-1
                    w=f32:[1.0,,2.0]    | --arg w=f32:[1.0,,2.0]: expected a number for f32, got ''
                    w=s32:[1.5]         | --arg w=s32:[1.5]: expected an integer for s32, got '1.5'
                    u32:-1              | --arg u32:-1: -1 is out of range for u32 (0 to 4294967295)
                    u8:1                | --arg u8:1: a scalar parameter is u32, s32, u64, s64, f32 or f64, not u8
                    f32:1e39            | --arg f32:1e39: 1e39 is out of range for f32
                    out                 | --arg out: no buffer 'out' was declared by an earlier --arg
                    =s32[4]             | --arg =s32[4]: expected NAME=TYPE[COUNT]:INIT, NAME=TYPE:[V1,V2,...], TYPE:VALUE or the name of an earlier buffer
                    """)
    void badArgsSayWhatIsWrong(String arg, String expectedMessage) {
        LaunchException e = assertThrows(LaunchException.class, () -> launch(null, null, List.of(arg), null));
        assertEquals(expectedMessage, e.getMessage());
    }

    @Test
    void badShapeAndDumpFlags() {
        assertEquals(
                "--grid 4,x: expected 1 to 3 positive integers separated by commas, got '4,x'",
                assertThrows(LaunchException.class, () -> launch("4,x", null, List.of(), null)).getMessage());
        assertEquals(
                "--block: [64, 32, 1] is 2048 threads, more than the 1024 a CTA can have",
                assertThrows(LaunchException.class, () -> launch(null, "64,32", List.of(), null)).getMessage());
        assertEquals(
                "--cluster: grid [3, 1, 1] is not a whole number of clusters [2, 1, 1]",
                assertThrows(
                                LaunchException.class,
                                () -> LaunchArgs.of(null, "3", null, "2", null, List.of(), null).toLaunchFile())
                        .getMessage());
        assertEquals(
                "--shared-bytes -4: expected a non-negative integer of at most 2147483647",
                assertThrows(
                                LaunchException.class,
                                () -> LaunchArgs.of(null, null, null, null, "-4", List.of(), null).toLaunchFile())
                        .getMessage());
        assertEquals(
                "--dump outt: no buffer 'outt' was declared by an --arg — did you mean 'out'?",
                assertThrows(LaunchException.class, () -> launch(null, null, List.of("out=s32[1]"), List.of("outt")))
                        .getMessage());
        assertEquals(
                "--arg a=u8[1]: buffer 'a' is already declared by an earlier --arg",
                assertThrows(LaunchException.class, () -> launch(null, null, List.of("a=u8[1]", "a=u8[1]"), null))
                        .getMessage());
    }
}
