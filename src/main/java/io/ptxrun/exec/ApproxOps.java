package io.ptxrun.exec;

/**
 * The f32 approximate instructions whose special ranges the hardware defines differently from the
 * exact function. Results elsewhere are the correctly rounded value, which lies within the PTX
 * ISA error bounds; the hardware's own approximation tables are not public, so bit-exact agreement
 * there is not attempted.
 */
final class ApproxOps {
    private ApproxOps() {}

    private static final float INV_TWO_PI = (float) (1 / (2 * Math.PI));
    /** Resolution of the reduced angle (in turns): tiny arguments reduce to an exact zero. */
    private static final double TURN_QUANTUM = 0x1p-32;

    /**
     * div.approx.f32 (and div.full.f32's special range): a times the approximate reciprocal of b.
     * For 2^126 < |b| < 2^128 that reciprocal is subnormal and flushed, so the quotient is a zero
     * with the XOR of the signs, and NaN for an infinite a (PTX ISA, div; as H100 gives it).
     */
    static float div(float a, float b) {
        float mag = Math.abs(b);
        if (mag > 0x1p126f && mag < Float.POSITIVE_INFINITY) {
            return a * Math.copySign(0f, b);
        }
        return (float) ((double) a / b);
    }

    /** sin.approx.f32. */
    static float sin(float x) {
        if (x == 0 || Float.isNaN(x) || Float.isInfinite(x)) {
            // Signed zeros are kept; infinities give NaN.
            return x == 0 ? x : Float.NaN;
        }
        return (float) Math.sin(2 * Math.PI * reducedTurns(x));
    }

    /** cos.approx.f32. */
    static float cos(float x) {
        if (Float.isNaN(x) || Float.isInfinite(x)) {
            return Float.NaN;
        }
        return (float) Math.cos(2 * Math.PI * reducedTurns(x));
    }

    /**
     * The argument in turns, as the hardware's range reduction forms it: x times 1/(2 pi) rounded to
     * f32, and its fraction held in fixed point. This is why sin(pi as f32) is an exact 0 on the
     * hardware and why tiny arguments give 0 rather than x.
     */
    private static double reducedTurns(float x) {
        float t = x * INV_TWO_PI;
        double fraction = t - Math.floor(t);
        return Math.rint(fraction / TURN_QUANTUM) * TURN_QUANTUM;
    }

    /**
     * rsqrt.approx.f64 as the hardware expands it: a seed with 32 significant high bits (the
     * reciprocal square root rounded to its upper word, as the MUFU.RSQ64H unit delivers it),
     * then one fused correction step y + y*e*(1/2 + 3/8 e) with e = 1 - x*y*y. This reproduces
     * the H100's results bit for bit on the recorded inputs (nvcc-math-f64, row 5); the seed's
     * exact table is not public, so it is a model, not the unit itself.
     */
    static double rsqrt64(double x) {
        if (!(x > 0) || Double.isInfinite(x)) {
            // NaN, negatives (NaN), zeros (signed infinity) and +inf (+0) need no approximation.
            return 1 / Math.sqrt(x);
        }
        long bits = Double.doubleToRawLongBits(1 / Math.sqrt(x));
        double y = Double.longBitsToDouble((bits + 0x8000_0000L) & 0xffff_ffff_0000_0000L);
        double e = Math.fma(-x, y * y, 1.0);
        return Math.fma(y, Math.fma(e, 0.375, 0.5) * e, y);
    }
}
