package io.ptxrun.exec;

/**
 * Finds warps that loop without effect, such as {@code while (*(volatile int *) flag == 0);} on
 * a flag nobody will write. It looks at the ends of scheduling rounds in which the cluster had no
 * progress event (no memory written, no arrival, completion or exit): if, after such rounds only,
 * every warp's registers, program counters and lane masks return to the state of an earlier round,
 * the warps ran in a circle. Memory did not change in between (no event), and a lane's next step
 * depends only on its own state and memory, so they run that circle forever, whatever the order of
 * their turns. This says nothing about writers outside the cluster: the engine asks only while no
 * other cluster can run. The scheduler uses a second one at stalls (rounds in which every warp
 * only polled failed waits): a stall that returns to an earlier stall's state is a deadlock,
 * while a polling loop that counts its tries never repeats and runs until it gives up.
 *
 * <p>The saved state is compared at every round and saved anew at power-of-two distances (Brent's
 * cycle detection), so a circle of P rounds is found within a few times P rounds of its start,
 * and a loop that makes progress in its registers costs one compare per round that stops at the
 * first difference. A saved state has every warp's runnable lanes at one instruction: a warp whose
 * lanes stay apart (one group spinning, another that the schedule runs only after it) is never
 * called stuck, since a GPU with independent thread scheduling runs the other group too.
 */
final class SpinDetector {
    private long[][] regs;
    /** Per warp: 32 program counters, 32 call depths, then live, blocked, spinning, timedOut, carry. */
    private int[][] lanes;
    private boolean saved;
    /**
     * Whether the saved state was saved while some warp ran ahead of its turns ({@link LoopAhead}):
     * it holds that warp's registers as they will be, and no later state can be the cluster's then.
     */
    private boolean savedAhead;
    private long power, distance;

    /** Forgets the saved state: something happened. */
    void reset() {
        saved = false;
    }

    /** After a round without progress events: true when the warps are back in a saved state. */
    boolean repeats(Warp[] warps) {
        // A warp ahead of its turns in a loop is on its way to the kernel's exit: the cluster
        // cannot come back now to a state it was in since the last event, nor later to one it
        // was in while the warp was ahead (see LoopAhead).
        boolean ahead = false;
        for (Warp w : warps) {
            ahead |= w.ahead != null;
        }
        if (saved && !savedAhead && !ahead && same(warps)) {
            return true;
        }
        if (!converged(warps)) {
            return false;
        }
        if (!saved) {
            save(warps);
            savedAhead = ahead;
            power = 1;
            distance = 0;
        } else if (++distance >= power) {
            save(warps);
            savedAhead = ahead;
            power *= 2;
            distance = 0;
        }
        return false;
    }

    private static boolean converged(Warp[] warps) {
        for (Warp w : warps) {
            if (w.ahead != null) {
                if (!w.ahead.converged()) {
                    return false;
                }
                continue;
            }
            int runnable = w.live & ~w.blocked;
            if (runnable != 0) {
                int pc = w.pc[Integer.numberOfTrailingZeros(runnable)];
                for (int m = runnable; m != 0; m &= m - 1) {
                    if (w.pc[Integer.numberOfTrailingZeros(m)] != pc) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    private void save(Warp[] warps) {
        if (regs == null || regs.length != warps.length) {
            regs = new long[warps.length][];
            lanes = new int[warps.length][];
        }
        for (int i = 0; i < warps.length; i++) {
            Warp w = warps[i];
            regs[i] = regs[i] != null && regs[i].length == w.regs.length ? regs[i] : new long[w.regs.length];
            System.arraycopy(w.regs, 0, regs[i], 0, w.regs.length);
            int[] l = lanes[i] != null ? lanes[i] : (lanes[i] = new int[69]);
            System.arraycopy(w.pc, 0, l, 0, 32);
            System.arraycopy(w.depth, 0, l, 32, 32);
            l[64] = w.live;
            l[65] = w.blocked;
            l[66] = w.spinning;
            l[67] = w.timedOut;
            l[68] = w.carry;
        }
        saved = true;
    }

    private boolean same(Warp[] warps) {
        if (warps.length != regs.length) {
            return false;
        }
        for (int i = 0; i < warps.length; i++) {
            Warp w = warps[i];
            int[] l = lanes[i];
            if (l[64] != w.live || l[65] != w.blocked || l[66] != w.spinning || l[67] != w.timedOut
                    || l[68] != w.carry || !java.util.Arrays.equals(l, 0, 32, w.pc, 0, 32)
                    || !java.util.Arrays.equals(l, 32, 64, w.depth, 0, 32)
                    || !java.util.Arrays.equals(regs[i], w.regs)) {
                return false;
            }
        }
        return true;
    }
}
