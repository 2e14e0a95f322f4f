package io.ptxrun.launch;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.regex.Pattern;

/**
 * Turns written numbers into the raw bits of an element, with the rules the hardware harness
 * (numpy) applies where they are sound, and an error where numpy would silently change the value:
 *
 * <ul>
 *   <li>integer types take integral numbers in range only ({@code 7.0} is 7): numpy raises for an
 *       out-of-range Python int, and would truncate 2.5 or wrap 300.0 without a word, so those
 *       are errors here;
 *   <li>float types take any number, rounded first to {@code double} (JSON numbers are Python
 *       floats, and numpy converts big Python ints through {@code double} too) and then to the
 *       element type; a finite {@code double} too large for {@code f32} is an error rather than
 *       infinity (a JSON literal beyond the {@code double} range reads as infinity already, as it
 *       does in Python).
 * </ul>
 */
final class ElementValues {
    private static final Pattern DECIMAL_INTEGER = Pattern.compile("[+-]?\\d+");
    private static final Pattern HEX_INTEGER = Pattern.compile("([+-]?)0[xX]([0-9a-fA-F]+)");
    private static final Pattern DECIMAL_NUMBER =
            Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");

    private ElementValues() {}

    static BigInteger min(ElementType type) {
        if (!type.isSigned()) {
            return BigInteger.ZERO;
        }
        return BigInteger.ONE.shiftLeft(type.bits() - 1).negate();
    }

    static BigInteger max(ElementType type) {
        int valueBits = type.isSigned() ? type.bits() - 1 : type.bits();
        return BigInteger.ONE.shiftLeft(valueBits).subtract(BigInteger.ONE);
    }

    /** An integer for an integer type (range-checked) or a float type (rounded). */
    static long fromInteger(ElementType type, BigInteger value) {
        if (type.isFloat()) {
            double rounded = value.doubleValue();
            if (Double.isInfinite(rounded)) {
                throw new LaunchException(value + " is out of range for " + type);
            }
            return fromDouble(type, rounded, value::toString);
        }
        if (value.compareTo(min(type)) < 0 || value.compareTo(max(type)) > 0) {
            throw new LaunchException(
                    value + " is out of range for " + type + " (" + min(type) + " to " + max(type) + ")");
        }
        return value.longValue() & type.mask();
    }

    /**
     * A JSON-style number, already read as a {@code double} (as Python's {@code json} reads it):
     * for an integer type it must be integral. {@code written} (how the value was spelt) is
     * asked for only by a message: a launch file's buffer may hold a million values.
     */
    static long fromDouble(ElementType type, double value, java.util.function.Supplier<String> written) {
        if (type.isInteger()) {
            if (!Double.isFinite(value) || value != Math.rint(value)) {
                throw new LaunchException(
                        "expected an integer for " + type + ", got " + written.get());
            }
            return fromInteger(type, new BigDecimal(value).toBigIntegerExact());
        }
        long bits = type.bitsOf(value);
        if (Double.isFinite(value) && Double.isInfinite(type.doubleOf(bits))) {
            throw new LaunchException(written.get() + " is out of range for " + type);
        }
        return bits;
    }

    /**
     * The command-line spelling of a value: a decimal or {@code 0x} hexadecimal integer, or for
     * float types also a decimal fraction, {@code nan}, {@code inf}, {@code -inf}
     * ({@code NaN}/{@code Infinity} too).
     */
    static long fromText(ElementType type, String text) {
        String t = text.strip();
        if (DECIMAL_INTEGER.matcher(t).matches()) {
            return fromInteger(type, new BigInteger(t));
        }
        var hex = HEX_INTEGER.matcher(t);
        if (hex.matches()) {
            BigInteger magnitude = new BigInteger(hex.group(2), 16);
            return fromInteger(type, hex.group(1).equals("-") ? magnitude.negate() : magnitude);
        }
        if (type.isFloat()) {
            Double special = specialFloat(t);
            if (special != null) {
                return type.bitsOf(special);
            }
            if (DECIMAL_NUMBER.matcher(t).matches()) {
                return fromDouble(type, Double.parseDouble(t), () -> t);
            }
            throw new LaunchException("expected a number for " + type + ", got '" + text + "'");
        }
        throw new LaunchException("expected an integer for " + type + ", got '" + text + "'");
    }

    /** NaN and the infinities as the result format and the command line spell them, else null. */
    static Double specialFloat(String text) {
        return switch (text) {
            case "NaN", "nan" -> Double.NaN;
            case "Infinity", "+Infinity", "inf", "+inf" -> Double.POSITIVE_INFINITY;
            case "-Infinity", "-inf" -> Double.NEGATIVE_INFINITY;
            default -> null;
        };
    }
}
