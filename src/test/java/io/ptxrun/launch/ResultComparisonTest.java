package io.ptxrun.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ResultComparisonTest {

    private static RunResult result(RunStatus status, String json) {
        return ResultJson.read("{\"status\": \"" + status + "\", \"buffers\": " + json + "}");
    }

    @Test
    void equalResultsHaveNoDifferences() {
        RunResult a = result(RunStatus.OK, "{\"o\": {\"type\": \"s32\", \"values\": [1, -2]}}");
        assertEquals(List.of(), ResultComparison.compare(a, a));
    }

    @Test
    void statusMissingBufferTypeCountAndElements() {
        RunResult expected =
                result(RunStatus.OK, "{\"a\": {\"type\": \"s32\", \"values\": [1, 2, 3]}, \"b\": {\"type\": \"u8\", \"values\": [1]},"
                        + " \"c\": {\"type\": \"u32\", \"values\": [7]}, \"d\": {\"type\": \"u64\", \"values\": [18446744073709551615]}}");
        RunResult actual =
                result(RunStatus.TRAP, "{\"a\": {\"type\": \"s32\", \"values\": [1, -2]}, \"c\": {\"type\": \"s32\", \"values\": [7]},"
                        + " \"d\": {\"type\": \"b64\", \"values\": [0]}, \"extra\": {\"type\": \"u8\", \"values\": []}}");
        assertEquals(
                List.of(
                        "status: expected ok, got trap",
                        "buffer 'a': expected 3 elements, got 2",
                        "a[1]: expected 2, got -2",
                        "buffer 'b': missing from the result",
                        "buffer 'c': expected type u32, got s32",
                        "d[0]: expected 18446744073709551615, got 0"),
                ResultComparison.compare(expected, actual));
    }

    @Test
    void floatsCompareBitsExceptNaN() {
        RunResult expected = result(RunStatus.OK, "{\"f\": {\"type\": \"f32\", \"values\": [0.1, \"NaN\", 0.0, 1.0, \"NaN\"]}}");
        RunResult actual = result(RunStatus.OK, "{\"f\": {\"type\": \"f32\", \"values\": [0.1, \"NaN\", -0.0, 1.0000001, 2.0]}}");
        assertEquals(
                List.of(
                        "f[2]: expected 0.0, got -0.0 (0 ulps apart)",
                        "f[3]: expected 1.0, got 1.0000001 (1 ulps apart)",
                        "f[4]: expected NaN, got 2.0"),
                ResultComparison.compare(expected, actual));
    }

    @Test
    void toleranceInUlpsPerBuffer() {
        RunResult expected =
                result(RunStatus.OK, "{\"f\": {\"type\": \"f32\", \"values\": [1.0, 1.0, -0.0]}, \"g\": {\"type\": \"f64\", \"values\": [1.0]},"
                        + " \"i\": {\"type\": \"s32\", \"values\": [5]}}");
        RunResult actual =
                result(RunStatus.OK, "{\"f\": {\"type\": \"f32\", \"values\": [1.0000002, 0.99999994, 1e-45]}, \"g\": {\"type\": \"f64\", \"values\": [1.0000000000000004]},"
                        + " \"i\": {\"type\": \"s32\", \"values\": [6]}}");
        Tolerance tolerance = new Tolerance(1, Map.of("f", 2));
        assertEquals(
                List.of(
                        "g[0]: expected 1.0, got 1.0000000000000004 (2 ulps apart, tolerance 1)",
                        "i[0]: expected 5, got 6"),
                ResultComparison.compare(expected, actual, tolerance));
        assertEquals(List.of("i[0]: expected 5, got 6"), ResultComparison.compare(expected, actual, Tolerance.ulps(2)));
    }

    @Test
    void toleranceComesFromTheLaunchFile() {
        LaunchFile launch =
                LaunchFile.parse(TestData.launchWithBuffers("{\"y\": {\"type\": \"f32\", \"count\": 1, \"tolerance\": {\"ulps\": 3}}}"));
        RunResult expected = result(RunStatus.OK, "{\"y\": {\"type\": \"f32\", \"values\": [0.5]}}");
        RunResult actual = result(RunStatus.OK, "{\"y\": {\"type\": \"f32\", \"values\": [0.50000018]}}");
        assertEquals(List.of(), ResultComparison.compare(expected, actual, launch.tolerance()));
        assertEquals(1, ResultComparison.compare(expected, actual).size());
    }

    @Test
    void longListsAreCut() {
        StringBuilder zeros = new StringBuilder();
        StringBuilder ones = new StringBuilder();
        for (int i = 0; i < 25; i++) {
            zeros.append(i == 0 ? "" : ",").append(0);
            ones.append(i == 0 ? "" : ",").append(1);
        }
        List<String> differences =
                ResultComparison.compare(
                        result(RunStatus.OK, "{\"o\": {\"type\": \"u16\", \"values\": [" + zeros + "]}}"),
                        result(RunStatus.OK, "{\"o\": {\"type\": \"u16\", \"values\": [" + ones + "]}}"));
        assertEquals(ResultComparison.MAX_LISTED_PER_BUFFER + 1, differences.size());
        assertEquals("o[0]: expected 0, got 1", differences.get(0));
        assertEquals("o: 15 more elements differ (25 of 25 in all)", differences.get(differences.size() - 1));
    }

    @Test
    void ulpDistance() {
        assertEquals(0, ResultComparison.ulpDistance(ElementType.F32, 0x80000000L, 0));
        assertEquals(2, ResultComparison.ulpDistance(ElementType.F32, 0x80000001L, 1));
        assertEquals(1, ResultComparison.ulpDistance(ElementType.F32, 0x7F7FFFFFL, 0x7F800000L));
        assertEquals(
                Long.MAX_VALUE,
                ResultComparison.ulpDistance(
                        ElementType.F64, Double.doubleToRawLongBits(Double.MAX_VALUE), Double.doubleToRawLongBits(-Double.MAX_VALUE)));
        Map<String, ResultBuffer> none = new LinkedHashMap<>();
        RunResult empty = new RunResult(Optional.empty(), RunStatus.DEADLOCK, none, List.of(), Map.of());
        assertEquals(List.of("status: expected ok, got deadlock"), ResultComparison.compare(result(RunStatus.OK, "{}"), empty));
    }
}
