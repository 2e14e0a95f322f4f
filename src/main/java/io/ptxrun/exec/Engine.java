package io.ptxrun.exec;

import io.ptxrun.ast.DataType;
import io.ptxrun.diag.Diagnostic;
import io.ptxrun.exec.copy.ClusterGeometry;

import java.util.List;

import static io.ptxrun.exec.Bits.loaded;
import static io.ptxrun.exec.Bits.sx;
import static io.ptxrun.exec.Bits.zx;
import static io.ptxrun.exec.FloatOps.bits32;
import static io.ptxrun.exec.FloatOps.f32;
import static io.ptxrun.exec.FloatOps.f64;

/**
 * What each instruction does to registers, memory and synchronization state, for the lanes of a
 * warp that run it together. Each engine (a worker of a {@link Grid}, which prepares the launch and
 * gathers its result) runs one cluster at a time (with clusters of one CTA, one CTA); separate
 * clusters are spread over several engines by {@link CtaPool}. Its {@link Scheduler} decides which warp runs when and judges stalls, deadlocks, spins
 * and budgets; the engine runs a warp's turn step by step ({@link #step}): within a warp, the lanes
 * at the lowest program counter run together (which reconverges diverged lanes where their paths
 * meet), or the group a seeded {@link RandomSchedule} picks. Hot straight-line code runs compiled
 * ({@link Regions}), through the same definitions.
 */
final class Engine {
    /** Local memory of one thread: frames of the whole call stack. */
    static final int MAX_LOCAL_BYTES = 16 << 20;

    /** Ends the run; carries the status and the diagnostic. */
    static final class Stop extends RuntimeException {
        final ExecStatus status;
        final List<Diagnostic> diagnostics;
        /** The instruction budget ran out (not the wall-clock one). */
        boolean instructionBudget;

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
    /** call and ret, and the call stacks' local memory. */
    final Calls calls;
    /** The state spaces as the lanes reach them. */
    final LaneMemory memory;
    private final WarpMatrixOps warpMatrixOps = new WarpMatrixOps(this);
    private final WarpMemory warpMemory = new WarpMemory(this);
    /** Seeded schedule choices, or null for the deterministic schedule. */
    private final RandomSchedule schedule;
    /** Decides which warp runs when, and stops the run in a deadlock, an endless spin or out of budget. */
    final Scheduler scheduler;

    // The cluster in flight, as the scheduler set it up: its CTAs (the array is reused, clusterSize
    // of them are in use) and the one whose warp runs now.
    Cta[] cluster = new Cta[0];
    int clusterSize;
    Cta cta;
    private int lane;

    // Synchronization: each instruction family's semantics in a class of its own (the per-CTA
    // ones live in Cta).
    final Hazards hazards;
    final SyncOptions sync;
    final ClusterBarrier clusterBarrier = new ClusterBarrier();
    /** Each lane's address of a compiled region's shared-memory access, for the hazard detector. */
    final long[] laneAddresses = new long[32];
    /** The ops each pass of a loop run lane by lane ran ({@link CompiledRegion#lanes}), one entry a pass. */
    final int[] passesVisited = new int[Regions.MAX_PASSES];
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
    /** %tid, %ctaid, %clock and the other special registers as the running lane reads them. */
    private final SpecialRegisters specials;
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
        this.specials = new SpecialRegisters(this, launch, geometry);
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
            return stop(ExecStatus.ERROR, "exec.fault", op, w, lane, f.getMessage() + " in '" + op.mnemonic() + "'");
        }
        return stop(ExecStatus.ERROR, "exec.fault", op, w, lane, "invalid operation in '" + op.mnemonic() + "': " + e);
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
     * #laneOps}): only registers and memory change, and the lanes go on to the next op. Everything
     * else (branches, calls, barriers, waits, async copies, warp collectives) needs the scheduler.
     */
    static boolean isLaneLocal(OpCode c) {
        // A list of what may be compiled, not of what may not: an operation added later runs in the
        // interpreter until it is put here (only ops that execute() leaves to laneOps() belong).
        return switch (c) {
            case MOV, MOV_PACK, MOV_UNPACK, LD, ST, CVTA, CVTA_TO, ISSPACEP, ADD, SUB, MUL, MAD, DIV, REM, MIN, MAX,
                    ABS, NEG, ADDC, SUBC, AND, OR, XOR, NOT, CNOT, SHL, SHR, POPC, CLZ, BREV, BFE, BFI, BFIND, PRMT,
                    LOP3, SHF, SETP, SELP, SET, SLCT, CVT, COPYSIGN, TESTP, FADD, FSUB, FMUL, FMA, FDIV, FMIN, FMAX,
                    FABS, FNEG, SQRT, RSQRT, RCP, EX2, LG2, SIN, COS, TANH, ATOM, RED, SAD, MADC, MUL24, MAD24, BMSK,
                    FNS, GETCTARANK, MAPA -> true;
            default -> false;
        };
    }

    private void execute(Warp w, Op op, int pc, int mask, int exec) {
        switch (op.code) {
            case BRA -> branch(w, op, pc, mask, exec);
            case EXIT -> {
                advance(w, mask & ~exec, pc + 1);
                exitLanes(w, exec);
            }
            case RET -> {
                advance(w, mask & ~exec, pc + 1);
                for (int m = exec; m != 0; m &= m - 1) {
                    lane = Integer.numberOfTrailingZeros(m);
                    if (!calls.ret(w, lane)) {
                        exitLanes(w, 1 << lane);
                    }
                }
            }
            case CALL -> {
                advance(w, mask & ~exec, pc + 1);
                for (int m = exec; m != 0; m &= m - 1) {
                    lane = Integer.numberOfTrailingZeros(m);
                    calls.call(w, op, pc, lane);
                }
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
            case SHFL -> {
                warpOps.memberMask(w, op, pc, mask, exec);
                warpOps.shfl(w, op, exec);
                advance(w, mask, pc + 1);
            }
            case VOTE -> {
                warpOps.memberMask(w, op, pc, mask, exec);
                warpOps.vote(w, op, exec);
                advance(w, mask, pc + 1);
            }
            case ACTIVEMASK -> {
                for (int m = exec; m != 0; m &= m - 1) {
                    int l = Integer.numberOfTrailingZeros(m);
                    write(w, op, 0, l, exec & 0xffffffffL);
                }
                advance(w, mask, pc + 1);
            }
            case REDUX, MATCH, ELECT -> {
                warpOps.memberMask(w, op, pc, mask, exec);
                warpOps.collective(w, op, exec);
                advance(w, mask, pc + 1);
            }
            case WMMA, MATRIX_MOVE -> {
                if (exec != 0 && exec != WarpMatrixOps.FULL_WARP) {
                    throw stop(ExecStatus.ERROR, "exec.wmma", op, w, Integer.numberOfTrailingZeros(exec), String.format(
                            "'%s' is warp-collective (.sync.aligned): all 32 lanes must execute it converged, but only"
                                    + " lanes 0x%08x do", op.mnemonic(), exec));
                }
                if (exec != 0 && op.code == OpCode.MATRIX_MOVE) {
                    warpMatrixOps.moveMatrices(w, op);
                } else if (exec != 0) {
                    warpMatrixOps.execute(w, op);
                }
                advance(w, mask, pc + 1);
            }
            case WARPGROUP -> cta.warpgroups.execute(w, op, pc, mask, exec);
            case NOP -> advance(w, mask, pc + 1);
            case FENCE, FENCE_PROXY_ASYNC -> {
                if (order != null) {
                    ordering.fence(w, exec, op.code == OpCode.FENCE_PROXY_ASYNC);
                }
                advance(w, mask, pc + 1);
            }
            case BAR_WARP -> {
                warpOps.warpSync(w, op, pc, mask, exec);
                advance(w, mask, pc + 1);
            }
            default -> {
                laneOps(w, op, exec);
                advance(w, mask, pc + 1);
                if (mask == (w.live & ~w.blocked)) {
                    w.uniformMask = mask;
                }
            }
        }
    }

    /**
     * One lane-local op (every family {@link #execute} does not name) for the lanes of exec: the
     * commonest forms in whole-group loops, the rest lane by lane. Compiled regions call this for
     * all but the simple ops they inline, so interpreter and compiler share every definition.
     */
    void laneOps(Warp w, Op op, int exec) {
        if (!fast(w, op, exec) && !fastF32(w, op, exec) && !fastSetp(w, op, exec)) {
            if (exec != 0 && warpMemory.run(w, op, w.pc[Integer.numberOfTrailingZeros(exec)], exec)) {
                // Where the per-lane loop would have left it (a later fault names this lane).
                lane = 31 - Integer.numberOfLeadingZeros(exec);
                return;
            }
            for (int m = exec; m != 0; m &= m - 1) {
                lane = Integer.numberOfTrailingZeros(m);
                lane(w, op, lane);
            }
        }
    }

    /**
     * A compiled region's ld or st ({@link WarpMemory#applies}) at {@code pc} for the lanes of exec
     * (those of mask its guard lets run): the whole-group form when it takes the access, which
     * needs the lanes' PCs at the op only for what the per-lane form may report.
     */
    void regionMemory(Warp w, Op op, int pc, int mask, int exec) {
        if (exec == 0 || !warpMemory.run(w, op, pc, exec)) {
            advance(w, mask, pc);
            laneOps(w, op, exec);
        } else {
            lane = 31 - Integer.numberOfLeadingZeros(exec);
        }
    }

    /** After a whole-group op of a compiled region: the lane the per-lane loop would have left (a later fault names it). */
    void ranGroup(int exec) {
        lane = 31 - Integer.numberOfLeadingZeros(exec);
    }

    /**
     * The commonest integer operations ({@link #fast}): no carry, saturation, high-half or packed
     * forms; mul.wide of 16 and 32 bits ({@link #mulWide}); and, or and xor of predicates too,
     * which {@link IntegerOps#apply} defines as the integer ones at width 1.
     */
    static boolean isFastInteger(Op op) {
        DataType t = op.type;
        if (t == null || op.mod.carry() || op.mod.sat() || op.mod.relu()) {
            return false;
        }
        OpCode c = op.code;
        if (t == DataType.PRED) {
            return op.sub == 0 && (c == OpCode.AND || c == OpCode.OR || c == OpCode.XOR);
        }
        if (!t.isInteger() || t == DataType.S16X2 || t == DataType.U16X2) {
            return false;
        }
        if (op.sub != 0) {
            return isMulWide(op);
        }
        return c == OpCode.ADD || c == OpCode.SUB || c == OpCode.AND || c == OpCode.OR || c == OpCode.XOR
                || c == OpCode.MUL || c == OpCode.MAD || c == OpCode.MOV || c == OpCode.SHL;
    }

    /** mul.wide of a 16- or 32-bit integer type: the product at twice the width. */
    static boolean isMulWide(Op op) {
        return op.code == OpCode.MUL && op.sub == 2 && (op.type.bits == 16 || op.type.bits == 32);
    }

    /** Bits of the result of a fast integer op (twice the type's for mul.wide). */
    static int fastBits(Op op) {
        return op.sub == 2 ? 2 * op.type.bits : op.type.bits;
    }

    /** mul.wide as {@link IntegerOps#mul} defines it: the operands extended from bits by the type's sign. */
    static long mulWide(long a, long b, boolean signed, int bits) {
        return signed ? sx(a, bits) * sx(b, bits) : zx(a, bits) * zx(b, bits);
    }

    /** f32 add/sub/mul/fma in the default or .rn rounding, without .ftz/.sat ({@link #fastF32}). */
    static boolean isFastF32(Op op) {
        OpCode c = op.code;
        return op.type == DataType.F32 && !op.mod.ftz() && !op.mod.sat() && op.mod.rounding() <= 0
                && (c == OpCode.FADD || c == OpCode.FSUB || c == OpCode.FMUL || c == OpCode.FMA);
    }

    /** Integer setp without a combining predicate ({@link #fastSetp}). */
    static boolean isFastSetp(Op op) {
        DataType t = op.type;
        return op.code == OpCode.SETP && t != null && t.isInteger() && !(op.boolOp != 0 && op.sources() > 2);
    }

    /** shl: shift counts of the type's width or more give 0. */
    static long shl(long a, long count, int bits) {
        long n = count & 0xffffffffL;
        return n >= bits ? 0 : a << n;
    }

    /**
     * Whole-group loops for the commonest integer operations (no carry, saturation or wide forms),
     * so the per-lane dispatch of {@link #lane} is skipped. Returns false when the op is not one.
     */
    private boolean fast(Warp w, Op op, int exec) {
        if (!isFastInteger(op)) {
            return false;
        }
        DataType t = op.type;
        OpCode c = op.code;
        int bits = fastBits(op);
        final long width = bits >= 64 ? -1L : (1L << bits) - 1;
        final boolean wide = op.sub == 2;
        final long[] regs = w.regs;
        final int[] rb = w.regBase;
        final int d = op.dst[0];
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            long a = read(w, op, 0, l);
            long r;
            switch (c) {
                case MOV -> r = a;
                case ADD -> r = a + read(w, op, 1, l);
                case SUB -> r = a - read(w, op, 1, l);
                case AND -> r = a & read(w, op, 1, l);
                case OR -> r = a | read(w, op, 1, l);
                case XOR -> r = a ^ read(w, op, 1, l);
                case MUL -> r = wide ? mulWide(a, read(w, op, 1, l), t.isSigned(), t.bits) : a * read(w, op, 1, l);
                case MAD -> r = a * read(w, op, 1, l) + read(w, op, 2, l);
                default -> r = shl(a, read(w, op, 1, l), t.bits);
            }
            if (d >= 0) {
                regs[((rb[l] + d) << 5) | l] = r & width;
            }
        }
        return true;
    }

    /** Whole-group loop for f32 add/sub/mul/fma in the default or .rn rounding, without .ftz/.sat. */
    private boolean fastF32(Warp w, Op op, int exec) {
        if (!isFastF32(op)) {
            return false;
        }
        OpCode c = op.code;
        final long[] regs = w.regs;
        final int[] rb = w.regBase;
        final int d = op.dst[0];
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            float a = f32(read(w, op, 0, l)), b = f32(read(w, op, 1, l));
            float r = switch (c) {
                case FADD -> a + b;
                case FSUB -> a - b;
                case FMUL -> a * b;
                default -> Math.fma(a, b, f32(read(w, op, 2, l)));
            };
            if (d >= 0) {
                regs[((rb[l] + d) << 5) | l] = bits32(r);
            }
        }
        return true;
    }

    /** Whole-group loop for integer setp without a combining predicate. */
    private boolean fastSetp(Warp w, Op op, int exec) {
        if (!isFastSetp(op)) {
            return false;
        }
        DataType t = op.type;
        final long[] regs = w.regs;
        final int[] rb = w.regBase;
        final int p = op.dst[0];
        final int q = op.dst.length > 1 ? op.dst[1] : -1;
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            boolean r = Comparisons.compare(op, t, read(w, op, 0, l), read(w, op, 1, l));
            if (p >= 0) {
                regs[((rb[l] + p) << 5) | l] = r ? 1 : 0;
            }
            if (q >= 0) {
                regs[((rb[l] + q) << 5) | l] = r ? 0 : 1;
            }
        }
        return true;
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

    private void exitLanes(Warp w, int lanes) {
        if (lanes == 0) {
            return;
        }
        w.live &= ~lanes;
        cta.liveThreads -= Integer.bitCount(lanes);
        events++;
        cta.barriers.exited(w);
        clusterBarrier.exited(cta, w, lanes);
        if (cta.exited() && order != null && cta.peerAccesses.any()) {
            ordering.peerAccessesBeforeExit(w.pc[Integer.numberOfTrailingZeros(lanes)]);
        }
    }

    // ---------------------------------------------------------------- operands

    long read(Warp w, Op op, int k, int l) {
        switch (op.srcKind[k]) {
            case Op.REG: {
                long v = w.regs[((w.regBase[l] + op.src[k]) << 5) | l];
                return op.srcNegated[k] ? v ^ 1 : v;
            }
            case Op.IMM:
                return op.imm[k];
            case Op.FRAME:
                return w.localBase[l] + op.imm[k];
            default:
                return specials.read(w, op.sreg[k], op.sregComp[k], l);
        }
    }

    void write(Warp w, Op op, int k, int l, long v) {
        int r = op.dst[k];
        if (r >= 0) {
            w.regs[((w.regBase[l] + r) << 5) | l] = v;
        }
    }

    // ---------------------------------------------------------------- memory

    long address(Warp w, Op op, int l) {
        return address(w, op.mem, l);
    }

    /** Lane l's address of an access (in its space; a generic frame slot in the generic window). */
    long address(Warp w, MemoryAccess m, int l) {
        return switch (m.addressKind()) {
            case MemoryAccess.REGISTER -> w.regs[((w.regBase[l] + m.register()) << 5) | l] + m.offset();
            case MemoryAccess.ABSOLUTE -> m.offset();
            case MemoryAccess.FRAME -> w.localBase[l] + m.offset();
            default -> Space.LOCAL.window + w.localBase[l] + m.offset();
        };
    }

    // ---------------------------------------------------------------- per-lane operations

    private void lane(Warp w, Op op, int l) {
        DataType t = op.type;
        int bits = t == null ? 64 : t.bits;
        switch (op.code) {
            case MOV -> write(w, op, 0, l, zx(read(w, op, 0, l), op.dstBits[0] == 1 ? 1 : bits));
            case MOV_PACK -> {
                int n = op.sources();
                int eb = bits / n;
                long r = 0;
                for (int k = 0; k < n; k++) {
                    r |= zx(read(w, op, k, l), eb) << (k * eb);
                }
                write(w, op, 0, l, r);
            }
            case MOV_UNPACK -> {
                int n = op.dst.length;
                int eb = bits / n;
                long v = read(w, op, 0, l);
                for (int k = 0; k < n; k++) {
                    write(w, op, k, l, zx(v >>> (k * eb), eb));
                }
            }
            case LD -> {
                long a = address(w, op, l);
                int size = t.bytes();
                if (op.mem.vector() > 1 && (a & (size * op.mem.vector() - 1)) != 0) {
                    throw new MemoryFault(String.format("misaligned %d-byte vector access at 0x%x",
                            size * op.mem.vector(), a));
                }
                for (int k = 0; k < op.dst.length; k++) {
                    write(w, op, k, l, loaded(memory.load(w, op.mem.space(), a + (long) k * size, size, l), t, op.dstBits[k]));
                }
                if (order != null) {
                    ordering.ordered(w, l, op, op.mem.space(), a, size * op.dst.length, true, false);
                }
            }
            case ST -> {
                long a = address(w, op, l);
                int size = t.bytes();
                if (order != null && op.mem.strong()) {
                    ordering.releasing(w, l, op.mem.space(), a, op.mem.release());
                }
                if (op.mem.vector() > 1 && (a & (size * op.mem.vector() - 1)) != 0) {
                    throw new MemoryFault(String.format("misaligned %d-byte vector access at 0x%x",
                            size * op.mem.vector(), a));
                }
                for (int k = 0; k < op.sources(); k++) {
                    memory.store(w, op.mem.space(), a + (long) k * size, size, read(w, op, k, l), l, op.mem.strong());
                }
                if (order != null) {
                    ordering.ordered(w, l, op, op.mem.space(), a, size * op.sources(), false, true);
                }
            }
            case CVTA -> write(w, op, 0, l, zx(read(w, op, 0, l) + op.mem.space().window, bits));
            case CVTA_TO -> write(w, op, 0, l, zx(read(w, op, 0, l) - op.mem.space().window, bits));
            case ISSPACEP -> {
                Space sp = Space.ofGeneric(read(w, op, 0, l));
                // On H100 kernel parameters and constants are reachable through global addresses too.
                boolean in = sp == op.mem.space()
                        || (op.mem.space() == Space.GLOBAL && (sp == Space.KPARAM || sp == Space.CONST));
                write(w, op, 0, l, in ? 1 : 0);
            }
            case ATOM, RED -> Atomics.run(this, w, op, l);
            case GETCTARANK -> write(w, op, 0, l,
                    Cta.rankOf(LaneMemory.sharedAddressOf(op.mem.space(), zx(read(w, op, 0, l), bits)), cta.rank));
            case MAPA -> {
                long rank = zx(read(w, op, 1, l), 32);
                if (rank >= clusterSize) {
                    throw new MemoryFault("mapa to CTA rank " + rank + ", but the cluster has " + clusterSize + " CTAs");
                }
                long a = LaneMemory.sharedAddressOf(op.mem.space(), zx(read(w, op, 0, l), bits));
                long mapped = cluster[(int) rank].clusterAddress(Cta.offsetOf(a));
                write(w, op, 0, l, zx(op.mem.space() == Space.GENERIC ? Space.SHARED.window + mapped : mapped, bits));
            }
            case SETP -> setp(w, op, l);
            case SELP -> write(w, op, 0, l, (read(w, op, 2, l) & 1) != 0 ? read(w, op, 0, l) : read(w, op, 1, l));
            case CVT -> write(w, op, 0, l, op.sources() > 1 ? Convert.cvtPair(op, read(w, op, 0, l), read(w, op, 1, l))
                    : Convert.cvt(op, read(w, op, 0, l)));
            case COPYSIGN -> {
                // Pure sign transfer: b's bits (NaN payloads included) with a's sign.
                long a = read(w, op, 0, l), b = read(w, op, 1, l);
                long sign = bits == 64 ? Long.MIN_VALUE : 0x8000_0000L;
                write(w, op, 0, l, (b & ~sign & (bits == 64 ? -1L : 0xffffffffL)) | (a & sign));
            }
            case TESTP -> {
                long raw = read(w, op, 0, l);
                double x = t == DataType.F64 ? f64(raw) : f32(raw);
                double ax = Math.abs(x);
                double minNormal = t == DataType.F64 ? Double.MIN_NORMAL : Float.MIN_NORMAL;
                boolean p = switch (op.sub) {
                    case 0 -> Double.isFinite(x);
                    case 1 -> Double.isInfinite(x);
                    case 2 -> !Double.isNaN(x);
                    case 3 -> Double.isNaN(x);
                    // H100 reports zero as normal: everything finite that is not subnormal.
                    case 4 -> Double.isFinite(x) && !(ax > 0 && ax < minNormal);
                    default -> ax > 0 && ax < minNormal;
                };
                write(w, op, 0, l, p ? 1 : 0);
            }
            case SET -> {
                // set.cmp.dtype.stype: op.type is the compared type, op.srcType the result type.
                boolean p = Comparisons.compare(op, op.type, read(w, op, 0, l), read(w, op, 1, l));
                if (op.boolOp != 0 && op.sources() > 2) {
                    p = Comparisons.combine(op.boolOp, p, read(w, op, 2, l));
                }
                write(w, op, 0, l, Comparisons.setValue(op.srcType, p));
            }
            case SLCT -> {
                long c = read(w, op, 2, l);
                // A NaN selector picks b; .ftz flushes a subnormal selector (to a signed zero, so >= 0).
                boolean ge = op.srcType == DataType.F32 ? (op.mod.ftz() ? FloatOps.flush(f32(c)) : f32(c)) >= 0 : (int) c >= 0;
                write(w, op, 0, l, zx(ge ? read(w, op, 0, l) : read(w, op, 1, l), bits));
            }
            default -> {
                int n = op.sources();
                long a = n > 0 ? read(w, op, 0, l) : 0, b = n > 1 ? read(w, op, 1, l) : 0;
                long c = n > 2 ? read(w, op, 2, l) : 0;
                if (t != null && t.isFloat()) {
                    write(w, op, 0, l, FloatArithmetic.apply(op, a, b, c));
                } else {
                    write(w, op, 0, l, IntegerOps.apply(op, w, l, a, b, c, n > 3 ? read(w, op, 3, l) : 0));
                }
            }
        }
    }

    private void setp(Warp w, Op op, int l) {
        boolean p = Comparisons.compare(op, op.type, read(w, op, 0, l), read(w, op, 1, l));
        boolean q = !p;
        if (op.boolOp != 0 && op.sources() > 2) {
            long c = read(w, op, 2, l);
            p = Comparisons.combine(op.boolOp, p, c);
            q = Comparisons.combine(op.boolOp, q, c);
        }
        write(w, op, 0, l, p ? 1 : 0);
        if (op.dst.length > 1) {
            write(w, op, 1, l, q ? 1 : 0);
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

    void hazard(Op op, int pc, String rule, String message) {
        hazards.hazard(op, pc, rule, message);
    }

    /** Records a progress event (an arrival, a completion, a state change others can see). */
    void progressed() {
        events++;
    }


}
