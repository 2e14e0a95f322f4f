package io.ptxrun.exec;

/**
 * call, ret and exit: lanes entering and leaving functions, and leaving the kernel. Each lane keeps its own stack of frames in the warp ({@link Warp#FRAME_INTS} ints
 * each: return PC, register base, local base, call site, callee); a call copies the arguments
 * into the callee's .param frame and ret copies the results back. The local memory the stacks
 * grow counts against the launch's memory budget until the cluster ends.
 */
final class Calls {
    private static final int MAX_CALL_DEPTH = 4096;

    private final Engine engine;
    private final Decoder.Program program;
    private final GlobalMemory global;
    /** Local memory the cluster in flight grew for calls, counted against the memory budget. */
    private long stackBytes;

    Calls(Engine engine, Decoder.Program program, GlobalMemory global) {
        this.engine = engine;
        this.program = program;
        this.global = global;
    }

    /** call for the lanes of exec (their guard passed), at op pc. */
    void call(Warp w, Op op, int pc, int exec) {
        for (int m = exec; m != 0; m &= m - 1) {
            engine.lastLane = Integer.numberOfTrailingZeros(m);
            callLane(w, op, pc, engine.lastLane);
        }
    }

    /** ret for the lanes of exec: each returns to its caller, or exits from its outermost frame. */
    void ret(Warp w, int exec) {
        int exiting = 0;
        for (int m = exec; m != 0; m &= m - 1) {
            engine.lastLane = Integer.numberOfTrailingZeros(m);
            if (!returnLane(w, engine.lastLane)) {
                exiting |= 1 << engine.lastLane;
            }
        }
        // The lanes that leave the kernel together, as exit does them: the barriers look at the
        // warp once, not once a lane.
        exit(w, exiting);
    }

    /**
     * exit (or ret from the outermost frame) for the lanes given: they leave the warp's live
     * lanes and the CTA's count of threads, and the barriers stop waiting for them.
     */
    void exit(Warp w, int lanes) {
        if (lanes == 0) {
            return;
        }
        Cta cta = engine.cta;
        w.live &= ~lanes;
        cta.liveThreads -= Integer.bitCount(lanes);
        engine.progressed();
        cta.barriers.exited(w);
        engine.clusterBarrier.exited(cta, w, lanes);
        if (engine.order != null) {
            engine.order.exited(engine.ordering.slot(w, 0), lanes);
        }
        if (cta.exited() && engine.order != null && cta.peerAccesses.any()) {
            engine.ordering.peerAccessesBeforeExit(w.pc[Integer.numberOfTrailingZeros(lanes)]);
        }
    }

    /** call for lane l: a frame for the callee, the arguments copied into its parameters. */
    private void callLane(Warp w, Op op, int pc, int l) {
        Decoder.FuncInfo caller = program.funcs.get(op.owner);
        CallForm form = (CallForm) op.form;
        int calleeIndex = form.callee();
        if (calleeIndex < 0) {
            long target = engine.operands.read(w, op, 0, l) - Decoder.FUNC_WINDOW;
            if (target < 0 || target >= program.funcs.size()) {
                throw engine.stop(ExecStatus.ERROR, "exec.call", op, w, l,
                        String.format("indirect call through 0x%x, which is not a function address", target + Decoder.FUNC_WINDOW));
            }
            calleeIndex = (int) target;
        }
        Decoder.FuncInfo callee = program.funcs.get(calleeIndex);
        int d = w.depth[l];
        if (d >= MAX_CALL_DEPTH) {
            throw engine.stop(ExecStatus.ERROR, "exec.stack", op, w, l, "call stack overflow (" + d + " frames)");
        }
        final int fi = Warp.FRAME_INTS;
        int[] st = w.stack[l];
        if (st == null || st.length < (d + 1) * fi) {
            st = w.stack[l] = java.util.Arrays.copyOf(st == null ? new int[0] : st, Math.max(8 * fi, (d + 1) * fi * 2));
        }
        int oldLocal = w.localBase[l];
        int newRegBase = w.regBase[l] + caller.numRegs;
        int newLocal = oldLocal + caller.frameBytes;
        if (newLocal + callee.frameBytes > Engine.MAX_LOCAL_BYTES) {
            throw engine.stop(ExecStatus.ERROR, "exec.stack", op, w, l, "local memory stack overflow");
        }
        st[d * fi] = pc + 1;
        st[d * fi + 1] = w.regBase[l];
        st[d * fi + 2] = oldLocal;
        st[d * fi + 3] = pc;
        st[d * fi + 4] = calleeIndex;
        w.depth[l] = d + 1;
        w.ensureRegs(newRegBase + callee.numRegs);
        byte[] before = w.local[l];
        w.ensureLocal(l, newLocal + callee.frameBytes);
        if (w.local[l] != before) {
            long grown = w.local[l].length - (before == null ? 0 : before.length);
            if (!global.reserve(grown)) {
                w.local[l] = before;
                throw engine.stop(ExecStatus.ERROR, "exec.limit", op, w, l, "the call stacks need more than the"
                        + " simulated-memory budget of " + global.budget() + " bytes (--max-memory)");
            }
            stackBytes += grown;
        }
        byte[] mem = w.local[l];
        if (engine.order != null) {
            // The callee's frame starts undefined, whatever an earlier call left in its bytes.
            w.localWritten(l).clear(newLocal, newLocal + callee.frameBytes);
        }
        int n = Math.min(form.argOffsets().length, callee.paramOffsets.length);
        for (int k = 0; k < n; k++) {
            System.arraycopy(mem, oldLocal + form.argOffsets()[k], mem, newLocal + callee.paramOffsets[k], callee.paramSizes[k]);
            if (engine.order != null) {
                // A parameter is defined where the caller stored its argument.
                copyWritten(w.localWritten(l), oldLocal + form.argOffsets()[k], newLocal + callee.paramOffsets[k],
                        callee.paramSizes[k]);
            }
        }
        w.regBase[l] = newRegBase;
        w.localBase[l] = newLocal;
        w.pc[l] = callee.entryPc;
    }

    /**
     * ret for lane l: the results copied back into the caller's frame, which runs on after the
     * call. Returns false, changing nothing, when the lane is in its outermost frame (it exits).
     */
    private boolean returnLane(Warp w, int l) {
        int d = w.depth[l];
        if (d == 0) {
            return false;
        }
        d--;
        final int fi = Warp.FRAME_INTS;
        int[] st = w.stack[l];
        int[] resultOffsets = ((CallForm) engine.opAt(st[d * fi + 3]).form).resultOffsets();
        Decoder.FuncInfo callee = program.funcs.get(st[d * fi + 4]);
        int calleeLocal = w.localBase[l];
        int callerLocal = st[d * fi + 2];
        byte[] mem = w.local[l];
        int n = Math.min(resultOffsets.length, callee.resultOffsets.length);
        for (int k = 0; k < n; k++) {
            if (engine.order != null) {
                // A result is defined where the callee stored it.
                copyWritten(w.localWritten(l), calleeLocal + callee.resultOffsets[k], callerLocal + resultOffsets[k],
                        callee.resultSizes[k]);
            }
            System.arraycopy(mem, calleeLocal + callee.resultOffsets[k], mem, callerLocal + resultOffsets[k],
                    callee.resultSizes[k]);
        }
        w.pc[l] = st[d * fi];
        w.regBase[l] = st[d * fi + 1];
        w.localBase[l] = callerLocal;
        w.depth[l] = d;
        return true;
    }

    /** Marks the {@code size} bytes at {@code to} written where those at {@code from} are. */
    private static void copyWritten(java.util.BitSet written, int from, int to, int size) {
        for (int i = 0; i < size; i++) {
            written.set(to + i, written.get(from + i));
        }
    }

    /** Gives the local memory the cluster's calls grew back to the memory budget (the cluster ended). */
    void releaseStacks() {
        global.release(stackBytes);
        stackBytes = 0;
    }
}
