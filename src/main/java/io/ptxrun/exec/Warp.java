package io.ptxrun.exec;

/**
 * The state of one warp: 32 lanes, each with its own program counter and call stack; registers in
 * one flat array indexed {@code ((regBase[lane] + reg) << 5) | lane}, so a lane's frame moves
 * with its call depth while lanes at the same op still run in one loop.
 */
final class Warp {
    static final int FRAME_INTS = 5;

    final int id;
    final int[] pc = new int[32];
    /** Lanes that exist and have not exited. */
    int live;
    /** Live lanes waiting at a CTA barrier. */
    int blocked;
    final int[] barrierOf = new int[32];
    final int[] blockedAt = new int[32];
    /** Why each blocked lane waits: at a CTA barrier (barrierOf), suspended in try_wait (waitAddr), or in barrier.cluster.wait. */
    static final byte WAIT_BARRIER = 0, WAIT_MBARRIER = 1, WAIT_CLUSTER = 2, WAIT_WARPGROUP = 3;
    final byte[] waitKind = new byte[32];
    /** Shared offset of the mbarrier a lane is suspended on or last polled without success. */
    final int[] waitAddr = new int[32];
    /** Lanes whose suspended try_wait ran into the time limit: the retry returns false. */
    int timedOut;
    /** Where each lane's last test_wait/try_wait returned false, or -1 (none since its last success). */
    final int[] failedAt = new int[32];
    /**
     * Lanes that came back to a test_wait/try_wait that had returned false for them, with no success
     * since: they poll in a loop (blockedAt holds where). A lane that tested once and went on does not.
     */
    int spinning;
    /**
     * The engine's thread-instruction count when a lane of this warp last came back to a wait
     * that failed (-1: never), and the thread-instructions the warp ran since, as of its last turn.
     */
    long polledAt = -1, sincePoll;
    final int[] tidX = new int[32], tidY = new int[32], tidZ = new int[32];

    long[] regs;
    final int[] regBase = new int[32];
    final int[] localBase = new int[32];
    final byte[][] local = new byte[32][];
    final int[] depth = new int[32];
    final int[][] stack = new int[32][];
    /** When nonzero: these lanes (all runnable ones) are at one PC, so the next step needs no scan. */
    int uniformMask;
    /** The last backward branch some lane took (-1: none): where a run out of budget is spinning. */
    int lastBackBranch = -1;
    /** Registers owned by outstanding wgmma.mma_async of this warp's warpgroup, or null (see Warpgroups). */
    java.util.BitSet wgmmaPending;
    /** Carry flag (CC.CF) of each lane, for add.cc/addc and friends. */
    int carry;
    /**
     * The loop body run lane by lane from op fitStart to its branch back at fitEnd (-1: none)
     * and the lanes whose registers that it writes are known to hold what its locals give back
     * ({@link CompiledRegion#fits}): they were written back by it, or since then by its own ops
     * alone (whose results are of that form). A step at an op outside the loop forgets them.
     */
    int fitStart = -1, fitEnd = -1, fitLanes;
    /** The turns whose steps the warp's lanes have run ahead in a loop ({@link LoopAhead}), or null. */
    LoopAhead ahead;

    /**
     * A warp with {@code numRegs} registers a lane, all zero: in {@code spare}, the register file
     * of a warp of an earlier CTA, when it is large enough (a CTA's warps are made anew for each
     * CTA, and a fresh file of a GEMM's hundred registers for each of them cost more than running
     * some CTAs).
     */
    Warp(int id, int numRegs, long[] spare) {
        this.id = id;
        int length = Math.max(1, numRegs) << 5;
        if (spare != null && spare.length >= length) {
            java.util.Arrays.fill(spare, 0);
            this.regs = spare;
        } else {
            this.regs = new long[length];
        }
        java.util.Arrays.fill(failedAt, -1);
    }

    /** Bytes of each lane's local memory it has written (for reads of undefined local memory). */
    private final java.util.BitSet[] localWritten = new java.util.BitSet[32];

    java.util.BitSet localWritten(int lane) {
        java.util.BitSet b = localWritten[lane];
        return b != null ? b : (localWritten[lane] = new java.util.BitSet());
    }

    void ensureRegs(int frames) {
        int need = frames << 5;
        if (need > regs.length) {
            regs = java.util.Arrays.copyOf(regs, Math.max(need, regs.length * 2));
        }
    }

    void ensureLocal(int lane, int bytes) {
        byte[] l = local[lane];
        if (l == null || l.length < bytes) {
            local[lane] = l == null ? new byte[Math.max(bytes, 16)]
                    : java.util.Arrays.copyOf(l, Math.max(bytes, l.length * 2));
        }
    }
}
