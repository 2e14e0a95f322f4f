package io.ptxrun.exec;

import java.util.OptionalLong;
import java.util.SplittableRandom;

/**
 * The schedule choices of `--schedule random:SEED`: which warp of a CTA runs next and for how
 * long, and which group of a diverged warp's lanes runs next. Every choice is an interleaving the
 * hardware may pick too. Each CTA draws from its own stream (seed and CTA index), so a seed gives
 * the same run whichever worker thread runs the CTA.
 */
final class RandomSchedule {
    private final long seed;
    private SplittableRandom random;
    private int[] order = new int[0];

    private RandomSchedule(long seed) {
        this.seed = seed;
    }

    static RandomSchedule of(OptionalLong seed) {
        return seed.isPresent() ? new RandomSchedule(seed.getAsLong()) : null;
    }

    void startCta(int index) {
        random = new SplittableRandom(seed * 0x9E37_79B9_7F4A_7C15L + index);
    }

    /** The k-th warp of this round; a fresh shuffled order starts each round (k == 0). */
    int warpAt(int k, int warps) {
        if (k == 0) {
            if (order.length != warps) {
                order = new int[warps];
            }
            for (int i = 0; i < warps; i++) {
                order[i] = i;
            }
            for (int i = warps - 1; i > 0; i--) {
                int j = random.nextInt(i + 1);
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
        }
        return order[k];
    }

    /** How many steps the chosen warp runs: short turns most of the time, so warps interleave finely. */
    int sliceLength(int max) {
        return random.nextInt(4) == 0 ? 1 + random.nextInt(max) : 1 + random.nextInt(8);
    }

    /**
     * The lanes of a diverged warp to run next: those at the PC of a random runnable lane, or 0 to
     * keep the lowest-PC group. Lanes about to run a warp-synchronous operation (shfl, vote,
     * match, redux, elect, bar.warp, wmma, ldmatrix/stmatrix, movmatrix, and the warpgroup's wgmma and
     * setmaxnreg) are left to the lowest-PC rule, which brings their partners
     * there first, as the hardware's .sync operations wait for them.
     *
     * <p>So are lanes at a loop's backward branch while other lanes of the warp are still in the
     * loop body it closes (between its target and the branch). On the GPU the paths of a divergent
     * branch meet again where the compiler joins them (a convergence barrier at the join), so no
     * lane starts the next iteration while another is still in this one; a group that did would be
     * a lap ahead at lower program counters, reach the next .aligned operation without the lanes
     * it left behind, and the lowest-PC rule would no longer bring them together. Running ahead
     * within an iteration stays allowed: the lowest-PC rule catches the lanes up at the next
     * warp-synchronous operation.
     */
    int divergentGroup(int[] pcs, int runnable, Op[] ops) {
        int pick = random.nextInt(Integer.bitCount(runnable));
        int m = runnable;
        for (int i = 0; i < pick; i++) {
            m &= m - 1;
        }
        int pc = pcs[Integer.numberOfTrailingZeros(m)];
        Op op = ops[pc];
        switch (op.code) {
            case SHFL, VOTE, MATCH, REDUX, ELECT, BAR_WARP, ACTIVEMASK, WMMA, MATRIX_MOVE, MATRIX_TRANSPOSE, MMA_SYNC,
                    WARPGROUP -> {
                return 0;
            }
            default -> {
            }
        }
        boolean backward = op.code == OpCode.BRA && op.target <= pc;
        int group = 0;
        for (int r = runnable; r != 0; r &= r - 1) {
            int l = Integer.numberOfTrailingZeros(r);
            if (pcs[l] == pc) {
                group |= 1 << l;
            } else if (backward && pcs[l] > op.target && pcs[l] < pc) {
                return 0; // lane l is still in the loop body this branch closes
            }
        }
        return group;
    }
}
