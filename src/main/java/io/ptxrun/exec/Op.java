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
     * One switch of the operation's own qualifiers (div's .full, shf's .clamp, a warp
     * collective's .sync, ...), read only through the accessor that names its meaning for the
     * family that reads it: the many kinds of op that need a single switch share this field
     * rather than each having a form of its own.
     */
    private final boolean option;

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
        this.option = d.option;
        this.form = d.form;
    }

    int sources() {
        return src.length;
    }

    String mnemonic() {
        return insn == null ? code.name().toLowerCase() : insn.mnemonic();
    }

    // ---------------------------------------------------------------- the form, by family

    /** setp, set: the comparison (a {@link io.ptxrun.ast.Qualifier} ordinal, -1 for none). */
    int comparison() {
        return ((Comparisons.Form) form).comparison();
    }

    /** setp, set: how the comparison combines with the predicate operand. */
    Comparisons.Combination combination() {
        return ((Comparisons.Form) form).combination();
    }

    /** Integer mul and mad: which half of the product they keep; mul24, mad24 and madc: LO or HI. */
    IntegerOps.ProductHalf productHalf() {
        return (IntegerOps.ProductHalf) form;
    }

    /** atom and red: the operation, or null for none. */
    Atomics.Operation atomicOp() {
        return (Atomics.Operation) form;
    }

    /** Floating-point min and max: .xorsign.abs. */
    boolean xorsign() {
        return ((FloatArithmetic.MinMax) form).xorsign();
    }

    /** prmt: the mode. */
    IntegerOps.PermuteMode prmtMode() {
        return (IntegerOps.PermuteMode) form;
    }

    /** testp: the property tested. */
    FloatArithmetic.TestedProperty testedProperty() {
        return (FloatArithmetic.TestedProperty) form;
    }

    /** shf: .l, the funnel shifted left (else .r). */
    boolean shiftsLeft() {
        return form == IntegerOps.FunnelDirection.LEFT;
    }

    // ---------------------------------------------------------------- option, by family

    /** Floating-point min and max: .NaN, a NaN operand gives the canonical NaN. */
    boolean propagatesNaN() {
        return ((FloatArithmetic.MinMax) form).propagatesNaN();
    }

    /** div.f32: .full. */
    boolean fullDivision() {
        return option;
    }

    /** bfind: .shiftamt, the shift that puts the bit found at the top, rather than its position. */
    boolean shiftAmount() {
        return option;
    }

    /** shf and bmsk: .clamp, counts above 32 clamp to 32 rather than wrap. */
    boolean clamps() {
        return option;
    }

    /** cvt of a float to a float: an integer rounding (.rni, .rzi, .rmi, .rpi). */
    boolean roundsToInteger() {
        return option;
    }

    /** shfl, vote, match, redux and elect: .sync, a member mask names the lanes taking part. */
    boolean sync() {
        return option;
    }

    /** bar and barrier: .aligned (bar always is), every thread of the CTA's warps executes the same one. */
    boolean aligned() {
        return option;
    }

    /** barrier.cluster.arrive and .wait: .relaxed, no release or acquire. */
    boolean relaxed() {
        return option;
    }
}
