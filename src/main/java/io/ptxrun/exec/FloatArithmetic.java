package io.ptxrun.exec;

import io.ptxrun.ast.DataType;

import static io.ptxrun.exec.FloatOps.bits32;
import static io.ptxrun.exec.FloatOps.f32;
import static io.ptxrun.exec.FloatOps.f64;

/**
 * Floating-point arithmetic (f64, f32, and f16/bf16 scalars and pairs), one lane at a time: pure
 * functions of the source values, as {@link IntegerOps} is for integers. The interpreter calls
 * it for each lane; compiled regions reach it through the same per-lane path, except for the
 * simple f32 forms they inline ({@link LaneOps#isFastF32}).
 */
final class FloatArithmetic {
    /** The quiet bit of an f64 NaN. */
    private static final long QUIET64 = 0x0008_0000_0000_0000L;

    private FloatArithmetic() {}

    /**
     * One lane of a floating-point operation on its sources' raw bits ra..rc (unused ones are 0);
     * returns the destination's raw bits.
     */
    static long apply(Op op, long ra, long rb, long rc) {
        int n = op.sources();
        int mode = Math.max(op.mod.rounding(), 0);
        if (op.type == DataType.F64) {
            double a = f64(ra);
            double b = n > 1 ? f64(rb) : 0;
            double r = switch (op.code) {
                case FADD -> FloatOps.add64(a, b, mode);
                case FSUB -> FloatOps.add64(a, -b, mode);
                case FMUL -> FloatOps.mul64(a, b, mode);
                case FMA -> FloatOps.fma64(a, b, f64(rc), mode);
                case FDIV -> FloatOps.div64(a, b, mode);
                case FMIN, FMAX -> {
                    if (Double.isNaN(a) || Double.isNaN(b)) {
                        boolean both = Double.isNaN(a) && Double.isNaN(b);
                        if (op.propagatesNaN() || both) {
                            // H100: of two NaNs the second operand's (quieted) comes back.
                            yield f64(Double.doubleToRawLongBits(Double.isNaN(b) ? b : a) | QUIET64);
                        }
                        yield Double.isNaN(a) ? b : a;
                    }
                    yield op.code == OpCode.FMIN ? Math.min(a, b) : Math.max(a, b);
                }
                // NaN operands of abs/neg come back quieted, sign and payload kept (as on H100).
                case FABS -> Double.isNaN(a) ? f64(Double.doubleToRawLongBits(a) | QUIET64) : Math.abs(a);
                case FNEG -> Double.isNaN(a) ? f64(Double.doubleToRawLongBits(a) | QUIET64) : -a;
                case SQRT -> op.mod.approx() ? Math.sqrt(a) : FloatOps.sqrt64(a, mode);
                case RSQRT -> ApproxOps.rsqrt64(a);
                case RCP -> op.mod.approx() ? 1.0 / a : FloatOps.div64(1.0, a, mode);
                case EX2 -> Math.pow(2, a);
                case LG2 -> Math.log(a) / Math.log(2);
                case SIN -> Math.sin(a);
                case COS -> Math.cos(a);
                case TANH -> Math.tanh(a);
                default -> throw Engine.Stop.unsupported(op, "");
            };
            if (Double.isNaN(r) && (op.code == OpCode.FADD || op.code == OpCode.FSUB || op.code == OpCode.FMUL
                    || op.code == OpCode.FMA || op.code == OpCode.FDIV)) {
                // An input NaN comes back quieted, b's before a's before c's (H100). Java leaves the
                // choice to the processor (and interpreted and compiled code may differ), so it is made here.
                double c = n > 2 ? f64(rc) : 0;
                double nan = Double.isNaN(b) ? b : Double.isNaN(a) ? a : Double.isNaN(c) ? c : r;
                return Double.doubleToRawLongBits(nan) | (Double.isNaN(a) || Double.isNaN(b) || Double.isNaN(c) ? QUIET64 : 0);
            }
            return Double.doubleToRawLongBits(r);
        }
        if (op.type == DataType.F16 || op.type == DataType.F16X2 || op.type == DataType.BF16
                || op.type == DataType.BF16X2) {
            return half(op, n, ra, rb, rc);
        }
        if (op.type == DataType.F32X2) {
            // add, sub, mul and fma .f32x2: the f32 operation on the low halves of the 64-bit
            // operands and on the high halves, each into its half of the result (PTX ISA, fma).
            return single(op, n, ra, rb, rc, mode) | single(op, n, ra >>> 32, rb >>> 32, rc >>> 32, mode) << 32;
        }
        if (op.type != DataType.F32) {
            throw Engine.Stop.unsupported(op, "");
        }
        return single(op, n, ra, rb, rc, mode);
    }

    /** {@link #apply} of an f32 operation: the low 32 bits of ra..rc; the result's bits, zero-extended. */
    private static long single(Op op, int n, long ra, long rb, long rc, int mode) {
        float a = f32(ra);
        float b = n > 1 ? f32(rb) : 0;
        float c = n > 2 ? f32(rc) : 0;
        if (op.mod.ftz()) {
            a = FloatOps.flush(a);
            b = FloatOps.flush(b);
            c = FloatOps.flush(c);
        }
        float r = switch (op.code) {
            case FADD -> FloatOps.add32(a, b, mode);
            case FSUB -> FloatOps.add32(a, -b, mode);
            case FMUL -> FloatOps.mul32(a, b, mode);
            case FMA -> FloatOps.fma32(a, b, c, mode);
            case FDIV -> op.mod.approx() ? ApproxOps.div(a, b)
                    : op.fullDivision() ? (float) ((double) a / b) : FloatOps.div32(a, b, mode);
            case FMIN, FMAX -> {
                if (Float.isNaN(a) || Float.isNaN(b)) {
                    if (op.propagatesNaN() || (Float.isNaN(a) && Float.isNaN(b))) {
                        yield Float.intBitsToFloat(FloatOps.CANONICAL_NAN_F32);
                    }
                    float number = Float.isNaN(a) ? b : a;
                    if (op.xorsign()) {
                        // .xorsign.abs with one NaN: the number's magnitude, still with the XOR of both signs.
                        boolean neg = (Float.floatToRawIntBits(a) ^ Float.floatToRawIntBits(b)) < 0;
                        yield Math.copySign(Math.abs(number), neg ? -1f : 1f);
                    }
                    yield number;
                }
                float m = op.code == OpCode.FMIN ? Math.min(a, b) : Math.max(a, b);
                if (op.xorsign()) {
                    // .xorsign.abs: min/max of the magnitudes, with the sign of a XOR b.
                    float x = Math.abs(a), y = Math.abs(b);
                    boolean neg = (Float.floatToRawIntBits(a) ^ Float.floatToRawIntBits(b)) < 0;
                    m = Math.copySign(op.code == OpCode.FMIN ? Math.min(x, y) : Math.max(x, y), neg ? -1f : 1f);
                }
                yield m;
            }
            case FABS -> Math.abs(a);
            case FNEG -> -a;
            case SQRT -> op.mod.approx() ? (float) Math.sqrt(a) : FloatOps.sqrt32(a, mode);
            case RSQRT -> (float) (1.0 / Math.sqrt(a));
            case RCP -> op.mod.approx() ? (float) (1.0 / a) : FloatOps.div32(1f, a, mode);
            case EX2 -> (float) Math.pow(2, a);
            case LG2 -> (float) (Math.log(a) / Math.log(2));
            case SIN -> ApproxOps.sin(a);
            case COS -> ApproxOps.cos(a);
            case TANH -> (float) Math.tanh(a);
            default -> throw Engine.Stop.unsupported(op, "");
        };
        if (op.mod.sat()) {
            r = Float.isNaN(r) ? 0f : Math.max(0f, Math.min(1f, r));
        }
        if (op.mod.ftz()) {
            r = FloatOps.flush(r);
        }
        if ((op.code == OpCode.FABS || op.code == OpCode.FNEG) && !Float.isNaN(r)) {
            return Float.floatToRawIntBits(r) & 0xffffffffL;
        }
        return bits32(r);
    }

    /** copysign of {@code bits}-bit floats: b's bits (NaN payloads included) with a's sign. */
    static long copysign(int bits, long a, long b) {
        long sign = bits == 64 ? Long.MIN_VALUE : 0x8000_0000L;
        return (b & ~sign & (bits == 64 ? -1L : 0xffffffffL)) | (a & sign);
    }

    /** min's and max's form: .NaN (a NaN operand gives the canonical NaN) and .xorsign.abs. */
    record MinMax(boolean propagatesNaN, boolean xorsign) implements OpForm {
    }

    /** The property testp tests. */
    enum TestedProperty implements OpForm {
        FINITE, INFINITE, NUMBER, NOTANUMBER, NORMAL, SUBNORMAL;

        /** The property a qualifier names (".finite" ...), .finite for any other text. */
        static TestedProperty of(String qualifier) {
            for (TestedProperty p : values()) {
                if (qualifier.equals("." + p.name().toLowerCase())) {
                    return p;
                }
            }
            return FINITE;
        }
    }

    /** testp: whether the f32 or f64 raw has the property the op tests. */
    static boolean testp(Op op, long raw) {
        double x = op.type == DataType.F64 ? f64(raw) : f32(raw);
        double ax = Math.abs(x);
        double minNormal = op.type == DataType.F64 ? Double.MIN_NORMAL : Float.MIN_NORMAL;
        return switch (op.testedProperty()) {
            case FINITE -> Double.isFinite(x);
            case INFINITE -> Double.isInfinite(x);
            case NUMBER -> !Double.isNaN(x);
            case NOTANUMBER -> Double.isNaN(x);
            // H100 reports zero as normal: everything finite that is not subnormal.
            case NORMAL -> Double.isFinite(x) && !(ax > 0 && ax < minNormal);
            case SUBNORMAL -> ax > 0 && ax < minNormal;
        };
    }

    /** f16/bf16 arithmetic (scalar or packed pairs): computed in double, rounded once to the format. */
    private static long half(Op op, int n, long ra, long rb, long rc) {
        DataType t = op.type;
        boolean bf = t == DataType.BF16 || t == DataType.BF16X2;
        int lanes = t == DataType.F16X2 || t == DataType.BF16X2 ? 2 : 1;
        int mode = Math.max(op.mod.rounding(), 0);
        long out = 0;
        for (int e = 0; e < lanes; e++) {
            int shift = 16 * e;
            double a = halfValue(ra >>> shift, bf), b = halfValue(rb >>> shift, bf), c = halfValue(rc >>> shift, bf);
            double r = switch (op.code) {
                case FADD -> a + b;
                case FSUB -> a - b;
                case FMUL -> a * b;
                case FMA -> a * b + c;
                case FNEG -> -a;
                case FABS -> Math.abs(a);
                case FMIN, FMAX -> {
                    if (Double.isNaN(a) || Double.isNaN(b)) {
                        yield op.propagatesNaN() || (Double.isNaN(a) && Double.isNaN(b)) ? Double.NaN
                                : Double.isNaN(a) ? b : a;
                    }
                    yield op.code == OpCode.FMIN ? Math.min(a, b) : Math.max(a, b);
                }
                default -> throw Engine.Stop.unsupported(op, "");
            };
            if (op.mod.sat()) {
                r = Double.isNaN(r) ? 0 : Math.max(0, Math.min(1, r));
            }
            if (op.mod.relu() && (r < 0 || Double.isNaN(r))) {
                r = Double.isNaN(r) ? Double.NaN : 0;
            }
            int h;
            if (Double.isNaN(r)) {
                h = 0x7fff;
            } else {
                h = bf ? FloatOps.floatToBf16(FloatOps.toF32(r, mode)) : FloatOps.floatToHalf(r, mode);
            }
            out |= (long) h << shift;
        }
        return out;
    }

    /** The value of the f16 (or bf16) in the low 16 bits of raw. */
    private static double halfValue(long raw, boolean bf) {
        int h = (int) raw & 0xffff;
        return bf ? FloatOps.bf16ToFloat(h) : FloatOps.halfToFloat(h);
    }
}
