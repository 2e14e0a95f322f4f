package io.ptxrun.exec;

import io.ptxrun.ast.DataType;
import io.ptxrun.ast.Instruction;
import io.ptxrun.ast.Operand;
import io.ptxrun.ast.Qualifier;
import io.ptxrun.exec.Decoder.Draft;

import java.util.List;

/**
 * The decoding of the lane-local memory instructions (ld, st, atom, red, and cvta, isspacep, mapa,
 * getctarank, which name a space), for {@link Decoder}: an address operand becomes the op's
 * {@link MemoryAccess}, with the memory order its qualifiers give.
 */
final class MemoryDecoding {
    /** The function being decoded: its symbols, registers and operands. */
    private final Decoder.FunctionDecoder d;

    MemoryDecoding(Decoder.FunctionDecoder d) {
        this.d = d;
    }

    /** The op of a memory instruction; null for another. */
    Draft build(Instruction i) {
        DataType t = i.type();
        return switch (i.opcode()) {
            case LD, LDU -> access(i, false);
            case ST -> access(i, true);
            case ATOM, RED -> atomic(i);
            case CVTA -> d.simple(i.has(Qualifier.TO) ? OpCode.CVTA_TO : OpCode.CVTA, i, t, namedSpace(i));
            case ISSPACEP -> d.simple(OpCode.ISSPACEP, i, DataType.U64, namedSpace(i));
            case GETCTARANK -> d.simple(OpCode.GETCTARANK, i, t, namedSpace(i));
            case MAPA -> d.simple(OpCode.MAPA, i, t, namedSpace(i));
            default -> null;
        };
    }

    /** The space an instruction without an address operand names (cvta, isspacep, mapa, getctarank). */
    private MemoryAccess namedSpace(Instruction i) {
        return MemoryAccess.inSpace(d.space(i.space()));
    }

    /** ld and st: the address, the vector of registers loaded or stored, the memory order. */
    private Draft access(Instruction i, boolean store) {
        List<Operand> os = i.operands();
        DataType t = i.type();
        MemoryAccess access = d.address(d.space(i.space()), store ? os.get(0) : os.get(1));
        if (i.space().isParam() && access.space() == Space.LOCAL) {
            access = access.inCallFrame();
        }
        Draft op = new Draft(store ? OpCode.ST : OpCode.LD, i, ordered(access.withVector(i.vectorWidth()), i, false));
        op.type = t;
        List<Operand> elems = vectorOf(store ? os.get(1) : os.get(0));
        if (store) {
            d.srcs(op, t, elems);
        } else {
            d.dsts(op, elems.toArray(new Operand[0]));
        }
        return op;
    }

    /** atom and red: the address, the operation ({@link Atomics.Operation}, the form), atom's destination. */
    private Draft atomic(Instruction i) {
        List<Operand> os = i.operands();
        DataType t = i.type();
        boolean red = i.opcode() == io.ptxrun.ast.Opcode.RED;
        int k = red ? 0 : 1;
        Draft op = new Draft(red ? OpCode.RED : OpCode.ATOM, i, ordered(d.address(d.space(i.space()), os.get(k)), i, true));
        op.type = t;
        op.form = Atomics.Operation.of(i);
        if (!red) {
            d.dsts(op, os.get(0));
        }
        d.srcs(op, t, os.subList(k + 1, os.size()));
        return op;
    }

    /**
     * The memory order of ld/st/atom/red: .relaxed, .acquire, .release, .acq_rel, .volatile
     * and .mmio make an ld/st strong, every atom/red is; acquire and release say how it orders
     * the thread's other accesses.
     */
    private MemoryAccess ordered(MemoryAccess access, Instruction i, boolean atomic) {
        boolean strong = atomic || i.has(Qualifier.RELAXED) || i.has(Qualifier.ACQUIRE)
                || i.has(Qualifier.RELEASE) || i.has(Qualifier.VOLATILE) || i.has(Qualifier.MMIO);
        boolean acqRel = i.has(Qualifier.ACQ_REL);
        return access.withOrder(strong, acqRel || i.has(Qualifier.ACQUIRE), acqRel || i.has(Qualifier.RELEASE),
                scopeOf(i));
    }

    /** The scope an instruction names (.cta, .cluster; .gpu and .sys, or none, are the widest). */
    static int scopeOf(Instruction i) {
        return i.has(Qualifier.CTA) ? io.ptxrun.exec.order.Scopes.CTA
                : i.has(Qualifier.CLUSTER) ? io.ptxrun.exec.order.Scopes.CLUSTER : io.ptxrun.exec.order.Scopes.GPU;
    }

    private List<Operand> vectorOf(Operand o) {
        return o instanceof Operand.Vector v ? v.elements() : List.of(o);
    }
}
