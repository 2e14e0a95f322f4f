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
 * wmma and ldmatrix/stmatrix matrix operations, and the wgmma warpgroup ones), for {@link
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
        DataType t = i.type();
        List<Operand> os = i.operands();
        switch (i.opcode()) {
            case WGMMA_FENCE:
            case WGMMA_COMMIT_GROUP:
            case WGMMA_WAIT_GROUP:
            case WGMMA_MMA_ASYNC:
            case SETMAXNREG: {
                Draft op = new Draft(OpCode.WARPGROUP, i);
                op.form = WarpgroupForm.decode(i, d, op);
                return op;
            }
            case WMMA_LOAD:
            case WMMA_MMA:
            case WMMA_STORE: {
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
            case LDMATRIX:
            case STMATRIX:
                return matrixMove(i);
            case SHFL: {
                Draft op = new Draft(OpCode.SHFL, i);
                op.type = DataType.B32;
                op.option = i.has(Qualifier.SYNC);
                op.form = i.has(Qualifier.UP) ? WarpOps.ShuffleMode.UP : i.has(Qualifier.DOWN) ? WarpOps.ShuffleMode.DOWN
                        : i.has(Qualifier.BFLY) ? WarpOps.ShuffleMode.BFLY : WarpOps.ShuffleMode.IDX;
                d.predicateDsts(op, os.get(0));
                d.srcs(op, DataType.B32, os.subList(1, os.size()));
                return op;
            }
            case VOTE: {
                Draft op = new Draft(OpCode.VOTE, i);
                op.type = t;
                op.option = i.has(Qualifier.SYNC);
                op.form = i.has(Qualifier.ALL) ? WarpOps.VoteMode.ALL : i.has(Qualifier.ANY) ? WarpOps.VoteMode.ANY
                        : i.has(Qualifier.UNI) ? WarpOps.VoteMode.UNI : WarpOps.VoteMode.BALLOT;
                d.dsts(op, os.get(0));
                d.srcs(op, DataType.PRED, os.subList(1, os.size()));
                return op;
            }
            case REDUX: {
                Draft op = d.simple(OpCode.REDUX, i, t);
                op.option = i.has(Qualifier.SYNC);
                Atomics.Operation o = Atomics.Operation.of(i);
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
            case MATCH: {
                Draft op = new Draft(OpCode.MATCH, i);
                op.type = t;
                op.option = i.has(Qualifier.SYNC);
                op.form = i.has(Qualifier.ALL) ? WarpOps.MatchMode.ALL : WarpOps.MatchMode.ANY;
                d.predicateDsts(op, os.get(0));
                d.srcs(op, t, os.subList(1, os.size()));
                return op;
            }
            case ELECT: {
                Draft op = new Draft(OpCode.ELECT, i);
                op.type = DataType.U32;
                op.option = i.has(Qualifier.SYNC);
                d.predicateDsts(op, os.get(0));
                d.srcs(op, DataType.U32, os.subList(1, os.size()));
                return op;
            }
            case ACTIVEMASK: {
                Draft op = new Draft(OpCode.ACTIVEMASK, i);
                d.dsts(op, os.get(0));
                return op;
            }
            default:
                return null;
        }
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
}
