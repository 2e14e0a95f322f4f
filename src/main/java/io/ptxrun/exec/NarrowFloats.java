package io.ptxrun.exec;

import io.ptxrun.ast.DataType;

/**
 * The 8-, 6- and 4-bit floating-point formats of `cvt` (PTX ISA 9.7.9.21): e4m3 and e5m2 (sm_89
 * on), e2m3, e3m2, e2m1 and the exponent-only ue8m0 (sm_100a-class targets), and the conversions
 * of their pairs from and to f32, f16x2 and bf16x2. Where the ISA only says how the pair is packed
 * (a's value in the upper field, b's in the lower; of a packed source, its upper half's in the upper
 * field), the values are what an H100 gives (run case cvt-fp8, every e4m3 and e5m2 value, every
 * rounding tie and its neighbours):
 * <ul>
 *   <li>to e4m3 and e5m2 (.rn.satfinite): rounded to nearest even, subnormals included; a result
 *   beyond the largest finite value, infinities included, becomes that value with its sign; a value
 *   too small for the smallest subnormal becomes a zero of its sign; every NaN, of either sign and
 *   with .relu too, becomes 0x7F; .relu turns every negative input, -0 and -inf included, into +0;</li>
 *   <li>from e4m3 and e5m2 to f16: exact (e5m2's infinities too); every NaN becomes the canonical
 *   0x7FFF; .relu turns negatives and -0 into +0.</li>
 * </ul>
 * The sm_100a-class formats cannot run on an H100; they follow the same rules where they have the
 * same cases, and NVIDIA's own host-side conversions (cuda_fp6.hpp, cuda_fp4.hpp, cuda_fp8.hpp of
 * CUDA 13) where they differ: e2m3, e3m2 and e2m1 have no NaN or infinity, so a NaN becomes the
 * largest positive finite value; ue8m0 (2^(code-127), 0xFF the NaN) takes the exponent of the
 * magnitude rounded toward zero (.rz) or up (.rp) to a power of two, 0 for zeros and values at or
 * below 2^-127 (.rz: below 2^-126), 0xFF for a NaN, for infinities and beyond 2^127 (with
 * .satfinite those but NaN become 0xFE); ue8m0 to bf16 is exact, code 0 the subnormal 2^-127 and
 * 0xFF the canonical NaN 0x7FFF.
 */
final class NarrowFloats {
    private NarrowFloats() {}

    /** A narrow format: exponent and mantissa widths, bias, and its largest finite code. */
    enum Format {
        E4M3(4, 3, 7, 0x7e),
        E5M2(5, 2, 15, 0x7b),
        E2M3(2, 3, 1, 0x1f),
        E3M2(3, 2, 3, 0x1f),
        E2M1(2, 1, 1, 0x7),
        UE8M0(8, 0, 127, 0xfe);

        final int exponentBits, mantissaBits, bias, maxFinite;

        Format(int exponentBits, int mantissaBits, int bias, int maxFinite) {
            this.exponentBits = exponentBits;
            this.mantissaBits = mantissaBits;
            this.bias = bias;
            this.maxFinite = maxFinite;
        }

        /** Bits of one value: 8 for e4m3, e5m2 and ue8m0, 6 for e2m3 and e3m2, 4 for e2m1. */
        int bits() {
            return this == UE8M0 ? 8 : 1 + exponentBits + mantissaBits;
        }

        /** The width of one value's field in a pair: a byte, or a nibble for e2m1. */
        int field() {
            return this == E2M1 ? 4 : 8;
        }

        private int signBit() {
            return 1 << (bits() - 1);
        }

        /** The pair type's format, or null for a type that is none. */
        static Format ofPair(DataType t) {
            return switch (t) {
                case E4M3X2 -> E4M3;
                case E5M2X2 -> E5M2;
                case E2M3X2 -> E2M3;
                case E3M2X2 -> E3M2;
                case E2M1X2 -> E2M1;
                case UE8M0X2 -> UE8M0;
                default -> null;
            };
        }
    }

    /**
     * The decoded form of a cvt to or from a narrow pair.
     *
     * @param format   the narrow format
     * @param wide     the other side: F32 (to the pair from two f32 operands), F16X2 or BF16X2 (a
     *                 packed register, source or destination)
     * @param toNarrow whether the pair is the destination
     */
    record Conversion(Format format, DataType wide, boolean toNarrow) implements OpForm {
        /** The form of `cvt.dtype.atype` when either type is a narrow pair; null otherwise. */
        static Conversion of(DataType dtype, DataType atype) {
            Format to = Format.ofPair(dtype);
            if (to != null) {
                return new Conversion(to, atype, true);
            }
            Format from = Format.ofPair(atype);
            return from == null ? null : new Conversion(from, dtype, false);
        }

        /**
         * The result of the conversion: of a and b (two f32 operands), or of the packed a alone,
         * with the op's rounding, .relu and .satfinite.
         */
        long apply(Modifiers m, long a, long b) {
            int field = format.field();
            long mask = (1L << field) - 1;
            if (!toNarrow) {
                int upper = (int) (a >>> field & mask), lower = (int) (a & mask);
                return (long) decode(format, upper, m.relu()) << 16 | decode(format, lower, m.relu());
            }
            double hi, lo;
            if (wide == DataType.F32) {
                hi = Float.intBitsToFloat((int) a);
                lo = Float.intBitsToFloat((int) b);
            } else {
                DataType half = wide == DataType.BF16X2 ? DataType.BF16 : DataType.F16;
                hi = Convert.floatValue(a >>> 16 & 0xffff, half, false);
                lo = Convert.floatValue(a & 0xffff, half, false);
            }
            int rounding = Math.max(m.rounding(), 0);
            return (long) encode(format, hi, rounding, m.relu(), m.satFinite()) << field
                    | encode(format, lo, rounding, m.relu(), m.satFinite());
        }
    }

    /**
     * x in the format: for the signed formats rounded to nearest even (the only rounding their cvt
     * has), for ue8m0 toward zero ({@link FloatOps#RZ}) or up ({@link FloatOps#RP}).
     */
    static int encode(Format f, double x, int rounding, boolean relu, boolean satFinite) {
        if (f == Format.UE8M0) {
            return exponentCode(x, rounding, satFinite);
        }
        if (Double.isNaN(x)) {
            // e4m3 and e5m2: the positive NaN 0x7F (H100); formats without a NaN: their largest value.
            return f == Format.E4M3 || f == Format.E5M2 ? 0x7f : f.maxFinite;
        }
        boolean negative = Math.copySign(1.0, x) < 0;
        if (relu && negative) {
            return 0;
        }
        double ax = Math.abs(x);
        int code;
        if (Double.isInfinite(ax)) {
            code = Integer.MAX_VALUE;
        } else {
            int emin = 1 - f.bias;
            int e = Math.max(Math.getExponent(ax), emin);
            long n = (long) Math.rint(Math.scalb(ax, f.mantissaBits - e));
            // n in [0, 2^(m+1)]: below 2^m a subnormal (e == emin), 2^(m+1) the next binade.
            long c = ((long) (e + f.bias - 1) << f.mantissaBits) + n;
            code = (int) Math.min(c, Integer.MAX_VALUE);
        }
        if (code > f.maxFinite) {
            code = satFinite || f != Format.E4M3 && f != Format.E5M2 ? f.maxFinite
                    : f == Format.E5M2 ? 0x7c : 0x7f;
        }
        return negative && !(f == Format.E4M3 && code == 0x7f) ? code | f.signBit() : code;
    }

    /** ue8m0: the power of two at or below (.rz) or at or above (.rp) |x|, as its biased exponent. */
    private static int exponentCode(double x, int rounding, boolean satFinite) {
        if (Double.isNaN(x)) {
            return 0xff;
        }
        double ax = Math.abs(x);
        int code;
        if (Double.isInfinite(ax)) {
            code = 0xff;
        } else if (ax == 0) {
            code = 0;
        } else {
            int e = Math.getExponent(ax);
            boolean exact = ax == Math.scalb(1.0, e);
            code = Math.max(0, Math.min(0xff, e + 127 + (rounding == FloatOps.RP && !exact ? 1 : 0)));
        }
        return satFinite && code == 0xff ? 0xfe : code;
    }

    /** A narrow value as f16 bits (bf16 bits for ue8m0): exact; NaN the canonical NaN; .relu: negatives +0. */
    static int decode(Format f, int code, boolean relu) {
        if (f == Format.UE8M0) {
            return code == 0xff ? 0x7fff : code == 0 ? 0x0040 : code << 7;
        }
        double v = value(f, code);
        if (Double.isNaN(v)) {
            return 0x7fff;
        }
        if (relu && (code & f.signBit()) != 0) {
            return 0;
        }
        if (Double.isInfinite(v)) {
            return v < 0 ? 0xfc00 : 0x7c00;
        }
        return FloatOps.floatToHalf(v, FloatOps.RN);
    }

    /**
     * The value of a code of a signed format (not ue8m0), exactly: e4m3's S.1111.111 and e5m2's
     * S.11111.xx (xx not 0) are NaN, e5m2's S.11111.00 infinite. The tensor cores' fp8 inputs are
     * these values too.
     */
    static double value(Format f, int code) {
        code &= (1 << f.bits()) - 1;
        int magnitude = code & (f.signBit() - 1);
        double v;
        if (f == Format.E4M3 ? magnitude == 0x7f : f == Format.E5M2 && magnitude > 0x7c) {
            v = Double.NaN;
        } else if (f == Format.E5M2 && magnitude == 0x7c) {
            v = Double.POSITIVE_INFINITY;
        } else {
            int e = magnitude >>> f.mantissaBits, m = magnitude & ((1 << f.mantissaBits) - 1);
            v = e == 0 ? Math.scalb((double) m, 1 - f.bias - f.mantissaBits)
                    : Math.scalb((double) ((1 << f.mantissaBits) | m), e - f.bias - f.mantissaBits);
        }
        return (code & f.signBit()) != 0 ? -v : v;
    }
}
