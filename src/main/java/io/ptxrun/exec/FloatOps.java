package io.ptxrun.exec;

import java.math.BigDecimal;

/**
 * Floating-point helpers: rounding in the four IEEE directions (Java arithmetic only rounds to
 * nearest), canonical NaNs, subnormal flushing and half-precision conversions.
 */
final class FloatOps {
    private FloatOps() {}

    static final int RN = 0, RZ = 1, RM = 2, RP = 3;
    static final int CANONICAL_NAN_F32 = 0x7fffffff;
    static final long CANONICAL_NAN_F64 = 0x7fffffffffffffffL;

    static float f32(long raw) {
        return Float.intBitsToFloat((int) raw);
    }

    static double f64(long raw) {
        return Double.longBitsToDouble(raw);
    }

    /** Result bits of an arithmetic f32 operation: NaNs become the canonical NaN. */
    static long bits32(float f) {
        return Float.isNaN(f) ? CANONICAL_NAN_F32 : Float.floatToRawIntBits(f) & 0xffffffffL;
    }

    static long bits64(double d) {
        return Double.isNaN(d) ? CANONICAL_NAN_F64 : Double.doubleToRawLongBits(d);
    }

    static float flush(float f) {
        return Math.abs(f) < Float.MIN_NORMAL && f != 0 ? Math.copySign(0f, f) : f;
    }

    /**
     * Rounds a value known to approximate the exact result closely (a double computed from f32
     * operands) to f32 in a direction: round to nearest, then step one ulp if that went the
     * wrong way.
     */
    static float toF32(double exact, int mode) {
        float f = (float) exact;
        if (mode <= RN || Float.isNaN(f) || Double.isInfinite(exact)) {
            return f;
        }
        if (Float.isInfinite(f)) {
            // Overflow: toward zero and away from the overflowing side give the largest finite value.
            boolean towardMax = mode == RZ || (mode == RM && exact > 0) || (mode == RP && exact < 0);
            return towardMax ? Math.copySign(Float.MAX_VALUE, f) : f;
        }
        double back = f;
        if (back == exact) {
            return f;
        }
        boolean wantUp = mode == RP || (mode == RZ && exact < 0);
        boolean wantDown = mode == RM || (mode == RZ && exact > 0);
        if (wantUp && back < exact) {
            return Math.nextUp(f);
        }
        if (wantDown && back > exact) {
            return Math.nextDown(f);
        }
        return f;
    }

    /** Rounds an exact decimal to f64 in a direction. */
    static double toF64(BigDecimal exact, int mode) {
        double d = exact.doubleValue();
        if (mode <= RN || Double.isInfinite(d)) {
            if (Double.isInfinite(d) && mode > RN) {
                boolean positive = exact.signum() > 0;
                boolean towardMax = mode == RZ || (mode == RM && positive) || (mode == RP && !positive);
                return towardMax ? Math.copySign(Double.MAX_VALUE, d) : d;
            }
            return d;
        }
        int c = new BigDecimal(d).compareTo(exact);
        if (c == 0) {
            return d;
        }
        boolean wantUp = mode == RP || (mode == RZ && exact.signum() < 0);
        boolean wantDown = mode == RM || (mode == RZ && exact.signum() > 0);
        if (wantUp && c < 0) {
            return Math.nextUp(d);
        }
        if (wantDown && c > 0) {
            return Math.nextDown(d);
        }
        return d;
    }

    /** Rounds an exact decimal to f32 in a direction. */
    static float toF32(BigDecimal exact, int mode) {
        float f = exact.floatValue();
        if (mode <= RN || Float.isInfinite(f)) {
            return toF32(exact.doubleValue(), mode);
        }
        int c = new BigDecimal(f).compareTo(exact);
        if (c == 0) {
            return f;
        }
        boolean wantUp = mode == RP || (mode == RZ && exact.signum() < 0);
        boolean wantDown = mode == RM || (mode == RZ && exact.signum() > 0);
        if (wantUp && c < 0) {
            return Math.nextUp(f);
        }
        if (wantDown && c > 0) {
            return Math.nextDown(f);
        }
        return f;
    }

    static boolean finite(double... xs) {
        for (double x : xs) {
            if (!Double.isFinite(x)) {
                return false;
            }
        }
        return true;
    }

    static double add64(double a, double b, int mode) {
        if (mode <= RN || !finite(a, b)) {
            return a + b;
        }
        double r = toF64(new BigDecimal(a).add(new BigDecimal(b)), mode);
        return r == 0 && a + b == 0 ? zeroSum(a, b, mode) : r;
    }

    /** The sign of an exactly-zero sum: +0 except when rounding down (IEEE 754 6.3). */
    private static double zeroSum(double a, double b, int mode) {
        if (a == 0 && b == 0 && Math.copySign(1, a) == Math.copySign(1, b)) {
            return a;
        }
        return mode == RM ? -0.0 : 0.0;
    }

    /** A finite result too large for the format, rounded in a direction. */
    static double overflow64(double inf, int mode) {
        boolean positive = inf > 0;
        boolean toMax = mode == RZ || (mode == RM && positive) || (mode == RP && !positive);
        return toMax ? Math.copySign(Double.MAX_VALUE, inf) : inf;
    }

    static float overflow32(float inf, int mode) {
        boolean positive = inf > 0;
        boolean toMax = mode == RZ || (mode == RM && positive) || (mode == RP && !positive);
        return toMax ? Math.copySign(Float.MAX_VALUE, inf) : inf;
    }

    /** A nonzero result too small for the format: zero or the smallest subnormal. */
    static double underflow64(boolean positive, int mode) {
        if (mode == RP && positive) {
            return Double.MIN_VALUE;
        }
        if (mode == RM && !positive) {
            return -Double.MIN_VALUE;
        }
        return positive ? 0.0 : -0.0;
    }

    static float underflow32(boolean positive, int mode) {
        if (mode == RP && positive) {
            return Float.MIN_VALUE;
        }
        if (mode == RM && !positive) {
            return -Float.MIN_VALUE;
        }
        return positive ? 0f : -0f;
    }

    static double mul64(double a, double b, int mode) {
        double r = a * b;
        if (mode <= RN || !finite(a, b) || a == 0 || b == 0) {
            return r;
        }
        return toF64(new BigDecimal(a).multiply(new BigDecimal(b)), mode);
    }

    static double fma64(double a, double b, double c, int mode) {
        double r = Math.fma(a, b, c);
        if (mode <= RN || !finite(a, b, c)) {
            return r;
        }
        BigDecimal e = new BigDecimal(a).multiply(new BigDecimal(b)).add(new BigDecimal(c));
        if (e.signum() == 0) {
            return exactZero(a * b, c, mode);
        }
        return toF64(e, mode);
    }

    /** IEEE 754 6.3: an exact zero sum is -0 when rounding down or when both addends are -0. */
    private static double exactZero(double product, double c, int mode) {
        boolean pNeg = Math.copySign(1.0, product) < 0, cNeg = Math.copySign(1.0, c) < 0;
        if (product == 0 && c == 0 && pNeg == cNeg) {
            return c;
        }
        return mode == RM ? -0.0 : 0.0;
    }

    static double div64(double a, double b, int mode) {
        double q = a / b;
        if (mode > RN && finite(a, b) && b != 0 && Double.isInfinite(q)) {
            return overflow64(q, mode);
        }
        if (mode > RN && q == 0 && a != 0 && finite(a, b)) {
            return underflow64(Math.copySign(1.0, a) * Math.copySign(1.0, b) > 0, mode);
        }
        if (mode <= RN || !finite(a, b, q) || q == 0) {
            return q;
        }
        // The sign of a - q*b (scaled by the sign of b) says on which side of the exact quotient q lies.
        int c = new BigDecimal(a).compareTo(new BigDecimal(q).multiply(new BigDecimal(b)));
        if (b < 0) {
            c = -c;
        }
        return stepTo(q, c, mode);
    }

    static double sqrt64(double a, int mode) {
        double q = Math.sqrt(a);
        if (mode <= RN || !finite(a, q) || q == 0) {
            return q;
        }
        BigDecimal bq = new BigDecimal(q);
        int c = new BigDecimal(a).compareTo(bq.multiply(bq));
        return stepTo(q, c, mode);
    }

    /**
     * Which neighbour of the round-to-nearest result q a directed mode wants: +1 the next value
     * up, -1 the next down, 0 q itself. c > 0: the exact value is above q; c < 0: below.
     */
    private static int directedStep(boolean positive, int c, int mode) {
        boolean wantUp = mode == RP || (mode == RZ && !positive);
        boolean wantDown = mode == RM || (mode == RZ && positive);
        return wantUp && c > 0 ? 1 : wantDown && c < 0 ? -1 : 0;
    }

    private static double stepTo(double q, int c, int mode) {
        int step = directedStep(q > 0, c, mode);
        return step > 0 ? Math.nextUp(q) : step < 0 ? Math.nextDown(q) : q;
    }

    static float div32(float a, float b, int mode) {
        float q = a / b;
        if (mode > RN && finite(a, b) && b != 0 && Float.isInfinite(q)) {
            return (float) overflow32(q, mode);
        }
        if (mode > RN && q == 0 && a != 0 && finite(a, b)) {
            return (float) underflow32(Math.copySign(1f, a) * Math.copySign(1f, b) > 0, mode);
        }
        if (mode <= RN || !finite(a, b, q) || q == 0) {
            return q;
        }
        int c = new BigDecimal(a).compareTo(new BigDecimal(q).multiply(new BigDecimal(b)));
        if (b < 0) {
            c = -c;
        }
        return (float) stepTo32(q, c, mode);
    }

    static float sqrt32(float a, int mode) {
        float q = (float) Math.sqrt(a);
        if (mode <= RN || !finite(a, q) || q == 0) {
            return q;
        }
        BigDecimal bq = new BigDecimal(q);
        int c = new BigDecimal(a).compareTo(bq.multiply(bq));
        return stepTo32(q, c, mode);
    }

    private static float stepTo32(float q, int c, int mode) {
        int step = directedStep(q > 0, c, mode);
        return step > 0 ? Math.nextUp(q) : step < 0 ? Math.nextDown(q) : q;
    }

    /** f32 a+b: exact in BigDecimal for the directed modes. */
    static float add32(float a, float b, int mode) {
        if (mode <= RN || !finite(a, b)) {
            return a + b;
        }
        BigDecimal e = new BigDecimal(a).add(new BigDecimal(b));
        if (e.signum() == 0) {
            return (float) zeroSum(a, b, mode);
        }
        return toF32(e, mode);
    }

    static float mul32(float a, float b, int mode) {
        return mode <= RN ? a * b : toF32((double) a * (double) b, mode);
    }

    static float fma32(float a, float b, float c, int mode) {
        if (mode <= RN || !finite(a, b, c)) {
            return Math.fma(a, b, c);
        }
        BigDecimal e = new BigDecimal(a).multiply(new BigDecimal(b)).add(new BigDecimal(c));
        if (e.signum() == 0) {
            return (float) exactZero((double) a * b, c, mode);
        }
        return toF32(e, mode);
    }

    /** Rounds to an integral value: 0 nearest-even, 1 toward zero, 2 down, 3 up. */
    static double roundInt(double x, int mode) {
        return switch (mode) {
            case RZ -> x < 0 ? Math.ceil(x) : Math.floor(x);
            case RM -> Math.floor(x);
            case RP -> Math.ceil(x);
            default -> Math.rint(x);
        };
    }

    // ------------------------------------------------------------ half precision

    static float halfToFloat(int h) {
        int sign = (h >>> 15) & 1;
        int exp = (h >>> 10) & 0x1f;
        int mant = h & 0x3ff;
        float v;
        if (exp == 0) {
            v = mant * 0x1p-24f;
        } else if (exp == 31) {
            v = mant == 0 ? Float.POSITIVE_INFINITY : Float.NaN;
        } else {
            v = Float.intBitsToFloat(((exp - 15 + 127) << 23) | (mant << 13));
        }
        return sign != 0 ? -v : v;
    }

    /** Nearest-even conversion to binary16 bits (NaN becomes the canonical 0x7fff). */
    /** binary16 bits in a rounding direction (0 nearest-even, 1 zero, 2 down, 3 up). */
    static int floatToHalf(double x, int mode) {
        int h = floatToHalf(x);
        if (mode <= RN || Double.isNaN(x) || Double.isInfinite(x)) {
            return h;
        }
        double v = halfToFloat(h);
        if (v == x) {
            return h;
        }
        boolean wantUp = mode == RP || (mode == RZ && x < 0);
        boolean wantDown = mode == RM || (mode == RZ && x > 0);
        if (wantUp && v < x) {
            return halfStep(h, true);
        }
        if (wantDown && v > x) {
            return halfStep(h, false);
        }
        return h;
    }

    /** The next binary16 value up or down from h. */
    private static int halfStep(int h, boolean up) {
        boolean negative = (h & 0x8000) != 0;
        int mag = h & 0x7fff;
        if (mag == 0) {
            return up ? 0x0001 : 0x8001;
        }
        boolean grow = up != negative;
        mag += grow ? 1 : -1;
        return (negative ? 0x8000 : 0) | mag;
    }

    static int floatToHalf(double x) {
        if (Double.isNaN(x)) {
            return 0x7fff;
        }
        int sign = (Math.copySign(1.0, x) < 0) ? 0x8000 : 0;
        double a = Math.abs(x);
        if (a >= 65520.0) {
            return sign | 0x7c00;
        }
        if (a < 0x1p-14) {
            // Subnormal: units of 2^-24, nearest even.
            long m = (long) Math.rint(a * 0x1p24);
            return sign | (int) m;
        }
        int e = Math.getExponent(a);
        double scaled = a / Math.scalb(1.0, e - 10); // in [1024, 2048)
        long m = (long) Math.rint(scaled);
        if (m == 2048) {
            m = 1024;
            e++;
        }
        if (e > 15) {
            return sign | 0x7c00;
        }
        return sign | ((e + 15) << 10) | (int) (m - 1024);
    }

    static float bf16ToFloat(int h) {
        return Float.intBitsToFloat((h & 0xffff) << 16);
    }

    static int floatToBf16(float f) {
        if (Float.isNaN(f)) {
            return 0x7fff;
        }
        int bits = Float.floatToRawIntBits(f);
        int lsb = (bits >>> 16) & 1;
        return ((bits + 0x7fff + lsb) >>> 16) & 0xffff;
    }
}
