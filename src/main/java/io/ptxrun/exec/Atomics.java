package io.ptxrun.exec;

import io.ptxrun.ast.DataType;
import io.ptxrun.ast.Instruction;
import io.ptxrun.ast.Qualifier;

import static io.ptxrun.exec.FloatOps.bits32;
import static io.ptxrun.exec.FloatOps.bits64;
import static io.ptxrun.exec.FloatOps.f32;
import static io.ptxrun.exec.FloatOps.f64;
import static io.ptxrun.exec.Bits.zx;

/**
 * atom and red: one read-modify-write per lane, atomic with other CTAs' in global memory (which
 * other workers share), and the value arithmetic of the new memory value from the old one and
 * the operands ({@link Operation}).
 */
final class Atomics {
    private Atomics() {}

    /** atom or red for lane l: one read-modify-write in the op's space, the old value to atom's destination. */
    static void run(Engine e, Warp w, Op op, int l) {
        DataType t = op.type;
        int size = t.bytes();
        Space space = op.mem.space();
        long a = e.memory.address(w, op, l);
        long b = e.operands.read(w, op, 0, l);
        long c = op.sources() > 1 ? e.operands.read(w, op, 1, l) : 0;
        Space target = space == Space.GENERIC ? Space.ofGeneric(a) : space;
        if (e.order != null) {
            e.ordering.releasing(w, l, space, a, op.mem.release(), op.mem.scope());
        }
        long old;
        if (target == Space.GLOBAL) {
            // Other CTAs may run on other threads: one atomic read-modify-write of global memory.
            if ((a & (size - 1)) != 0) {
                throw new MemoryFault(String.format("misaligned %d-byte global access at 0x%x", size, a));
            }
            old = e.global().readModifyWrite(a, size, v -> combine(op, v, b, c, false));
            if (combine(op, old, b, c, false) != old) {
                e.progressed(); // memory that others read changed: progress (a failed compare-and-swap is none)
            }
        } else {
            old = e.memory.load(w, space, a, size, l);
            e.memory.store(w, space, a, size, combine(op, old, b, c, target == Space.SHARED), l);
        }
        if (op.code == OpCode.ATOM) {
            e.operands.write(w, op, 0, l, zx(old, t.bits));
        }
        if (e.order != null) {
            e.ordering.ordered(w, l, op, space, a, size, op.code == OpCode.ATOM, true);
        }
    }

    /**
     * The operation of atom and red (PTX ISA 9.7.13.5): its qualifier, and the value it stores
     * from the old one and the operands, defined here once for every space and for both.
     */
    enum Operation implements OpForm {
        ADD(Qualifier.ADD), MIN(Qualifier.MIN), MAX(Qualifier.MAX), INC(Qualifier.INC), DEC(Qualifier.DEC),
        CAS(Qualifier.CAS), EXCH(Qualifier.EXCH), AND(Qualifier.AND), OR(Qualifier.OR), XOR(Qualifier.XOR);

        private static final Operation[] ALL = values();

        final Qualifier qualifier;

        Operation(Qualifier qualifier) {
            this.qualifier = qualifier;
        }

        /** The operation i names (the first of its qualifiers in declaration order), or null for none. */
        static Operation of(Instruction i) {
            for (Operation o : ALL) {
                if (i.has(o.qualifier)) {
                    return o;
                }
            }
            return null;
        }

        /**
         * The value stored (zero-extended to the width of t). b is the operand (cas: the compared
         * value), c the second operand of cas. sharedTarget matters for f32 adds.
         */
        long combine(DataType t, long old, long b, long c, boolean sharedTarget) {
            long r = switch (this) {
                case ADD -> {
                    if (t == DataType.F32) {
                        // H100: global f32 atomic adds flush subnormals; shared ones keep them.
                        float x = f32(old), y = f32(b);
                        yield sharedTarget ? bits32(x + y)
                                : bits32(FloatOps.flush(FloatOps.flush(x) + FloatOps.flush(y)));
                    }
                    yield t == DataType.F64 ? bits64(f64(old) + f64(b)) : old + b;
                }
                case MIN, MAX -> {
                    if (t.isFloat()) {
                        double x = t == DataType.F64 ? f64(old) : f32(old), y = t == DataType.F64 ? f64(b) : f32(b);
                        double m = this == MIN ? fmin(x, y) : fmax(x, y);
                        yield t == DataType.F64 ? bits64(m) : bits32((float) m);
                    }
                    long x = IntegerOps.ext(old, t), y = IntegerOps.ext(b, t);
                    int cmp = t.isSigned() ? Long.compare(x, y) : Long.compareUnsigned(x, y);
                    yield (this == MIN) == (cmp <= 0) ? old : b;
                }
                case INC -> Long.compareUnsigned(zx(old, t.bits), zx(b, t.bits)) >= 0 ? 0 : old + 1;
                case DEC -> zx(old, t.bits) == 0 || Long.compareUnsigned(zx(old, t.bits), zx(b, t.bits)) > 0 ? b : old - 1;
                case CAS -> zx(old, t.bits) == zx(b, t.bits) ? c : old;
                case EXCH -> b;
                case AND -> old & b;
                case OR -> old | b;
                case XOR -> old ^ b;
            };
            return zx(r, t.bits);
        }
    }

    /** The value op stores in place of old (see {@link Operation#combine}). */
    private static long combine(Op op, long old, long b, long c, boolean sharedTarget) {
        Operation o = op.atomicOp();
        if (o == null) {
            throw Engine.Stop.unsupported(op, "");
        }
        return o.combine(op.type, old, b, c, sharedTarget);
    }

    /** min/max ignoring a NaN operand, as the float atomics do. */
    private static double fmin(double a, double b) {
        return Double.isNaN(a) ? b : Double.isNaN(b) ? a : Math.min(a, b);
    }

    private static double fmax(double a, double b) {
        return Double.isNaN(a) ? b : Double.isNaN(b) ? a : Math.max(a, b);
    }
}
