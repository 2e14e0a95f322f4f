package io.ptxrun.exec;

import io.ptxrun.ast.DataType;
import io.ptxrun.ast.Instruction;
import io.ptxrun.ast.SourcePos;
import io.ptxrun.ast.SpecialRegister;

/**
 * One decoded instruction: an operation code, register operands resolved to indices into the
 * per-frame register file, constants pre-decoded to raw bits, branch targets resolved to indices
 * into the program's op array. Fields are filled once by {@link Decoder} and then only read. How
 * the op reaches memory (space, address, vector width, memory order) is its {@link MemoryAccess},
 * in {@link #mem}; its rounding, saturation and flushing are its {@link Modifiers}, in {@link #mod}.
 * What only one instruction family needs (a copy's source and mbarrier, a call's
 * frame offsets, a wgmma's shape...) is that family's immutable {@link OpForm}, in {@link #form}.
 */
final class Op {
    // Source operand kinds.
    static final int REG = 0, IMM = 1, SREG = 2, FRAME = 3;
    // Memory spaces as the engine sees them.
    static final int SP_GENERIC = 0, SP_GLOBAL = 1, SP_SHARED = 2, SP_LOCAL = 3, SP_CONST = 4, SP_KPARAM = 5;

    final OpCode code;
    final Instruction insn;
    final SourcePos pos;
    /** Space, address and order of a memory op; {@link MemoryAccess#NONE} for an op without one. */
    final MemoryAccess mem;
    /** Rounding, saturation, flushing of arithmetic; {@link Modifiers#NONE} for an op without them. */
    final Modifiers mod;

    DataType type;
    /** Source type of conversions (`cvt.f32.s32`: F32 is type, S32 is srcType). */
    DataType srcType;
    int guard = -1;
    boolean guardNegated;

    int[] dst = new int[0];
    /** Declared width of each destination register (sign extension of narrow loads fills it). */
    int[] dstBits = new int[0];
    /** Index of the function this op belongs to. */
    int owner;
    int[] srcKind = new int[0];
    int[] src = new int[0];
    long[] imm = new long[0];
    boolean[] srcNegated = new boolean[0];
    SpecialRegister[] sreg = new SpecialRegister[0];
    char[] sregComp = new char[0];

    int target = -1;
    /**
     * What the operation means by its own qualifiers: a compare (setp, set), an atomic operation,
     * a product half (mul, mad: 0 .lo, 1 .hi, 2 .wide; mul24, mad24, madc: 1 .hi), .xorsign
     * (min/max), a prmt or testp mode, a shf direction.
     */
    int sub;
    /** setp/set: how the result combines with the predicate operand (0 none, 1 .and, 2 .or, 3 .xor). */
    int boolOp;
    /**
     * An operation's own switch: .NaN (min/max), .shiftamt (bfind), .clamp (shf, bmsk), an
     * integer rounding of cvt (.rni ...); set on unsupported ops.
     */
    boolean flag;

    /** The family's own decoded form (see {@link OpForm}), or null. */
    OpForm form;

    Op(OpCode code, Instruction insn) {
        this(code, insn, MemoryAccess.NONE, Modifiers.NONE);
    }

    Op(OpCode code, Instruction insn, MemoryAccess mem) {
        this(code, insn, mem, Modifiers.NONE);
    }

    Op(OpCode code, Instruction insn, MemoryAccess mem, Modifiers mod) {
        this.code = code;
        this.insn = insn;
        this.pos = insn == null ? SourcePos.NONE : insn.pos();
        this.mem = mem;
        this.mod = mod;
    }

    int sources() {
        return src.length;
    }

    String mnemonic() {
        return insn == null ? code.name().toLowerCase() : insn.mnemonic();
    }
}
