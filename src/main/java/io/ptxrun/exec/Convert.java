package io.ptxrun.exec;

import io.ptxrun.ast.DataType;

import java.math.BigDecimal;

import static io.ptxrun.exec.Engine.sx;
import static io.ptxrun.exec.Engine.zx;

/** `cvt`: integer widths, integer/float in every rounding direction, float widths, saturation. */
final class Convert {
    private Convert() {}

    static long cvt(Op op, long raw) {
        DataType dt = op.type, st = op.srcType;
        int mode = op.sub2;
        if (st.isFloat()) {
            double x = floatValue(raw, st, op.ftz);
            if (dt.isFloat()) {
                if (Double.isNaN(x) && (op.sat || op.relu)) {
                    return op.sat ? 0 : dt == DataType.F32 ? FloatOps.CANONICAL_NAN_F32 : 0x7fff;
                }
                if (Double.isNaN(x) && dt == DataType.F32 && st == DataType.F32) {
                    return FloatOps.CANONICAL_NAN_F32;
                }
                if (op.relu && x < 0) {
                    x = 0;
                }
                if (op.flag) {
                    x = FloatOps.roundInt(x, mode);
                }
                if (op.sat) {
                    x = Double.isNaN(x) ? 0 : Math.max(0, Math.min(1, x));
                }
                return floatBits(x, dt, op.flag ? 0 : Math.max(mode, 0), op.ftz);
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
                if (op.sat) {
                    f = Math.max(0f, Math.min(1f, f));
                }
                return Float.floatToRawIntBits(f) & 0xffffffffL;
            }
            return floatBits(exact != null ? exact.doubleValue() : (double) v, dt, m, false);
        }
        if (op.sat) {
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
