package io.ptxrun.exec;

import io.ptxrun.ast.DataType;

import static io.ptxrun.exec.FloatOps.bits32;
import static io.ptxrun.exec.FloatOps.bits64;
import static io.ptxrun.exec.FloatOps.f32;
import static io.ptxrun.exec.FloatOps.f64;
import static io.ptxrun.exec.Engine.zx;

/**
 * The value arithmetic of atom and red: the new memory value from the old one and the operands.
 * Where the value lives and how the update is made atomic is the engine's business.
 */
final class Atomics {
    private Atomics() {}

    /**
     * The value an atomic operation stores (zero-extended to the operand width). b is the operand
     * (cas: the compared value), c the second operand of cas. sharedTarget matters for f32 adds.
     */
    static long combine(Op op, long old, long b, long c, boolean sharedTarget) {
        DataType t = op.type;
        long r;
        switch (op.sub) {
            case 0 -> {
                if (t == DataType.F32) {
                    // H100: global f32 atomic adds flush subnormals; shared ones keep them.
                    float x = f32(old), y = f32(b);
                    r = sharedTarget ? bits32(x + y)
                            : bits32(FloatOps.flush(FloatOps.flush(x) + FloatOps.flush(y)));
                } else if (t == DataType.F64) {
                    r = bits64(f64(old) + f64(b));
                } else {
                    r = old + b;
                }
            }
            case 1, 2 -> {
                if (t.isFloat()) {
                    double x = t == DataType.F64 ? f64(old) : f32(old), y = t == DataType.F64 ? f64(b) : f32(b);
                    double m = op.sub == 1 ? fmin(x, y) : fmax(x, y);
                    r = t == DataType.F64 ? bits64(m) : bits32((float) m);
                } else {
                    long x = IntegerOps.ext(old, t), y = IntegerOps.ext(b, t);
                    int cmp = t.isSigned() ? Long.compare(x, y) : Long.compareUnsigned(x, y);
                    r = (op.sub == 1) == (cmp <= 0) ? old : b;
                }
            }
            case 3 -> r = Long.compareUnsigned(zx(old, t.bits), zx(b, t.bits)) >= 0 ? 0 : old + 1;
            case 4 -> r = zx(old, t.bits) == 0 || Long.compareUnsigned(zx(old, t.bits), zx(b, t.bits)) > 0 ? b : old - 1;
            case 5 -> r = zx(old, t.bits) == zx(b, t.bits) ? c : old;
            case 6 -> r = b;
            case 7 -> r = old & b;
            case 8 -> r = old | b;
            case 9 -> r = old ^ b;
            default -> throw Engine.Stop.unsupported(op, "");
        }
        return zx(r, t.bits);
    }

    /** min/max ignoring a NaN operand, as the float atomics do. */
    private static double fmin(double a, double b) {
        return Double.isNaN(a) ? b : Double.isNaN(b) ? a : Math.min(a, b);
    }

    private static double fmax(double a, double b) {
        return Double.isNaN(a) ? b : Double.isNaN(b) ? a : Math.max(a, b);
    }
}
