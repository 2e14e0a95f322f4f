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
        Tolerance tolerance = new Tolerance(List.of(Tolerance.Bound.ulps(1)), Map.of("f", List.of(Tolerance.Bound.ulps(2))));
        assertEquals(
                List.of(
                        "g[0]: expected 1.0, got 1.0000000000000004 (2 ulps apart, tolerance 1 ulp)",
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
    void absoluteAndRelativeBoundsOverElementRanges() {
        // Elements 0-1 may differ by 2^-10 absolutely, elements 2-3 by 2^-20 relatively (plus one
        // ulp of the expected value); nothing else is tolerated.
        LaunchFile launch = LaunchFile.parse(TestData.launchWithBuffers("{\"y\": {\"type\": \"f32\", \"count\": 5,"
                + " \"tolerance\": [{\"absolute\": \"2^-10\", \"elements\": [0, 2]},"
                + " {\"relative\": \"2^-20\", \"elements\": [2, 4], \"source\": \"test\"}]}}"));
        RunResult expected = result(RunStatus.OK, "{\"y\": {\"type\": \"f32\", \"values\": [0.0, 1.0, 1024.0, 1024.0, 1.0]}}");
        RunResult within = result(RunStatus.OK,
                "{\"y\": {\"type\": \"f32\", \"values\": [0.0009765625, 0.9990234375, 1024.0010986328125, 1023.9990234375, 1.0]}}");
        assertEquals(List.of(), ResultComparison.compare(expected, within, launch.tolerance()));
        RunResult beyond = result(RunStatus.OK,
                "{\"y\": {\"type\": \"f32\", \"values\": [0.001953125, 1.0, 1024.0029296875, 1024.0, 1.0000001]}}");
        assertEquals(List.of(
                        "y[0]: expected 0.0, got 0.001953125 (989855744 ulps apart, tolerance absolute 2^-10)",
                        "y[2]: expected 1024.0, got 1024.0029 (24 ulps apart, tolerance relative 2^-20)",
                        "y[4]: expected 1.0, got 1.0000001 (1 ulps apart)"),
                ResultComparison.compare(expected, beyond, launch.tolerance()));
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
