package io.ptxrun.launch;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Compares a run's result with an expected one (a golden file, typically recorded on hardware),
 * the way the launch format says results are compared: by {@code status} and by the buffers of
 * the expected result. Kernel name, diagnostics, stats, and buffers the expected result does not
 * list are not compared.
 *
 * <p>Integers must match exactly. Floats must have the same bits (so {@code -0.0} differs from
 * {@code 0.0}), except that any NaN matches any NaN (results print every NaN as {@code "NaN"});
 * a {@link Tolerance} may allow float elements to differ within stated bounds.
 */
public final class ResultComparison {
    /** Element differences listed per buffer before the rest are only counted. */
    public static final int MAX_LISTED_PER_BUFFER = 10;

    private ResultComparison() {}

    /** Differences under exact comparison. */
    public static List<String> compare(RunResult expected, RunResult actual) {
        return compare(expected, actual, Tolerance.EXACT);
    }

    /** Human-readable differences, one per line-worthy item; empty when the results agree. */
    public static List<String> compare(RunResult expected, RunResult actual, Tolerance tolerance) {
        List<String> differences = new ArrayList<>();
        if (expected.status() != actual.status()) {
            differences.add("status: expected " + expected.status() + ", got " + actual.status());
        }
        for (Map.Entry<String, ResultBuffer> entry : expected.buffers().entrySet()) {
            String name = entry.getKey();
            ResultBuffer actualBuffer = actual.buffers().get(name);
            if (actualBuffer == null) {
                differences.add("buffer '" + name + "': missing from the result");
                continue;
            }
            compareBuffer(name, entry.getValue(), actualBuffer, tolerance.boundsFor(name), differences);
        }
        return differences;
    }

    private static void compareBuffer(
            String name, ResultBuffer expected, ResultBuffer actual, List<Tolerance.Bound> bounds,
            List<String> differences) {
        ElementType type = expected.type();
        if (type.canonical() != actual.type().canonical()) {
            differences.add(
                    "buffer '" + name + "': expected type " + type + ", got " + actual.type());
            return;
        }
        if (expected.count() != actual.count()) {
            differences.add(
                    "buffer '" + name + "': expected " + expected.count() + " elements, got "
                            + actual.count());
        }
        int common = Math.min(expected.count(), actual.count());
        int mismatches = 0;
        for (int i = 0; i < common; i++) {
            long want = expected.bits(i);
            long got = actual.bits(i);
            if (matches(type, want, got, bounds, i)) {
                continue;
            }
            mismatches++;
            if (mismatches <= MAX_LISTED_PER_BUFFER) {
                differences.add(describe(name, i, type, want, got, bounds));
            }
        }
        if (mismatches > MAX_LISTED_PER_BUFFER) {
            differences.add(
                    name + ": " + (mismatches - MAX_LISTED_PER_BUFFER) + " more elements differ ("
                            + mismatches + " of " + common + " in all)");
        }
    }

    private static boolean matches(ElementType type, long want, long got, List<Tolerance.Bound> bounds, int index) {
        if (want == got) {
            return true;
        }
        if (!type.isFloat()) {
            return false;
        }
        boolean wantNaN = Double.isNaN(type.doubleOf(want));
        boolean gotNaN = Double.isNaN(type.doubleOf(got));
        if (wantNaN || gotNaN) {
            return wantNaN && gotNaN;
        }
        for (Tolerance.Bound b : bounds) {
            if (b.covers(index) && b.accepts(type, want, got)) {
                return true;
            }
        }
        return false;
    }

    private static String describe(
            String name, int index, ElementType type, long want, long got, List<Tolerance.Bound> bounds) {
        String text =
                name + "[" + index + "]: expected " + type.format(want) + ", got " + type.format(got);
        if (type.isFloat()
                && !Double.isNaN(type.doubleOf(want))
                && !Double.isNaN(type.doubleOf(got))) {
            long distance = ulpDistance(type, want, got);
            text +=
                    " (" + (distance == Long.MAX_VALUE ? "very many" : Long.toString(distance))
                            + " ulps apart"
                            + bounds.stream().filter(b -> b.covers(index)).map(b -> ", tolerance " + b.describe())
                                    .reduce("", String::concat)
                            + ")";
        }
        return text;
    }

    /**
     * How many representable values of the float type lie between two non-NaN values (0 for
     * {@code 0.0} and {@code -0.0}); {@code Long.MAX_VALUE} if that does not fit.
     */
    public static long ulpDistance(ElementType type, long a, long b) {
        try {
            return Math.abs(Math.subtractExact(ordered(type, a), ordered(type, b)));
        } catch (ArithmeticException overflow) {
            return Long.MAX_VALUE;
        }
    }

    /** Maps float bits to integers in the same order as the values, both zeros to 0. */
    private static long ordered(ElementType type, long bits) {
        if (type == ElementType.F32) {
            int b = (int) bits;
            return b >= 0 ? b : -(long) (b & 0x7FFFFFFF);
        }
        return bits >= 0 ? bits : -(bits & Long.MAX_VALUE);
    }
}
