package io.ptxrun.exec;

import io.ptxrun.ast.DataType;
import io.ptxrun.ast.Instruction;
import io.ptxrun.ast.Operand;
import io.ptxrun.ast.Qual;
import io.ptxrun.ast.Qualifier;
import io.ptxrun.exec.Decoder.Draft;

import java.util.ArrayList;
import java.util.List;

/**
 * The decoding of the lane-local arithmetic, logic, comparison and conversion instructions (mov,
 * add, mul, setp, cvt, prmt...), for {@link Decoder}: what {@link LaneOps} and the classes it
 * calls run. Their qualifiers become the op's {@link Modifiers} and its variant and option, which
 * {@link Op}'s accessors name by family.
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
        List<Operand> os = i.operands();
        boolean fl = t != null && t.isFloat();
        switch (i.opcode()) {
            case MOV: {
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
            case ADD:
                return d.simple(fl ? OpCode.FADD : OpCode.ADD, i, t);
            case SUB:
                return d.simple(fl ? OpCode.FSUB : OpCode.SUB, i, t);
            case ADDC:
                return d.simple(OpCode.ADDC, i, t);
            case SUBC:
                return d.simple(OpCode.SUBC, i, t);
            case MUL:
            case MAD: {
                boolean mul = i.opcode() == io.ptxrun.ast.Opcode.MUL;
                Draft op = d.simple(fl ? (mul ? OpCode.FMUL : OpCode.FMA) : (mul ? OpCode.MUL : OpCode.MAD), i, t);
                op.variant = i.has(Qualifier.HI) ? Op.HI : i.has(Qualifier.WIDE) ? Op.WIDE : Op.LO;
                return op;
            }
            case FMA:
                return d.simple(OpCode.FMA, i, t);
            case DIV: {
                Draft op = d.simple(fl ? OpCode.FDIV : OpCode.DIV, i, t);
                op.option = i.has(Qualifier.FULL);
                return op;
            }
            case REM:
                return d.simple(OpCode.REM, i, t);
            case MIN:
            case MAX: {
                boolean min = i.opcode() == io.ptxrun.ast.Opcode.MIN;
                Draft op = d.simple(fl ? (min ? OpCode.FMIN : OpCode.FMAX) : (min ? OpCode.MIN : OpCode.MAX), i, t);
                op.option = i.has(Qualifier.NAN_PROPAGATE);
                op.variant = i.has(Qualifier.XORSIGN) ? 1 : 0;
                return op;
            }
            case ABS:
                return d.simple(fl ? OpCode.FABS : OpCode.ABS, i, t);
            case NEG:
                return d.simple(fl ? OpCode.FNEG : OpCode.NEG, i, t);
            case AND:
                return d.simple(OpCode.AND, i, t);
            case OR:
                return d.simple(OpCode.OR, i, t);
            case XOR:
                return d.simple(OpCode.XOR, i, t);
            case NOT:
                return d.simple(OpCode.NOT, i, t);
            case CNOT:
                return d.simple(OpCode.CNOT, i, t);
            case SHL:
                return shift(OpCode.SHL, i, t);
            case SHR:
                return shift(OpCode.SHR, i, t);
            case POPC:
                return d.simple(OpCode.POPC, i, t);
            case CLZ:
                return d.simple(OpCode.CLZ, i, t);
            case BREV:
                return d.simple(OpCode.BREV, i, t);
            case BFE:
                return shift(OpCode.BFE, i, t);
            case BFI:
                return shift(OpCode.BFI, i, t);
            case BFIND: {
                Draft op = d.simple(OpCode.BFIND, i, t);
                op.option = i.has(Qualifier.SHIFTAMT);
                return op;
            }
            case PRMT: {
                Draft op = d.simple(OpCode.PRMT, i, DataType.B32);
                op.variant = i.qualifiers().stream().filter(q -> q.kind().category == Qualifier.Category.MODIFIER
                        || q.kind() == Qualifier.OTHER).map(Qual::text).findFirst().map(LaneOpDecoding::prmtMode).orElse(0);
                return op;
            }
            case LOP3:
                return d.simple(OpCode.LOP3, i, DataType.B32);
            case SHF: {
                Draft op = d.simple(OpCode.SHF, i, DataType.B32);
                op.option = i.has(Qualifier.CLAMP);
                op.variant = i.qualifiers().stream().anyMatch(q -> q.text().equals(".l")) ? 0 : 1;
                return op;
            }
            case SETP: {
                Draft op = new Draft(OpCode.SETP, i, MemoryAccess.NONE, Modifiers.flushOnly(i));
                op.type = t;
                op.variant = compare(i);
                op.boolOp = boolOp(i);
                d.predicateDsts(op, os.get(0));
                List<Operand> rest = new ArrayList<>(os.subList(1, os.size()));
                d.srcs(op, t, rest);
                if (rest.size() > 2) {
                    op.srcKind[2] = op.srcKind[2];
                    op.imm[2] = rest.get(2) instanceof Operand.IntImm im ? im.value() : op.imm[2];
                }
                return op;
            }
            case SET: {
                Draft op = d.simple(OpCode.SET, i, i.types().get(1));
                op.srcType = i.types().get(0);
                op.variant = compare(i);
                op.boolOp = boolOp(i);
                return op;
            }
            case SELP:
                return d.simple(OpCode.SELP, i, t);
            case SLCT: {
                Draft op = d.simple(OpCode.SLCT, i, i.types().get(0));
                op.srcType = i.types().get(1);
                return op;
            }
            case CVT: {
                List<DataType> ts = i.types();
                Draft op = d.simple(OpCode.CVT, i, ts.get(0));
                op.srcType = ts.get(1);
                op.option = i.has(Qualifier.RNI) || i.has(Qualifier.RZI) || i.has(Qualifier.RMI) || i.has(Qualifier.RPI);
                // Re-decode the source immediate with the source type.
                d.srcs(op, op.srcType, os.subList(1, os.size()));
                return op;
            }
            case COPYSIGN:
                return d.simple(OpCode.COPYSIGN, i, t);
            case TESTP: {
                Draft op = d.simple(OpCode.TESTP, i, t);
                op.variant = i.qualifiers().stream().filter(q -> q.kind() == Qualifier.OTHER || q.kind().category
                        == Qualifier.Category.MODIFIER).map(Qual::text).findFirst().map(LaneOpDecoding::testpMode).orElse(0);
                return op;
            }
            case SQRT:
                return d.simple(OpCode.SQRT, i, t);
            case RSQRT:
                return d.simple(OpCode.RSQRT, i, t);
            case RCP:
                return d.simple(OpCode.RCP, i, t);
            case EX2:
                return d.simple(OpCode.EX2, i, t);
            case LG2:
                return d.simple(OpCode.LG2, i, t);
            case SIN:
                return d.simple(OpCode.SIN, i, t);
            case COS:
                return d.simple(OpCode.COS, i, t);
            case TANH:
                return d.simple(OpCode.TANH, i, t);
            case SAD:
                return d.simple(OpCode.SAD, i, t);
            case MUL24:
            case MAD24: {
                Draft op = d.simple(i.opcode() == io.ptxrun.ast.Opcode.MUL24 ? OpCode.MUL24 : OpCode.MAD24, i, t);
                op.variant = i.has(Qualifier.HI) ? Op.HI : Op.LO;
                return op;
            }
            case BMSK: {
                Draft op = d.simple(OpCode.BMSK, i, DataType.B32);
                op.option = i.has(Qualifier.CLAMP);
                return op;
            }
            case FNS:
                return d.simple(OpCode.FNS, i, DataType.B32);
            case CREATEPOLICY: {
                // Cache policies only steer caching; any value is a valid policy here.
                Draft op = new Draft(OpCode.MOV, i);
                op.type = DataType.B64;
                d.dsts(op, os.get(0));
                d.srcs(op, DataType.B64, new Operand.IntImm(i.pos(), 0));
                return op;
            }
            case MADC: {
                Draft op = d.simple(OpCode.MADC, i, t);
                op.variant = i.has(Qualifier.HI) ? Op.HI : Op.LO;
                return op;
            }
            default:
                return null;
        }
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

    private int compare(Instruction i) {
        return i.first(Qualifier.Category.COMPARE).map(q -> q.kind().ordinal()).orElse(-1);
    }

    static int boolOp(Instruction i) {
        if (i.has(Qualifier.AND)) {
            return 1;
        }
        if (i.has(Qualifier.OR)) {
            return 2;
        }
        if (i.has(Qualifier.XOR)) {
            return 3;
        }
        return 0;
    }

    static int prmtMode(String text) {
        return switch (text) {
            case ".f4e" -> 1;
            case ".b4e" -> 2;
            case ".rc8" -> 3;
            case ".ecl" -> 4;
            case ".ecr" -> 5;
            case ".rc16" -> 6;
            default -> 0;
        };
    }

    static int testpMode(String text) {
        return switch (text) {
            case ".finite" -> 0;
            case ".infinite" -> 1;
            case ".number" -> 2;
            case ".notanumber" -> 3;
            case ".normal" -> 4;
            case ".subnormal" -> 5;
            default -> 0;
        };
    }
}
