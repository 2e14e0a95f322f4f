package io.ptxrun.exec;

import io.ptxrun.diag.Diagnostic;
import io.ptxrun.exec.copy.ClusterGeometry;

import java.util.List;

/**
 * A worker's step loop and dispatch: which lanes of a warp run next, and which instruction family
 * runs them. Each engine (a worker of a {@link Grid}, which prepares the launch and gathers its
 * result) runs one cluster at a time (with clusters of one CTA, one CTA); separate clusters are
 * spread over several engines by {@link CtaPool}. Its {@link Scheduler} decides which warp runs
 * when and judges stalls, deadlocks, spins and budgets; the engine runs a warp's turn step by step
 * ({@link #step}): within a warp, the lanes at the lowest program counter run together (which
 * reconverges diverged lanes where their paths meet), or the group a seeded {@link RandomSchedule}
 * picks. What an instruction does is its family's ({@link LaneOps} for the lane-local ones, the
 * control, warp and synchronization classes for the rest, {@link Calls} for call, ret and exit,
 * {@link Operands} for the operand reads and writes every family shares); the engine keeps only
 * the lanes' program counters and branches. Hot
 * straight-line code runs compiled ({@link Regions}), through the same definitions.
 */
final class Engine {
    /** Local memory of one thread: frames of the whole call stack. */
    static final int MAX_LOCAL_BYTES = 16 << 20;

    /** Ends the run; carries the status and the diagnostic. */
    static final class Stop extends RuntimeException {
        final ExecStatus status;
        final List<Diagnostic> diagnostics;
        /** The wall-clock budget ran out: where depends on the machine's speed, not on the kernel. */
        boolean wallClock;
        /**
         * A spin that only another cluster could end: which clusters ran alongside it decides the
         * report ({@link StopReports#spinForever}), so it is the report of this many workers.
         */
        boolean spinAmongClusters;
        /** Clusters after this one in grid order had started on other workers when it stopped the run. */
        boolean laterClustersRan;

        Stop(ExecStatus status, List<Diagnostic> diagnostics) {
            super(null, null, false, false);
            this.status = status;
            this.diagnostics = diagnostics;
        }

        /** An op of a form the engine does not run ({@code detail}, if not empty, says which). */
        static Stop unsupported(Op op, String detail) {
            return new Stop(ExecStatus.ERROR, List.of(Diagnostic.error(op.pos, "exec.unsupported",
                    "instruction '" + op.mnemonic() + "' is not supported" + detail)));
        }
    }

    private final KernelLaunch launch;
    private final GlobalMemory global;
    /** The tensor-map instructions, with the maps awaiting a proxy fence (shared by all workers). */
    final TensorMapEdits tensorMaps;
    final Decoder.Program program;
    private final Op[] ops;
    /** Compiled straight-line regions (shared by the workers), or null when only the interpreter runs. */
    private final Regions regions;
    /** Thread-instructions executed by this worker (compiled regions count them op by op too). */
    long executed;
    /** The count of executed at which the cluster in flight runs out of budget (set by the scheduler). */
    long ctaLimit;
    final Decoder.FuncInfo entry;
    private final ClusterGeometry geometry;
    private final WarpOps warpOps = new WarpOps(this);
    /** call, ret and exit, and the call stacks' local memory. */
    final Calls calls;
    /** The state spaces as the lanes reach them. */
    final LaneMemory memory;
    private final WarpMatrixOps warpMatrixOps = new WarpMatrixOps(this);
    final WarpMemory warpMemory = new WarpMemory(this);
    /** Seeded schedule choices, or null for the deterministic schedule. */
    private final RandomSchedule schedule;
    /** Decides which warp runs when, and stops the run in a deadlock, an endless spin or out of budget. */
    final Scheduler scheduler;

    // The cluster in flight, as the scheduler set it up: its CTAs (the array is reused, clusterSize
    // of them are in use) and the one whose warp runs now.
    Cta[] cluster = new Cta[0];
    int clusterSize;
    Cta cta;
    /** The lane that ran last (or, after a whole-group op, the last lane of the group): a fault names it. */
    int lastLane;

    // Synchronization: each instruction family's semantics in a class of its own (the per-CTA
    // ones live in Cta).
    final Hazards hazards;
    final SyncOptions sync;
    final ClusterBarrier clusterBarrier = new ClusterBarrier();
    /** Each lane's address of a compiled region's shared-memory access, for the hazard detector. */
    final long[] laneAddresses = new long[32];
    /**
     * The ops each lane ran in each pass of a loop run lane by lane, and the passes each ran
     * ({@link CompiledRegion#lanes}).
     */
    int[] passesVisited = LoopAhead.newLog(Regions.FIRST_PASSES);

    /** A log of twice the passes, where the log is not at its largest: returns whether it grew. */
    boolean morePasses() {
        int capacity = passesVisited[LoopAhead.CAPACITY];
        if (capacity >= Regions.MOST_PASSES) {
            return false;
        }
        passesVisited = LoopAhead.newLog(2 * capacity);
        return true;
    }
    /** A warp's registers before its lanes ran ahead ({@link LoopAhead}), to go back to. */
    long[] regsBeforeAhead = new long[0];
    /** printf, assert, malloc and free: the device-library functions nvcc calls. */
    private final DeviceLibrary library;
    /**
     * Progress events (memory writes, arrivals, completions, exits), counted here and judged by the
     * scheduler: a round without one, in which every warp that ran only polled failed waits,
     * cannot lead anywhere.
     */
    long events;
    /** The CUDA lines of the module, for the texts of stop reports (built on first use). */
    private io.ptxrun.diag.SourceMap cudaLines;
    /** The hazard detector's view of this worker's cluster, or null when it is off. */
    io.ptxrun.exec.order.MemoryOrder order;
    /** The operands as the lanes read and write them (special registers included). */
    final Operands operands;
    /** The lanes' accesses as the hazard detector takes them (used only while it is on). */
    final AccessOrdering ordering;

    /**
     * A worker of the grid. The first worker's scheduler (first == null) holds the launch's
     * budgets; the other workers' share them.
     */
    Engine(Grid grid, Scheduler first) {
        this.launch = grid.launch;
        this.global = launch.memory();
        this.program = grid.program;
        this.ops = program.ops;
        this.regions = grid.regions;
        this.entry = grid.entry;
        this.geometry = grid.geometry;
        this.operands = new Operands(new SpecialRegisters(this, launch, geometry));
        this.ordering = new AccessOrdering(this, grid.threadsPerCta, launch.block());
        this.schedule = RandomSchedule.of(launch.limits().scheduleSeed());
        this.sync = launch.limits().sync();
        this.hazards = new Hazards(sync.warnOnly());
        this.tensorMaps = new TensorMapEdits(this, hazards, grid.unfencedMaps);
        this.library = new DeviceLibrary(this, grid.heap);
        this.calls = new Calls(this, program, global);
        this.memory = new LaneMemory(this, global, launch.paramBlock(), program.constBank);
        this.scheduler = first == null ? new Scheduler(this, launch, schedule) : new Scheduler(this, schedule, first);
    }

    DeviceLibrary library() {
        return library;
    }

    /** {@code " [kernel.cu:9:5 (in f, inlined at ...)]"}: the CUDA line of op for a message, or "". */
    String cuda(Op op) {
        if (cudaLines == null) {
            cudaLines = io.ptxrun.diag.SourceMap.of(launch.module());
        }
        return cudaLines.describe(op.pos);
    }

    String where(Warp w, int l) {
        return String.format("thread tid (%d,%d,%d), warp %d, CTA ctaid (%d,%d,%d)",
                w.tidX[l], w.tidY[l], w.tidZ[l], w.id, cta.ctaid[0], cta.ctaid[1], cta.ctaid[2]);
    }

    Stop stop(ExecStatus status, String rule, Op op, Warp w, int l, String message) {
        return new Stop(status, List.of(Diagnostic.error(op.pos, rule, message + " (" + where(w, l) + ")")));
    }

    // ---------------------------------------------------------------- warp step

    /**
     * Runs the lowest-PC group of runnable lanes one op, or a compiled region of at most
     * {@code steps} ops (as many steps); returns the steps taken, 0 when no lane can run.
     */
    int step(Warp w, int steps) {
        int runnable = w.live & ~w.blocked;
        if (runnable == 0) {
            return 0;
        }
        if (w.ahead != null) {
            // Its lanes ran ahead: this turn's steps were run then.
            return w.ahead.turn(this, w, steps);
        }
        int pc = Integer.MAX_VALUE;
        int mask = 0;
        final int[] pcs = w.pc;
        if (runnable == w.uniformMask) {
            // Every runnable lane is known to sit at the same op: no scan needed.
            mask = runnable;
            pc = pcs[Integer.numberOfTrailingZeros(runnable)];
        } else {
            for (int m = runnable; m != 0; m &= m - 1) {
                int l = Integer.numberOfTrailingZeros(m);
                int p = pcs[l];
                if (p < pc) {
                    pc = p;
                    mask = 1 << l;
                } else if (p == pc) {
                    mask |= 1 << l;
                }
            }
            if (schedule != null && mask != runnable) {
                int other = schedule.divergentGroup(pcs, runnable, ops);
                if (other != 0) {
                    mask = other;
                    pc = pcs[Integer.numberOfTrailingZeros(other)];
                }
            }
        }
        if (pc < w.fitStart || pc > w.fitEnd) {
            // Whatever runs from here (an op, or a region, which ends before the loop's branch
            // back where it starts inside the loop) may write the loop's registers otherwise.
            w.fitLanes = 0;
        }
        if (regions != null) {
            int n = regions.run(this, w, pc, mask, runnable, steps);
            if (n > 0) {
                return n;
            }
        }
        w.uniformMask = 0;
        Op op = ops[pc];
        executed += Integer.bitCount(mask);
        if (executed > ctaLimit) {
            throw scheduler.budgetExhausted(w, op, Integer.numberOfTrailingZeros(mask));
        }
        int exec = guarded(w, op, mask);
        if (w.wgmmaPending != null && exec != 0 && op.code != OpCode.WARPGROUP) {
            cta.warpgroups.checkAccess(w, op, pc, exec);
        }
        try {
            execute(w, op, pc, mask, exec);
        } catch (MemoryFault | ArithmeticException | IndexOutOfBoundsException | NegativeArraySizeException e) {
            throw fault(e, op, w);
        }
        return 1;
    }

    /** The lanes of {@code mask} whose guard predicate lets them execute the op. */
    int guarded(Warp w, Op op, int mask) {
        if (op.guard < 0) {
            return mask;
        }
        int exec = 0;
        for (int m = mask; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            boolean p = w.regs[((w.regBase[l] + op.guard) << 5) | l] != 0;
            if (p != op.guardNegated) {
                exec |= 1 << l;
            }
        }
        return exec;
    }

    /** The report of an op that failed in the lane last run (a bad access, a division by zero). */
    Stop fault(RuntimeException e, Op op, Warp w) {
        if (e instanceof MemoryFault f) {
            return stop(ExecStatus.ERROR, "exec.fault", op, w, lastLane, f.getMessage() + " in '" + op.mnemonic() + "'");
        }
        return stop(ExecStatus.ERROR, "exec.fault", op, w, lastLane, "invalid operation in '" + op.mnemonic() + "': " + e);
    }

    void advance(Warp w, int mask, int next) {
        if (mask == -1) {
            java.util.Arrays.fill(w.pc, next);
            return;
        }
        for (int m = mask; m != 0; m &= m - 1) {
            w.pc[Integer.numberOfTrailingZeros(m)] = next;
        }
    }

    /**
     * Whether {@link #execute} runs the op as a lane-local operation (its default branch, {@link
     * LaneOps}): only registers and memory change, and the lanes go on to the next op. Everything
     * else (branches, calls, barriers, waits, async copies, warp collectives) needs the scheduler.
     */
    static boolean isLaneLocal(OpCode c) {
        // A list of what may be compiled, not of what may not: an operation added later runs in the
        // interpreter until it is put here (only ops that execute() leaves to LaneOps belong).
        return switch (c) {
            case MOV, MOV_PACK, MOV_UNPACK, LD, ST, CVTA, CVTA_TO, ISSPACEP, ADD, SUB, MUL, MAD, DIV, REM, MIN, MAX,
                    ABS, NEG, ADDC, SUBC, AND, OR, XOR, NOT, CNOT, SHL, SHR, POPC, CLZ, BREV, BFE, BFI, BFIND, PRMT,
                    LOP3, SHF, SETP, SELP, SET, SLCT, CVT, COPYSIGN, TESTP, FADD, FSUB, FMUL, FMA, FDIV, FMIN, FMAX,
                    FABS, FNEG, SQRT, RSQRT, RCP, EX2, LG2, SIN, COS, TANH, ATOM, RED, SAD, DOT, MADC, MUL24, MAD24, BMSK,
                    FNS, GETCTARANK, MAPA -> true;
            default -> false;
        };
    }

    private void execute(Warp w, Op op, int pc, int mask, int exec) {
        switch (op.code) {
            case BRA -> branch(w, op, pc, mask, exec);
            case EXIT -> {
                advance(w, mask & ~exec, pc + 1);
                calls.exit(w, exec);
            }
            case RET -> {
                advance(w, mask & ~exec, pc + 1);
                calls.ret(w, exec);
            }
            case CALL -> {
                advance(w, mask & ~exec, pc + 1);
                calls.call(w, op, pc, exec);
            }
            case LIBRARY_CALL -> {
                advance(w, mask, pc + 1);
                library.call(w, op, pc, exec);
            }
            case BAR, BAR_ARRIVE, BAR_RED -> cta.barriers.execute(w, op, pc, mask, exec);
            case CLUSTER_ARRIVE -> {
                advance(w, mask, pc + 1);
                clusterBarrier.arrive(this, cta, w, op, pc, exec, hazards);
            }
            case CLUSTER_WAIT -> {
                advance(w, mask, pc + 1);
                clusterBarrier.await(cta, w, op, pc, exec);
            }
            case MBARRIER -> cta.mbarriers.execute(w, op, pc, mask, exec);
            case CP_ASYNC -> cta.copies.issueCopy(w, op, pc, mask, exec);
            case CP_ASYNC_BULK -> cta.copies.issueBulk(w, op, pc, mask, exec);
            case ST_ASYNC -> cta.copies.issueStore(w, op, pc, mask, exec);
            case CP_ASYNC_BULK_TENSOR -> cta.copies.issueTensor(w, op, pc, mask, exec);
            case TENSORMAP_REPLACE -> tensorMaps.replace(w, op, pc, mask, exec);
            case TENSORMAP_COPY -> tensorMaps.copy(w, op, pc, mask, exec);
            case TENSORMAP_ACQUIRE -> tensorMaps.acquire(w, op, pc, mask, exec);
            case ASYNC_GROUP -> cta.copies.group(w, op, pc, mask, exec);
            case TRAP -> {
                advance(w, mask, pc + 1);
                if (exec != 0) {
                    throw stop(ExecStatus.TRAP, "exec.trap", op, w, Integer.numberOfTrailingZeros(exec), "trap executed");
                }
            }
            case UNSUPPORTED -> {
                if (exec != 0) {
                    throw stop(ExecStatus.ERROR, "exec.unsupported", op, w, Integer.numberOfTrailingZeros(exec),
                            ((OpForm.Unsupported) op.form).message());
                }
                advance(w, mask, pc + 1);
            }
            case SHFL, VOTE, ACTIVEMASK, REDUX, MATCH, ELECT, BAR_WARP -> warpOps.execute(w, op, pc, mask, exec);
            case WMMA, MATRIX_MOVE, MATRIX_TRANSPOSE, MMA_SYNC -> {
                warpMatrixOps.run(w, op, exec);
                advance(w, mask, pc + 1);
            }
            case WARPGROUP -> cta.warpgroups.execute(w, op, pc, mask, exec);
            case NOP -> advance(w, mask, pc + 1);
            case FENCE, FENCE_PROXY_ASYNC -> {
                if (order != null) {
                    ordering.fence(w, exec, op.code == OpCode.FENCE_PROXY_ASYNC, op.mem.scope());
                }
                advance(w, mask, pc + 1);
            }
            default -> {
                LaneOps.run(this, w, op, exec);
                advance(w, mask, pc + 1);
                if (mask == (w.live & ~w.blocked)) {
                    w.uniformMask = mask;
                }
            }
        }
    }

    /** After a whole-group op of a compiled region: the lane the per-lane loop would have left (a later fault names it). */
    void ranGroup(int exec) {
        lastLane = 31 - Integer.numberOfLeadingZeros(exec);
    }

    // ---------------------------------------------------------------- control

    /** bra: the lanes of exec jump, the rest of mask go on (compiled regions end with it too). */
    void branch(Warp w, Op op, int pc, int mask, int exec) {
        advance(w, mask & ~exec, pc + 1);
        advance(w, exec, op.target);
        if (exec != 0 && op.target <= pc) {
            w.lastBackBranch = pc;
        }
        if ((exec == mask || exec == 0) && mask == (w.live & ~w.blocked)) {
            // A uniform branch keeps every runnable lane at one PC: the next step needs no scan.
            w.uniformMask = mask;
        }
    }

    // ---------------------------------------------------------------- for the synchronization classes

    ClusterGeometry geometry() {
        return geometry;
    }

    /** The CTA whose warp runs now. */
    Cta cta() {
        return cta;
    }

    Cta[] cluster() {
        return cluster;
    }

    /**
     * Whether {@code test} holds for an async write into the shared memory of CTA rank {@code
     * rank} that a CTA of the cluster in flight issued and has not made yet (the hazard
     * detector's {@link io.ptxrun.exec.order.MemoryOrder.PendingWrites}).
     */
    boolean pendingAsyncWrite(int rank, io.ptxrun.exec.order.MemoryOrder.PendingTest test) {
        for (Cta c : cluster) {
            if (c != null && c.copies.pendingWrite(rank, test)) {
                return true;
            }
        }
        return false;
    }

    Op opAt(int pc) {
        return ops[pc];
    }

    int[] launchGrid() {
        return launch.grid();
    }

    int[] launchCluster() {
        return launch.cluster();
    }

    GlobalMemory global() {
        return global;
    }


    boolean fixedSchedule() {
        return schedule == null;
    }

    /** Whether the warps' turns are traced (--trace). */
    boolean tracing() {
        return launch.limits().trace() != null;
    }

    /** The warps of the cluster in flight. */
    int clusterWarps() {
        int n = 0;
        for (int r = 0; r < clusterSize; r++) {
            n += cluster[r].warps.length;
        }
        return n;
    }

    void hazard(Op op, int pc, String rule, String message) {
        hazards.hazard(op, pc, rule, message);
    }

    /** Records a progress event (an arrival, a completion, a state change others can see). */
    void progressed() {
        events++;
    }


}
