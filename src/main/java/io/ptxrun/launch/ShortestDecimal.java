package io.ptxrun.launch;

import com.fasterxml.jackson.core.io.NumberInput;
import com.fasterxml.jackson.core.io.NumberOutput;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * The shortest decimal that reads back as the same {@code float} or {@code double}, in Java's
 * notation ({@code 0.1}, {@code 1.0E23}, {@code 5.0E-324}); {@code NaN}, {@code Infinity} and
 * {@code -Infinity} for the values JSON has no number for.
 *
 * <p>Java 17's {@code Float.toString}/{@code Double.toString} are not always shortest
 * ({@code 2.0E23} prints as {@code 1.9999999999999998E23}), so this uses jackson-core's Schubfach
 * implementation. That one follows the JDK 19 specification, which prints two digits where one
 * would do ({@code 4.9E-324} for {@code Double.MIN_VALUE}, {@code 1.4E-45} for
 * {@code Float.MIN_VALUE}); that only happens for the smallest subnormals, and is corrected here
 * by trying the one-digit neighbours, so that results agree digit for digit with the hardware
 * harness (numpy and Python print {@code 5e-324} and {@code 1e-45}).
 */
public final class ShortestDecimal {
    private ShortestDecimal() {}

    public static String of(float value) {
        if (!Float.isFinite(value)) {
            return nonFinite(value);
        }
        String schubfach = NumberOutput.toString(value, true);
        return shorten(schubfach, new BigDecimal(value), true, Float.floatToRawIntBits(value));
    }

    public static String of(double value) {
        if (!Double.isFinite(value)) {
            return nonFinite(value);
        }
        String schubfach = NumberOutput.toString(value, true);
        return shorten(schubfach, new BigDecimal(value), false, Double.doubleToRawLongBits(value));
    }

    private static String nonFinite(double value) {
        return Double.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity";
    }

    /** Replaces a two-digit result by a one-digit decimal that also round-trips, if there is one. */
    private static String shorten(String schubfach, BigDecimal exact, boolean isFloat, long bits) {
        BigDecimal decimal = new BigDecimal(schubfach).stripTrailingZeros();
        if (decimal.precision() != 2) {
            return schubfach;
        }
        BigDecimal best = null;
        for (RoundingMode mode : new RoundingMode[] {RoundingMode.FLOOR, RoundingMode.CEILING}) {
            BigDecimal candidate = decimal.round(new MathContext(1, mode));
            if (!readsBackAs(candidate, isFloat, bits)) {
                continue;
            }
            if (best == null
                    || candidate.subtract(exact).abs().compareTo(best.subtract(exact).abs()) < 0) {
                best = candidate;
            }
        }
        return best == null ? schubfach : javaNotation(best);
    }

    private static boolean readsBackAs(BigDecimal candidate, boolean isFloat, long bits) {
        String text = candidate.toString();
        return isFloat
                ? Float.floatToRawIntBits(NumberInput.parseFloat(text, true)) == (int) bits
                : Double.doubleToRawLongBits(NumberInput.parseDouble(text, true)) == bits;
    }

    /** One significant digit in the notation of {@code Double.toString}. */
    private static String javaNotation(BigDecimal oneDigit) {
        BigDecimal magnitude = oneDigit.abs();
        String sign = oneDigit.signum() < 0 ? "-" : "";
        if (magnitude.compareTo(new BigDecimal("1E-3")) >= 0
                && magnitude.compareTo(new BigDecimal("1E7")) < 0) {
            String plain = magnitude.toPlainString();
            return sign + (plain.contains(".") ? plain : plain + ".0");
        }
        int exponent = magnitude.precision() - magnitude.scale() - 1;
        return sign + magnitude.unscaledValue() + ".0E" + exponent;
    }
}
