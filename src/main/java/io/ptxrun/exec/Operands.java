package io.ptxrun.exec;

/**
 * An op's operands as each lane reads and writes them, the one vocabulary every instruction family
 * shares: a source is a register (a {@code !p} predicate negated), an immediate's bits, an address
 * in the lane's call frame or a special register ({@link Op#srcKind}); a destination is a register,
 * or nothing for the sink {@code _}. Compiled regions read and write registers directly, the same
 * way ({@link RegionCompiler}).
 */
final class Operands {
    /** %tid, %ctaid, %clock and the other special registers as the running lane reads them. */
    private final SpecialRegisters specials;

    Operands(SpecialRegisters specials) {
        this.specials = specials;
    }

    /** Source k of op as lane l of w reads it. */
    long read(Warp w, Op op, int k, int l) {
        switch (op.srcKind[k]) {
            case Op.REG: {
                long v = w.regs[((w.regBase[l] + op.src[k]) << 5) | l];
                return op.srcNegated[k] ? v ^ 1 : v;
            }
            case Op.IMM:
                return op.imm[k];
            case Op.FRAME:
                return w.localBase[l] + op.imm[k];
            default:
                return specials.read(w, op.sreg[k], op.sregComp[k], l);
        }
    }

    /** Writes v to destination k of op for lane l of w (nothing for the sink). */
    void write(Warp w, Op op, int k, int l, long v) {
        int r = op.dst[k];
        if (r >= 0) {
            w.regs[((w.regBase[l] + r) << 5) | l] = v;
        }
    }
}
