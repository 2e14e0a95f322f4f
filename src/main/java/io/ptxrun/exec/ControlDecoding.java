package io.ptxrun.exec;

import io.ptxrun.ast.DataType;
import io.ptxrun.ast.Instruction;
import io.ptxrun.ast.Operand;
import io.ptxrun.exec.Decoder.DecodeError;
import io.ptxrun.exec.Decoder.Draft;
import io.ptxrun.exec.Decoder.FuncInfo;
import io.ptxrun.exec.Decoder.Sym;
import io.ptxrun.exec.Decoder.SymKind;

import java.util.List;
import java.util.Map;

/**
 * The decoding of the control instructions (bra, call, ret, exit, trap), for {@link Decoder}: a
 * branch's label becomes the index of the op it marks, a call's callee and parameter lists its
 * {@link CallForm} (a device-library call's, when the module has no body for it).
 */
final class ControlDecoding {
    /** The function being decoded: its symbols, registers and operands. */
    private final Decoder.FunctionDecoder d;

    ControlDecoding(Decoder.FunctionDecoder d) {
        this.d = d;
    }

    /** The op of a control instruction; null for another. */
    Draft build(Instruction i) {
        return switch (i.opcode()) {
            case BRA -> branch(i);
            case CALL -> call(i);
            case RET -> new Draft(OpCode.RET, i);
            case EXIT -> new Draft(OpCode.EXIT, i);
            case TRAP -> new Draft(OpCode.TRAP, i);
            default -> null;
        };
    }

    /** bra: its target, the op its label marks in the innermost block that has the label. */
    private Draft branch(Instruction i) {
        if (!(i.operands().get(0) instanceof Operand.Symbol s)) {
            throw new DecodeError(i.pos(), "branch target must be a label");
        }
        for (Map<String, Integer> scope : d.labelScopes) {
            Integer label = scope.get(s.name());
            if (label != null) {
                Draft op = new Draft(OpCode.BRA, i);
                op.target = label;
                return op;
            }
        }
        throw new DecodeError(i.pos(), "unknown label '" + s.name() + "'");
    }

    /**
     * call: the callee (-1 for an indirect call, whose address is source 0) and the frame offsets
     * of the argument and result lists; a device-library call's when the module has no body for it.
     */
    private Draft call(Instruction i) {
        Draft op = new Draft(OpCode.CALL, i);
        List<Operand> results = List.of();
        List<Operand> args = List.of();
        Operand target = null;
        for (Operand o : i.operands()) {
            if (o instanceof Operand.ArgList al) {
                if (target == null) {
                    results = al.elements();
                } else {
                    args = al.elements();
                }
            } else if (target == null) {
                target = o;
            }
        }
        if (target instanceof Operand.Register r) {
            // An indirect call: the function address is source 0.
            d.srcs(op, DataType.U64, r);
            op.form = new CallForm(-1, frameOffsets(args, i), frameOffsets(results, i));
            return op;
        }
        if (!(target instanceof Operand.Symbol ts)) {
            throw new DecodeError(i.pos(), "call target form not supported");
        }
        FuncInfo callee = d.program().byName.get(ts.name());
        if (callee == null) {
            int library = DeviceLibrary.lookup(ts.name());
            if (library < 0) {
                throw new DecodeError(i.pos(), "call of '" + ts.name() + "', which has no body in this module"
                        + " (of the external CUDA device-library functions, ptxrun provides "
                        + String.join(", ", DeviceLibrary.names()) + ")");
            }
            Draft lib = new Draft(OpCode.LIBRARY_CALL, i);
            lib.form = new CallForm(library, frameOffsets(args, i), frameOffsets(results, i));
            return lib;
        }
        op.form = new CallForm(callee.index, frameOffsets(args, i), frameOffsets(results, i));
        return op;
    }

    /** The call frame offsets of a call's .param arguments or results. */
    private int[] frameOffsets(List<Operand> os, Instruction i) {
        int[] out = new int[os.size()];
        for (int k = 0; k < os.size(); k++) {
            Operand o = os.get(k);
            String name = o instanceof Operand.Symbol s ? s.name() : o instanceof Operand.Register r ? r.name() : null;
            Sym sym = name == null ? null : d.lookup(name);
            if (sym == null || sym.kind() != SymKind.LOCAL) {
                throw new DecodeError(i.pos(), "call arguments must be .param variables");
            }
            out[k] = (int) sym.value();
        }
        return out;
    }
}
