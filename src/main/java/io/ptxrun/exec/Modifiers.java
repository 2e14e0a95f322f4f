package io.ptxrun.exec;

import io.ptxrun.ast.Instruction;
import io.ptxrun.ast.Qualifier;

/**
 * The arithmetic modifiers of an instruction, decoded once by {@link Decoder}: how its result is
 * rounded, saturated, flushed or clamped. What only one operation means by its qualifiers (a
 * compare, a product half, a permute mode) stays in {@link Op#sub}.
 *
 * @param rounding  0 nearest-even (.rn), 1 toward zero (.rz), 2 down (.rm), 3 up (.rp),
 *                  4 nearest-away (.rna); -1 when none is named. Integer roundings of cvt
 *                  (.rni ...) give the same codes.
 * @param sat       .sat: clamp to the type's range (integers) or [0, 1] (floats)
 * @param ftz       .ftz: subnormal f32 inputs and results are flushed to zero
 * @param approx    .approx: the fast approximation instead of the correctly rounded result
 * @param carry     .cc: the carry flag is written (add.cc, sub.cc, mad.cc ...)
 * @param relu      .relu: negative results (and NaN for floats) become zero
 * @param satFinite .satfinite (cvt): a result beyond the format's range becomes its largest finite value
 */
record Modifiers(int rounding, boolean sat, boolean ftz, boolean approx, boolean carry, boolean relu,
                 boolean satFinite) {
    /** An instruction that names none. */
    static final Modifiers NONE = new Modifiers(-1, false, false, false, false, false, false);

    static Modifiers of(Instruction i) {
        return new Modifiers(rounding(i), i.has(Qualifier.SAT), i.has(Qualifier.FTZ), i.has(Qualifier.APPROX),
                i.has(Qualifier.CC), i.has(Qualifier.RELU), i.has(Qualifier.SATFINITE));
    }

    /** Only .ftz (setp: the compared values are flushed). */
    static Modifiers flushOnly(Instruction i) {
        return i.has(Qualifier.FTZ) ? new Modifiers(-1, false, true, false, false, false, false) : NONE;
    }

    private static int rounding(Instruction i) {
        return i.first(Qualifier.Category.ROUNDING).map(q -> switch (q.kind()) {
            case RN, RNI -> 0;
            case RZ, RZI -> 1;
            case RM, RMI -> 2;
            case RP, RPI -> 3;
            case RNA -> 4;
            default -> 0;
        }).orElse(-1);
    }
}
