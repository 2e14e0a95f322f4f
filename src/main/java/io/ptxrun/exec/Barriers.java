package io.ptxrun.exec;

import java.util.Arrays;

/**
 * The sixteen CTA barriers of bar/barrier (PTX ISA 9.7.13.1); barrier.cluster is {@link ClusterBarrier}.
 *
 * <p>Barriers count whole warps, as the hardware does: a warp has arrived once all of its live
 * lanes have; lanes that exited count as arrived (so a half-exited warp still counts 32). Without
 * a thread count a barrier waits for every warp that still has live lanes; with one it waits for
 * that many threads, so threads that exited are never waited for only in the first case. A
 * barrier resets when it completes, so a later arrival starts a new instance.
 */
final class Barriers {
    /** bar.red's operation (9.7.13.1): .popc, .and or .or over the participating threads' predicates. */
    enum Reduction implements OpForm { POPC, AND, OR }

    static final int NAMED = 16;
    static final int COUNT = NAMED;

    /** What the barrier's current instance was joined with: the two must not be mixed. */
    private static final int MODE_NONE = 0, MODE_SYNC_OR_ARRIVE = 1, MODE_RED = 2;

    private final Engine engine;
    private final Hazards hazards;
    private int[][] lanes;
    /** The op at which each warp's first lanes joined the current instance. */
    private int[][] arrivedAt;
    private boolean[][] warpCounted;
    private final int[] warpsArrived = new int[COUNT];
    private final int[] expectedThreads = new int[COUNT];
    private final int[] popc = new int[COUNT];
    private final boolean[] and = new boolean[COUNT];
    private final boolean[] or = new boolean[COUNT];
    private final int[] mode = new int[COUNT];
    /** The op that opened the current instance, for reports about mixing. */
    private final int[] openedAt = new int[COUNT];

    Barriers(Engine engine, Hazards hazards) {
        this.engine = engine;
        this.hazards = hazards;
    }

    /** Prepares the barriers of a new CTA of {@code warpCount} warps. */
    void startCta(int warpCount) {
        lanes = new int[COUNT][warpCount];
        arrivedAt = new int[COUNT][warpCount];
        warpCounted = new boolean[COUNT][warpCount];
        for (int id = 0; id < COUNT; id++) {
            reset(id);
        }
    }

    private void reset(int id) {
        warpsArrived[id] = 0;
        expectedThreads[id] = 0;
        popc[id] = 0;
        and[id] = true;
        or[id] = false;
        mode[id] = MODE_NONE;
        Arrays.fill(lanes[id], 0);
        Arrays.fill(warpCounted[id], false);
    }

    /** bar.sync / bar.arrive / bar.red / barrier.cluster.wait for the group {@code mask}. */
    void execute(Warp w, Op op, int pc, int mask, int exec) {
        engine.advance(w, mask, pc + 1);
        if (exec == 0) {
            return;
        }
        int l0 = Integer.numberOfTrailingZeros(exec);
        int n = op.sources();
        boolean red = op.code == OpCode.BAR_RED;
        int id = n > 0 ? (int) engine.read(w, op, 0, l0) : 0;
        long count = (red ? n > 2 : n > 1) ? Bits.zx(engine.read(w, op, 1, l0), 32) : 0;
        if (id < 0 || id >= NAMED) {
            hazards.undefined(op, pc, "exec.barrier", "barrier id " + id + " outside 0..15 (9.7.13.1: each CTA has"
                    + " sixteen barriers)", engine.where(w, l0));
            id &= NAMED - 1;
        }
        if (count % 32 != 0) {
            hazards.undefined(op, pc, "exec.barrier", "thread count " + count + " of barrier " + id
                    + " is not a multiple of the warp size (9.7.13.1)", engine.where(w, l0));
            count = (count + 31) & ~31L;
        }
        int joining = red ? MODE_RED : MODE_SYNC_OR_ARRIVE;
        if (mode[id] != MODE_NONE && mode[id] != joining) {
            Op other = engine.opAt(openedAt[id]);
            hazards.undefined(op, pc, "exec.barrier", (red ? "bar.red joins" : "'" + op.mnemonic() + "' joins")
                    + " barrier " + id + " while it is active for '" + other.mnemonic() + "' at line "
                    + other.pos.line() + " (9.7.13.1: barrier.red must not be intermixed with barrier.sync or"
                    + " barrier.arrive on the same active barrier)", engine.where(w, l0));
        }
        if ((lanes[id][w.id] & exec) != 0 || warpCounted[id][w.id]) {
            hazards.undefined(op, pc, "exec.barrier", "warp " + w.id + " arrives at barrier " + id
                    + " again before the barrier completed (9.7.13.1: a warp must not execute more barrier"
                    + " instructions on a barrier than intended before its reset)", engine.where(w, l0));
        }
        if (mode[id] == MODE_NONE) {
            mode[id] = joining;
            openedAt[id] = pc;
        }
        if (count != 0) {
            expectedThreads[id] = (int) count;
        }
        if (red) {
            for (int m = exec; m != 0; m &= m - 1) {
                int l = Integer.numberOfTrailingZeros(m);
                boolean p = (engine.read(w, op, n - 1, l) & 1) != 0;
                popc[id] += p ? 1 : 0;
                and[id] &= p;
                or[id] |= p;
            }
        }
        if (engine.order != null && op.aligned()) {
            checkAligned(w, op, pc, mask, exec, id);
        }
        if (lanes[id][w.id] == 0) {
            arrivedAt[id][w.id] = pc;
        }
        lanes[id][w.id] |= exec;
        io.ptxrun.exec.order.MemoryOrder order = engine.order;
        if (order != null) {
            order.barrierArrive(engine.ordering.slot(w, 0), exec, id);
        }
        if (op.code != OpCode.BAR_ARRIVE) {
            w.blocked |= exec;
            for (int m = exec; m != 0; m &= m - 1) {
                int l = Integer.numberOfTrailingZeros(m);
                w.barrierOf[l] = id;
                w.waitKind[l] = Warp.WAIT_BARRIER;
                w.blockedAt[l] = pc;
            }
        }
        engine.progressed();
        countWarp(id, w);
        tryRelease(id);
    }

    /**
     * An .aligned barrier (bar.sync, bar.arrive, bar.red, barrier.*.aligned; what __syncthreads
     * compiles to) must be executed by all threads of the warp together (9.7.13.1): lanes of the
     * warp that the guard turned off, that reached it at another instruction, or (with the fixed
     * schedule, lowest PC first) that are already past it took another path.
     */
    private void checkAligned(Warp w, Op op, int pc, int mask, int exec, int id) {
        int other = 0;
        for (int m = w.live & ~exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            boolean waitsHere = (w.blocked & (1 << l)) != 0 && w.waitKind[l] == Warp.WAIT_BARRIER;
            if ((mask & (1 << l)) != 0 || (waitsHere && w.blockedAt[l] != pc)
                    || (engine.fixedSchedule() && !waitsHere && w.pc[l] > pc)) {
                other |= 1 << l;
            }
        }
        boolean split = lanes[id][w.id] != 0 && arrivedAt[id][w.id] != pc;
        if (other != 0 || split) {
            int l0 = Integer.numberOfTrailingZeros(exec);
            String others = split ? "other lanes of the warp arrived at the barrier through '"
                    + engine.opAt(arrivedAt[id][w.id]).mnemonic() + "' at line "
                    + engine.opAt(arrivedAt[id][w.id]).pos.line() + engine.cuda(engine.opAt(arrivedAt[id][w.id]))
                    : String.format("lanes 0x%08x of the warp do not (guarded off, or on another path)", other);
            engine.hazard(op, pc, "divergence.barrier", String.format("divergent '%s': lanes 0x%08x of warp %d execute"
                    + " it while %s; an .aligned barrier (bar.sync, __syncthreads) must be executed by every thread"
                    + " of the warp together (9.7.13.1), else it may hang or release early (%s)", op.mnemonic(), exec,
                    w.id, others, engine.where(w, l0)));
        }
    }

    /** Lanes of {@code w} exited: the warp may now count as arrived, and CTA-wide barriers need fewer warps. */
    void exited(Warp w) {
        for (int id = 0; id < COUNT; id++) {
            countWarp(id, w);
            tryRelease(id);
        }
    }

    private void countWarp(int id, Warp w) {
        if (!warpCounted[id][w.id] && lanes[id][w.id] != 0 && (w.live & ~lanes[id][w.id]) == 0) {
            warpCounted[id][w.id] = true;
            warpsArrived[id]++;
        }
    }

    private int needed(int id) {
        if (expectedThreads[id] > 0) {
            return expectedThreads[id];
        }
        int liveWarps = 0;
        for (Warp w : engine.cta().warps) {
            if (w.live != 0) {
                liveWarps++;
            }
        }
        return 32 * liveWarps;
    }

    private void tryRelease(int id) {
        if (warpsArrived[id] == 0 || warpsArrived[id] * 32 < needed(id)) {
            return;
        }
        io.ptxrun.exec.order.MemoryOrder order = engine.order;
        io.ptxrun.exec.order.Release released = order == null ? null : order.barrierComplete(engine.cta().rank, id);
        for (Warp w : engine.cta().warps) {
            int waking = 0;
            for (int m = w.blocked; m != 0; m &= m - 1) {
                int l = Integer.numberOfTrailingZeros(m);
                if (w.waitKind[l] == Warp.WAIT_BARRIER && w.barrierOf[l] == id) {
                    w.blocked &= ~(1 << l);
                    waking |= 1 << l;
                    Op op = engine.opAt(w.blockedAt[l]);
                    if (op.code == OpCode.BAR_RED) {
                        long r = switch ((Reduction) op.form) {
                            case POPC -> popc[id];
                            case AND -> and[id] ? 1 : 0;
                            case OR -> or[id] ? 1 : 0;
                        };
                        engine.write(w, op, 0, l, r);
                    }
                }
            }
            if (order != null && waking != 0) {
                order.acquire(engine.ordering.slot(w, 0), waking, released);
            }
        }
        reset(id);
    }

    /** The state of barrier {@code id} for a deadlock report. */
    String describe(int id) {
        return String.format("barrier %d: %d of %s threads arrived (in whole warps)", id, warpsArrived[id] * 32,
                expectedThreads[id] > 0 ? Integer.toString(expectedThreads[id])
                        : needed(id) + " (all live warps)");
    }
}
