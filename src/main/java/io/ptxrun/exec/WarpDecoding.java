package io.ptxrun.exec;

import io.ptxrun.ast.DataType;
import io.ptxrun.ast.Instruction;
import io.ptxrun.ast.Operand;
import io.ptxrun.ast.Qual;
import io.ptxrun.ast.Qualifier;
import io.ptxrun.exec.Decoder.DecodeError;
import io.ptxrun.exec.Decoder.Draft;

import java.util.List;

/**
 * The decoding of the warp-wide instructions (shfl, vote, redux, match, elect, activemask, the
 * wmma, mma.sync, ldmatrix/stmatrix and movmatrix matrix operations, and the wgmma warpgroup ones), for {@link
 * Decoder}: what {@link WarpOps}, {@link WarpMatrixOps} and {@link Warpgroups} run.
 */
final class WarpDecoding {
    /** The function being decoded: its symbols, registers and operands. */
    private final Decoder.FunctionDecoder d;

    WarpDecoding(Decoder.FunctionDecoder d) {
        this.d = d;
    }

    /** The op of a warp-wide instruction; null for another. */
    Draft build(Instruction i) {
        return switch (i.opcode()) {
            case SHFL -> collective(OpCode.SHFL, i, DataType.B32, shuffleMode(i), DataType.B32);
            case VOTE -> vote(i);
            case REDUX -> redux(i);
            case MATCH -> collective(OpCode.MATCH, i, i.type(),
                    i.has(Qualifier.ALL) ? WarpOps.MatchMode.ALL : WarpOps.MatchMode.ANY, i.type());
            case ELECT -> collective(OpCode.ELECT, i, DataType.U32, null, DataType.U32);
            case ACTIVEMASK -> {
                Draft op = new Draft(OpCode.ACTIVEMASK, i);
                d.dsts(op, i.operands().get(0));
                yield op;
            }
            case WMMA_LOAD, WMMA_MMA, WMMA_STORE -> wmma(i);
            case LDMATRIX, STMATRIX -> matrixMove(i);
            case MOVMATRIX -> matrixTranspose(i);
            case MMA -> MmaSync.decode(i, d);
            case WGMMA_FENCE, WGMMA_COMMIT_GROUP, WGMMA_WAIT_GROUP, WGMMA_MMA_ASYNC, SETMAXNREG -> {
                Draft op = new Draft(OpCode.WARPGROUP, i);
                op.form = WarpgroupForm.decode(i, d, op);
                yield op;
            }
            default -> null;
        };
    }

    /**
     * shfl, match and elect: .sync in the option, the mode as the form, a destination that may be a
     * predicate pair, and the sources of type sourceType.
     */
    private Draft collective(OpCode code, Instruction i, DataType t, OpForm mode, DataType sourceType) {
        List<Operand> os = i.operands();
        Draft op = new Draft(code, i);
        op.type = t;
        op.option = i.has(Qualifier.SYNC);
        op.form = mode;
        d.predicateDsts(op, os.get(0));
        d.srcs(op, sourceType, os.subList(1, os.size()));
        return op;
    }

    private static WarpOps.ShuffleMode shuffleMode(Instruction i) {
        return i.has(Qualifier.UP) ? WarpOps.ShuffleMode.UP : i.has(Qualifier.DOWN) ? WarpOps.ShuffleMode.DOWN
                : i.has(Qualifier.BFLY) ? WarpOps.ShuffleMode.BFLY : WarpOps.ShuffleMode.IDX;
    }

    /** vote: .sync in the option, the mode as the form, one destination and predicate sources. */
    private Draft vote(Instruction i) {
        List<Operand> os = i.operands();
        Draft op = new Draft(OpCode.VOTE, i);
        op.type = i.type();
        op.option = i.has(Qualifier.SYNC);
        op.form = i.has(Qualifier.ALL) ? WarpOps.VoteMode.ALL : i.has(Qualifier.ANY) ? WarpOps.VoteMode.ANY
                : i.has(Qualifier.UNI) ? WarpOps.VoteMode.UNI : WarpOps.VoteMode.BALLOT;
        d.dsts(op, os.get(0));
        d.srcs(op, DataType.PRED, os.subList(1, os.size()));
        return op;
    }

    /**
     * redux: .sync in the option, the operation (named as atom's are) as the form; for .f32, with
     * its .abs and .NaN (a {@link WarpOps.FloatReduction}).
     */
    private Draft redux(Instruction i) {
        Draft op = d.simple(OpCode.REDUX, i, i.type());
        if (op.srcKind.length > 1 && op.srcKind[1] == Op.IMM) {
            // The member mask is a .b32 whatever the values' type (not an f32 0xffffffff).
            op.imm[1] = Decoder.immBits(i.operands().get(2), DataType.B32);
        }
        op.option = i.has(Qualifier.SYNC);
        Atomics.Operation o = Atomics.Operation.of(i);
        if (i.type() == DataType.F32) {
            op.form = new WarpOps.FloatReduction(o == Atomics.Operation.MAX, i.has(Qualifier.ABS),
                    i.has(Qualifier.NAN_PROPAGATE));
            return op;
        }
        op.form = o == null ? WarpOps.ReduxOp.XOR : switch (o) {
            case ADD -> WarpOps.ReduxOp.ADD;
            case MIN -> WarpOps.ReduxOp.MIN;
            case MAX -> WarpOps.ReduxOp.MAX;
            case AND -> WarpOps.ReduxOp.AND;
            case OR -> WarpOps.ReduxOp.OR;
            default -> WarpOps.ReduxOp.XOR;
        };
        return op;
    }

    /** wmma.load, .mma and .store: the form and operands {@link WarpMatrixOps#decode} gives, the address's access. */
    private Draft wmma(Instruction i) {
        WarpMatrixOps.Decoded m = WarpMatrixOps.decode(i);
        Space space = d.space(i.space());
        Draft op = new Draft(OpCode.WMMA, i,
                m.address() != null ? d.address(space, m.address()) : MemoryAccess.inSpace(space));
        op.form = m.form();
        op.type = m.form().type();
        d.dsts(op, m.destinations().toArray(new Operand[0]));
        d.srcs(op, DataType.B32, m.sources());
        return op;
    }

    /**
     * ldmatrix / stmatrix: the .m8n8 .b16 form (the .m16n8 / .m16n16 8-bit forms of sm_100 are
     * not run); the fragment vector holds one register per matrix.
     */
    private Draft matrixMove(Instruction i) {
        boolean store = i.opcode() == io.ptxrun.ast.Opcode.STMATRIX;
        java.util.Set<String> qs = new java.util.HashSet<>();
        for (Qual q : i.qualifiers()) {
            qs.add(q.text());
        }
        if (!qs.contains(".m8n8") || !qs.contains(".b16")) {
            throw new DecodeError(i.pos(), "only the .m8n8 .b16 form of " + i.opcode().spelling + " is supported");
        }
        int count = qs.contains(".x4") ? 4 : qs.contains(".x2") ? 2 : 1;
        List<Operand> os = i.operands();
        Operand fragment = os.get(store ? 1 : 0);
        List<Operand> regs = fragment instanceof Operand.Vector v ? v.elements() : List.of(fragment);
        if (regs.size() != count) {
            throw new DecodeError(fragment.pos(), "the fragment of ." + "x" + count + " is " + count
                    + " registers, not " + regs.size());
        }
        Draft op = new Draft(OpCode.MATRIX_MOVE, i, d.address(d.space(i.space()), os.get(store ? 0 : 1)));
        op.type = DataType.B32;
        op.form = new WarpMatrixOps.MoveForm(count, store, qs.contains(".trans"));
        if (store) {
            d.srcs(op, DataType.B32, regs);
        } else {
            d.dsts(op, regs.toArray(new Operand[0]));
        }
        return op;
    }

    /** movmatrix: the .m8n8 .trans .b16 form (the only one the ISA has), one destination and one source register. */
    private Draft matrixTranspose(Instruction i) {
        java.util.Set<String> qs = new java.util.HashSet<>();
        for (Qual q : i.qualifiers()) {
            qs.add(q.text());
        }
        if (!qs.contains(".m8n8") || !qs.contains(".trans") || !qs.contains(".b16")) {
            throw new DecodeError(i.pos(), "only the .m8n8 .trans .b16 form of movmatrix is supported");
        }
        List<Operand> os = i.operands();
        Draft op = new Draft(OpCode.MATRIX_TRANSPOSE, i);
        op.type = DataType.B32;
        d.dsts(op, os.get(0));
        d.srcs(op, DataType.B32, os.subList(1, 2));
        return op;
    }
}
