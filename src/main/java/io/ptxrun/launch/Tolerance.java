package io.ptxrun.launch;

import com.google.common.collect.ImmutableMap;
import java.util.Map;

/**
 * How far float elements of a result may be from the expected ones, in units in the last place
 * of the element type. Launch files for approximate math (for example {@code ex2.approx}) carry
 * {@code "tolerance": 2} or {@code {"ulps": 2}}, at the top level (every float buffer) or in one
 * buffer. Integer elements are always compared exactly.
 */
public record Tolerance(int defaultUlps, Map<String, Integer> ulpsByBuffer) {
    public static final Tolerance EXACT = new Tolerance(0, Map.of());

    public Tolerance {
        if (defaultUlps < 0) {
            throw new LaunchException(
                    "tolerance", "expected a non-negative number of ulps, got " + defaultUlps);
        }
        ulpsByBuffer = ImmutableMap.copyOf(ulpsByBuffer);
        ulpsByBuffer.forEach(
                (name, ulps) -> {
                    if (ulps < 0) {
                        throw new LaunchException(
                                JsonPaths.key(JsonPaths.key("buffers", name), "tolerance"),
                                "expected a non-negative number of ulps, got " + ulps);
                    }
                });
    }

    /** The same tolerance for every float buffer. */
    public static Tolerance ulps(int ulps) {
        return new Tolerance(ulps, Map.of());
    }

    /** Ulps allowed for elements of the buffer named {@code buffer}; 0 means bit-exact. */
    public int ulpsFor(String buffer) {
        return ulpsByBuffer.getOrDefault(buffer, defaultUlps);
    }
}
