package io.ptxrun.exec;

import io.ptxrun.ast.DataType;

/**
 * The H100 tensor core's arithmetic, shared by the instructions that run on it: wgmma.mma_async
 * ({@link Warpgroups}), mma.sync ({@link MmaSync}) and wmma.mma ({@link WarpMatrixOps}). Inputs are decoded to doubles, in which
 * every product of two inputs is exact (every input type has at most 11 significant bits; .tf32
 * inputs are f32 patterns whose low 13 bits are ignored).
 *
 * <p>C plus the K products of one D element are added in fixed point: each term is truncated
 * toward zero to a multiple of 2^(e-F), e being the largest of C's exponent and the products'
 * unnormalised exponents (exponent of a plus exponent of b), and the exact sum is truncated toward
 * zero to f32. F is 25 for f16, bf16 and tf32 inputs (run cases wgmma-bf16-wide-range,
 * wgmma-f16-sw128-kmajor, wgmma-tf32, wmma-f32-accumulation, mma-sync-*), 13 for e4m3/e5m2 inputs, whose sum for an f32 D
 * is then also truncated to 14 significant bits (run cases wgmma-e4m3-f32, wgmma-e5m2-f32,
 * wgmma-e4m3-f16, wgmma-e5m2-f16). An f16 D is that f32 rounded to f16 to nearest. Infinite or NaN
 * terms take the IEEE path.
 *
 * <p>mma.sync with e4m3/e5m2 inputs takes neither fp8 path: the H100 runs it as two f16 MMAs
 * ({@link #float8Sync}).
 */
final class TensorCore {
    /** Fraction bits the fixed-point sum keeps below the largest exponent. */
    private static final int FRACTION_BITS = 25, FLOAT8_FRACTION_BITS = 13;

    private TensorCore() {
    }

    /** The value of one input element of type t (f16, bf16, tf32, e4m3, e5m2) from its raw bits. */
    static double input(long raw, DataType t) {
        return switch (t) {
            case F16 -> FloatOps.halfToFloat((int) raw & 0xffff);
            case BF16 -> FloatOps.bf16ToFloat((int) raw & 0xffff);
            case TF32 -> Float.intBitsToFloat((int) raw & 0xffffe000);
            case E4M3 -> NarrowFloats.value(NarrowFloats.Format.E4M3, (int) raw);
            case E5M2 -> NarrowFloats.value(NarrowFloats.Format.E5M2, (int) raw);
            default -> 0;
        };
    }

    /**
     * c + sign * sum over k of a[aAt + k] * b[bAt + k] (k = 0 .. kk-1) as the tensor core adds them
     * (see the class comment); aType and bType are the input types, f32D says whether D is .f32.
     */
    static float dot(float c, double[] a, int aAt, double[] b, int bAt, int kk, double sign, DataType aType,
                     DataType bType, boolean f32D) {
        int leastA = leastExponent(aType), leastB = leastExponent(bType);
        int e = c == 0 ? Integer.MIN_VALUE : Math.getExponent(c);
        boolean finite = Float.isFinite(c);
        for (int k = 0; k < kk; k++) {
            double x = a[aAt + k], y = b[bAt + k];
            finite &= Double.isFinite(x) && Double.isFinite(y);
            if (x != 0 && y != 0) {
                e = Math.max(e, Math.max(Math.getExponent(x), leastA) + Math.max(Math.getExponent(y), leastB));
            }
        }
        return alignedSum(c, e, finite, a, aAt, b, bAt, kk, sign, aType, f32D);
    }

    /**
     * What a zero input element contributes to a product's exponent ({@link #exponents}): far below
     * any exponent, so that a sum with it never counts (nor a sum of two).
     */
    static final int NO_TERM = -(1 << 20);

    /**
     * The exponent each of the n input elements of type t from {@code values[0]} takes in {@link
     * #dot}'s alignment, into {@code into}: {@code max(getExponent(x), least exponent of t)}, or
     * {@link #NO_TERM} for a zero; and into {@code finiteRows} whether each row of kk elements is
     * finite.
     */
    static void exponents(double[] values, int[] into, boolean[] finiteRows, int rows, int kk, DataType t) {
        int least = leastExponent(t);
        for (int r = 0; r < rows; r++) {
            boolean finite = true;
            for (int i = r * kk; i < r * kk + kk; i++) {
                double x = values[i];
                finite &= Double.isFinite(x);
                into[i] = x == 0 ? NO_TERM : Math.max(Math.getExponent(x), least);
            }
            finiteRows[r] = finite;
        }
    }

    /**
     * {@link #dot} with the input elements' exponents found once for all the sums that share them
     * ({@link #exponents}): {@code finite} whether every element of both rows is.
     */
    static float dot(float c, double[] a, int[] ea, int aAt, double[] b, int[] eb, int bAt, int kk, double sign,
                     boolean finite, DataType aType, boolean f32D) {
        int e = c == 0 ? Integer.MIN_VALUE : Math.getExponent(c);
        for (int k = 0; k < kk; k++) {
            e = Math.max(e, ea[aAt + k] + eb[bAt + k]);
        }
        if (e < NO_TERM / 2) {
            // Every product has a zero factor, and C is zero.
            e = Integer.MIN_VALUE;
        }
        return alignedSum(c, e, finite && Float.isFinite(c), a, aAt, b, bAt, kk, sign, aType, f32D);
    }

    /**
     * The sum of {@link #dot} once the largest exponent e of C and the products is known (MIN_VALUE
     * where all are zero), and whether all are finite.
     */
    private static float alignedSum(float c, int e, boolean finite, double[] a, int aAt, double[] b, int bAt, int kk,
                                    double sign, DataType aType, boolean f32D) {
        boolean float8 = aType == DataType.E4M3 || aType == DataType.E5M2;
        if (!finite) {
            double s = c;
            for (int k = 0; k < kk; k++) {
                s += sign * a[aAt + k] * b[bAt + k];
            }
            return (float) s;
        }
        if (e == Integer.MIN_VALUE) {
            return c + 0f * 0f; // every term is zero: keeps the sign rules of an IEEE sum
        }
        double quantum = Math.scalb(1.0, e - (float8 ? FLOAT8_FRACTION_BITS : FRACTION_BITS));
        // A power of two whose reciprocal is one too (every exponent here lies far inside double's
        // range): multiplying by it scales exactly, as dividing by the quantum does, and costs less.
        double perQuantum = 1 / quantum;
        double sum = truncate(c, quantum, perQuantum);
        for (int k = 0; k < kk; k++) {
            sum += truncate(sign * a[aAt + k] * b[bAt + k], quantum, perQuantum);
        }
        if (float8 && f32D && sum != 0) {
            // With an f32 D the fp8 path keeps only FLOAT8_FRACTION_BITS + 1 significant bits of the sum
            // (an f16 D is rounded from the full sum: run case wgmma-e4m3-f16).
            sum = truncate(sum, Math.scalb(1.0, Math.getExponent(sum) - FLOAT8_FRACTION_BITS));
        }
        float rounded = (float) sum;
        if (Math.abs((double) rounded) > Math.abs(sum)) {
            rounded = Math.nextAfter(rounded, 0.0);
        }
        return rounded;
    }

    /**
     * C + the kk products of one D element of an mma.sync with .e4m3/.e5m2 inputs, as the H100 forms
     * it: the inputs converted to f16 (which holds every e4m3 and e5m2 value) and summed by two f16 MMAs
     * of kk / 2 products each ({@link #dot} with f16 inputs), the first from zero over the k whose
     * k % 4 is 0 or 1 (bytes 0 and 1 of each register of A and B), the second over the k whose k % 4 is
     * 2 or 3 on top of the first's D; C is added to that last, rounded to nearest. With an f16 D
     * (f16D) each MMA's D is rounded to f16, and the returned value is one of f16 too: the f32 sum
     * of two f16 values rounded to f16 is their sum rounded once (24 >= 2 * 11 + 2). This matches
     * every value of run cases mma-sync-fp8 (m16n8k32 and m16n8k16, f32 and f16 D, C over
     * 2^-30..2^30, every finite input byte: 4096 values) and mma-sync-fp8-edges (zeros, subnormals,
     * NaN, infinities, overflow); of mma-sync-fp8, C summed in the first MMA matches 3176 values,
     * contiguous k halves 3197, one sum of all kk with C last 3427, the higher pairs of k first 3053,
     * f32 steps for an f16 D 3924, and wgmma's fp8 path 850.
     */
    static float float8Sync(float c, double[] a, int aAt, double[] b, int bAt, int kk, boolean f16D) {
        int half = kk / 2;
        double[] x = new double[half], y = new double[half];
        float d = 0;
        for (int upper = 0; upper < 2; upper++) {
            for (int k = 0, n = 0; k < kk; k++) {
                if (k % 4 / 2 == upper) {
                    x[n] = a[aAt + k];
                    y[n++] = b[bAt + k];
                }
            }
            d = dot(d, x, 0, y, 0, half, 1, DataType.F16, DataType.F16, !f16D);
            if (f16D) {
                d = FloatOps.halfToFloat(FloatOps.floatToHalf(d));
            }
        }
        return d + c;
    }

    /** The exponent of the type's least normal value, which its subnormals have unnormalised. */
    private static int leastExponent(DataType t) {
        return switch (t) {
            case F16, E5M2 -> -14;
            case E4M3 -> -6;
            default -> Float.MIN_EXPONENT;
        };
    }

    private static double truncate(double term, double quantum) {
        return truncate(term, quantum, 1 / quantum);
    }

    /** The term truncated toward zero to a multiple of quantum (a power of two; perQuantum its reciprocal). */
    private static double truncate(double term, double quantum, double perQuantum) {
        double units = term * perQuantum;
        // A term is below 2^27 quanta (the quantum is 2^(e - FRACTION_BITS) or larger for the
        // largest exponent e, and a product below 2^(e + 2)), so the conversion to long truncates
        // it toward zero exactly, with no branch on its sign; copySign keeps the sign of a term
        // truncated to zero, as ceil did.
        return Math.copySign((double) (long) units, units) * quantum;
    }
}
