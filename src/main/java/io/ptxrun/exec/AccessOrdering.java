package io.ptxrun.exec;

import io.ptxrun.diag.Diagnostic;
import io.ptxrun.exec.order.MemoryOrder;

import java.util.List;

/**
 * The lanes' memory accesses as the hazard detector ({@link MemoryOrder}) takes them: a lane's
 * space and address (generic ones resolved by their window) become the detector's memory, owner
 * CTA and offset, and a lane becomes its thread's slot in the cluster. Every family that reaches
 * memory hands its accesses over here, interpreted or compiled, so the detector sees one kind of
 * access whichever path made it. The checks run only while the detector is on ({@code engine.order}
 * not null).
 */
final class AccessOrdering {
    private final Engine engine;
    private final int threadsPerCta;
    /** The launch's CTA shape, for naming a slot's thread. */
    private final int[] block;

    AccessOrdering(Engine engine, int threadsPerCta, int[] block) {
        this.engine = engine;
        this.threadsPerCta = threadsPerCta;
        this.block = block;
    }

    private MemoryOrder order() {
        return engine.order;
    }

    /** The lane's slot in the hazard detector's clocks (its CTA's rank, then its linear thread id). */
    int slot(Warp w, int l) {
        return engine.cta.rank * threadsPerCta + w.id * 32 + l;
    }

    /**
     * A thread's local memory starts undefined on the GPU (its stack frame holds whatever was
     * there): a load of bytes the thread never stored is reported, once per instruction.
     */
    private void uninitializedLocal(Warp w, int l, Op op, long a, int size) {
        java.util.BitSet written = w.localWritten(l);
        int unset = written.nextClearBit((int) a);
        if (unset >= a + size) {
            return;
        }
        if (op.mem.callFrame()) {
            // A parameter or a call's result: its bytes are copied at call and ret along with
            // whether they were stored, so these were never stored by the other side.
            engine.hazards.hazard(op, w.pc[l], "uninit.param", String.format("uninitialized read: '%s' reads %d bytes"
                    + " of a call's .param frame, and byte 0x%x of them was never stored (by the caller, for an"
                    + " argument; by the callee, for a result) (%s)", op.mnemonic(), size, unset - a,
                    engine.where(w, l)));
            return;
        }
        engine.hazards.hazard(op, w.pc[l], "uninit.local", String.format("uninitialized read: '%s' reads %d bytes of"
                + " local memory at 0x%x, and byte 0x%x of them was never written by this thread (local memory"
                + " starts undefined on the GPU) (%s)", op.mnemonic(), size, a, unset, engine.where(w, l)));
    }

    /** The release half of a strong write by the lane, before the write (see MemoryOrder.releaseAt). */
    void releasing(Warp w, int l, Space space, long a, boolean release, int scope) {
        if (space == Space.GENERIC) {
            space = Space.ofGeneric(a);
            a -= space.window;
        }
        if (space == Space.GLOBAL) {
            order().releaseAt(slot(w, l), MemoryOrder.GLOBAL, 0, a, release, scope);
        } else if (space == Space.SHARED) {
            order().releaseAt(slot(w, l), MemoryOrder.SHARED, Cta.rankOf(a, engine.cta.rank),
                    Cta.offsetOf(a), release, scope);
        }
    }

    /**
     * Hands a completed access of the lane to the hazard detector: plain accesses are checked for
     * races, strong ones (atomics, ordered or volatile ld/st) also release or acquire.
     */
    void ordered(Warp w, int l, Op op, Space space, long a, int size, boolean reads, boolean writes) {
        if (space == Space.GENERIC) {
            space = Space.ofGeneric(a);
            a -= space.window;
        }
        int kind;
        int owner = 0;
        if (space == Space.GLOBAL) {
            kind = MemoryOrder.GLOBAL;
        } else if (space == Space.SHARED) {
            kind = MemoryOrder.SHARED;
            owner = Cta.rankOf(a, engine.cta.rank);
            a = Cta.offsetOf(a);
        } else {
            // A thread's own .local (or generic) loads, and its loads of a call's .param frame,
            // whose bytes call and ret copy with whether they were stored (see Calls).
            if (space == Space.LOCAL && reads && !writes) {
                uninitializedLocal(w, l, op, a, size);
            }
            return;
        }
        int t = slot(w, l);
        int pc = w.pc[l];
        if (op.mem.strong()) {
            order().atomic(t, pc, kind, owner, a, size, reads, writes, op.mem.acquire(), op.mem.release(),
                    op.mem.scope());
        } else {
            order().access(t, pc, kind, owner, a, size, writes, false);
        }
        if (kind == MemoryOrder.SHARED && owner != engine.cta.rank) {
            // A release write (or a relaxed one after a fence) is known to an owner thread that
            // acquires it there by the counter it hands on.
            engine.cluster[owner].peerAccesses.record(t, order().handedOn(t, op.mem.strong() && writes, op.mem.release()), pc);
        }
    }

    /**
     * {@link #ordered} for the plain accesses of a group of lanes to the CTA's own shared memory
     * (offsets) or to global memory, {@code addresses} by lane.
     */
    void orderedLanes(Warp w, int lanes, int pc, Space space, long[] addresses, int size, boolean writes) {
        boolean shared = space == Space.SHARED;
        order().accesses(slot(w, 0), lanes, pc, shared ? MemoryOrder.SHARED
                : MemoryOrder.GLOBAL, shared ? engine.cta.rank : 0, addresses, size, writes);
    }

    /** The compiled runs of loads handed to the detector at once, by first instruction (made on first need). */
    private MemoryOrder.LoadRun[] loadRuns = new MemoryOrder.LoadRun[0];

    /**
     * {@link #orderedLanes} for the loads among the {@code n} ops from {@code ops[first]} (a run
     * of a compiled region, {@link CompiledRegion#orderedLoads}: shared-memory loads, every lane's
     * address checked), by all 32 lanes of the warp, as far as the detector logs them at once
     * ({@link MemoryOrder#sharedLoads}). Returns the instruction from which the caller hands the
     * loads over one by one ({@code first + n}: none left).
     */
    int sharedLoads(Warp w, long[] regs, int base, Op[] ops, int first, int n) {
        if (first >= loadRuns.length) {
            loadRuns = java.util.Arrays.copyOf(loadRuns, Math.max(first + 1, ops.length));
        }
        MemoryOrder.LoadRun run = loadRuns[first];
        if (run == null) {
            run = loadRuns[first] = loadRun(ops, first, n);
        }
        int done = order().sharedLoads(slot(w, 0), engine.cta.rank, regs, base, run);
        return done == run.count() ? first + n : run.pc(done);
    }

    private static MemoryOrder.LoadRun loadRun(Op[] ops, int first, int n) {
        int count = 0;
        for (int pc = first; pc < first + n; pc++) {
            count += ops[pc].code == OpCode.LD ? 1 : 0;
        }
        int[] pcs = new int[count], registers = new int[count], sizes = new int[count];
        long[] offsets = new long[count];
        int k = 0;
        for (int pc = first; pc < first + n; pc++) {
            Op op = ops[pc];
            if (op.code == OpCode.LD) {
                pcs[k] = pc;
                registers[k] = op.mem.addressKind() == MemoryAccess.REGISTER ? op.mem.register() : -1;
                offsets[k] = op.mem.offset();
                sizes[k] = op.type.bytes() * op.dst.length;
                k++;
            }
        }
        return new MemoryOrder.LoadRun(pcs, registers, offsets, sizes);
    }

    /** An async copy's access at issue (its source), in any space the copy may name. */
    void copyAccess(MemoryOrder.CopyOrigin o, Space space, long a, int size, boolean write) {
        if (space == Space.GENERIC) {
            space = Space.ofGeneric(a);
            a -= space.window;
        }
        if (space == Space.GLOBAL) {
            if (write) {
                order().copyWrites(o, MemoryOrder.GLOBAL, 0, a, size, false);
            } else {
                order().copyReads(o, MemoryOrder.GLOBAL, 0, a, size);
            }
        } else if (space == Space.SHARED) {
            int owner = Cta.rankOf(a, engine.cta.rank);
            if (write) {
                order().copyWrites(o, MemoryOrder.SHARED, owner, Cta.offsetOf(a), size, false);
            } else {
                order().copyReads(o, MemoryOrder.SHARED, owner, Cta.offsetOf(a), size);
            }
        }
    }


    /** fence (proxy false) or fence.proxy.async (proxy true) by the lanes of exec. */
    void fence(Warp w, int exec, boolean proxy, int scope) {
        for (int m = exec; m != 0; m &= m - 1) {
            int t = slot(w, Integer.numberOfTrailingZeros(m));
            if (proxy) {
                order().proxyFence(t);
            } else {
                order().fence(t, scope);
            }
        }
    }

    /**
     * The CTA exits (its last thread at {@code exitPc}): every access of a peer CTA's thread to its
     * shared memory must happen before that, in the hazard detector's order, whichever came first
     * in this run (CUDA C++ Programming Guide, Distributed Shared Memory). An access its threads
     * never learned of is reported as the access after the exit would be.
     */
    void peerAccessesBeforeExit(int exitPc) {
        Cta cta = engine.cta;
        int s = cta.peerAccesses.unordered(order().knownByCta(cta.rank));
        if (s < 0) {
            return;
        }
        Op access = engine.opAt(cta.peerAccesses.pcOf(s));
        Op exit = engine.opAt(exitPc);
        int threads = threadsPerCta * engine.clusterSize;
        // Slots past the threads are their async agents: the access is a copy's landing.
        boolean copy = s >= threads;
        String ordering = copy
                ? "a wait of the owner's threads, before they exit, on the mbarrier phase the copy completes on"
                : access.code == OpCode.MBARRIER
                ? "a wait of the owner's threads, before they exit, on the completion of the mbarrier phase the"
                        + " operation belongs to"
                : "barrier.cluster.arrive.release by the accessing thread after the access and"
                        + " barrier.cluster.wait.acquire by the owner's threads before they exit, as cluster.sync() does,"
                        + " or a release write after the access (st.release, or fence.acq_rel then a relaxed store) that"
                        + " one of the owner's threads acquires";
        throw new Engine.Stop(ExecStatus.ERROR, List.of(Diagnostic.error(access.pos, "exec.fault", String.format(
                "undefined behaviour: shared::cluster %s the shared memory of CTA rank %d of the cluster, which"
                        + " exits at line %d (CTA ctaid (%d,%d,%d)) with no synchronization ordering the access"
                        + " before its exit (a CTA's shared memory exists only while it runs; distributed shared"
                        + " memory accesses must happen before the owner exits: %s) in '%s' (%s)",
                copy ? "write by an async copy to" : "access to", cta.rank, exit.pos.line(), cta.ctaid[0],
                cta.ctaid[1], cta.ctaid[2], ordering, access.mnemonic(),
                copy ? "issued by " + whereSlot(s - threads) : whereSlot(s)))));
    }

    /**
     * The bytes of a copy issued at {@code copy} by thread {@code tid} of the CTA of rank {@code rank}
     * land in the shared memory of {@code owner}, which has exited (with the hazard detector).
     */
    void copyLandedAfterExit(Op copy, Cta owner, int rank, int tid) {
        throw new Engine.Stop(ExecStatus.ERROR, List.of(Diagnostic.error(copy.pos, "exec.fault", String.format(
                "undefined behaviour: shared::cluster write by an async copy to the shared memory of CTA rank %d of"
                        + " the cluster, which has exited (a CTA's shared memory exists only while it runs;"
                        + " distributed shared memory accesses must happen before the owner exits: a wait of the"
                        + " owner's threads, before they exit, on the mbarrier phase the copy completes on) in '%s'"
                        + " (issued by %s)",
                owner.rank, copy.mnemonic(), whereSlot(rank * threadsPerCta + tid)))));
    }

    /** {@link Engine#where} for the thread of the cluster's slot {@code s} (its rank, then its linear id). */
    private String whereSlot(int s) {
        int[] b = block;
        Cta c = engine.cluster[s / threadsPerCta];
        int t = s % threadsPerCta;
        return String.format("thread tid (%d,%d,%d), warp %d, CTA ctaid (%d,%d,%d) rank %d", t % b[0],
                (t / b[0]) % b[1], t / (b[0] * b[1]), t / 32, c.ctaid[0], c.ctaid[1], c.ctaid[2], c.rank);
    }
}
