package io.ptxrun.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The im2col fields of a launch file's tensor maps, against what cuTensorMapEncodeIm2col accepted
 * and refused on an H100 (driver 580) for a u32 tensor with 4 channels and 8 pixels along each
 * spatial dimension: corners of 16, 8 and 5 signed bits for rank 3, 4 and 5, a pixel box holding
 * at least one pixel (lowerCorner <= 7 + upperCorner), 16-byte channel rows, 1 to 1024 pixels.
 */
class TensorMapIm2colTest {
    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of(3, List.of(-32768), List.of(0), 4, 16, true),
                Arguments.of(3, List.of(-32769), List.of(0), 4, 16, false),
                Arguments.of(3, List.of(0), List.of(32767), 4, 16, true),
                Arguments.of(3, List.of(0), List.of(32768), 4, 16, false),
                Arguments.of(4, List.of(-128, 0), List.of(0, 0), 4, 16, true),
                Arguments.of(4, List.of(-129, 0), List.of(0, 0), 4, 16, false),
                Arguments.of(4, List.of(0, 0), List.of(127, 0), 4, 16, true),
                Arguments.of(4, List.of(0, 0), List.of(128, 0), 4, 16, false),
                Arguments.of(5, List.of(-16, 0, 0), List.of(0, 0, 0), 4, 16, true),
                Arguments.of(5, List.of(-17, 0, 0), List.of(0, 0, 0), 4, 16, false),
                Arguments.of(5, List.of(0, 0, 0), List.of(15, 0, 0), 4, 16, true),
                Arguments.of(5, List.of(0, 0, 0), List.of(16, 0, 0), 4, 16, false),
                Arguments.of(4, List.of(7, 0), List.of(0, 0), 4, 16, true),
                Arguments.of(4, List.of(8, 0), List.of(0, 0), 4, 16, false),
                Arguments.of(4, List.of(0, 0), List.of(-7, 0), 4, 16, true),
                Arguments.of(4, List.of(0, 0), List.of(-8, 0), 4, 16, false),
                Arguments.of(4, List.of(3, 0), List.of(-4, 0), 4, 16, true),
                Arguments.of(4, List.of(4, 0), List.of(-4, 0), 4, 16, false),
                Arguments.of(4, List.of(-3, 0), List.of(-10, 0), 4, 16, true),
                Arguments.of(4, List.of(-3, 0), List.of(-11, 0), 4, 16, false),
                Arguments.of(4, List.of(0, 0), List.of(0, 0), 2, 16, false),
                Arguments.of(4, List.of(0, 0), List.of(0, 0), 256, 16, true),
                Arguments.of(4, List.of(0, 0), List.of(0, 0), 257, 16, false),
                Arguments.of(4, List.of(0, 0), List.of(0, 0), 4, 1024, true),
                Arguments.of(4, List.of(0, 0), List.of(0, 0), 4, 1025, false));
    }

    @ParameterizedTest(name = "rank {0}, corners {1} {2}, {3} channels, {4} pixels: accepted {5}")
    @MethodSource("cases")
    void agreesWithTheDriver(int rank, List<Integer> lower, List<Integer> upper, int channels, int pixels,
                             boolean accepted) {
        StringBuilder dims = new StringBuilder("4");
        StringBuilder strides = new StringBuilder();
        long stride = 16;
        for (int d = 1; d < rank; d++) {
            dims.append(", 8");
            strides.append(d > 1 ? ", " : "").append(stride);
            stride *= 8;
        }
        String json = "{\"grid\": [1], \"block\": [1], \"buffers\": {\"A\": {\"type\": \"u32\", \"count\": 32768}},"
                + " \"tensorMaps\": {\"tm\": {\"buffer\": \"A\", \"type\": \"u32\", \"dims\": [" + dims + "],"
                + " \"strides\": [" + strides + "], \"im2col\": {\"lowerCorner\": " + lower + ", \"upperCorner\": "
                + upper + ", \"channelsPerPixel\": " + channels + ", \"pixelsPerColumn\": " + pixels + "}}}}";
        if (accepted) {
            assertEquals(rank, LaunchFile.parse(json).tensorMaps().get("tm").dims().size());
        } else {
            assertThrows(LaunchException.class, () -> LaunchFile.parse(json));
        }
    }
}
