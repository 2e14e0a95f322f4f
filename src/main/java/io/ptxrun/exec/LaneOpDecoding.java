package io.ptxrun.exec;

import io.ptxrun.ast.DataType;
import io.ptxrun.ast.Instruction;
import io.ptxrun.ast.Operand;
import io.ptxrun.ast.Qual;
import io.ptxrun.ast.Qualifier;
import io.ptxrun.exec.Decoder.Draft;

import java.util.List;

/**
 * The decoding of the lane-local arithmetic, logic, comparison and conversion instructions (mov,
 * add, mul, setp, cvt, prmt...), for {@link Decoder}: what {@link LaneOps} and the classes it
 * calls run. Their qualifiers become the op's {@link Modifiers}, its family's form (a comparison,
 * a product half, a prmt mode, ...) and its option, which {@link Op}'s accessors name by family.
 */
final class LaneOpDecoding {
    /** The function being decoded: its symbols, registers and operands. */
    private final Decoder.FunctionDecoder d;

    LaneOpDecoding(Decoder.FunctionDecoder d) {
        this.d = d;
    }

    /** The op of a lane-local arithmetic, logic, comparison or conversion instruction; null for another. */
    Draft build(Instruction i) {
        DataType t = i.type();
        // Integer and floating-point forms of one instruction are different ops.
        boolean fl = t != null && t.isFloat();
        return switch (i.opcode()) {
            case MOV -> mov(i);
            case CREATEPOLICY -> {
                // Cache policies only steer caching; any value is a valid policy here.
                Draft op = new Draft(OpCode.MOV, i);
                op.type = DataType.B64;
                d.dsts(op, i.operands().get(0));
                d.srcs(op, DataType.B64, new Operand.IntImm(i.pos(), 0));
                yield op;
            }
            case ADD -> d.simple(fl ? OpCode.FADD : OpCode.ADD, i, t);
            case SUB -> d.simple(fl ? OpCode.FSUB : OpCode.SUB, i, t);
            case ADDC -> d.simple(OpCode.ADDC, i, t);
            case SUBC -> d.simple(OpCode.SUBC, i, t);
            case MUL, MAD -> product(i, fl);
            case MUL24 -> productHalf(d.simple(OpCode.MUL24, i, t), i);
            case MAD24 -> productHalf(d.simple(OpCode.MAD24, i, t), i);
            case MADC -> productHalf(d.simple(OpCode.MADC, i, t), i);
            case FMA -> d.simple(OpCode.FMA, i, t);
            case SAD -> d.simple(OpCode.SAD, i, t);
            case DP4A, DP2A -> dot(i);
            case DIV -> option(d.simple(fl ? OpCode.FDIV : OpCode.DIV, i, t), i.has(Qualifier.FULL));
            case REM -> d.simple(OpCode.REM, i, t);
            case MIN, MAX -> minMax(i, fl);
            case ABS -> d.simple(fl ? OpCode.FABS : OpCode.ABS, i, t);
            case NEG -> d.simple(fl ? OpCode.FNEG : OpCode.NEG, i, t);
            case AND -> d.simple(OpCode.AND, i, t);
            case OR -> d.simple(OpCode.OR, i, t);
            case XOR -> d.simple(OpCode.XOR, i, t);
            case NOT -> d.simple(OpCode.NOT, i, t);
            case CNOT -> d.simple(OpCode.CNOT, i, t);
            case LOP3 -> d.simple(OpCode.LOP3, i, DataType.B32);
            case SHL -> shift(OpCode.SHL, i, t);
            case SHR -> shift(OpCode.SHR, i, t);
            case SHF -> {
                Draft op = option(d.simple(OpCode.SHF, i, DataType.B32), i.has(Qualifier.CLAMP));
                op.form = i.qualifiers().stream().anyMatch(q -> q.text().equals(".l")) ? IntegerOps.FunnelDirection.LEFT
                        : IntegerOps.FunnelDirection.RIGHT;
                yield op;
            }
            case POPC -> d.simple(OpCode.POPC, i, t);
            case CLZ -> d.simple(OpCode.CLZ, i, t);
            case BREV -> d.simple(OpCode.BREV, i, t);
            case BFE -> shift(OpCode.BFE, i, t);
            case BFI -> shift(OpCode.BFI, i, t);
            case BFIND -> option(d.simple(OpCode.BFIND, i, t), i.has(Qualifier.SHIFTAMT));
            case BMSK -> option(d.simple(OpCode.BMSK, i, DataType.B32), i.has(Qualifier.CLAMP));
            case FNS -> d.simple(OpCode.FNS, i, DataType.B32);
            case PRMT -> {
                Draft op = d.simple(OpCode.PRMT, i, DataType.B32);
                op.form = mode(i).map(IntegerOps.PermuteMode::of).orElse(IntegerOps.PermuteMode.DEFAULT);
                yield op;
            }
            case SETP -> setp(i);
            case SET -> {
                Draft op = d.simple(OpCode.SET, i, i.types().get(1));
                op.srcType = i.types().get(0);
                op.form = Comparisons.Form.of(i);
                yield op;
            }
            case SELP -> d.simple(OpCode.SELP, i, t);
            case SLCT -> {
                Draft op = d.simple(OpCode.SLCT, i, i.types().get(0));
                op.srcType = i.types().get(1);
                yield op;
            }
            case CVT -> cvt(i);
            case COPYSIGN -> d.simple(OpCode.COPYSIGN, i, t);
            case TESTP -> {
                Draft op = d.simple(OpCode.TESTP, i, t);
                op.form = mode(i).map(FloatArithmetic.TestedProperty::of).orElse(FloatArithmetic.TestedProperty.FINITE);
                yield op;
            }
            case SQRT -> d.simple(OpCode.SQRT, i, t);
            case RSQRT -> d.simple(OpCode.RSQRT, i, t);
            case RCP -> d.simple(OpCode.RCP, i, t);
            case EX2 -> d.simple(OpCode.EX2, i, t);
            case LG2 -> d.simple(OpCode.LG2, i, t);
            case SIN -> d.simple(OpCode.SIN, i, t);
            case COS -> d.simple(OpCode.COS, i, t);
            case TANH -> d.simple(OpCode.TANH, i, t);
            default -> null;
        };
    }

    /** mov of a register, or the packing of a vector into one register, or its unpacking. */
    private Draft mov(Instruction i) {
        List<Operand> os = i.operands();
        DataType t = i.type();
        if (os.get(0) instanceof Operand.Vector v) {
            Draft op = new Draft(OpCode.MOV_UNPACK, i);
            op.type = t;
            d.dsts(op, v.elements().toArray(new Operand[0]));
            d.srcs(op, t, os.get(1));
            return op;
        }
        if (os.get(1) instanceof Operand.Vector v) {
            Draft op = new Draft(OpCode.MOV_PACK, i);
            op.type = t;
            d.dsts(op, os.get(0));
            d.srcs(op, DataType.B64, v.elements());
            return op;
        }
        return d.simple(OpCode.MOV, i, t);
    }

    /** mul and mad: integer ones with their product half ({@link Op#productHalf}), or the float ones. */
    private Draft product(Instruction i, boolean fl) {
        boolean mul = i.opcode() == io.ptxrun.ast.Opcode.MUL;
        Draft op = d.simple(fl ? (mul ? OpCode.FMUL : OpCode.FMA) : (mul ? OpCode.MUL : OpCode.MAD), i, i.type());
        op.form = i.has(Qualifier.HI) ? IntegerOps.ProductHalf.HI : i.has(Qualifier.WIDE) ? IntegerOps.ProductHalf.WIDE
                : IntegerOps.ProductHalf.LO;
        return op;
    }

    /** mul24, mad24 and madc: .hi or the low half. */
    private static Draft productHalf(Draft op, Instruction i) {
        op.form = i.has(Qualifier.HI) ? IntegerOps.ProductHalf.HI : IntegerOps.ProductHalf.LO;
        return op;
    }

    /** min and max: .NaN and .xorsign.abs (float ones) as the form. */
    private Draft minMax(Instruction i, boolean fl) {
        boolean min = i.opcode() == io.ptxrun.ast.Opcode.MIN;
        Draft op = d.simple(fl ? (min ? OpCode.FMIN : OpCode.FMAX) : (min ? OpCode.MIN : OpCode.MAX), i, i.type());
        op.form = new FloatArithmetic.MinMax(i.has(Qualifier.NAN_PROPAGATE), i.has(Qualifier.XORSIGN));
        return op;
    }

    /**
     * setp: the comparison and its combination with the predicate operand; a destination that may
     * be a pair. An integer immediate as that predicate operand keeps its value.
     */
    private Draft setp(Instruction i) {
        List<Operand> os = i.operands();
        DataType t = i.type();
        Draft op = new Draft(OpCode.SETP, i, MemoryAccess.NONE, Modifiers.flushOnly(i));
        op.type = t;
        op.form = Comparisons.Form.of(i);
        d.predicateDsts(op, os.get(0));
        List<Operand> rest = os.subList(1, os.size());
        d.srcs(op, t, rest);
        if (rest.size() > 2 && rest.get(2) instanceof Operand.IntImm im) {
            op.imm[2] = im.value();
        }
        return op;
    }

    /**
     * cvt: the destination and source types; an integer rounding of a float in the option; a
     * conversion to or from a pair of 8-, 6- or 4-bit floats as the form.
     */
    private Draft cvt(Instruction i) {
        List<DataType> ts = i.types();
        Draft op = d.simple(OpCode.CVT, i, ts.get(0));
        op.srcType = ts.get(1);
        op.form = NarrowFloats.Conversion.of(op.type, op.srcType);
        op.option = i.has(Qualifier.RNI) || i.has(Qualifier.RZI) || i.has(Qualifier.RMI) || i.has(Qualifier.RPI);
        // Re-decode the source immediate with the source type.
        d.srcs(op, op.srcType, i.operands().subList(1, i.operands().size()));
        return op;
    }

    private static Draft option(Draft op, boolean option) {
        op.option = option;
        return op;
    }

    /** The mode qualifier of prmt or testp (the first one that is no type). */
    private static java.util.Optional<String> mode(Instruction i) {
        return i.qualifiers().stream().filter(q -> q.kind().category == Qualifier.Category.MODIFIER
                || q.kind() == Qualifier.OTHER).map(Qual::text).findFirst();
    }

    private Draft shift(OpCode code, Instruction i, DataType t) {
        Draft op = new Draft(code, i);
        op.type = t;
        List<Operand> os = i.operands();
        d.dsts(op, os.get(0));
        // Shift amounts and bit positions are .u32 whatever the data type is.
        d.srcs(op, t, os.subList(1, os.size()));
        return op;
    }




    /**
     * dp4a and dp2a: one dot product of a's and b's packed integers (a's four bytes, or its two
     * halves with two of b's bytes, .lo or .hi), each extended by its type, added to c. The result
     * is .u32 when both types are, else .s32 (PTX ISA, dp4a and dp2a).
     */
    private Draft dot(Instruction i) {
        DataType a = i.types().get(0), b = i.types().get(1);
        boolean unsigned = a == DataType.U32 && b == DataType.U32;
        Draft op = d.simple(OpCode.DOT, i, unsigned ? DataType.U32 : DataType.S32);
        boolean four = i.opcode() == io.ptxrun.ast.Opcode.DP4A;
        op.form = new IntegerOps.DotProduct(four ? 4 : 2, a == DataType.S32, b == DataType.S32,
                !four && i.has(Qualifier.HI) ? 2 : 0);
        return op;
    }
}
