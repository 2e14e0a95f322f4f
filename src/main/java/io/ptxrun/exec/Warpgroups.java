package io.ptxrun.exec;

import io.ptxrun.ast.DataType;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.BitSet;

/**
 * The warpgroup instructions of one CTA: wgmma.fence, wgmma.commit_group, wgmma.wait_group,
 * wgmma.mma_async (PTX ISA 9.7.15) and setmaxnreg (9.7.19.5). A warpgroup is four consecutive warps
 * (warp index / 4). Each of these instructions is .sync.aligned over the warpgroup's 128 threads:
 * a warp that reaches one waits (like at a barrier) until all four warps have reached the same
 * instruction, and then the instruction runs once for the warpgroup.
 *
 * <p>Undefined behaviour reported: a warp executes it with some of its lanes inactive or diverged,
 * or the warpgroup is incomplete (9.7.15.1: "all threads in the warpgroup must execute the same
 * instruction"; the .aligned rule); warps of one warpgroup reach different warpgroup instructions
 * (for setmaxnreg, 9.7.19.5: "all warps in the warpgroup must execute the same setmaxnreg"); a
 * matrix descriptor or scale-d that differs between threads; and an instruction other than
 * wgmma.mma_async accessing the accumulator registers or the A registers of an mma_async
 * before the wgmma.wait_group that covers it (9.7.15.5.2: "Accessing the accumulator register or
 * the input register containing fragments of matrix A of a wgmma.mma_async instruction without
 * first performing a wgmma.wait_group instruction that waits on a wgmma-group including that
 * wgmma.mma_async instruction is an undefined behavior").
 *
 * <p>mma_async computes when issued, so its results are in the registers at once; what the
 * asynchrony means for programs is the undefined behaviour above, which is what is checked.
 *
 * <p>Arithmetic: floating-point D elements are the tensor core's fixed-point sums ({@link
 * TensorCore}). Integer products are exact; the s32 result wraps, or with .satfinite saturates.
 */
final class Warpgroups {
    static final int WARPS = 4;
    private static final int M = 64, MAX_N = 256, MAX_K = 32;
    private final Engine engine;
    private final Hazards hazards;
    /** Per warpgroup: the pc of the instruction whose arrivals are being gathered, and which warps have arrived. */
    private int[] gatheringPc = new int[0];
    private int[] arrived = new int[0];
    private Pending[] pending = new Pending[0];
    // Operands of one mma_async, row by row: a[m * K + k], b[n * K + k].
    private double[] fa, fb;
    /** The exponents of fa's and fb's elements ({@link TensorCore#exponents}), and which of their rows are finite. */
    private int[] ea, eb;
    private final boolean[] finiteA = new boolean[M], finiteB = new boolean[MAX_N];
    private long[] ia, ib;
    /** The 16-byte shared-memory chunks one mma_async read (for the hazard detector), and how many. */
    private long[] chunks = new long[0];
    private int chunkCount;

    /** Outstanding mma_async of one warpgroup: the registers they own until a wait_group covers them. */
    private static final class Pending {
        final BitSet registers = new BitSet();
        /** For each owned register, the pc of the mma_async that owns it. */
        int[] ownerPc = new int[64];
        final ArrayDeque<int[]> committed = new ArrayDeque<>();
        /** The function of the mma_async ops: register indices mean something only within it. */
        int function = -1;
        int[] open = new int[0];
        /**
         * For the hazard detector: the async agent's counter at the last mma_async of the open group
         * and of each committed group (-1: none), which a wait_group's threads learn complete.
         */
        int openEnd = -1;
        final ArrayDeque<Integer> committedEnds = new ArrayDeque<>();

        void add(int[] regs, int pc) {
            int[] joined = Arrays.copyOf(open, open.length + regs.length);
            System.arraycopy(regs, 0, joined, open.length, regs.length);
            open = joined;
            for (int r : regs) {
                if (r >= 0) {
                    if (r >= ownerPc.length) {
                        ownerPc = Arrays.copyOf(ownerPc, Math.max(r + 1, ownerPc.length * 2));
                    }
                    registers.set(r);
                    ownerPc[r] = pc;
                }
            }
        }

        void commit() {
            committed.addLast(open);
            open = new int[0];
            committedEnds.addLast(openEnd);
            openEnd = -1;
        }

        /** Completes all but the newest {@code groups} groups; returns the agent counter they end at (-1: none). */
        int waitUntil(int groups) {
            int end = -1;
            while (committed.size() > groups) {
                committed.removeFirst();
                end = Math.max(end, committedEnds.removeFirst());
            }
            registers.clear();
            for (int[] g : committed) {
                mark(g);
            }
            mark(open);
            return end;
        }

        private void mark(int[] regs) {
            for (int r : regs) {
                if (r >= 0) {
                    registers.set(r);
                }
            }
        }
    }

    Warpgroups(Engine engine, Hazards hazards) {
        this.engine = engine;
        this.hazards = hazards;
    }

    void startCta(int warpCount) {
        int groups = (warpCount + WARPS - 1) / WARPS;
        gatheringPc = new int[groups];
        Arrays.fill(gatheringPc, -1);
        arrived = new int[groups];
        pending = new Pending[groups];
    }

    void execute(Warp w, Op op, int pc, int mask, int exec) {
        engine.advance(w, mask, pc + 1);
        if (exec == 0) {
            return;
        }
        int l0 = Integer.numberOfTrailingZeros(exec);
        int g = w.id / WARPS;
        if (exec != -1 || w.live != -1) {
            hazards.undefined(op, pc, "exec.warpgroup", String.format("'%s' is .sync.aligned over the warpgroup: all"
                    + " 128 threads must execute it converged, but only lanes 0x%08x of warp %d do (9.7.15.1)",
                    op.mnemonic(), exec & w.live, w.id), engine.where(w, l0));
        }
        Warp[] warps = engine.cta().warps;
        if (warps.length < WARPS * (g + 1)) {
            hazards.undefined(op, pc, "exec.warpgroup", String.format("'%s' is executed by warpgroup %d, which has only"
                    + " %d of its 128 threads (the CTA has %d warps)", op.mnemonic(), g,
                    32 * (warps.length - WARPS * g), warps.length), engine.where(w, l0));
            return;
        }
        if (arrived[g] != 0 && gatheringPc[g] != pc) {
            Op other = engine.opAt(gatheringPc[g]);
            hazards.undefined(op, pc, "exec.warpgroup", String.format("warps of warpgroup %d execute different"
                    + " warpgroup instructions: '%s' at line %d here, '%s' at line %d in another warp (.aligned:"
                    + " all threads of the warpgroup must execute the same instruction%s)", g, op.mnemonic(),
                    op.pos.line(), other.mnemonic(), other.pos.line(),
                    ((WarpgroupForm) op.form).kind() == WarpgroupForm.Kind.SETMAXNREG
                            || ((WarpgroupForm) other.form).kind() == WarpgroupForm.Kind.SETMAXNREG
                            ? "; 9.7.19.5: all warps of the warpgroup must execute the same setmaxnreg" : ""),
                    engine.where(w, l0));
            return; // warnings only: this warp goes on without joining
        }
        gatheringPc[g] = pc;
        w.blocked |= exec;
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            w.waitKind[l] = Warp.WAIT_WARPGROUP;
            w.blockedAt[l] = pc;
        }
        arrived[g] |= 1 << (w.id % WARPS);
        engine.progressed();
        if (arrived[g] != (1 << WARPS) - 1) {
            return;
        }
        run(g, op, pc);
        for (int j = 0; j < WARPS; j++) {
            Warp x = warps[WARPS * g + j];
            for (int m = x.blocked; m != 0; m &= m - 1) {
                int l = Integer.numberOfTrailingZeros(m);
                if (x.waitKind[l] == Warp.WAIT_WARPGROUP) {
                    x.blocked &= ~(1 << l);
                }
            }
        }
        arrived[g] = 0;
        gatheringPc[g] = -1;
    }

    /** The instruction, once for warpgroup {@code g}, all of whose warps have arrived. */
    private void run(int g, Op op, int pc) {
        WarpgroupForm f = (WarpgroupForm) op.form;
        Pending p = pending[g];
        switch (f.kind()) {
            case MMA -> {
                if (p == null) {
                    p = pending[g] = new Pending();
                }
                chunkCount = 0;
                mma(g, op, pc, f);
                if (engine.order != null) {
                    p.openEnd = checkOperandReads(g, pc);
                }
                p.function = op.owner;
                p.add(op.dst, pc);
                if (f.aInRegisters()) {
                    p.add(Arrays.copyOf(op.src, WarpgroupForm.A_REGISTERS), pc);
                }
                share(g, p.registers);
            }
            case COMMIT -> {
                if (p != null) {
                    p.commit();
                }
            }
            case WAIT -> {
                if (p != null) {
                    int end = p.waitUntil(f.waitGroups());
                    if (end >= 0 && engine.order != null) {
                        int first = engine.ordering.slot(engine.cta().warps[WARPS * g], 0);
                        for (int t = first; t < first + 32 * WARPS; t++) {
                            engine.order.agentComplete(t, first, end);
                        }
                    }
                    share(g, p.registers.isEmpty() ? null : p.registers);
                }
            }
            default -> {
                // wgmma.fence orders register accesses with mma_async, which this model already does;
                // setmaxnreg only moves register budget between warpgroups.
            }
        }
    }

    /**
     * The hazard detector's view of the mma_async just run: its shared-memory operands are read by
     * the async proxy from issue until a wgmma.wait_group covering it (9.7.15.3, 9.7.15.6), so a
     * generic write to them needs fence.proxy.async, and writing them before that wait is a
     * hazard. Returns the agent counter the read carries.
     */
    private int checkOperandReads(int g, int pc) {
        io.ptxrun.exec.order.MemoryOrder order = engine.order;
        int first = engine.ordering.slot(engine.cta().warps[WARPS * g], 0);
        io.ptxrun.exec.order.MemoryOrder.CopyOrigin origin = order.warpgroupIssue(first, 32 * WARPS, pc);
        Arrays.sort(chunks, 0, chunkCount);
        int rank = engine.cta().rank;
        for (int i = 0; i < chunkCount; ) {
            long start = chunks[i];
            long end = start + 16;
            while (++i < chunkCount && chunks[i] <= end) {
                end = Math.max(end, chunks[i] + 16);
            }
            order.copyReads(origin, io.ptxrun.exec.order.MemoryOrder.SHARED, rank, start, (int) (end - start));
        }
        return order.agentClock(first);
    }

    private void share(int g, BitSet registers) {
        Warp[] warps = engine.cta().warps;
        for (int j = 0; j < WARPS; j++) {
            warps[WARPS * g + j].wgmmaPending = registers;
        }
    }

    /** Undefined behaviour when {@code op} (not a warpgroup instruction) touches registers an mma_async still owns. */
    void checkAccess(Warp w, Op op, int pc, int exec) {
        BitSet owned = w.wgmmaPending;
        Pending p = pending[w.id / WARPS];
        if (op.owner != p.function) {
            return; // a called function's registers are other registers
        }
        for (int k = 0; k < op.src.length; k++) {
            if (op.srcKind[k] == Op.REG && op.src[k] >= 0 && owned.get(op.src[k])) {
                report(w, op, pc, exec, p, op.src[k], "reads");
                return;
            }
        }
        if (op.mem.addressKind() == MemoryAccess.REGISTER && op.mem.register() >= 0 && owned.get(op.mem.register())) {
            report(w, op, pc, exec, p, op.mem.register(), "reads");
            return;
        }
        for (int r : op.dst) {
            if (r >= 0 && owned.get(r)) {
                report(w, op, pc, exec, p, r, "writes");
                return;
            }
        }
    }

    private void report(Warp w, Op op, int pc, int exec, Pending p, int reg, String verb) {
        Op mma = engine.opAt(p.ownerPc[reg]);
        hazards.undefined(op, pc, "exec.wgmma", String.format("'%s' %s a register of the wgmma.mma_async at line %d"
                + " before a wgmma.wait_group covering it (9.7.15.5.2: accessing the accumulator or A registers of"
                + " an mma_async before its wgmma-group completes is undefined)", op.mnemonic(), verb,
                mma.pos.line()), engine.where(w, Integer.numberOfTrailingZeros(exec)));
    }

    /** What warpgroup {@code g} waits for, for a deadlock report. */
    String describe(int g) {
        if (g >= arrived.length || arrived[g] == 0) {
            return "warpgroup " + g;
        }
        return String.format("warpgroup %d: warps 0x%x of its 4 arrived (bit i: warp %d+i)", g, arrived[g], WARPS * g);
    }

    // ---------------------------------------------------------------- wgmma.mma_async

    private void mma(int g, Op op, int pc, WarpgroupForm f) {
        Warp[] warps = engine.cta().warps;
        Warp w0 = warps[WARPS * g];
        int n = f.n(), kk = f.k();
        boolean integer = f.dType() == DataType.S32;
        if (fa == null) {
            fa = new double[M * MAX_K];
            fb = new double[MAX_N * MAX_K];
            ea = new int[M * MAX_K];
            eb = new int[MAX_N * MAX_K];
            ia = new long[M * MAX_K];
            ib = new long[MAX_N * MAX_K];
        }
        int bSrc = f.bSource();
        boolean scaleD = (uniform(g, op, pc, bSrc + 1) & 1) != 0;
        if (f.aInRegisters()) {
            int bits = f.aType().bits, perReg = 32 / bits;
            for (int t = 0; t < 128; t++) {
                Warp w = warps[WARPS * g + t / 32];
                for (int j = 0; j < WarpgroupForm.A_REGISTERS; j++) {
                    long reg = engine.operands.read(w, op, j, t % 32);
                    for (int part = 0; part < perReg; part++) {
                        int e = WgmmaFragments.aRow(t, j) * kk + WgmmaFragments.aColumn(t, j, part, bits);
                        long raw = Bits.zx(reg >>> (part * bits), bits);
                        fa[e] = TensorCore.input(raw, f.aType());
                        ia[e] = integerValue(raw, f.aType());
                    }
                }
            }
        } else {
            operand(w0, MatrixDescriptor.decode(uniform(g, op, pc, 0)), M, kk, f.aType(), !f.transA(), fa, ia);
        }
        operand(w0, MatrixDescriptor.decode(uniform(g, op, pc, bSrc)), n, kk, f.bType(), !f.transB(), fb, ib);
        if (!integer) {
            TensorCore.exponents(fa, ea, finiteA, M, kk, f.aType());
            TensorCore.exponents(fb, eb, finiteB, n, kk, f.bType());
        }
        int regs = f.accumulatorRegisters();
        boolean half = f.dType() == DataType.F16;
        for (int t = 0; t < 128; t++) {
            Warp w = warps[WARPS * g + t / 32];
            int l = t % 32;
            for (int r = 0; r < regs; r++) {
                long old = w.regs[((w.regBase[l] + op.dst[r]) << 5) | l];
                long out;
                if (half) {
                    out = 0;
                    for (int h = 0; h < 2; h++) {
                        int e = 2 * r + h;
                        float c = scaleD ? FloatOps.halfToFloat((int) (old >>> (16 * h)) & 0xffff) : 0f;
                        float acc = floatSum(c, WgmmaFragments.accumulatorRow(t, e), WgmmaFragments.accumulatorColumn(t, e), kk, f);
                        out |= (long) FloatOps.floatToHalf(acc) << (16 * h);
                    }
                } else if (integer) {
                    long acc = scaleD ? (int) old : 0;
                    int row = WgmmaFragments.accumulatorRow(t, r) * kk, col = WgmmaFragments.accumulatorColumn(t, r) * kk;
                    for (int k = 0; k < kk; k++) {
                        acc += ia[row + k] * ib[col + k];
                    }
                    if (f.satFinite()) {
                        acc = Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, acc));
                    }
                    out = Bits.zx(acc, 32);
                } else {
                    float c = scaleD ? Float.intBitsToFloat((int) old) : 0f;
                    float acc = floatSum(c, WgmmaFragments.accumulatorRow(t, r), WgmmaFragments.accumulatorColumn(t, r), kk, f);
                    out = Float.floatToRawIntBits(acc) & 0xffffffffL;
                }
                engine.operands.write(w, op, r, l, out);
            }
        }
    }

    /** Reads a rows x K operand through its descriptor into values[row * K + k] (and ints for integer types). */
    private void operand(Warp w0, MatrixDescriptor d, int rows, int kk, DataType t, boolean kMajor, double[] values,
                         long[] ints) {
        int bytes = t.bits / 8;
        for (int mn = 0; mn < rows; mn++) {
            for (int k = 0; k < kk; k++) {
                long at = d.address(mn, k, bytes, kMajor);
                long raw = engine.memory.load(w0, Space.SHARED, at, bytes, 0);
                if (engine.order != null) {
                    if (chunkCount == chunks.length) {
                        chunks = Arrays.copyOf(chunks, Math.max(256, 2 * chunkCount));
                    }
                    chunks[chunkCount++] = at & ~15L;
                }
                values[mn * kk + k] = TensorCore.input(raw, t);
                ints[mn * kk + k] = integerValue(raw, t);
            }
        }
    }

    /** Source {@code k} (a descriptor or scale-d), which must be the same in all 128 threads. */
    private long uniform(int g, Op op, int pc, int k) {
        Warp[] warps = engine.cta().warps;
        long v = engine.operands.read(warps[WARPS * g], op, k, 0);
        for (int t = 1; t < 128; t++) {
            Warp w = warps[WARPS * g + t / 32];
            long x = engine.operands.read(w, op, k, t % 32);
            if (x != v) {
                hazards.undefined(op, pc, "exec.wgmma", String.format("operand %d of '%s' differs between threads of"
                        + " the warpgroup (thread 0: 0x%x, thread %d: 0x%x); it must be uniform", k + 2, op.mnemonic(),
                        v, t, x), engine.where(w, t % 32));
                break;
            }
        }
        return v;
    }

    private static long integerValue(long raw, DataType t) {
        return t == DataType.S8 ? (byte) raw : t == DataType.U8 ? raw & 0xff : 0;
    }

    /** C plus the K products of element (i, j), as the tensor core adds them ({@link TensorCore#dot}). */
    private float floatSum(float c, int i, int j, int kk, WarpgroupForm f) {
        return TensorCore.dot(c, fa, ea, i * kk, fb, eb, j * kk, kk, f.scaleA() * f.scaleB(), finiteA[i] && finiteB[j],
                f.aType(), f.dType() == DataType.F32);
    }
}
