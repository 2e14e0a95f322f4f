package io.ptxrun.exec;

/**
 * The compiled tier of the engine. A straight region is a maximal run of lane-local ops of one
 * function (see {@link Engine#isLaneLocal}) without a branch target after its first op, starting
 * wherever a lane group enters it; a branch right after it runs with it. A branching region is
 * acyclic code of inline ops ({@link RegionCompiler#inlinable}: they touch only the lane's own
 * registers and cannot fail) and forward branches whose targets lie inside it or at its end, such
 * as the if-then-else diamonds of a loop body; a branch right after it runs with it too. The
 * interpreter counts entries of each op index; at {@link #HOT} entries the regions starting there
 * are compiled ({@link RegionCompiler}), and later entries run one whenever doing so is
 * indistinguishable from interpreting op by op. The group stays the lowest-PC group for the whole
 * region (no other runnable lane waits inside it, so none would have joined), and its lanes share
 * one register frame. A straight region runs only where the budget covers every op and the warp
 * turn has that many steps left. A branching region runs only under the fixed schedule (a seeded
 * one picks the group to run after each divergence), in program order, each op for the lanes that
 * have reached it, which is the order of the lowest-PC rule when every branch goes forward; it
 * stops early, lanes at their PCs, where the steps or the budget left do not cover the next ops
 * (the first ops of a run that the turn's last steps cover run for the group, as the interpreter
 * would run them). A region of either kind whose ops are all inline and which the branch after it
 * closes into a loop (a loop body) runs lane by lane where every runnable lane of the warp is in
 * it at one op ({@link #runByLane}): each lane runs its passes with its registers in JVM locals.
 * Otherwise the interpreter runs the op. Shared by the workers of a launch: racing compilations
 * of one region are harmless (the last one stays).
 */
final class Regions {
    /** Entries of an op index before the regions starting there are compiled. */
    static final int HOT = 64;
    /** Ops of one compiled method at most (the JVM does not compile methods beyond 8000 bytes of bytecode). */
    static final int MAX_OPS = 32;
    /** Passes of a loop run lane by lane in one call at most (a warp's turn holds 256 steps). */
    static final int MAX_PASSES = 128;
    /**
     * The passes a loop run lane by lane logs per lane at first and at most ({@link
     * CompiledRegion#lanes}): the most a warp's lanes run ahead of its turns ({@link LoopAhead}).
     * The log doubles where a lane did not leave within it: 2^15 passes take 8.6 MB.
     */
    static final int FIRST_PASSES = 1 << 10, MOST_PASSES = 1 << 15;

    private final Op[] ops;
    /** Entries before a region is compiled: HOT, or 1 to compile every region at once. */
    private final int threshold;
    /** Lane-local ops from each index on (capped at MAX_OPS); below 2 no straight region starts there. */
    private final int[] length;
    /** Ops of the branching region from each index on; 0 where none starts. */
    private final int[] span;
    /** The branch targets of the branching region from each index on, as bits of their distance from it. */
    private final long[] targets;
    private final int[] heat;
    private final CompiledRegion[] compiled;
    private final CompiledRegion[] branching;
    /** Whether the region from each index on (the branching one where one starts) is a loop body run lane by lane. */
    private final boolean[] byLane;
    /**
     * The start of the loop body run lane by lane that each index lies in or ends with (the
     * branch back), -1 where none (see {@link #runByLane}).
     */
    private final int[] loopStart;
    /** Loops whose lanes did not all leave within the passes one run ahead logs ({@link LoopAhead}). */
    private final boolean[] tooLong;
    /** Whether the code from each index leads straight to the kernel's exit: 0 not known yet, 1 yes, -1 no. */
    private final byte[] exits;
    /** Whether the hazard detector is on (regions hand it the shared-memory accesses they run themselves). */
    private final boolean checked;

    Regions(Op[] ops, int threshold, boolean checked) {
        this.ops = ops;
        this.threshold = threshold;
        this.checked = checked;
        int n = ops.length;
        length = new int[n];
        span = new int[n];
        targets = new long[n];
        heat = new int[n];
        compiled = new CompiledRegion[n];
        branching = new CompiledRegion[n];
        byLane = new boolean[n];
        loopStart = new int[n];
        tooLong = new boolean[n];
        exits = new byte[n + 1];
        java.util.Arrays.fill(loopStart, -1);
        // Straight regions end before branch targets too: lanes that wait there for the group to
        // join them would keep the group from running its region (see run), and the joined group
        // runs the next.
        boolean[] target = new boolean[n + 1];
        for (Op op : ops) {
            if (op.code == OpCode.BRA && op.target >= 0 && op.target < n) {
                target[op.target] = true;
            }
        }
        for (int i = n - 1; i >= 0; i--) {
            if (Engine.isLaneLocal(ops[i].code)) {
                boolean continues = i + 1 < n && ops[i + 1].owner == ops[i].owner && !target[i + 1];
                length[i] = Math.min(MAX_OPS, 1 + (continues ? length[i + 1] : 0));
            }
            // Groups start at targets and after branches (a branching region also stops early there).
            if (i == 0 || target[i] || ops[i - 1].code == OpCode.BRA || ops[i - 1].owner != ops[i].owner) {
                span[i] = branchingSpan(i);
                for (int p = i; p < i + span[i]; p++) {
                    if (ops[p].code == OpCode.BRA) {
                        targets[i] |= 1L << (ops[p].target - i);
                    }
                }
            }
        }
        // Loop bodies run lane by lane: a straight region ending in the branch back to its start
        // (entered anywhere in it), or a branching one (entered at its start or its branch back).
        for (int i = 0; i < n; i++) {
            int k = length[i];
            if (k >= 2 && span[i] == 0 && loopsBack(i, k) && RegionCompiler.runsByLane(ops, i, k)) {
                java.util.Arrays.fill(loopStart, i, i + k + 1, i);
            }
            k = span[i];
            if (k > 0 && loopsBack(i, k) && RegionCompiler.runsByLane(ops, i, k)) {
                java.util.Arrays.fill(loopStart, i, i + k + 1, i);
            }
        }
    }

    /**
     * The longest branching region from start: inline ops and forward branches of one function,
     * ending where every branch seen jumps at most to the end; 0 when it would hold no branch.
     */
    private int branchingSpan(int start) {
        int maxTarget = -1;
        int best = 0;
        int p = start;
        for (; p < ops.length && p - start < MAX_OPS; p++) {
            if (maxTarget >= 0 && maxTarget <= p) {
                best = p - start;
            }
            Op op = ops[p];
            if (op.owner != ops[start].owner) {
                break;
            }
            if (op.code == OpCode.BRA) {
                if (op.target <= p || op.target >= ops.length || ops[op.target].owner != op.owner) {
                    break;
                }
                maxTarget = Math.max(maxTarget, op.target);
            } else if (!RegionCompiler.inlinable(op)) {
                break;
            }
        }
        if (maxTarget >= 0 && maxTarget <= p) {
            best = p - start;
        }
        return best;
    }

    /**
     * Runs a compiled region at pc for the lanes of mask (the lowest-PC group of the runnable
     * lanes), in at most {@code steps} steps; returns the steps taken, 0 when the interpreter must
     * run the op instead.
     */
    int run(Engine e, Warp w, int pc, int mask, int runnable, int steps) {
        int loop = loopStart[pc];
        if (loop >= 0 && loop != pc && byLane[loop]) {
            // Inside a loop body, or at the branch after it: a turn ended there.
            boolean straight = span[loop] == 0;
            int taken = runByLane(e, w, straight ? compiled[loop] : branching[loop], loop,
                    straight ? length[loop] : span[loop], pc - loop, mask, runnable, steps);
            if (taken != 0) {
                return taken;
            }
        }
        if (heat[pc] < threshold) {
            if (length[pc] < 2 && span[pc] == 0 || ++heat[pc] < threshold) {
                return 0;
            }
            compileBranching(pc);
        }
        if (span[pc] > 0) {
            int taken = byLane[pc] ? runByLane(e, w, branching[pc], pc, span[pc], 0, mask, runnable, steps) : 0;
            if (taken == 0) {
                taken = runBranching(e, w, pc, mask, runnable, steps);
            }
            if (taken != 0) {
                return taken;
            }
        }
        int n = length[pc];
        if (n < 2 || n > steps || w.wgmmaPending != null) {
            return 0;
        }
        CompiledRegion r = compiled[pc];
        if (r == null) {
            // Compiled where first needed: where a branching region starts, often never.
            boolean loops = span[pc] == 0 && loopsBack(pc, n);
            r = compiled[pc] = RegionCompiler.compile(ops, pc, n, checked, loops);
            if (r == null) {
                length[pc] = 0;
                return 0;
            }
            byLane[pc] = loops && RegionCompiler.runsByLane(ops, pc, n);
        }
        if (byLane[pc] && span[pc] == 0) {
            int taken = runByLane(e, w, r, pc, n, 0, mask, runnable, steps);
            if (taken != 0) {
                return taken;
            }
        }
        int pop = Integer.bitCount(mask);
        if (e.executed + (long) n * pop > e.ctaLimit) {
            return 0;
        }
        if (mask != runnable && (!e.fixedSchedule() || othersInside(w, mask, runnable, pc + n))) {
            // Diverged: the interpreter would run this group op by op only while it stays the lowest.
            return 0;
        }
        int rb = frame(w, mask);
        if (rb < 0) {
            return 0;
        }
        long before = e.executed;
        long[] regs = w.regs;
        int taken;
        try {
            taken = r.run(e, w, regs, rb << 5, mask, 0, steps);
        } catch (MemoryFault | ArithmeticException | IndexOutOfBoundsException | NegativeArraySizeException x) {
            // The op that failed is the last one counted (passes of n ops and the branch back before it).
            throw e.fault(x, ops[pc + (int) ((e.executed - before) / pop - 1) % (n + 1)], w);
        }
        return end(e, w, pc + n, mask, runnable, taken, steps, regs, rb);
    }

    /**
     * Runs the loop body r of n ops at start and the branch back after it lane by lane ({@link
     * CompiledRegion#lanes}), the lanes of mask at op {@code from} of it, in as many passes as the
     * steps and the budget left cover (where the body has branches, even if every pass ran every
     * op; where it has none, from op {@code from} to the op where they end); returns the steps
     * taken, 0 when it cannot run so. Where each lane runs its passes and the branch after each
     * by itself, the interpreter runs the warp's lanes together op by op, each op of a pass one
     * step for the lanes that reach it; those that leave the loop wait after it (a higher PC)
     * while the others go on. Either way every lane ends after the same passes with the same
     * registers (the ops touch only the lane's own), and the steps are those of the passes, each
     * the ops some lane ran in it and the branch back. So it runs only under the fixed schedule
     * (a seeded one may run the lanes that left the loop before the others have), for every
     * runnable lane of the warp in the loop: runnable lanes after it wait there (a higher PC) as
     * in the interpreter. In a body with branches the lanes may be at different ops of it (a turn
     * ended inside a pass): the lowest-PC rule runs the rest of that pass in program order, each
     * op once for the lanes that reach it, as each lane running on from its own op does.
     */
    private int runByLane(Engine e, Warp w, CompiledRegion r, int start, int n, int from, int mask, int runnable,
                          int steps) {
        if (r == null || !e.fixedSchedule() || w.wgmmaPending != null) {
            return 0;
        }
        boolean straight = span[start] == 0;
        int group = mask;
        for (int m = runnable & ~mask; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            int p = w.pc[l];
            if (p <= start + n) {
                // Inside the loop (the lanes of mask have the lowest PC): a body without branches
                // runs its lanes from one op only.
                if (straight) {
                    return 0;
                }
                group |= 1 << l;
            }
        }
        int pop = Integer.bitCount(group);
        // The steps whose instructions the budget covers.
        long covered = Math.min(steps, (e.ctaLimit - e.executed) / pop);
        int first = n + 1 - from;
        if (covered < first) {
            return 0;
        }
        int passes = (int) Math.min(MAX_PASSES, 1 + (covered - first) / (n + 1));
        int tail = straight && passes < MAX_PASSES ? (int) ((covered - first) % (n + 1)) : 0;
        int rb = frame(w, group);
        if (rb < 0) {
            return 0;
        }
        int[] visited = e.passesVisited;
        // Each lane's registers must be what the method's locals give back (checked once for the
        // lanes that have not been in this loop since anything else ran on the warp).
        if (w.fitStart != start) {
            w.fitStart = start;
            w.fitEnd = start + n;
            w.fitLanes = 0;
        }
        int unknown = group & ~w.fitLanes;
        if (unknown != 0 && !r.fits(e, w, w.regs, rb << 5, unknown)) {
            return 0;
        }
        w.fitLanes |= group;
        int ahead = straight ? 0 : passesAhead(e, w, start, n, group, runnable);
        if (ahead > 0) {
            int taken;
            // Where some lane did not leave the loop within the passes logged, again with a
            // longer log, up to its largest or what the budget allows; then never again for this
            // loop.
            while ((taken = LoopAhead.run(e, w, r, start, n, group, runnable, steps, rb, ahead)) == 0) {
                int more = ahead == e.passesVisited[LoopAhead.CAPACITY] && e.morePasses()
                        ? passesAhead(e, w, start, n, group, runnable) : 0;
                if (more <= ahead) {
                    tooLong[start] = true;
                    break;
                }
                ahead = more;
            }
            if (taken > 0) {
                return taken;
            }
            visited = e.passesVisited;
        }
        long ran = r.lanes(e, w, w.regs, rb << 5, group, from, passes, tail, visited);
        int most = (int) (ran >>> 32);
        int left = (int) ran;
        int taken;
        if (straight) {
            taken = first + (most - 1) * (n + 1) + (left != group ? tail : 0);
        } else {
            taken = LoopAhead.steps(visited, most);
            LoopAhead.clearUnions(visited, most);
        }
        e.advance(w, group & ~left, start + tail);
        e.advance(w, left, start + n + 1);
        if (most > 1 || left != group) {
            w.lastBackBranch = start + n;
        }
        // As Engine.branch leaves a uniform branch.
        w.uniformMask = group == runnable && (left == 0 || left == group) ? group : 0;
        return taken;
    }

    /**
     * The passes the warp's lanes of group, every runnable lane of the warp in the loop body with
     * branches from start (n ops and the branch back), may run ahead of the warp's turns ({@link
     * LoopAhead}), or 0 where they may not: under the fixed schedule without a trace, with no lane
     * of the warp waiting or polling, every lane of group in the kernel's own frame, the code after
     * the loop leading straight to the kernel's exit ({@link #exitsAfter}), and an instruction
     * budget that no interleaving of the cluster's warps can spend while they run their loop. As
     * many as the log holds, or fewer (a power of two, at least {@link #FIRST_PASSES}) where the
     * budget left covers no more.
     */
    private int passesAhead(Engine e, Warp w, int start, int n, int group, int runnable) {
        if (tooLong[start] || !exitsAfter(start + n + 1) || e.tracing() || (w.live & (w.blocked | w.spinning)) != 0
                || w.polledAt >= 0) {
            return 0;
        }
        for (int m = group; m != 0; m &= m - 1) {
            if (w.depth[Integer.numberOfTrailingZeros(m)] != 0) {
                return 0;
            }
        }
        // Its whole loop at most that many passes of n + 1 steps for each lane, and the cluster's
        // other warps as many turns of 256 steps, 64 thread-instructions a step at most.
        for (long passes = e.passesVisited[LoopAhead.CAPACITY]; passes >= FIRST_PASSES; passes /= 2) {
            long turns = passes * (n + 1) / Scheduler.SLICE + 2;
            long bound = passes * (n + 1) * 32 + turns * e.clusterWarps() * Scheduler.SLICE * 64L;
            if (e.ctaLimit - e.executed > bound) {
                return (int) passes;
            }
        }
        return 0;
    }

    /**
     * Whether the code from pc runs straight (no branch, call or return into a caller on the way)
     * to an unguarded exit, or ret of the kernel's own frame: a warp's lanes that reach pc there
     * leave the kernel, an event the scheduler sees ({@link LoopAhead}).
     */
    private boolean exitsAfter(int pc) {
        if (pc >= ops.length) {
            return false;
        }
        if (exits[pc] == 0) {
            byte verdict = -1;
            for (int p = pc; p < ops.length && ops[p].owner == ops[pc].owner; p++) {
                OpCode c = ops[p].code;
                if (c == OpCode.EXIT || c == OpCode.RET) {
                    verdict = (byte) (ops[p].guard < 0 ? 1 : -1);
                    break;
                }
                if (c == OpCode.BRA || c == OpCode.CALL || c == OpCode.LIBRARY_CALL || c == OpCode.TRAP
                        || c == OpCode.UNSUPPORTED) {
                    break;
                }
            }
            exits[pc] = verdict;
        }
        return exits[pc] > 0;
    }

    private int runBranching(Engine e, Warp w, int pc, int mask, int runnable, int steps) {
        CompiledRegion r = branching[pc];
        if (r == null || w.wgmmaPending != null || !e.fixedSchedule()) {
            return 0;
        }
        int end = pc + span[pc];
        // Other runnable lanes inside the region must wait at its targets, to join there.
        int inside = 0;
        for (int m = runnable & ~mask; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            int p = w.pc[l];
            if (p < end) {
                if ((targets[pc] >>> (p - pc) & 1) == 0) {
                    return 0;
                }
                inside |= 1 << l;
            }
        }
        int group = mask | inside;
        int rb = frame(w, group);
        if (rb < 0) {
            return 0;
        }
        long[] regs = w.regs;
        int taken = r.run(e, w, regs, rb << 5, mask, inside, steps);
        if (taken < 0) {
            // Stopped early: the lanes are at their PCs, no longer known to be at one.
            w.uniformMask = 0;
            return -1 - taken;
        }
        return end(e, w, end, group, runnable, taken, steps, regs, rb);
    }

    /** Whether a runnable lane outside mask sits before end (the lowest-PC group of mask is at or after its PC). */
    private static boolean othersInside(Warp w, int mask, int runnable, int end) {
        for (int m = runnable & ~mask; m != 0; m &= m - 1) {
            if (w.pc[Integer.numberOfTrailingZeros(m)] < end) {
                return true;
            }
        }
        return false;
    }

    /** The register frame the lanes of mask share, -1 when they do not. */
    private static int frame(Warp w, int mask) {
        int[] regBase = w.regBase;
        int rb = regBase[Integer.numberOfTrailingZeros(mask)];
        int other = 0;
        if (mask == -1) {
            for (int l = 0; l < 32; l++) {
                other |= regBase[l] ^ rb;
            }
        } else {
            for (int m = mask; m != 0; m &= m - 1) {
                other |= regBase[Integer.numberOfTrailingZeros(m)] ^ rb;
            }
        }
        return other == 0 ? rb : -1;
    }

    /**
     * After a region that took {@code taken} steps, the lanes of group all at end: runs the branch
     * there as the interpreter's next step would, if any, if it fits and if no other lane waits
     * there to join the group, else moves them to end.
     */
    private int end(Engine e, Warp w, int end, int group, int runnable, int taken, int steps, long[] regs, int rb) {
        Op bra = end < ops.length ? ops[end] : null;
        w.uniformMask = 0;
        int pop = Integer.bitCount(group);
        if (bra != null && bra.code == OpCode.BRA && taken < steps && e.executed + pop <= e.ctaLimit
                && (group == runnable || CompiledRegion.lanesAt(w.pc, runnable & ~group, end) == 0)) {
            e.executed += pop;
            int exec = bra.guard < 0 ? group
                    : CompiledRegion.guard(regs, (rb + bra.guard) << 5, group, bra.guardNegated);
            e.branch(w, bra, end, group, exec);
            return taken + 1;
        }
        e.advance(w, group, end);
        if (group == (w.live & ~w.blocked)) {
            w.uniformMask = group;
        }
        return taken;
    }

    /** Whether the n ops from pc are followed by a branch back to pc (a loop the region may run in place). */
    private boolean loopsBack(int pc, int n) {
        Op bra = pc + n < ops.length ? ops[pc + n] : null;
        return bra != null && bra.code == OpCode.BRA && bra.target == pc;
    }

    private void compileBranching(int pc) {
        if (span[pc] > 0) {
            boolean loops = loopsBack(pc, span[pc]);
            CompiledRegion r = RegionCompiler.compile(ops, pc, span[pc], checked, loops);
            if (r == null) {
                span[pc] = 0;
            } else {
                branching[pc] = r;
                byLane[pc] = loops && RegionCompiler.runsByLane(ops, pc, span[pc]);
            }
        }
    }
}
