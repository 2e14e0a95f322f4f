package io.ptxrun.exec;

import io.ptxrun.ast.DataType;
import io.ptxrun.ast.Instruction;
import io.ptxrun.ast.SourcePos;
import io.ptxrun.ast.SpecialRegister;

/**
 * One decoded instruction: an operation code, register operands resolved to indices into the
 * per-frame register file, constants pre-decoded to raw bits, branch targets resolved to indices
 * into the program's op array. Immutable: {@link Decoder} fills a {@link Decoder.Draft} step by
 * step and makes the op from it once. How the op reaches memory (space, address, vector width,
 * memory order) is its {@link MemoryAccess}, in {@link #mem}; its rounding, saturation and
 * flushing are its {@link Modifiers}, in {@link #mod}. What only one instruction family needs (a
 * copy's source and mbarrier, a call's frame offsets, a wgmma's shape...) is that family's
 * immutable {@link OpForm}, in {@link #form}.
 */
final class Op {
    // Source operand kinds.
    static final int REG = 0, IMM = 1, SREG = 2, FRAME = 3;

    final OpCode code;
    final Instruction insn;
    final SourcePos pos;
    /** Space, address and order of a memory op; {@link MemoryAccess#NONE} for an op without one. */
    final MemoryAccess mem;
    /** Rounding, saturation, flushing of arithmetic; {@link Modifiers#NONE} for an op without them. */
    final Modifiers mod;

    final DataType type;
    /** Source type of conversions (`cvt.f32.s32`: F32 is type, S32 is srcType). */
    final DataType srcType;
    /** The guard predicate's register, or -1 for an unguarded op. */
    final int guard;
    final boolean guardNegated;

    final int[] dst;
    /** Declared width of each destination register (sign extension of narrow loads fills it). */
    final int[] dstBits;
    /** Index of the function this op belongs to. */
    final int owner;
    /**
     * Each source's kind ({@link #REG}, {@link #IMM}, {@link #SREG}, {@link #FRAME}) and, by kind,
     * its register ({@code src}, negated for a `!p` predicate), its bits or frame offset ({@code imm}),
     * or its special register and component ({@code sreg}, {@code sregComp}). The arrays are never
     * written once the op is made.
     */
    final int[] srcKind;
    final int[] src;
    final long[] imm;
    final boolean[] srcNegated;
    final SpecialRegister[] sreg;
    final char[] sregComp;

    /** A branch's target: the index of the op its label marks. */
    final int target;
    /**
     * What the operation means by its own qualifiers: a compare (setp, set), an atomic operation,
     * a product half (mul, mad: 0 .lo, 1 .hi, 2 .wide; mul24, mad24, madc: 1 .hi), .xorsign
     * (min/max), a prmt or testp mode, a shf direction.
     */
    final int sub;
    /** setp/set: how the result combines with the predicate operand (0 none, 1 .and, 2 .or, 3 .xor). */
    final int boolOp;
    /**
     * An operation's own switch: .NaN (min/max), .shiftamt (bfind), .clamp (shf, bmsk), an
     * integer rounding of cvt (.rni ...), .full (div.f32), .sync (shfl, vote, match, redux, elect:
     * a member mask names the lanes), .aligned (bar, barrier), .relaxed (barrier.cluster).
     */
    final boolean flag;

    /** The family's own decoded form (see {@link OpForm}), or null. */
    final OpForm form;

    /** The op {@code d} describes (only {@link Decoder.Draft#op} makes ops). */
    Op(Decoder.Draft d) {
        this.code = d.code;
        this.insn = d.insn;
        this.pos = d.insn == null ? SourcePos.NONE : d.insn.pos();
        this.mem = d.mem;
        this.mod = d.mod;
        this.type = d.type;
        this.srcType = d.srcType;
        this.guard = d.guard;
        this.guardNegated = d.guardNegated;
        this.dst = d.dst;
        this.dstBits = d.dstBits;
        this.owner = d.owner;
        this.srcKind = d.srcKind;
        this.src = d.src;
        this.imm = d.imm;
        this.srcNegated = d.srcNegated;
        this.sreg = d.sreg;
        this.sregComp = d.sregComp;
        this.target = d.target;
        this.sub = d.sub;
        this.boolOp = d.boolOp;
        this.flag = d.flag;
        this.form = d.form;
    }

    int sources() {
        return src.length;
    }

    String mnemonic() {
        return insn == null ? code.name().toLowerCase() : insn.mnemonic();
    }
}
