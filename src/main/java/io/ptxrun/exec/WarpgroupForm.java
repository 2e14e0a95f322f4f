package io.ptxrun.exec;

import io.ptxrun.ast.DataType;
import io.ptxrun.ast.Instruction;
import io.ptxrun.ast.Operand;
import io.ptxrun.ast.Qual;
import io.ptxrun.ast.Qualifier;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A decoded warpgroup instruction (PTX ISA 9.7.15 wgmma, 9.7.19.5 setmaxnreg): what it does and,
 * for wgmma.mma_async, its shape, types and immediate operands, parsed once. The register operands
 * go to the op: destinations are the accumulator D; sources are A (its descriptor, or its four
 * registers), B's descriptor and scale-d, in that order.
 */
record WarpgroupForm(Kind kind, int n, int k, DataType dType, DataType aType, DataType bType, boolean aInRegisters,
                     boolean satFinite, int scaleA, int scaleB, boolean transA, boolean transB, int waitGroups)
        implements OpForm {

    enum Kind { FENCE, COMMIT, WAIT, MMA, SETMAXNREG }

    /** Registers of A in registers (9.7.15.5.1: four .b32 for every A type). */
    static final int A_REGISTERS = 4;

    private static final Pattern SHAPE = Pattern.compile("\\.m64n(\\d+)k(\\d+)");

    /** Accumulator registers per thread: N/2 for 32-bit elements, N/4 for .f16x2. */
    int accumulatorRegisters() {
        return dType == DataType.F16 ? n / 4 : n / 2;
    }

    /** Index of the first source after A: B's descriptor. */
    int bSource() {
        return aInRegisters ? A_REGISTERS : 1;
    }

    static boolean isFloat8(DataType t) {
        return t == DataType.E4M3 || t == DataType.E5M2;
    }

    /** Decodes the form and fills the op's operands; a DecodeError names what is not supported. */
    static WarpgroupForm decode(Instruction i, Decoder.FunctionDecoder d, Decoder.Draft op) {
        List<Operand> os = i.operands();
        return switch (i.opcode()) {
            case WGMMA_FENCE -> simple(Kind.FENCE, 0);
            case WGMMA_COMMIT_GROUP -> simple(Kind.COMMIT, 0);
            case WGMMA_WAIT_GROUP -> {
                if (os.size() != 1 || !(os.get(0) instanceof Operand.IntImm n) || n.value() < 0) {
                    throw new Decoder.DecodeError(i.pos(), "wgmma.wait_group takes one non-negative integer constant");
                }
                yield simple(Kind.WAIT, (int) Math.min(n.value(), Integer.MAX_VALUE));
            }
            case SETMAXNREG -> {
                if (os.size() != 1 || !(os.get(0) instanceof Operand.IntImm n)) {
                    throw new Decoder.DecodeError(i.pos(), "setmaxnreg takes one integer constant");
                }
                yield simple(Kind.SETMAXNREG, (int) Math.min(Math.max(n.value(), -1), 1 << 20));
            }
            case WGMMA_MMA_ASYNC -> mma(i, os, d, op);
            default -> throw new Decoder.DecodeError(i.pos(), "'" + i.mnemonic() + "' is not executed");
        };
    }

    private static WarpgroupForm simple(Kind kind, int value) {
        return new WarpgroupForm(kind, 0, 0, null, null, null, false, false, 1, 1, false, false, value);
    }

    private static WarpgroupForm mma(Instruction i, List<Operand> os, Decoder.FunctionDecoder d, Decoder.Draft op) {
        int n = -1, k = -1;
        for (Qual q : i.qualifiers()) {
            Matcher m = SHAPE.matcher(q.text());
            if (m.matches()) {
                n = Integer.parseInt(m.group(1));
                k = Integer.parseInt(m.group(2));
            }
        }
        List<DataType> ts = i.types();
        if (n < 8 || n > 256 || n % 8 != 0 || ts.size() != 3) {
            throw new Decoder.DecodeError(i.pos(), "wgmma.mma_async needs a shape .m64nNkK (N = 8..256, a multiple"
                    + " of 8) and three types (D, A, B)");
        }
        DataType dt = ts.get(0), at = ts.get(1), bt = ts.get(2);
        int needK;
        boolean floatD = dt == DataType.F32 || dt == DataType.F16;
        if ((at == DataType.F16 || at == DataType.BF16) && bt == at && floatD && !(at == DataType.BF16 && dt == DataType.F16)) {
            needK = 16;
        } else if (at == DataType.TF32 && bt == at && dt == DataType.F32) {
            needK = 8;
        } else if (isFloat8(at) && isFloat8(bt) && floatD) {
            needK = 32;
        } else if ((at == DataType.S8 || at == DataType.U8) && (bt == DataType.S8 || bt == DataType.U8) && dt == DataType.S32) {
            needK = 32;
        } else {
            throw new Decoder.DecodeError(i.pos(), "wgmma.mma_async types ." + dt.spelling.substring(1) + "."
                    + at.spelling.substring(1) + "." + bt.spelling.substring(1) + " are not supported (9.7.15.5:"
                    + " f16/bf16 with f16 or f32 D, tf32 with f32, e4m3/e5m2 with f16 or f32, s8/u8 with s32)");
        }
        if (k != needK) {
            throw new Decoder.DecodeError(i.pos(), "wgmma.mma_async with ." + at.spelling.substring(1) + " inputs has K = "
                    + needK + ", not " + k);
        }
        boolean integer = dt == DataType.S32;
        boolean sixteenBit = needK == 16;
        if (os.size() < 4) {
            throw new Decoder.DecodeError(i.pos(), "wgmma.mma_async operands missing (d, a, b-desc, scale-d, ...)");
        }
        boolean aRegs = os.get(1) instanceof Operand.Vector;
        int imms = integer ? 0 : 2 + (sixteenBit ? (aRegs ? 1 : 2) : 0);
        if (os.size() != 4 + imms) {
            throw new Decoder.DecodeError(i.pos(), "wgmma.mma_async of these types takes " + (4 + imms) + " operands,"
                    + " not " + os.size());
        }
        long[] v = new long[imms];
        for (int x = 0; x < imms; x++) {
            if (!(os.get(4 + x) instanceof Operand.IntImm c)) {
                throw new Decoder.DecodeError(os.get(4 + x).pos(), "wgmma.mma_async: this operand is an integer constant");
            }
            v[x] = c.value();
            boolean scale = x < 2;
            if (scale ? v[x] != 1 && v[x] != -1 : v[x] != 0 && v[x] != 1) {
                throw new Decoder.DecodeError(c.pos(), "wgmma.mma_async: " + (scale ? "imm-scale is 1 or -1" : "imm-trans is 0 or 1"));
            }
        }
        int scaleA = imms > 0 ? (int) v[0] : 1, scaleB = imms > 1 ? (int) v[1] : 1;
        boolean transA = sixteenBit && !aRegs && v[2] == 1;
        boolean transB = sixteenBit && v[aRegs ? 2 : 3] == 1;
        WarpgroupForm f = new WarpgroupForm(Kind.MMA, n, k, dt, at, bt, aRegs, i.has(Qualifier.SATFINITE), scaleA, scaleB,
                transA, transB, 0);
        List<Operand> dRegs = os.get(0) instanceof Operand.Vector vd ? vd.elements() : List.of(os.get(0));
        if (dRegs.size() != f.accumulatorRegisters()) {
            throw new Decoder.DecodeError(os.get(0).pos(), "the accumulator of this wgmma.mma_async is "
                    + f.accumulatorRegisters() + " registers, not " + dRegs.size());
        }
        d.dsts(op, dRegs.toArray(new Operand[0]));
        List<Operand> sources = new ArrayList<>();
        if (aRegs) {
            List<Operand> a = ((Operand.Vector) os.get(1)).elements();
            if (a.size() != A_REGISTERS) {
                throw new Decoder.DecodeError(os.get(1).pos(), "A in registers is " + A_REGISTERS + " registers, not " + a.size());
            }
            sources.addAll(a);
        } else {
            sources.add(os.get(1));
        }
        sources.add(os.get(2));
        sources.add(os.get(3));
        d.srcs(op, DataType.B64, sources);
        return f;
    }
}
