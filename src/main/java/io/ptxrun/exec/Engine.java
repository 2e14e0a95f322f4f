package io.ptxrun.exec;

import io.ptxrun.ast.DataType;
import io.ptxrun.ast.SpecialRegister;
import io.ptxrun.diag.Diagnostic;
import io.ptxrun.exec.copy.ClusterGeometry;

import java.util.List;

import static io.ptxrun.exec.Decoder.CONST_WINDOW;
import static io.ptxrun.exec.Decoder.LOCAL_WINDOW;
import static io.ptxrun.exec.Decoder.PARAM_WINDOW;
import static io.ptxrun.exec.Decoder.SHARED_WINDOW;
import static io.ptxrun.exec.Decoder.WINDOW_SIZE;
import static io.ptxrun.exec.FloatOps.bits32;
import static io.ptxrun.exec.FloatOps.bits64;
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
    private static final int MAX_CALL_DEPTH = 4096;
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
    }

    private final KernelLaunch launch;
    private final GlobalMemory global;
    /** The tensor-map instructions, with the maps awaiting a proxy fence (shared by all workers). */
    final TensorMapEdits tensorMaps;
    private final byte[] params;
    final Decoder.Program program;
    private final Op[] ops;
    /** Compiled straight-line regions (shared by the workers), or null when only the interpreter runs. */
    private final Regions regions;
    /** Thread-instructions executed by this worker (compiled regions count them op by op too). */
    long executed;
    /** The count of executed at which the cluster in flight runs out of budget (set by the scheduler). */
    long ctaLimit;
    /** Local memory the cluster in flight grew for calls, counted against the memory budget. */
    private long callStackBytes;
    final Decoder.FuncInfo entry;
    private final ClusterGeometry geometry;
    private final WarpOps warpOps = new WarpOps(this);
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
    private final int threadsPerCta;

    /**
     * A worker of the grid. The first worker's scheduler (first == null) holds the launch's
     * budgets; the other workers' share them.
     */
    Engine(Grid grid, Scheduler first) {
        this.launch = grid.launch;
        this.global = launch.memory();
        this.params = launch.paramBlock();
        this.program = grid.program;
        this.ops = program.ops;
        this.regions = grid.regions;
        this.entry = grid.entry;
        this.geometry = grid.geometry;
        this.threadsPerCta = grid.threadsPerCta;
        this.schedule = RandomSchedule.of(launch.limits().scheduleSeed());
        this.sync = launch.limits().sync();
        this.hazards = new Hazards(sync.warnOnly());
        this.tensorMaps = new TensorMapEdits(this, hazards, grid.unfencedMaps);
        this.library = new DeviceLibrary(this, grid.heap);
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
                    ret(w, lane);
                }
            }
            case CALL -> {
                advance(w, mask & ~exec, pc + 1);
                for (int m = exec; m != 0; m &= m - 1) {
                    lane = Integer.numberOfTrailingZeros(m);
                    call(w, op, pc, lane);
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
            case CLUSTER_WAIT -> clusterWait(w, op, pc, mask, exec);
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
                            program.unsupported.getOrDefault(op, "instruction '" + op.mnemonic() + "' is not supported"));
                }
                advance(w, mask, pc + 1);
            }
            case SHFL -> {
                memberMask(w, op, pc, mask, exec);
                warpOps.shfl(w, op, exec);
                advance(w, mask, pc + 1);
            }
            case VOTE -> {
                memberMask(w, op, pc, mask, exec);
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
                memberMask(w, op, pc, mask, exec);
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
            case FENCE_PROXY_ASYNC -> {
                if (order != null) {
                    for (int m = exec; m != 0; m &= m - 1) {
                        order.proxyFence(slot(w, Integer.numberOfTrailingZeros(m)));
                    }
                }
                advance(w, mask, pc + 1);
            }
            case FENCE -> {
                if (order != null) {
                    for (int m = exec; m != 0; m &= m - 1) {
                        order.fence(slot(w, Integer.numberOfTrailingZeros(m)));
                    }
                }
                advance(w, mask, pc + 1);
            }
            case BAR_WARP -> {
                // (Only the hazard detector cares: without it bar.warp.sync has nothing to do.)
                int done = order == null ? exec : 0;
                for (int m = exec; m != 0; m &= m - 1) {
                    int l = Integer.numberOfTrailingZeros(m);
                    if ((done & (1 << l)) != 0) {
                        continue;
                    }
                    // Lanes may name different groups (tiled partitions): each group syncs on its own.
                    int named = (int) read(w, op, 0, l);
                    int group = 0;
                    for (int k = exec & ~done; k != 0; k &= k - 1) {
                        int j = Integer.numberOfTrailingZeros(k);
                        if ((int) read(w, op, 0, j) == named) {
                            group |= 1 << j;
                        }
                    }
                    done |= group;
                    checkWarpCollective(w, op, pc, mask, group, named);
                    if (order != null) {
                        order.warpSync(slot(w, 0), group & named);
                    }
                }
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
            boolean r = compare(op, t, read(w, op, 0, l), read(w, op, 1, l));
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
            peerAccessesBeforeExit(w.pc[Integer.numberOfTrailingZeros(lanes)]);
        }
    }

    /**
     * The CTA exits (its last thread at {@code exitPc}): every access of a peer CTA's thread to its
     * shared memory must happen before that, in the hazard detector's order, whichever came first
     * in this run (CUDA C++ Programming Guide, Distributed Shared Memory). An access its threads
     * never learned of is reported as the access after the exit would be.
     */
    private void peerAccessesBeforeExit(int exitPc) {
        int s = cta.peerAccesses.unordered(order.knownByCta(cta.rank));
        if (s < 0) {
            return;
        }
        Op access = ops[cta.peerAccesses.pcOf(s)];
        Op exit = ops[exitPc];
        int threads = threadsPerCta * clusterSize;
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
        throw new Stop(ExecStatus.ERROR, List.of(Diagnostic.error(access.pos, "exec.fault", String.format(
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
        throw new Stop(ExecStatus.ERROR, List.of(Diagnostic.error(copy.pos, "exec.fault", String.format(
                "undefined behaviour: shared::cluster write by an async copy to the shared memory of CTA rank %d of"
                        + " the cluster, which has exited (a CTA's shared memory exists only while it runs;"
                        + " distributed shared memory accesses must happen before the owner exits: a wait of the"
                        + " owner's threads, before they exit, on the mbarrier phase the copy completes on) in '%s'"
                        + " (issued by %s)",
                owner.rank, copy.mnemonic(), whereSlot(rank * threadsPerCta + tid)))));
    }

    /** {@link #where} for the thread of the cluster's slot {@code s} (its rank, then its linear id). */
    private String whereSlot(int s) {
        int[] b = launch.block();
        Cta c = cluster[s / threadsPerCta];
        int t = s % threadsPerCta;
        return String.format("thread tid (%d,%d,%d), warp %d, CTA ctaid (%d,%d,%d) rank %d", t % b[0],
                (t / b[0]) % b[1], t / (b[0] * b[1]), t / 32, c.ctaid[0], c.ctaid[1], c.ctaid[2], c.rank);
    }

    /** barrier.cluster.wait: lanes whose arrival's phase is still open block until it completes. */
    private void clusterWait(Warp w, Op op, int pc, int mask, int exec) {
        advance(w, mask, pc + 1);
        int blocked = clusterBarrier.waiters(cta, w, exec);
        if (order != null) {
            // Lanes whose phase already completed pass and acquire it now; the others when it completes.
            for (int m = exec & ~blocked; m != 0; m &= m - 1) {
                order.clusterWaited(slot(w, Integer.numberOfTrailingZeros(m)), op.insn.has(io.ptxrun.ast.Qualifier.RELAXED));
            }
        }
        w.blocked |= blocked;
        for (int m = blocked; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            w.waitKind[l] = Warp.WAIT_CLUSTER;
            w.blockedAt[l] = pc;
        }
    }

    private void call(Warp w, Op op, int pc, int l) {
        Decoder.FuncInfo caller = program.funcs.get(op.owner);
        CallForm form = (CallForm) op.form;
        int calleeIndex = form.callee();
        if (calleeIndex < 0) {
            long target = read(w, op, 0, l) - Decoder.FUNC_WINDOW;
            if (target < 0 || target >= program.funcs.size()) {
                throw stop(ExecStatus.ERROR, "exec.call", op, w, l,
                        String.format("indirect call through 0x%x, which is not a function address", target + Decoder.FUNC_WINDOW));
            }
            calleeIndex = (int) target;
        }
        Decoder.FuncInfo callee = program.funcs.get(calleeIndex);
        int d = w.depth[l];
        if (d >= MAX_CALL_DEPTH) {
            throw stop(ExecStatus.ERROR, "exec.stack", op, w, l, "call stack overflow (" + d + " frames)");
        }
        final int fi = Warp.FRAME_INTS;
        int[] st = w.stack[l];
        if (st == null || st.length < (d + 1) * fi) {
            st = w.stack[l] = java.util.Arrays.copyOf(st == null ? new int[0] : st, Math.max(8 * fi, (d + 1) * fi * 2));
        }
        int oldLocal = w.localBase[l];
        int newRegBase = w.regBase[l] + caller.numRegs;
        int newLocal = oldLocal + caller.frameBytes;
        if (newLocal + callee.frameBytes > MAX_LOCAL_BYTES) {
            throw stop(ExecStatus.ERROR, "exec.stack", op, w, l, "local memory stack overflow");
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
                throw stop(ExecStatus.ERROR, "exec.limit", op, w, l, "the call stacks need more than the"
                        + " simulated-memory budget of " + global.budget() + " bytes (--max-memory)");
            }
            callStackBytes += grown;
        }
        byte[] mem = w.local[l];
        int n = Math.min(form.argOffsets().length, callee.paramOffsets.length);
        for (int k = 0; k < n; k++) {
            System.arraycopy(mem, oldLocal + form.argOffsets()[k], mem, newLocal + callee.paramOffsets[k], callee.paramSizes[k]);
            if (order != null) {
                w.localWritten(l).set(newLocal + callee.paramOffsets[k], newLocal + callee.paramOffsets[k] + callee.paramSizes[k]);
            }
        }
        w.regBase[l] = newRegBase;
        w.localBase[l] = newLocal;
        w.pc[l] = callee.entryPc;
    }

    private void ret(Warp w, int l) {
        int d = w.depth[l];
        if (d == 0) {
            exitLanes(w, 1 << l);
            return;
        }
        d--;
        final int fi = Warp.FRAME_INTS;
        int[] st = w.stack[l];
        int[] resultOffsets = ((CallForm) ops[st[d * fi + 3]].form).resultOffsets();
        Decoder.FuncInfo callee = program.funcs.get(st[d * fi + 4]);
        int calleeLocal = w.localBase[l];
        int callerLocal = st[d * fi + 2];
        byte[] mem = w.local[l];
        int n = Math.min(resultOffsets.length, callee.resultOffsets.length);
        for (int k = 0; k < n; k++) {
            if (order != null) {
                w.localWritten(l).set(callerLocal + resultOffsets[k],
                        callerLocal + resultOffsets[k] + callee.resultSizes[k]);
            }
            System.arraycopy(mem, calleeLocal + callee.resultOffsets[k], mem, callerLocal + resultOffsets[k],
                    callee.resultSizes[k]);
        }
        w.pc[l] = st[d * fi];
        w.regBase[l] = st[d * fi + 1];
        w.localBase[l] = callerLocal;
        w.depth[l] = d;
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
                return special(w, op.sreg[k], op.sregComp[k], l);
        }
    }

    void write(Warp w, Op op, int k, int l, long v) {
        int r = op.dst[k];
        if (r >= 0) {
            w.regs[((w.regBase[l] + r) << 5) | l] = v;
        }
    }

    private long special(Warp w, SpecialRegister r, char c, int l) {
        int[] blk = launch.block();
        int[] grid = launch.grid();
        int[] cl = launch.cluster();
        int ci = c == 'y' ? 1 : c == 'z' ? 2 : 0;
        return switch (r) {
            case TID -> ci == 0 ? w.tidX[l] : ci == 1 ? w.tidY[l] : w.tidZ[l];
            case NTID -> blk[ci];
            case CTAID -> cta.ctaid[ci];
            case NCTAID -> grid[ci];
            case LANEID -> l;
            case WARPID -> w.id;
            case NWARPID -> cta.warps.length;
            case CLUSTER_CTAID -> cta.ctaid[ci] % cl[ci];
            case CLUSTER_NCTAID -> cl[ci];
            case CLUSTERID -> cta.ctaid[ci] / cl[ci];
            case NCLUSTERID -> grid[ci] / cl[ci];
            case CLUSTER_CTARANK -> cta.rank;
            case CLUSTER_NCTARANK -> cl[0] * cl[1] * cl[2];
            case IS_EXPLICIT_CLUSTER -> geometry.isExplicitCluster() ? 1 : 0;
            case LANEMASK_EQ -> (1L << l) & 0xffffffffL;
            case LANEMASK_LE -> ((2L << l) - 1) & 0xffffffffL;
            case LANEMASK_LT -> ((1L << l) - 1) & 0xffffffffL;
            case LANEMASK_GE -> (~((1L << l) - 1)) & 0xffffffffL;
            case LANEMASK_GT -> (~((2L << l) - 1)) & 0xffffffffL;
            // A virtual clock: thread-instructions executed so far, so runs are reproducible.
            // Counted per cluster, so that the values do not depend on which worker ran which clusters.
            // It stands still while the cluster is stalled (see Scheduler.clock()).
            case CLOCK -> scheduler.clock() & 0xffffffffL;
            case CLOCK_HI -> (scheduler.clock() >>> 32) & 0xffffffffL;
            case CLOCK64 -> scheduler.clock();
            case GLOBALTIMER -> scheduler.clock() * 1000;
            case GLOBALTIMER_LO -> (scheduler.clock() * 1000) & 0xffffffffL;
            case GLOBALTIMER_HI -> (scheduler.clock() * 1000) >>> 32;
            case SMID, GRIDID, PM, PM_64, ENVREG -> 0;
            case NSMID -> 132;
            case DYNAMIC_SMEM_SIZE -> launch.sharedBytes();
            case TOTAL_SMEM_SIZE, AGGR_SMEM_SIZE -> cta.shared.length;
            default -> 0;
        };
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
            default -> LOCAL_WINDOW + w.localBase[l] + m.offset();
        };
    }

    /** Resolves a generic address to {space, address in that space}. */
    static int genericSpace(long a) {
        if (a >= SHARED_WINDOW && a < SHARED_WINDOW + WINDOW_SIZE) {
            return Op.SP_SHARED;
        }
        if (a >= LOCAL_WINDOW && a < LOCAL_WINDOW + WINDOW_SIZE) {
            return Op.SP_LOCAL;
        }
        if (a >= CONST_WINDOW && a < CONST_WINDOW + WINDOW_SIZE) {
            return Op.SP_CONST;
        }
        if (a >= PARAM_WINDOW && a < PARAM_WINDOW + WINDOW_SIZE) {
            return Op.SP_KPARAM;
        }
        return Op.SP_GLOBAL;
    }

    static long windowBase(int space) {
        return switch (space) {
            case Op.SP_SHARED -> SHARED_WINDOW;
            case Op.SP_LOCAL -> LOCAL_WINDOW;
            case Op.SP_CONST -> CONST_WINDOW;
            case Op.SP_KPARAM -> PARAM_WINDOW;
            default -> 0;
        };
    }

    private static String spaceName(int space) {
        return switch (space) {
            case Op.SP_SHARED -> "shared";
            case Op.SP_LOCAL -> "local";
            case Op.SP_CONST -> "const";
            case Op.SP_KPARAM -> "param";
            case Op.SP_GLOBAL -> "global";
            default -> "generic";
        };
    }

    private byte[] bytesOf(Warp w, int space, int l) {
        return switch (space) {
            case Op.SP_SHARED -> cta.shared;
            case Op.SP_LOCAL -> w.local[l];
            case Op.SP_CONST -> program.constBank;
            default -> params;
        };
    }

    long load(Warp w, int space, long a, int size, int l) {
        if ((a & (size - 1)) != 0) {
            throw new MemoryFault(String.format("misaligned %d-byte %s access at 0x%x", size, spaceName(space), a));
        }
        if (space == Op.SP_GENERIC) {
            space = genericSpace(a);
            a -= windowBase(space);
        }
        if (space == Op.SP_GLOBAL) {
            return global.load(a, size);
        }
        if (space == Op.SP_SHARED && a >= Cta.DSMEM_SPAN) {
            return Bytes.get(peerShared(a, size), (int) Cta.offsetOf(a), size);
        }
        byte[] mem = bytesOf(w, space, l);
        if (a < 0 || a + size > mem.length) {
            throw new MemoryFault(String.format("%s access of %d bytes at 0x%x is outside the %d-byte %s space",
                    spaceName(space), size, a, mem.length, spaceName(space)));
        }
        return Bytes.get(mem, (int) a, size);
    }

    void store(Warp w, int space, long a, int size, long v, int l) {
        store(w, space, a, size, v, l, false);
    }

    /** A store; a strong one (see Op#strong) to global memory is atomic with other CTAs' atomics. */
    void store(Warp w, int space, long a, int size, long v, int l, boolean strong) {
        events++;
        if ((a & (size - 1)) != 0) {
            throw new MemoryFault(String.format("misaligned %d-byte %s access at 0x%x", size, spaceName(space), a));
        }
        if (space == Op.SP_GENERIC) {
            space = genericSpace(a);
            a -= windowBase(space);
        }
        if (space == Op.SP_GLOBAL) {
            if (strong) {
                global.storeStrong(a, size, v);
            } else {
                global.store(a, size, v);
            }
            return;
        }
        if (space == Op.SP_CONST || space == Op.SP_KPARAM) {
            throw new MemoryFault(String.format("store to read-only %s space at 0x%x", spaceName(space), a));
        }
        if (space == Op.SP_SHARED && a >= Cta.DSMEM_SPAN) {
            Bytes.put(peerShared(a, size), (int) Cta.offsetOf(a), size, v);
            return;
        }
        byte[] mem = bytesOf(w, space, l);
        if (a < 0 || a + size > mem.length) {
            throw new MemoryFault(String.format("%s access of %d bytes at 0x%x is outside the %d-byte %s space",
                    spaceName(space), size, a, mem.length, spaceName(space)));
        }
        Bytes.put(mem, (int) a, size, v);
        if (space == Op.SP_LOCAL && order != null) {
            w.localWritten(l).set((int) a, (int) a + size);
        }
    }

    /**
     * The CTA a shared::cluster address belongs to. Its shared memory lives only as long as the
     * CTA: an access after it exited is undefined (the hardware fails the launch).
     */
    Cta sharedOwner(long sharedAddress) {
        int rank = Cta.rankOf(sharedAddress, cta.rank);
        if (rank < 0 || rank >= clusterSize) {
            throw new MemoryFault(String.format("shared::cluster address 0x%x names CTA rank %d, but the cluster"
                    + " has %d CTAs", sharedAddress, rank, clusterSize));
        }
        Cta owner = cluster[rank];
        if (owner.exited() && owner != cta) {
            throw new MemoryFault(String.format("undefined behaviour: shared::cluster access at 0x%x to the shared"
                    + " memory of CTA rank %d of the cluster, which has exited (a CTA's shared memory exists only"
                    + " while it runs; distributed shared memory accesses must complete before the owner exits)",
                    sharedAddress, rank));
        }
        return owner;
    }

    /**
     * The tensor map at generic address {@code a}: a 64-byte aligned object in the kernel's
     * parameters, constant or global memory (9.7.9.25.5.2).
     */
    io.ptxrun.launch.TensorMap tensorMap(long a) {
        if ((a & 63) != 0) {
            throw new MemoryFault(String.format("misaligned tensor-map address 0x%x: the tensorMap operand is the"
                    + " generic address of a 64-byte aligned tensor map (cvta.param of a kernel parameter)", a));
        }
        int space = genericSpace(a);
        long at = a - windowBase(space);
        int n = io.ptxrun.launch.TensorMap.SIZE;
        byte[] bytes;
        if (space == Op.SP_GLOBAL) {
            try {
                bytes = global.read(at, n);
            } catch (MemoryFault f) {
                if (a >= 0 && a < params.length) {
                    // mov of a kernel parameter gives its .param-space offset, not a generic address.
                    throw new MemoryFault(String.format("no tensor map at 0x%x, which is no generic address (the"
                            + " .param-space address of a kernel parameter? take its generic address with"
                            + " cvta.param; 9.7.9.25.5.2)", a));
                }
                throw f;
            }
        } else if (space == Op.SP_KPARAM || space == Op.SP_CONST) {
            byte[] mem = space == Op.SP_KPARAM ? params : program.constBank;
            if (at < 0 || at + n > mem.length) {
                throw new MemoryFault(String.format("tensor map at 0x%x is outside the %s space", a, spaceName(space)));
            }
            bytes = java.util.Arrays.copyOfRange(mem, (int) at, (int) at + n);
        } else {
            throw new MemoryFault(String.format("tensor map at 0x%x is not in param, const or global memory", a));
        }
        try {
            return io.ptxrun.launch.TensorMap.decode(bytes);
        } catch (RuntimeException e) {
            throw new MemoryFault(String.format("no valid tensor map at 0x%x: %s", a, e.getMessage()));
        }
    }

    /** The shared memory that {@code size} bytes at shared::cluster address {@code a} lie in (checked). */
    private byte[] peerShared(long a, int size) {
        byte[] mem = sharedOwner(a).shared;
        long offset = Cta.offsetOf(a);
        if (offset + size > mem.length) {
            throw new MemoryFault(String.format("shared::cluster access of %d bytes at 0x%x is outside the %d-byte"
                    + " shared space of its CTA", size, a, mem.length));
        }
        return mem;
    }

    /** The shared::cluster address a shared-window address (generic or not, as {@code space} says) maps to. */
    private long sharedAddressOf(int space, long a) {
        if (space == Op.SP_GENERIC) {
            if (genericSpace(a) != Op.SP_SHARED) {
                throw new MemoryFault(String.format("generic address 0x%x is not in the shared window", a));
            }
            return a - SHARED_WINDOW;
        }
        return a;
    }

    // ---------------------------------------------------------------- per-lane operations

    static long sx(long v, int bits) {
        return bits >= 64 ? v : (v << (64 - bits)) >> (64 - bits);
    }

    static long zx(long v, int bits) {
        return bits >= 64 ? v : v & ((1L << bits) - 1);
    }

    /**
     * A loaded value of type {@code t} as its destination register of {@code regBits} holds it: a
     * signed load sign-extends to the register's width (`ld.s8` into a .b32 register).
     */
    static long loaded(long v, DataType t, int regBits) {
        return t.isSigned() ? signedLoad(v, t.bits, regBits) : v;
    }

    /** {@link #loaded} of a signed type of {@code typeBits} (compiled code calls it directly). */
    static long signedLoad(long v, int typeBits, int regBits) {
        return zx(sx(v, typeBits), Math.max(regBits, typeBits));
    }

    private static long ext(long v, DataType t) {
        return t.isSigned() ? sx(v, t.bits) : zx(v, t.bits);
    }

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
                    write(w, op, k, l, loaded(load(w, op.mem.space(), a + (long) k * size, size, l), t, op.dstBits[k]));
                }
                if (order != null) {
                    ordered(w, l, op, op.mem.space(), a, size * op.dst.length, true, false);
                }
            }
            case ST -> {
                long a = address(w, op, l);
                int size = t.bytes();
                if (order != null && op.mem.strong()) {
                    releasing(w, l, op.mem.space(), a, op.mem.release());
                }
                if (op.mem.vector() > 1 && (a & (size * op.mem.vector() - 1)) != 0) {
                    throw new MemoryFault(String.format("misaligned %d-byte vector access at 0x%x",
                            size * op.mem.vector(), a));
                }
                for (int k = 0; k < op.sources(); k++) {
                    store(w, op.mem.space(), a + (long) k * size, size, read(w, op, k, l), l, op.mem.strong());
                }
                if (order != null) {
                    ordered(w, l, op, op.mem.space(), a, size * op.sources(), false, true);
                }
            }
            case CVTA -> write(w, op, 0, l, zx(read(w, op, 0, l) + windowBase(op.mem.space()), bits));
            case CVTA_TO -> {
                long a = read(w, op, 0, l);
                write(w, op, 0, l, zx(op.mem.space() == Op.SP_GLOBAL ? a : a - windowBase(op.mem.space()), bits));
            }
            case ISSPACEP -> {
                int sp = genericSpace(read(w, op, 0, l));
                // On H100 kernel parameters and constants are reachable through global addresses too.
                boolean in = sp == op.mem.space()
                        || (op.mem.space() == Op.SP_GLOBAL && (sp == Op.SP_KPARAM || sp == Op.SP_CONST));
                write(w, op, 0, l, in ? 1 : 0);
            }
            case ATOM, RED -> atomic(w, op, l);
            case GETCTARANK -> write(w, op, 0, l,
                    Cta.rankOf(sharedAddressOf(op.mem.space(), zx(read(w, op, 0, l), bits)), cta.rank));
            case MAPA -> {
                long rank = zx(read(w, op, 1, l), 32);
                if (rank >= clusterSize) {
                    throw new MemoryFault("mapa to CTA rank " + rank + ", but the cluster has " + clusterSize + " CTAs");
                }
                long a = sharedAddressOf(op.mem.space(), zx(read(w, op, 0, l), bits));
                long mapped = cluster[(int) rank].clusterAddress(Cta.offsetOf(a));
                write(w, op, 0, l, zx(op.mem.space() == Op.SP_GENERIC ? SHARED_WINDOW + mapped : mapped, bits));
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
                boolean p = compare(op, op.type, read(w, op, 0, l), read(w, op, 1, l));
                p = combine(op, p, w, l, 2);
                long r = switch (op.srcType) {
                    case F32 -> p ? Float.floatToRawIntBits(1f) : 0;
                    case F16 -> p ? 0x3c00 : 0;
                    case BF16 -> p ? 0x3f80 : 0;
                    default -> p ? 0xffffffffL : 0;
                };
                write(w, op, 0, l, r);
            }
            case SLCT -> {
                long c = read(w, op, 2, l);
                // A NaN selector picks b; .ftz flushes a subnormal selector (to a signed zero, so >= 0).
                boolean ge = op.srcType == DataType.F32 ? (op.mod.ftz() ? FloatOps.flush(f32(c)) : f32(c)) >= 0 : (int) c >= 0;
                write(w, op, 0, l, zx(ge ? read(w, op, 0, l) : read(w, op, 1, l), bits));
            }
            default -> {
                if (t != null && t.isFloat()) {
                    write(w, op, 0, l, floatOp(w, op, l));
                } else {
                    int n = op.sources();
                    write(w, op, 0, l, IntegerOps.apply(op, w, l,
                            n > 0 ? read(w, op, 0, l) : 0, n > 1 ? read(w, op, 1, l) : 0,
                            n > 2 ? read(w, op, 2, l) : 0, n > 3 ? read(w, op, 3, l) : 0));
                }
            }
        }
    }

    private boolean combine(Op op, boolean p, Warp w, int l, int k) {
        if (op.boolOp == 0 || op.sources() <= k) {
            return p;
        }
        boolean c = (read(w, op, k, l) & 1) != 0;
        return switch (op.boolOp) {
            case 1 -> p & c;
            case 2 -> p | c;
            default -> p ^ c;
        };
    }

    private void setp(Warp w, Op op, int l) {
        long a = read(w, op, 0, l);
        long b = read(w, op, 1, l);
        boolean p = compare(op, op.type, a, b);
        boolean q = !p;
        if (op.boolOp != 0 && op.sources() > 2) {
            boolean c = (read(w, op, 2, l) & 1) != 0;
            switch (op.boolOp) {
                case 1 -> {
                    p = p & c;
                    q = q & c;
                }
                case 2 -> {
                    p = p | c;
                    q = q | c;
                }
                default -> {
                    p = p ^ c;
                    q = q ^ c;
                }
            }
        }
        write(w, op, 0, l, p ? 1 : 0);
        if (op.dst.length > 1) {
            write(w, op, 1, l, q ? 1 : 0);
        }
    }

    private static final int EQ = io.ptxrun.ast.Qualifier.EQ.ordinal(), NE = io.ptxrun.ast.Qualifier.NE.ordinal(),
            LT = io.ptxrun.ast.Qualifier.LT.ordinal(), LE = io.ptxrun.ast.Qualifier.LE.ordinal(),
            GT = io.ptxrun.ast.Qualifier.GT.ordinal(), GE = io.ptxrun.ast.Qualifier.GE.ordinal(),
            LO = io.ptxrun.ast.Qualifier.LO.ordinal(), LS = io.ptxrun.ast.Qualifier.LS.ordinal(),
            HI = io.ptxrun.ast.Qualifier.HI.ordinal(), HS = io.ptxrun.ast.Qualifier.HS.ordinal(),
            EQU = io.ptxrun.ast.Qualifier.EQU.ordinal(), NEU = io.ptxrun.ast.Qualifier.NEU.ordinal(),
            LTU = io.ptxrun.ast.Qualifier.LTU.ordinal(), LEU = io.ptxrun.ast.Qualifier.LEU.ordinal(),
            GTU = io.ptxrun.ast.Qualifier.GTU.ordinal(), GEU = io.ptxrun.ast.Qualifier.GEU.ordinal(),
            NUM = io.ptxrun.ast.Qualifier.NUM.ordinal(), NAN = io.ptxrun.ast.Qualifier.NAN.ordinal();

    static boolean compare(Op op, DataType t, long a, long b) {
        int c = op.sub;
        if (t.isFloat()) {
            double x, y;
            if (t == DataType.F64) {
                x = f64(a);
                y = f64(b);
            } else if (t == DataType.F16 || t == DataType.BF16) {
                x = Convert.floatValue(a, t, false);
                y = Convert.floatValue(b, t, false);
            } else {
                float fx = f32(a), fy = f32(b);
                if (op.mod.ftz()) {
                    fx = FloatOps.flush(fx);
                    fy = FloatOps.flush(fy);
                }
                x = fx;
                y = fy;
            }
            boolean nan = Double.isNaN(x) || Double.isNaN(y);
            if (c == NUM) {
                return !nan;
            }
            if (c == NAN) {
                return nan;
            }
            boolean unordered = c == EQU || c == NEU || c == LTU || c == LEU || c == GTU || c == GEU;
            if (nan) {
                return unordered;
            }
            if (c == EQ || c == EQU) {
                return x == y;
            }
            if (c == NE || c == NEU) {
                return x != y;
            }
            if (c == LT || c == LTU) {
                return x < y;
            }
            if (c == LE || c == LEU) {
                return x <= y;
            }
            if (c == GT || c == GTU) {
                return x > y;
            }
            return x >= y;
        }
        return compareInt(c, t.isSigned(), t.bits, a, b);
    }

    /** Integer comparison {@code c} (a Qualifier ordinal) of a and b as {@code bits}-bit values. */
    static boolean compareInt(int c, boolean signed, int bits, long a, long b) {
        long x = signed ? sx(a, bits) : zx(a, bits), y = signed ? sx(b, bits) : zx(b, bits);
        if (c == EQ) {
            return x == y;
        }
        if (c == NE) {
            return x != y;
        }
        int cmp;
        if (c == LO || c == LS || c == HI || c == HS || !signed) {
            cmp = Long.compareUnsigned(zx(a, bits), zx(b, bits));
        } else {
            cmp = Long.compare(x, y);
        }
        if (c == LT || c == LO) {
            return cmp < 0;
        }
        if (c == LE || c == LS) {
            return cmp <= 0;
        }
        if (c == GT || c == HI) {
            return cmp > 0;
        }
        return cmp >= 0;
    }

    private long floatOp(Warp w, Op op, int l) {
        int n = op.sources();
        int mode = Math.max(op.mod.rounding(), 0);
        if (op.type == DataType.F64) {
            double a = f64(read(w, op, 0, l));
            double b = n > 1 ? f64(read(w, op, 1, l)) : 0;
            double r = switch (op.code) {
                case FADD -> FloatOps.add64(a, b, mode);
                case FSUB -> FloatOps.add64(a, -b, mode);
                case FMUL -> FloatOps.mul64(a, b, mode);
                case FMA -> FloatOps.fma64(a, b, f64(read(w, op, 2, l)), mode);
                case FDIV -> FloatOps.div64(a, b, mode);
                case FMIN, FMAX -> {
                    if (Double.isNaN(a) || Double.isNaN(b)) {
                        boolean both = Double.isNaN(a) && Double.isNaN(b);
                        if (op.flag || both) {
                            // H100: of two NaNs the second operand's (quieted) comes back.
                            yield f64(Double.doubleToRawLongBits(Double.isNaN(b) ? b : a) | QUIET64);
                        }
                        yield Double.isNaN(a) ? b : a;
                    }
                    yield op.code == OpCode.FMIN ? Math.min(a, b) : Math.max(a, b);
                }
                // NaN operands of abs/neg come back quieted, sign and payload kept (as on H100).
                case FABS -> Double.isNaN(a) ? f64(Double.doubleToRawLongBits(a) | QUIET64) : Math.abs(a);
                case FNEG -> Double.isNaN(a) ? f64(Double.doubleToRawLongBits(a) | QUIET64) : -a;
                case SQRT -> op.mod.approx() ? Math.sqrt(a) : FloatOps.sqrt64(a, mode);
                case RSQRT -> ApproxOps.rsqrt64(a);
                case RCP -> op.mod.approx() ? 1.0 / a : FloatOps.div64(1.0, a, mode);
                case EX2 -> Math.pow(2, a);
                case LG2 -> Math.log(a) / Math.log(2);
                case SIN -> Math.sin(a);
                case COS -> Math.cos(a);
                case TANH -> Math.tanh(a);
                case COPYSIGN -> Math.copySign(b, a);
                default -> throw unsupportedType(op);
            };
            if (Double.isNaN(r) && (op.code == OpCode.FADD || op.code == OpCode.FSUB || op.code == OpCode.FMUL
                    || op.code == OpCode.FMA || op.code == OpCode.FDIV)) {
                // An input NaN comes back quieted, b's before a's before c's (H100). Java leaves the
                // choice to the processor (and interpreted and compiled code may differ), so it is made here.
                double c = n > 2 ? f64(read(w, op, 2, l)) : 0;
                double nan = Double.isNaN(b) ? b : Double.isNaN(a) ? a : Double.isNaN(c) ? c : r;
                return Double.doubleToRawLongBits(nan) | (Double.isNaN(a) || Double.isNaN(b) || Double.isNaN(c) ? QUIET64 : 0);
            }
            return Double.doubleToRawLongBits(r);
        }
        if (op.type == DataType.F16 || op.type == DataType.F16X2 || op.type == DataType.BF16
                || op.type == DataType.BF16X2) {
            return halfOp(w, op, l);
        }
        if (op.type != DataType.F32) {
            throw unsupportedType(op);
        }
        float a = f32(read(w, op, 0, l));
        float b = n > 1 ? f32(read(w, op, 1, l)) : 0;
        float c = n > 2 ? f32(read(w, op, 2, l)) : 0;
        if (op.mod.ftz()) {
            a = FloatOps.flush(a);
            b = FloatOps.flush(b);
            c = FloatOps.flush(c);
        }
        float r = switch (op.code) {
            case FADD -> FloatOps.add32(a, b, mode);
            case FSUB -> FloatOps.add32(a, -b, mode);
            case FMUL -> FloatOps.mul32(a, b, mode);
            case FMA -> FloatOps.fma32(a, b, c, mode);
            case FDIV -> op.mod.approx() ? ApproxOps.div(a, b)
                    : op.insn.has(io.ptxrun.ast.Qualifier.FULL) ? (float) ((double) a / b) : FloatOps.div32(a, b, mode);
            case FMIN, FMAX -> {
                if (Float.isNaN(a) || Float.isNaN(b)) {
                    if (op.flag || (Float.isNaN(a) && Float.isNaN(b))) {
                        yield Float.intBitsToFloat(FloatOps.CANONICAL_NAN_F32);
                    }
                    float number = Float.isNaN(a) ? b : a;
                    if (op.sub == 1) {
                        // .xorsign.abs with one NaN: the number's magnitude, still with the XOR of both signs.
                        boolean neg = (Float.floatToRawIntBits(a) ^ Float.floatToRawIntBits(b)) < 0;
                        yield Math.copySign(Math.abs(number), neg ? -1f : 1f);
                    }
                    yield number;
                }
                float m = op.code == OpCode.FMIN ? Math.min(a, b) : Math.max(a, b);
                if (op.sub == 1) {
                    // .xorsign.abs: min/max of the magnitudes, with the sign of a XOR b.
                    float x = Math.abs(a), y = Math.abs(b);
                    boolean neg = (Float.floatToRawIntBits(a) ^ Float.floatToRawIntBits(b)) < 0;
                    m = Math.copySign(op.code == OpCode.FMIN ? Math.min(x, y) : Math.max(x, y), neg ? -1f : 1f);
                }
                yield m;
            }
            case FABS -> Math.abs(a);
            case FNEG -> -a;
            case SQRT -> op.mod.approx() ? (float) Math.sqrt(a) : FloatOps.sqrt32(a, mode);
            case RSQRT -> (float) (1.0 / Math.sqrt(a));
            case RCP -> op.mod.approx() ? (float) (1.0 / a) : FloatOps.div32(1f, a, mode);
            case EX2 -> (float) Math.pow(2, a);
            case LG2 -> (float) (Math.log(a) / Math.log(2));
            case SIN -> ApproxOps.sin(a);
            case COS -> ApproxOps.cos(a);
            case TANH -> (float) Math.tanh(a);
            case COPYSIGN -> Math.copySign(b, a);
            default -> throw unsupportedType(op);
        };
        if (op.mod.sat()) {
            r = Float.isNaN(r) ? 0f : Math.max(0f, Math.min(1f, r));
        }
        if (op.mod.ftz()) {
            r = FloatOps.flush(r);
        }
        if ((op.code == OpCode.FABS || op.code == OpCode.FNEG) && !Float.isNaN(r)) {
            return Float.floatToRawIntBits(r) & 0xffffffffL;
        }
        return bits32(r);
    }

    // Operands of one f16/bf16 op (at most three), reused so the per-lane path allocates nothing.
    private final long[] halfSources = new long[3];
    private final double[] halfValues = new double[3];

    /** f16/bf16 arithmetic (scalar or packed pairs): computed in double, rounded once to the format. */
    private long halfOp(Warp w, Op op, int l) {
        DataType t = op.type;
        boolean bf = t == DataType.BF16 || t == DataType.BF16X2;
        int lanes = t == DataType.F16X2 || t == DataType.BF16X2 ? 2 : 1;
        int n = op.sources();
        long[] src = halfSources;
        for (int k = 0; k < n; k++) {
            src[k] = read(w, op, k, l);
        }
        int mode = Math.max(op.mod.rounding(), 0);
        long out = 0;
        for (int e = 0; e < lanes; e++) {
            double[] x = halfValues;
            for (int k = 0; k < n; k++) {
                int h = (int) (src[k] >>> (16 * e)) & 0xffff;
                x[k] = bf ? FloatOps.bf16ToFloat(h) : FloatOps.halfToFloat(h);
            }
            double r = switch (op.code) {
                case FADD -> x[0] + x[1];
                case FSUB -> x[0] - x[1];
                case FMUL -> x[0] * x[1];
                case FMA -> x[0] * x[1] + x[2];
                case FNEG -> -x[0];
                case FABS -> Math.abs(x[0]);
                case FMIN, FMAX -> {
                    if (Double.isNaN(x[0]) || Double.isNaN(x[1])) {
                        yield op.flag || (Double.isNaN(x[0]) && Double.isNaN(x[1])) ? Double.NaN
                                : Double.isNaN(x[0]) ? x[1] : x[0];
                    }
                    yield op.code == OpCode.FMIN ? Math.min(x[0], x[1]) : Math.max(x[0], x[1]);
                }
                default -> throw unsupportedType(op);
            };
            if (op.mod.sat()) {
                r = Double.isNaN(r) ? 0 : Math.max(0, Math.min(1, r));
            }
            if (op.mod.relu() && (r < 0 || Double.isNaN(r))) {
                r = Double.isNaN(r) ? Double.NaN : 0;
            }
            int h;
            if (Double.isNaN(r)) {
                h = 0x7fff;
            } else {
                h = bf ? FloatOps.floatToBf16(FloatOps.toF32(r, mode)) : FloatOps.floatToHalf(r, mode);
            }
            out |= (long) h << (16 * e);
        }
        return out;
    }

    private static final long QUIET64 = 0x0008_0000_0000_0000L;

    private Stop unsupportedType(Op op) {
        return new Stop(ExecStatus.ERROR, List.of(Diagnostic.error(op.pos, "exec.unsupported",
                "instruction '" + op.mnemonic() + "' is not supported")));
    }

    private void atomic(Warp w, Op op, int l) {
        DataType t = op.type;
        int size = t.bytes();
        int space = op.mem.space();
        long a = address(w, op, l);
        long b = read(w, op, 0, l);
        long c = op.sources() > 1 ? read(w, op, 1, l) : 0;
        int target = space == Op.SP_GENERIC ? genericSpace(a) : space;
        if (order != null) {
            releasing(w, l, space, a, op.mem.release());
        }
        long old;
        if (target == Op.SP_GLOBAL) {
            // Other CTAs may run on other threads: one atomic read-modify-write of global memory.
            if ((a & (size - 1)) != 0) {
                throw new MemoryFault(String.format("misaligned %d-byte global access at 0x%x", size, a));
            }
            old = global.readModifyWrite(a, size, v -> Atomics.combine(op, v, b, c, false));
            if (Atomics.combine(op, old, b, c, false) != old) {
                events++; // memory that others read changed: progress (a failed compare-and-swap is none)
            }
        } else {
            old = load(w, space, a, size, l);
            store(w, space, a, size, Atomics.combine(op, old, b, c, target == Op.SP_SHARED), l);
        }
        if (op.code == OpCode.ATOM) {
            write(w, op, 0, l, zx(old, t.bits));
        }
        if (order != null) {
            ordered(w, l, op, space, a, size, op.code == OpCode.ATOM, true);
        }
    }

    // ---------------------------------------------------------------- the memory model's view

    /** The lane's slot in the hazard detector's clocks (its CTA's rank, then its linear thread id). */
    int slot(Warp w, int l) {
        return cta.rank * threadsPerCta + w.id * 32 + l;
    }

    /**
     * A thread's local memory starts undefined on the GPU (its stack frame holds whatever was
     * there): a load of bytes the thread never stored is reported, once per instruction.
     */
    private void uninitializedLocal(Warp w, int l, Op op, long a, int size) {
        java.util.BitSet written = w.localWritten(l);
        int unset = written.nextClearBit((int) a);
        if (unset < a + size) {
            hazards.hazard(op, w.pc[l], "uninit.local", String.format("uninitialized read: '%s' reads %d bytes of"
                    + " local memory at 0x%x, and byte 0x%x of them was never written by this thread (local memory"
                    + " starts undefined on the GPU) (%s)", op.mnemonic(), size, a, unset, where(w, l)));
        }
    }

    /** The release half of a strong write by the lane, before the write (see MemoryOrder.releaseAt). */
    private void releasing(Warp w, int l, int space, long a, boolean release) {
        if (space == Op.SP_GENERIC) {
            space = genericSpace(a);
            a -= windowBase(space);
        }
        if (space == Op.SP_GLOBAL) {
            order.releaseAt(slot(w, l), io.ptxrun.exec.order.MemoryOrder.GLOBAL, 0, a, release);
        } else if (space == Op.SP_SHARED) {
            order.releaseAt(slot(w, l), io.ptxrun.exec.order.MemoryOrder.SHARED, Cta.rankOf(a, cta.rank),
                    Cta.offsetOf(a), release);
        }
    }

    /**
     * Hands a completed access of the lane to the hazard detector: plain accesses are checked for
     * races, strong ones (atomics, ordered or volatile ld/st) also release or acquire.
     */
    void ordered(Warp w, int l, Op op, int space, long a, int size, boolean reads, boolean writes) {
        if (space == Op.SP_GENERIC) {
            space = genericSpace(a);
            a -= windowBase(space);
        }
        int kind;
        int owner = 0;
        if (space == Op.SP_GLOBAL) {
            kind = io.ptxrun.exec.order.MemoryOrder.GLOBAL;
        } else if (space == Op.SP_SHARED) {
            kind = io.ptxrun.exec.order.MemoryOrder.SHARED;
            owner = Cta.rankOf(a, cta.rank);
            a = Cta.offsetOf(a);
        } else {
            // .param frames of calls are written by the call mechanism (and by the device library's
            // results), not by the thread: only its own .local (or generic) loads are checked.
            if (space == Op.SP_LOCAL && reads && !writes && !op.insn.space().isParam()) {
                uninitializedLocal(w, l, op, a, size);
            }
            return;
        }
        int t = slot(w, l);
        int pc = w.pc[l];
        if (op.mem.strong()) {
            order.atomic(t, pc, kind, owner, a, size, reads, writes, op.mem.acquire(), op.mem.release());
        } else {
            order.access(t, pc, kind, owner, a, size, writes, false);
        }
        if (kind == io.ptxrun.exec.order.MemoryOrder.SHARED && owner != cta.rank) {
            // A release write (or a relaxed one after a fence) is known to an owner thread that
            // acquires it there by the counter it hands on.
            cluster[owner].peerAccesses.record(t, order.handedOn(t, op.mem.strong() && writes, op.mem.release()), pc);
        }
    }

    /**
     * {@link #ordered} for the plain accesses of a group of lanes to the CTA's own shared memory
     * (offsets) or to global memory, {@code addresses} by lane.
     */
    void orderedLanes(Warp w, int lanes, int pc, int space, long[] addresses, int size, boolean writes) {
        boolean shared = space == Op.SP_SHARED;
        order.accesses(slot(w, 0), lanes, pc, shared ? io.ptxrun.exec.order.MemoryOrder.SHARED
                : io.ptxrun.exec.order.MemoryOrder.GLOBAL, shared ? cta.rank : 0, addresses, size, writes);
    }

    /** An async copy's access at issue (its source), in any space the copy may name. */
    void copyAccess(io.ptxrun.exec.order.MemoryOrder.CopyOrigin o, int space, long a, int size, boolean write) {
        if (space == Op.SP_GENERIC) {
            space = genericSpace(a);
            a -= windowBase(space);
        }
        if (space == Op.SP_GLOBAL) {
            if (write) {
                order.copyWrites(o, io.ptxrun.exec.order.MemoryOrder.GLOBAL, 0, a, size, false);
            } else {
                order.copyReads(o, io.ptxrun.exec.order.MemoryOrder.GLOBAL, 0, a, size);
            }
        } else if (space == Op.SP_SHARED) {
            int owner = Cta.rankOf(a, cta.rank);
            if (write) {
                order.copyWrites(o, io.ptxrun.exec.order.MemoryOrder.SHARED, owner, Cta.offsetOf(a), size, false);
            } else {
                order.copyReads(o, io.ptxrun.exec.order.MemoryOrder.SHARED, owner, Cta.offsetOf(a), size);
            }
        }
    }

    /**
     * A warp-collective with a member mask (shfl/vote/match/redux .sync, bar.warp.sync): every lane
     * the mask names must execute this instruction. Lanes that exited, that the guard turned off,
     * or that are already past it (the scheduler runs the lowest PC first, so they took another
     * path) will not: undefined behaviour (9.7.13.2 and the .sync forms), reported as a hazard.
     */
    private void memberMask(Warp w, Op op, int pc, int mask, int exec) {
        if (order == null || exec == 0 || !op.insn.has(io.ptxrun.ast.Qualifier.SYNC) || op.sources() == 0) {
            return;
        }
        int k = op.sources() - 1;
        int done = 0;
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            if ((done & (1 << l)) == 0) {
                int named = (int) read(w, op, k, l);
                int group = 0;
                for (int r = exec & ~done; r != 0; r &= r - 1) {
                    int j = Integer.numberOfTrailingZeros(r);
                    if ((int) read(w, op, k, j) == named) {
                        group |= 1 << j;
                    }
                }
                done |= group;
                checkWarpCollective(w, op, pc, mask, group, named);
            }
        }
    }

    void checkWarpCollective(Warp w, Op op, int pc, int mask, int exec, int named) {
        int absent = 0;
        for (int m = named & ~exec & w.live; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            // Exited lanes are not waited for (the .sync forms wait for non-exited members). Under
            // a seeded schedule lanes may run ahead of their warp; only the fixed schedule (lowest
            // PC first) tells a lane that took another path from one that is merely late.
            if ((mask & (1 << l)) != 0
                    || (schedule == null && (w.pc[l] > pc || ((w.blocked & (1 << l)) != 0 && w.blockedAt[l] != pc)))) {
                absent |= 1 << l;
            }
        }
        int outside = exec & ~named;
        if (absent != 0 || outside != 0) {
            int l0 = Integer.numberOfTrailingZeros(absent != 0 ? exec : outside);
            String why = absent != 0
                    ? String.format("lanes 0x%08x of them do not execute it (guarded off, or on another path) while"
                    + " lanes 0x%08x do; every non-exited lane the mask names must execute the same instruction",
                    absent, exec)
                    : String.format("lanes 0x%08x execute it without being named (undefined when the executing"
                    + " thread is not in the member mask)", outside);
            hazards.hazard(op, pc, "divergence.warp-sync", String.format("'%s' with member mask 0x%08x: %s (%s)",
                    op.mnemonic(), named, why, where(w, l0)));
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

    /** Gives the local memory the cluster's calls grew back to the memory budget (the cluster ended). */
    void releaseCallStacks() {
        global.release(callStackBytes);
        callStackBytes = 0;
    }

}
