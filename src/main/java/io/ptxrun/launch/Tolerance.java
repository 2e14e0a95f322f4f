package io.ptxrun.launch;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How far float elements of a result may be from the expected ones, for suites that compare with
 * results recorded on hardware: launch files for approximate math (for example
 * {@code ex2.approx}) state the bound the PTX ISA or the CUDA math library gives, at the top level
 * (every float buffer) or in one buffer, optionally for a range of its elements. Integer elements
 * are always compared exactly.
 *
 * @param everyBuffer bounds for float buffers that state none of their own
 * @param byBuffer bounds stated in a buffer
 */
public record Tolerance(List<Bound> everyBuffer, Map<String, List<Bound>> byBuffer) {
    public static final Tolerance EXACT = new Tolerance(List.of(), Map.of());

    public Tolerance {
        everyBuffer = List.copyOf(everyBuffer);
        byBuffer = Collections.unmodifiableMap(new LinkedHashMap<>(byBuffer));
    }

    /** The same bound of {@code ulps} units in the last place for every float buffer. */
    public static Tolerance ulps(long ulps) {
        return new Tolerance(List.of(Bound.ulps(ulps)), Map.of());
    }

    /** The bounds that apply to the buffer named {@code buffer}. */
    public List<Bound> boundsFor(String buffer) {
        return byBuffer.getOrDefault(buffer, everyBuffer);
    }

    /**
     * One allowed distance between an expected and an actual float element, for the elements
     * {@code [from, to)} of a buffer: a number of ulps (representable values between them), an
     * absolute difference, or a difference relative to the expected value (plus one ulp of it: the
     * result's own rounding). An element within any bound that covers it is accepted. The distance
     * is between two results, so for a bound on each result's error from the exact value (as the
     * PTX ISA states them) a launch file states twice that bound, and says so in {@code source}.
     */
    public record Bound(long ulps, double absolute, double relative, int from, int to, String source) {
        public Bound {
            if (ulps < 0 || absolute < 0 || relative < 0 || from < 0 || to < from) {
                throw new IllegalArgumentException("bad tolerance bound");
            }
        }

        public static Bound ulps(long ulps) {
            return new Bound(ulps, 0, 0, 0, Integer.MAX_VALUE, "");
        }

        public boolean covers(int index) {
            return index >= from && index < to;
        }

        /** Whether two non-NaN values of the float type are within this bound. */
        public boolean accepts(ElementType type, long want, long got) {
            if (ulps > 0 && ResultComparison.ulpDistance(type, want, got) <= ulps) {
                return true;
            }
            double w = type.doubleOf(want);
            double g = type.doubleOf(got);
            if (Double.isInfinite(w) || Double.isInfinite(g)) {
                return false;
            }
            double difference = Math.abs(g - w);
            return (absolute > 0 && difference <= absolute)
                    || (relative > 0 && difference <= relative * Math.abs(w) + ulpOf(type, w));
        }

        private static double ulpOf(ElementType type, double v) {
            return type.byteSize() == 8 ? Math.ulp(v) : Math.ulp((float) v);
        }

        /** `2 ulps`, `absolute 2^-19.5`, `relative 2^-21.9`, joined with `or`. */
        public String describe() {
            StringBuilder sb = new StringBuilder();
            if (ulps > 0) {
                sb.append(ulps).append(ulps == 1 ? " ulp" : " ulps");
            }
            if (absolute > 0) {
                sb.append(sb.length() > 0 ? " or " : "").append("absolute ").append(powerOfTwo(absolute));
            }
            if (relative > 0) {
                sb.append(sb.length() > 0 ? " or " : "").append("relative ").append(powerOfTwo(relative));
            }
            return sb.toString();
        }

        private static String powerOfTwo(double v) {
            double e = Math.log(v) / Math.log(2);
            return "2^" + (Math.abs(e - Math.rint(e)) < 1e-9 ? Long.toString((long) Math.rint(e))
                    : String.format("%.2f", e).replaceAll("0+$", ""));
        }
    }
}
