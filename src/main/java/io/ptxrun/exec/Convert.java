package io.ptxrun.exec;

import io.ptxrun.ast.DataType;

import java.math.BigDecimal;

import static io.ptxrun.exec.Bits.sx;
import static io.ptxrun.exec.Bits.zx;

/**
 * `cvt`: integer widths, integer/float in every rounding direction, float widths, saturation; the
 * 8-, 6- and 4-bit float pairs through {@link NarrowFloats}.
 */
final class Convert {
    private Convert() {}

    static long cvt(Op op, long raw) {
        if (op.form instanceof NarrowFloats.Conversion narrowPair) {
            return narrowPair.apply(op.mod, raw, 0);
        }
        DataType dt = op.type, st = op.srcType;
        int mode = op.mod.rounding();
        if (st.isFloat() && (dt == DataType.F16 || dt == DataType.BF16)) {
            return toHalf(op, raw, dt);
        }
        if ((st == DataType.F16 || st == DataType.BF16) && dt.isFloat() && isNaN(raw, st)) {
            return halfNaN(raw, st, dt);
        }
        if (st.isFloat()) {
            double x = floatValue(raw, st, op.mod.ftz());
            if (dt.isFloat()) {
                if (Double.isNaN(x) && (op.mod.sat() || op.mod.relu())) {
                    return op.mod.sat() ? 0 : dt == DataType.F32 ? FloatOps.CANONICAL_NAN_F32 : 0x7fff;
                }
                if (Double.isNaN(x) && dt == DataType.F32 && st == DataType.F32) {
                    return FloatOps.CANONICAL_NAN_F32;
                }
                if (op.mod.relu() && x < 0) {
                    x = 0;
                }
                if (op.roundsToInteger()) {
                    x = FloatOps.roundInt(x, mode);
                }
                if (op.mod.sat()) {
                    x = Double.isNaN(x) ? 0 : Math.max(0, Math.min(1, x));
                }
                return floatBits(x, dt, op.roundsToInteger() ? 0 : Math.max(mode, 0), op.mod.ftz());
            }
            // Float to integer: round, then saturate to the destination range; NaN gives 0.
            if (Double.isNaN(x)) {
                // H100: 0 for f32 to 8/16/32-bit; the most negative pattern for f32 to 64-bit and any f64 source.
                if (st == DataType.F64 || dt.bits == 64) {
                    return narrow(Long.MIN_VALUE >> (64 - dt.bits), dt, op.dstBits.length > 0 ? op.dstBits[0] : 64);
                }
                return 0;
            }
            double ri = FloatOps.roundInt(x, mode < 0 ? FloatOps.RZ : mode);
            long v;
            int bits = dt.bits;
            if (dt.isSigned()) {
                double lo = -Math.scalb(1.0, bits - 1), hi = Math.scalb(1.0, bits - 1);
                v = ri <= lo ? (long) lo : ri >= hi ? (bits == 64 ? Long.MAX_VALUE : (long) hi - 1) : (long) ri;
            } else {
                double hi = Math.scalb(1.0, bits);
                if (ri <= 0) {
                    v = 0;
                } else if (ri >= hi) {
                    v = -1;
                } else if (bits == 64 && ri >= 0x1p63) {
                    v = new BigDecimal(ri).toBigInteger().longValue();
                } else {
                    v = (long) ri;
                }
            }
            return narrow(v, dt, op.dstBits.length > 0 ? op.dstBits[0] : 64);
        }
        long v = st.isSigned() ? sx(raw, st.bits) : zx(raw, st.bits);
        if (dt.isFloat()) {
            boolean unsigned64 = !st.isSigned() && st.bits == 64 && v < 0;
            int m = Math.max(mode, 0);
            BigDecimal exact = unsigned64 ? new BigDecimal(new java.math.BigInteger(Long.toUnsignedString(v)))
                    : null;
            double x;
            if (dt == DataType.F64) {
                x = exact != null || (m != 0 && Math.abs(v) > (1L << 53))
                        ? FloatOps.toF64(exact != null ? exact : new BigDecimal(v), m) : (double) v;
                return Double.doubleToRawLongBits(x);
            }
            if (dt == DataType.F32) {
                float f;
                if (exact != null || (m != 0 && Math.abs(v) > (1L << 24))) {
                    f = FloatOps.toF32(exact != null ? exact : new BigDecimal(v), m);
                } else {
                    f = (float) v;
                }
                if (op.mod.sat()) {
                    f = Math.max(0f, Math.min(1f, f));
                }
                return Float.floatToRawIntBits(f) & 0xffffffffL;
            }
            return floatBits(exact != null ? exact.doubleValue() : (double) v, dt, m, false);
        }
        if (op.mod.sat()) {
            long lo, hi;
            if (dt.isSigned()) {
                lo = dt.bits == 64 ? Long.MIN_VALUE : -(1L << (dt.bits - 1));
                hi = dt.bits == 64 ? Long.MAX_VALUE : (1L << (dt.bits - 1)) - 1;
                if (!st.isSigned() && st.bits == 64 && v < 0) {
                    v = hi;
                } else {
                    v = Math.max(lo, Math.min(hi, v));
                }
            } else {
                if (st.isSigned() && v < 0) {
                    v = 0;
                } else if (dt.bits < 64 && Long.compareUnsigned(v, (1L << dt.bits) - 1) > 0) {
                    v = (1L << dt.bits) - 1;
                }
            }
        }
        return narrow(v, dt, op.dstBits.length > 0 ? op.dstBits[0] : 64);
    }

    /**
     * `cvt.f16x2.f32 d, a, b` and the bf16x2 form: a converted into the upper half, b into the lower;
     * the pairs of narrow floats from two f32 values likewise.
     */
    static long cvtPair(Op op, long a, long b) {
        if (op.form instanceof NarrowFloats.Conversion narrowPair) {
            return narrowPair.apply(op.mod, a, b);
        }
        DataType half = op.type == DataType.BF16X2 ? DataType.BF16 : DataType.F16;
        return (toHalf(op, a, half) << 16) | toHalf(op, b, half);
    }

    /**
     * A float to f16 or bf16 in the op's rounding direction, with .relu (negatives and -0 become
     * +0) and .satfinite (infinities and overflow become the largest finite value of that sign).
     * NaNs become the canonical 0x7fff, except that f64 to f16 keeps the payload's top bits (H100).
     */
    private static long toHalf(Op op, long raw, DataType half) {
        DataType st = op.srcType;
        double x = floatValue(raw, st, op.mod.ftz());
        if (Double.isNaN(x)) {
            if (st == DataType.F64 && half == DataType.F16 && !op.mod.relu() && !op.mod.satFinite()) {
                return ((raw >>> 48) & 0x8000) | 0x7e00 | ((raw >>> 42) & 0x3ff);
            }
            return 0x7fff;
        }
        if (op.mod.relu() && (x < 0 || (x == 0 && Math.copySign(1.0, x) < 0))) {
            x = 0;
        }
        int mode = Math.max(op.mod.rounding(), 0);
        int h = half == DataType.F16 ? FloatOps.floatToHalf(x, mode) : toBf16(x, mode);
        if (op.mod.satFinite() && (h & 0x7fff) == (half == DataType.F16 ? 0x7c00 : 0x7f80)) {
            h = (h & 0x8000) | (half == DataType.F16 ? 0x7bff : 0x7f7f);
        }
        return h;
    }

    /** bf16 bits of x in a rounding direction: x is first rounded to f32 to odd, which keeps the second rounding exact. */
    private static int toBf16(double x, int mode) {
        float f = (float) x;
        int bits = Float.floatToRawIntBits(f);
        if (Double.isFinite(x) && f != x) {
            bits = Float.floatToRawIntBits(FloatOps.toF32(x, FloatOps.RZ)) | 1;
        }
        if (Float.isInfinite(Float.intBitsToFloat(bits))) {
            return (bits >>> 16) & 0xffff;
        }
        int truncated = bits >>> 16;
        int rest = bits & 0xffff;
        boolean negative = bits < 0;
        boolean up = switch (mode) {
            case FloatOps.RZ -> false;
            case FloatOps.RM -> negative && rest != 0;
            case FloatOps.RP -> !negative && rest != 0;
            default -> rest > 0x8000 || (rest == 0x8000 && (truncated & 1) != 0);
        };
        return (truncated + (up ? 1 : 0)) & 0xffff;
    }

    private static boolean isNaN(long raw, DataType t) {
        int h = (int) raw & 0xffff;
        return t == DataType.F16 ? (h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0 : (h & 0x7f80) == 0x7f80 && (h & 0x7f) != 0;
    }

    /**
     * A f16/bf16 NaN widened, as H100 does it: bf16 to f32 keeps the bits as they are; f16 to f32
     * gives the canonical NaN; to f64 the payload moves up with its sign and is quieted.
     */
    private static long halfNaN(long raw, DataType st, DataType dt) {
        long h = raw & 0xffff;
        if (dt == DataType.F32) {
            return st == DataType.BF16 ? h << 16 : FloatOps.CANONICAL_NAN_F32;
        }
        if (dt == DataType.F64) {
            int payloadBits = st == DataType.F16 ? 10 : 7;
            long payload = h & ((1L << payloadBits) - 1);
            return ((h & 0x8000) << 48) | 0x7ff8_0000_0000_0000L | (payload << (52 - payloadBits));
        }
        return st == dt ? h : 0x7fff;
    }

    /** A narrow signed result is sign-extended to the destination register's width. */
    private static long narrow(long v, DataType dt, int regBits) {
        if (dt.isSigned()) {
            return zx(sx(v, dt.bits), Math.max(regBits, dt.bits));
        }
        return zx(v, dt.bits);
    }

    static double floatValue(long raw, DataType t, boolean ftz) {
        return switch (t) {
            case F64 -> Double.longBitsToDouble(raw);
            case F32 -> {
                float f = Float.intBitsToFloat((int) raw);
                if (ftz && Float.isNaN(f)) {
                    yield Float.intBitsToFloat(FloatOps.CANONICAL_NAN_F32);
                }
                yield ftz ? FloatOps.flush(f) : f;
            }
            case F16 -> FloatOps.halfToFloat((int) raw & 0xffff);
            case BF16 -> FloatOps.bf16ToFloat((int) raw);
            default -> Double.longBitsToDouble(raw);
        };
    }

    static long floatBits(double x, DataType t, int mode, boolean ftz) {
        return switch (t) {
            case F64 -> Double.isNaN(x) ? Double.doubleToRawLongBits(x) | 0x0008_0000_0000_0000L
                    : Double.doubleToRawLongBits(x);
            case F32 -> {
                float f = FloatOps.toF32(x, mode);
                if (ftz) {
                    f = FloatOps.flush(f);
                }
                yield Float.isNaN(f) ? (Float.floatToRawIntBits(f) | 0x0040_0000) & 0xffffffffL
                        : Float.floatToRawIntBits(f) & 0xffffffffL;
            }
            case F16 -> FloatOps.floatToHalf(x, mode);
            case BF16 -> FloatOps.floatToBf16((float) x);
            default -> Double.doubleToRawLongBits(x);
        };
    }
}
