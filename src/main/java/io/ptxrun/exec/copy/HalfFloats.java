package io.ptxrun.exec.copy;

/**
 * The 16-bit float formats of the bulk reductions, f16 (1-5-10) and bf16 (1-8-7), as bit patterns
 * in the low 16 bits of an int. Conversions to double are exact; rounding back is
 * round-to-nearest-even with subnormals kept (the {@code .noftz} behaviour).
 */
final class HalfFloats {

    /** The NaN the hardware writes for 16-bit NaN results (recorded on an H100). */
    static final int CANONICAL_NAN = 0x7fff;

    private HalfFloats() {}

    static boolean isNaN(int bits, ReductionType type) {
        int exponentMask = type == ReductionType.F16 ? 0x7c00 : 0x7f80;
        int mantissaMask = type == ReductionType.F16 ? 0x03ff : 0x007f;
        return (bits & exponentMask) == exponentMask && (bits & mantissaMask) != 0;
    }

    static double toDouble(int bits, ReductionType type) {
        if (type == ReductionType.BF16) {
            return Float.intBitsToFloat((bits & 0xffff) << 16);
        }
        int sign = (bits & 0x8000) != 0 ? -1 : 1;
        int exponent = (bits >>> 10) & 0x1f;
        int mantissa = bits & 0x3ff;
        if (exponent == 0x1f) {
            return mantissa == 0 ? sign * Double.POSITIVE_INFINITY : Double.NaN;
        }
        if (exponent == 0) {
            return sign * Math.scalb((double) mantissa, -24);
        }
        return sign * Math.scalb((double) (mantissa | 0x400), exponent - 25);
    }

    /**
     * {@code x} rounded once, to nearest even, into the format; {@code x} must not be NaN. Rounds
     * by scaling to an integer count of the result's ulp, which is exact for powers of two.
     */
    static int fromDouble(double x, ReductionType type) {
        boolean f16 = type == ReductionType.F16;
        int precision = f16 ? 11 : 8;
        int minExponent = f16 ? -14 : -126;
        int maxExponent = f16 ? 15 : 127;
        int sign = (Double.doubleToRawLongBits(x) < 0) ? 0x8000 : 0;
        if (Double.isInfinite(x)) {
            return sign | (f16 ? 0x7c00 : 0x7f80);
        }
        if (x == 0) {
            return sign;
        }
        int exponent = Math.max(Math.getExponent(x), minExponent);
        double ulp = Math.scalb(1.0, exponent - (precision - 1));
        double rounded = Math.rint(x / ulp) * ulp;
        if (rounded == 0) {
            return sign;
        }
        int roundedExponent = Math.getExponent(rounded);
        if (roundedExponent > maxExponent) {
            return sign | (f16 ? 0x7c00 : 0x7f80);
        }
        if (!f16) {
            // Every bf16 value is a float, so the float's top half is the answer.
            return Float.floatToRawIntBits((float) rounded) >>> 16;
        }
        double magnitude = Math.abs(rounded);
        if (roundedExponent < minExponent) {
            return sign | (int) Math.scalb(magnitude, 24);
        }
        int mantissa = (int) Math.scalb(magnitude, 10 - roundedExponent) - 0x400;
        return sign | ((roundedExponent + 15) << 10) | mantissa;
    }
}
