package io.ptxrun.exec;

import io.ptxrun.ast.DataType;
import io.ptxrun.ast.Instruction;
import io.ptxrun.ast.Qualifier;

import static io.ptxrun.exec.Bits.sx;
import static io.ptxrun.exec.Bits.zx;
import static io.ptxrun.exec.FloatOps.f32;
import static io.ptxrun.exec.FloatOps.f64;

/**
 * Comparisons and selections (setp, set, slct), one lane at a time: pure functions of the source
 * values. The interpreter calls them for each lane; compiled regions call {@link #compareInt} for
 * the integer setp they inline ({@link #compareInt32} for a 32-bit one).
 */
final class Comparisons {
    private static final int EQ = Qualifier.EQ.ordinal(), NE = Qualifier.NE.ordinal(),
            LT = Qualifier.LT.ordinal(), LE = Qualifier.LE.ordinal(),
            GT = Qualifier.GT.ordinal(), GE = Qualifier.GE.ordinal(),
            LO = Qualifier.LO.ordinal(), LS = Qualifier.LS.ordinal(),
            HI = Qualifier.HI.ordinal(), HS = Qualifier.HS.ordinal(),
            EQU = Qualifier.EQU.ordinal(), NEU = Qualifier.NEU.ordinal(),
            LTU = Qualifier.LTU.ordinal(), LEU = Qualifier.LEU.ordinal(),
            GTU = Qualifier.GTU.ordinal(), GEU = Qualifier.GEU.ordinal(),
            NUM = Qualifier.NUM.ordinal(), NAN = Qualifier.NAN.ordinal();

    /** The op's comparison (a Qualifier ordinal) of a and b as values of type t (f32 flushed under .ftz). */
    static boolean compare(Op op, DataType t, long a, long b) {
        int c = op.comparison();
        if (t.isFloat()) {
            double x, y;
            if (t == DataType.F64) {
                x = f64(a);
                y = f64(b);
            } else if (t == DataType.F16 || t == DataType.BF16) {
                x = Convert.floatValue(a, t, false);
                y = Convert.floatValue(b, t, false);
            } else {
                float fx = f32(a), fy = f32(b);
                if (op.mod.ftz()) {
                    fx = FloatOps.flush(fx);
                    fy = FloatOps.flush(fy);
                }
                x = fx;
                y = fy;
            }
            boolean nan = Double.isNaN(x) || Double.isNaN(y);
            if (c == NUM) {
                return !nan;
            }
            if (c == NAN) {
                return nan;
            }
            boolean unordered = c == EQU || c == NEU || c == LTU || c == LEU || c == GTU || c == GEU;
            if (nan) {
                return unordered;
            }
            if (c == EQ || c == EQU) {
                return x == y;
            }
            if (c == NE || c == NEU) {
                return x != y;
            }
            if (c == LT || c == LTU) {
                return x < y;
            }
            if (c == LE || c == LEU) {
                return x <= y;
            }
            if (c == GT || c == GTU) {
                return x > y;
            }
            return x >= y;
        }
        return compareInt(c, t.isSigned(), t.bits, a, b);
    }

    /** Integer comparison {@code c} (a Qualifier ordinal) of a and b as {@code bits}-bit values. */
    static boolean compareInt(int c, boolean signed, int bits, long a, long b) {
        long x = signed ? sx(a, bits) : zx(a, bits), y = signed ? sx(b, bits) : zx(b, bits);
        if (c == EQ) {
            return x == y;
        }
        if (c == NE) {
            return x != y;
        }
        int cmp;
        if (c == LO || c == LS || c == HI || c == HS || !signed) {
            cmp = Long.compareUnsigned(zx(a, bits), zx(b, bits));
        } else {
            cmp = Long.compare(x, y);
        }
        if (c == LT || c == LO) {
            return cmp < 0;
        }
        if (c == LE || c == LS) {
            return cmp <= 0;
        }
        if (c == GT || c == HI) {
            return cmp > 0;
        }
        return cmp >= 0;
    }

    /**
     * {@link #compareInt} of 32-bit values, given as their low 32 bits: the same outcome, as one
     * comparison of ints (the unsigned order is the signed order with the sign bits flipped), so
     * that a compiled lane loop comparing the ints it holds compiles to one compare instruction.
     */
    static boolean compareInt32(int c, boolean signed, int a, int b) {
        if (c == EQ) {
            return a == b;
        }
        if (c == NE) {
            return a != b;
        }
        if (c == LO || c == LS || c == HI || c == HS || !signed) {
            a ^= Integer.MIN_VALUE;
            b ^= Integer.MIN_VALUE;
        }
        if (c == LT || c == LO) {
            return a < b;
        }
        if (c == LE || c == LS) {
            return a <= b;
        }
        if (c == GT || c == HI) {
            return a > b;
        }
        return a >= b;
    }

    /**
     * setp: the comparison, combined with the predicate c where the op names a boolean operation,
     * in bit 0; its negation, combined likewise (the second destination, p|q), in bit 1.
     */
    static int setp(Op op, long a, long b, long c) {
        boolean p = compare(op, op.type, a, b);
        boolean q = !p;
        if (op.combination() != Combination.NONE && op.sources() > 2) {
            p = op.combination().apply(p, c);
            q = op.combination().apply(q, c);
        }
        return (p ? 1 : 0) | (q ? 2 : 0);
    }

    /** set: the comparison (combined as setp's) as the value of the result type. */
    static long set(Op op, long a, long b, long c) {
        // set.cmp.dtype.stype: op.type is the compared type, op.srcType the result type.
        boolean p = compare(op, op.type, a, b);
        if (op.combination() != Combination.NONE && op.sources() > 2) {
            p = op.combination().apply(p, c);
        }
        return setValue(op.srcType, p);
    }

    /** slct: a where the selector c is at least zero, else b. */
    static long slct(Op op, long a, long b, long c) {
        int bits = op.type == null ? 64 : op.type.bits;
        // A NaN selector picks b; .ftz flushes a subnormal selector (to a signed zero, so >= 0).
        boolean ge = op.srcType == DataType.F32 ? (op.mod.ftz() ? FloatOps.flush(f32(c)) : f32(c)) >= 0 : (int) c >= 0;
        return zx(ge ? a : b, bits);
    }

    /** setp's and set's form: the comparison (a {@link Qualifier} ordinal, -1 for none) and its combination. */
    record Form(int comparison, Combination combination) implements OpForm {
        static Form of(Instruction i) {
            return new Form(i.first(Qualifier.Category.COMPARE).map(q -> q.kind().ordinal()).orElse(-1),
                    Combination.of(i));
        }
    }

    /** How setp and set combine their comparison with the predicate operand: not, .and, .or or .xor. */
    enum Combination {
        NONE, AND, OR, XOR;

        /** The combination named by i's qualifiers (NONE where it names none). */
        static Combination of(Instruction i) {
            return i.has(Qualifier.AND) ? AND : i.has(Qualifier.OR) ? OR : i.has(Qualifier.XOR) ? XOR : NONE;
        }

        /** The comparison's result p combined with the predicate c (NONE: p itself). */
        boolean apply(boolean p, long c) {
            boolean q = (c & 1) != 0;
            return switch (this) {
                case NONE -> p;
                case AND -> p & q;
                case OR -> p | q;
                case XOR -> p ^ q;
            };
        }
    }

    /** What set writes for p in its result type: 1.0 (f32, f16, bf16) or all ones, else 0. */
    static long setValue(DataType resultType, boolean p) {
        return switch (resultType) {
            case F32 -> p ? Float.floatToRawIntBits(1f) : 0;
            case F16 -> p ? 0x3c00 : 0;
            case BF16 -> p ? 0x3f80 : 0;
            default -> p ? 0xffffffffL : 0;
        };
    }

    private Comparisons() {}
}
