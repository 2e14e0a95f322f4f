package io.ptxrun.exec;

/**
 * A warp's lanes that ran a loop body with branches ahead of the warp's turns, to the end of the
 * loop, and the turns the scheduler still gives the warp before it is where they are.
 *
 * <p>Run lane by lane ({@link CompiledRegion#lanes}), a loop body of inline ops and forward
 * branches touches only each lane's own registers, so where a warp's turns end inside it makes no
 * difference to the lanes' registers when they leave it. What the turns decide is only what the
 * rest of the cluster sees of the warp while it runs the loop: the steps of each turn (a fixed
 * number, {@link Scheduler#SLICE}) and so the thread-instructions counted in each (the budget,
 * %clock), and the warp's state at the end of each round (the spin detector's). Under the fixed
 * schedule, the steps of a warp in such a loop are those of the lowest-PC rule: each pass, the
 * ops that some lane runs in it in program order and the branch back, one step each. So where
 * every runnable lane of the warp is in the loop (or waits after it), its lanes run on to the end
 * of the loop at once, in the first of its turns, logging which ops each ran in each pass; the
 * steps and instructions of each turn and whether the warp's lanes are at one op at its end follow
 * from the log. The warp's later turns then only count their instructions, until the turn in which
 * its last lane leaves the loop, which runs on from there with the lanes after the loop.
 *
 * <p>In between, the warp's registers are those it has when it leaves the loop, which nothing
 * reads but the spin detector's comparison of the cluster's state after a round without an event
 * with an earlier one. A warp that is ahead is on its way to the kernel's exit ({@link
 * Regions}: its lanes leave the loop within the passes logged and then run straight to an exit of
 * the kernel), an event the cluster cannot go round without, so that comparison finds no repeat
 * while a warp is ahead, or against a state saved while one was ({@link SpinDetector}): only
 * whether each warp's runnable lanes are at one op decides there, and that is known for each turn.
 * Where a lane does not leave the loop within the passes logged, the warp's registers are put back
 * and its lanes run ahead again with a longer log ({@link Engine#morePasses}), or, past the longest
 * (or the most passes the budget covers), the loop runs turn by turn.
 */
final class LoopAhead {
    /** Thread-instructions of each turn from the next one on, the last one's the turn in which the warp leaves the loop. */
    private final long[] instructions;
    /** After each turn but the last: whether every runnable lane of the warp is at one op. */
    private final boolean[] converged;
    /** Steps of the last turn (up to and with the branch back of the last pass). */
    private final int lastSteps;
    /** The lanes in the loop, its branch back and the op after it. */
    private final int group, back;
    /** The next turn, and whether the warp's lanes were at one op at the end of the turn before it. */
    private int next;
    private boolean convergedNow;

    private LoopAhead(long[] instructions, boolean[] converged, int lastSteps, int group, int back, boolean now) {
        this.instructions = instructions;
        this.converged = converged;
        this.lastSteps = lastSteps;
        this.group = group;
        this.back = back;
        this.convergedNow = now;
    }

    // What CompiledRegion.lanes logs of a loop body with branches (in Engine.passesVisited): for
    // each lane, the count before its first pass (BASES) and the passes it ran (PASSES); for each
    // pass, the ops the lane ran (bits of their distance from the loop's start), the instructions
    // counted at the pass's end and the ops some lane ran (ORed in by each lane), in three
    // blocks of P ints from SCRATCH (P, the passes a lane may run in the log, is the log's
    // CAPACITY: the generated classes, shared by every launch, find the blocks from it); then,
    // copied there after each lane's last pass ({@link #logLane}), each lane's own passes' ops
    // and counts. The log grows ({@link Engine#morePasses}) where a lane did not leave a loop
    // within its passes.

    /** Where the count before each lane's first pass and the passes it ran are (at the lane's index from there). */
    static final int BASES = 0, PASSES = 32;
    /** Where the log's capacity P is. */
    static final int CAPACITY = 64;
    /** Where pass p's ops are: SCRATCH + p; its count at SCRATCH + P + p, its union at SCRATCH + 2 P + p. */
    static final int SCRATCH = 65;

    /** A log for up to {@code capacity} passes a lane. */
    static int[] newLog(int capacity) {
        int[] log = new int[SCRATCH + 67 * capacity];
        log[CAPACITY] = capacity;
        return log;
    }

    /** The ops some lane ran in pass p. */
    private static int union(int[] log, int p) {
        return log[SCRATCH + 2 * log[CAPACITY] + p];
    }

    /** Clears the unions of the first {@code passes} passes, as each use of the log leaves them. */
    static void clearUnions(int[] log, int passes) {
        int from = SCRATCH + 2 * log[CAPACITY];
        java.util.Arrays.fill(log, from, from + passes, 0);
    }

    /** The ops lane l ran in pass p (capacity P). */
    private static int ranAt(int P, int l, int p) {
        return SCRATCH + (3 + l) * P + p;
    }

    /** The count at the end of lane l's pass p (capacity P). */
    private static int countAt(int P, int l, int p) {
        return SCRATCH + (35 + l) * P + p;
    }

    /** Copies the log of lane l's passes (as {@link CompiledRegion#lanes} wrote them) to its own, with their number. */
    static void logLane(int[] log, int l, int passes) {
        int P = log[CAPACITY];
        System.arraycopy(log, SCRATCH, log, ranAt(P, l, 0), passes);
        System.arraycopy(log, SCRATCH + P, log, countAt(P, l, 0), passes);
        log[PASSES + l] = passes;
    }

    /** The steps of the first {@code most} passes: the ops some lane ran in each, and the branch back. */
    static int steps(int[] log, int most) {
        int steps = most;
        for (int p = 0; p < most; p++) {
            steps += Integer.bitCount(union(log, p));
        }
        return steps;
    }

    /**
     * Runs the lanes of group (every runnable lane of the warp in the loop body with branches of n
     * ops from start, sharing the register frame at rb; the caller has checked that they may run
     * ahead and that their registers fit) to the end of the loop, with {@code steps} steps left in
     * the warp's turn, in {@code most} passes at most (no more than the log holds). Returns the
     * steps taken in this turn: the whole turn where the warp is left ahead ({@link Warp#ahead}),
     * else those up to the warp's leaving the loop; 0 where some lane did not leave within those
     * passes (nothing changed).
     */
    static int run(Engine e, Warp w, CompiledRegion r, int start, int n, int group, int runnable, int steps, int rb,
                   int most) {
        long[] regs = w.regs;
        if (e.regsBeforeAhead.length < regs.length) {
            e.regsBeforeAhead = new long[regs.length];
        }
        System.arraycopy(regs, 0, e.regsBeforeAhead, 0, regs.length);
        long before = e.executed;
        int[] log = e.passesVisited;
        int P = log[CAPACITY];
        long ran = r.lanes(e, w, regs, rb << 5, group, 0, most, 0, log);
        long total = e.executed - before;
        e.executed = before;
        int passes = (int) (ran >>> 32);
        if ((int) ran != group) {
            clearUnions(log, passes);
            System.arraycopy(e.regsBeforeAhead, 0, regs, 0, regs.length);
            return 0;
        }
        // The step stream: pass after pass, the ops some lane ran in program order and the branch
        // back. Turn k ends after steps + k * SLICE steps of it: the instructions counted up to
        // there, and whether the warp's runnable lanes are at one op then. First the turns' ends
        // from the passes' unions (a pass of at most n ops and the branch back), each as a pass
        // and the ops of it some lane ran before the end (done) or after (rest); then each lane's
        // part in them, lane after lane along its own log.
        int turnsAtMost = (int) Math.max(0, ((long) passes * (n + 1) - steps) / Scheduler.SLICE + 1);
        int[] passAt = new int[turnsAtMost], doneAt = new int[turnsAtMost], restAt = new int[turnsAtMost];
        int turns = 0;
        long at = 0, boundary = steps;
        for (int p = 0; p < passes; p++) {
            int union = union(log, p);
            int passSteps = Integer.bitCount(union) + 1;
            // Boundaries inside this pass, before its branch back: k of its ops have run.
            while (boundary < at + passSteps) {
                int k = (int) (boundary - at);
                int rest = union;
                for (int j = 0; j < k; j++) {
                    rest &= rest - 1;
                }
                passAt[turns] = p;
                doneAt[turns] = union & ~rest;
                restAt[turns++] = rest;
                boundary += Scheduler.SLICE;
            }
            at += passSteps;
            if (boundary == at && p + 1 < passes) {
                // A turn ends after the branch back: the lanes that go on are at the loop's start.
                passAt[turns] = p + 1;
                doneAt[turns] = 0;
                restAt[turns++] = 0;
                boundary += Scheduler.SLICE;
            }
        }
        clearUnions(log, passes);
        long[] counts = new long[turns];
        int[] activeAt = new int[turns], commonAt = new int[turns];
        java.util.Arrays.fill(commonAt, -1);
        long logged = 0;
        for (int m = group; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            int lanePasses = log[PASSES + l], base = log[BASES + l];
            int ranFrom = ranAt(P, l, 0), countFrom = countAt(P, l, 0);
            for (int t = 0; t < turns; t++) {
                int p = passAt[t];
                int q = Math.min(p, lanePasses);
                if (q > 0) {
                    counts[t] += log[countFrom + q - 1] - base;
                }
                if (lanePasses > p) {
                    int bits = log[ranFrom + p];
                    activeAt[t] |= 1 << l;
                    counts[t] += Integer.bitCount(bits & doneAt[t]);
                    commonAt[t] &= bits;
                }
            }
            if (lanePasses > 0) {
                logged += log[countFrom + lanePasses - 1] - base;
            }
        }
        if (logged != total) {
            throw new IllegalStateException("loop run ahead: " + logged + " thread-instructions logged, " + total
                    + " counted");
        }
        // At one op: every runnable lane still in the loop (none left before this pass, none
        // waiting after it), and the next op some lane runs is one that every lane runs (or the
        // branch back, which all reach; at a pass's start, all are at the loop's start).
        int all = runnable == group ? group : 0;
        boolean[] ends = new boolean[turns];
        for (int t = 0; t < turns; t++) {
            int rest = restAt[t];
            ends[t] = activeAt[t] == all && (rest == 0 || (commonAt[t] & Integer.lowestOneBit(rest)) != 0);
        }
        int back = start + n;
        if (turns == 0) {
            // The loop ends within this turn.
            e.executed = before + total;
            leave(e, w, group, back, passes > 1);
            return (int) at;
        }
        // This turn's instructions now, each later turn's in it; the last turn's up to the end.
        long[] later = new long[turns];
        for (int k = 1; k < turns; k++) {
            later[k - 1] = counts[k] - counts[k - 1];
        }
        later[turns - 1] = total - counts[turns - 1];
        e.executed = before + counts[0];
        int lastSteps = (int) (at - (steps + (long) (turns - 1) * Scheduler.SLICE));
        w.ahead = new LoopAhead(later, java.util.Arrays.copyOfRange(ends, 1, turns), lastSteps, group, back, ends[0]);
        w.uniformMask = 0;
        return steps;
    }

    /**
     * The lanes of group leave the loop closed by the branch back at back, as runByLane leaves
     * them; {@code jumped}: some lane took the branch back since the lanes ran ahead.
     */
    private static void leave(Engine e, Warp w, int group, int back, boolean jumped) {
        e.advance(w, group, back + 1);
        if (jumped) {
            w.lastBackBranch = back;
        }
        w.uniformMask = 0;
    }

    /**
     * The warp's next turn of {@code steps} steps (a whole one, {@link Scheduler#SLICE}): its
     * instructions counted; in the last one the lanes leave the loop. Returns the steps taken.
     */
    int turn(Engine e, Warp w, int steps) {
        if (steps != Scheduler.SLICE) {
            throw new IllegalStateException("a warp ahead in a loop given " + steps + " steps");
        }
        int k = next++;
        e.executed += instructions[k];
        int taken = Scheduler.SLICE;
        if (k == instructions.length - 1) {
            w.ahead = null;
            leave(e, w, group, back, true);
            taken = lastSteps;
        } else {
            convergedNow = converged[k];
        }
        if (e.executed > e.ctaLimit) {
            // Only where other workers spent the budget meanwhile: the launch runs again on one.
            throw e.scheduler.budgetExhausted(w, e.program.ops[back], Integer.numberOfTrailingZeros(group));
        }
        return taken;
    }

    /** Whether every runnable lane of the warp is at one op now (at the end of its last turn). */
    boolean converged() {
        return convergedNow;
    }
}
