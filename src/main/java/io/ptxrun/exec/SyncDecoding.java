package io.ptxrun.exec;

import io.ptxrun.ast.DataType;
import io.ptxrun.ast.Instruction;
import io.ptxrun.ast.Operand;
import io.ptxrun.ast.Qualifier;
import io.ptxrun.exec.Decoder.Draft;

import java.util.List;

/**
 * The decoding of the synchronization instructions (bar and barrier, the mbarrier operations, the
 * cluster barrier, bar.warp.sync, the fences), for {@link Decoder}: what {@link Barriers}, {@link
 * MBarriers}, {@link ClusterBarrier} and {@link AccessOrdering} run, and the hints that run as no
 * operation.
 */
final class SyncDecoding {
    /** The function being decoded: its symbols, registers and operands. */
    private final Decoder.FunctionDecoder d;

    SyncDecoding(Decoder.FunctionDecoder d) {
        this.d = d;
    }

    /** The op of a synchronization instruction; null for another. */
    Draft build(Instruction i) {
        return switch (i.opcode()) {
            case BAR, BARRIER -> barrier(i);
            case MBARRIER_INIT, MBARRIER_INVAL, MBARRIER_ARRIVE, MBARRIER_ARRIVE_DROP, MBARRIER_TEST_WAIT,
                    MBARRIER_TRY_WAIT, MBARRIER_EXPECT_TX, MBARRIER_COMPLETE_TX, MBARRIER_PENDING_COUNT,
                    CP_ASYNC_MBARRIER_ARRIVE -> mbarrier(i);
            case BARRIER_CLUSTER_ARRIVE, BARRIER_CLUSTER_WAIT -> clusterBarrier(i);
            case BAR_WARP_SYNC -> {
                Draft op = new Draft(OpCode.BAR_WARP, i);
                d.srcs(op, DataType.U32, i.operands());
                yield op;
            }
            case FENCE -> fence(i);
            case MEMBAR -> new Draft(OpCode.FENCE, i, fenceScope(i));
            // Hints, which change nothing a program computes.
            case NANOSLEEP, PREFETCH, PREFETCHU, CP_ASYNC_BULK_PREFETCH, GRIDDEPCONTROL_WAIT,
                    GRIDDEPCONTROL_LAUNCH_DEPENDENTS -> new Draft(OpCode.NOP, i);
            default -> null;
        };
    }

    /** bar and barrier: sync, arrive or red (its reduction in the form); .aligned in the option. */
    private Draft barrier(Instruction i) {
        List<Operand> os = i.operands();
        // bar is always .aligned (barrier names it).
        boolean aligned = i.opcode() == io.ptxrun.ast.Opcode.BAR || i.has(Qualifier.ALIGNED);
        if (i.has(Qualifier.RED)) {
            Draft op = new Draft(OpCode.BAR_RED, i);
            op.type = DataType.U32;
            op.option = aligned;
            op.form = i.has(Qualifier.POPC) ? Barriers.Reduction.POPC
                    : i.has(Qualifier.AND) ? Barriers.Reduction.AND : Barriers.Reduction.OR;
            d.dsts(op, os.get(0));
            d.srcs(op, DataType.U32, os.subList(1, os.size()));
            return op;
        }
        Draft op = new Draft(i.has(Qualifier.ARRIVE) ? OpCode.BAR_ARRIVE : OpCode.BAR, i);
        op.type = DataType.U32;
        op.option = aligned;
        d.srcs(op, DataType.U32, os);
        return op;
    }

    /**
     * An mbarrier operation: its {@link MBarriers.Form}, the barrier's address as the op's memory
     * access; the operands before the address are destinations, those after it sources.
     */
    private Draft mbarrier(Instruction i) {
        List<Operand> os = i.operands();
        MBarriers.Form form = new MBarriers.Form(i.opcode(), i.has(Qualifier.NO_COMPLETE),
                i.has(Qualifier.NOINC), i.has(Qualifier.PARITY), i.has(Qualifier.EXPECT_TX),
                i.has(Qualifier.RELAXED));
        Space space = d.space(i.space());
        int at = -1;
        for (int k = 0; k < os.size(); k++) {
            if (os.get(k) instanceof Operand.Address) {
                at = k;
                break;
            }
        }
        Draft op = new Draft(OpCode.MBARRIER, i,
                at >= 0 ? d.address(space, os.get(at)) : MemoryAccess.inSpace(space));
        op.type = DataType.B64;
        op.form = form;
        if (at >= 0) {
            d.dsts(op, os.subList(0, at).toArray(new Operand[0]));
            d.srcs(op, DataType.B64, os.subList(at + 1, os.size()));
        } else {
            d.dsts(op, os.get(0));
            d.srcs(op, DataType.B64, os.subList(1, os.size()));
        }
        return op;
    }

    /** barrier.cluster.arrive and .wait; .relaxed in the option. */
    private Draft clusterBarrier(Instruction i) {
        Draft op = new Draft(i.opcode() == io.ptxrun.ast.Opcode.BARRIER_CLUSTER_ARRIVE
                ? OpCode.CLUSTER_ARRIVE : OpCode.CLUSTER_WAIT, i);
        op.option = i.has(Qualifier.RELAXED);
        return op;
    }

    /**
     * fence and its forms: fence.sc / fence.acq_rel (with membar, its older spelling) order
     * memory; the proxy fences and fence.mbarrier_init do not take part in thread-to-thread
     * ordering here, except fence.proxy.async (the thread's generic accesses and the async
     * proxy's) and the tensor-map acquire fence (a tensor map's edits).
     */
    private Draft fence(Instruction i) {
        List<Operand> os = i.operands();
        if (i.has(Qualifier.TENSORMAP_GENERIC) && i.has(Qualifier.ACQUIRE) && !os.isEmpty()) {
            return new Draft(OpCode.TENSORMAP_ACQUIRE, i, d.address(Space.GENERIC, os.get(0)));
        }
        if (i.has(Qualifier.PROXY) && i.has(Qualifier.ASYNC)) {
            return new Draft(OpCode.FENCE_PROXY_ASYNC, i);
        }
        return new Draft(i.has(Qualifier.PROXY) || i.has(Qualifier.MBARRIER_INIT) ? OpCode.NOP : OpCode.FENCE, i,
                fenceScope(i));
    }

    /** A fence's scope, carried as its access's (membar.cta is fence.sc.cta; .gl and .sys are the widest). */
    private static MemoryAccess fenceScope(Instruction i) {
        return MemoryAccess.NONE.withOrder(false, false, false, MemoryDecoding.scopeOf(i));
    }
}
