package io.ptxrun.exec;

/**
 * The compiled tier of the engine. A region is a maximal run of lane-local ops of one function
 * (see {@link Engine#isLaneLocal}) without a branch target after its first op, starting wherever a
 * lane group enters it; a branch right after it runs with it. The interpreter
 * counts entries of each op index; at {@link #HOT} entries the region starting there is compiled
 * ({@link RegionCompiler}), and later entries run it whenever doing so is indistinguishable from
 * interpreting it op by op: the group stays the lowest-PC group for the whole region (no other
 * runnable lane waits inside it, so none would have joined), the budget covers every op, the warp
 * turn has that many steps left, and the group's lanes share one register frame. Otherwise the
 * interpreter runs the op. Shared by the workers of a launch: racing compilations of one region
 * are harmless (the last one stays).
 */
final class Regions {
    /** Entries of an op index before the region starting there is compiled. */
    static final int HOT = 64;
    /** Ops of one compiled method at most (the JVM does not compile methods beyond 8000 bytes of bytecode). */
    static final int MAX_OPS = 32;

    private final Op[] ops;
    /** Entries before a region is compiled: HOT, or 1 to compile every region at once. */
    private final int threshold;
    /** Lane-local ops from each index on (capped at MAX_OPS); below 2 nothing is compiled there. */
    private final int[] length;
    private final int[] heat;
    private final CompiledRegion[] compiled;

    Regions(Op[] ops, int threshold) {
        this.ops = ops;
        this.threshold = threshold;
        int n = ops.length;
        length = new int[n];
        heat = new int[n];
        compiled = new CompiledRegion[n];
        // Regions end before branch targets too: lanes that wait there for the group to join them
        // would keep the group from running its region (see run), and the joined group runs the next.
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
        }
    }

    /**
     * Runs the compiled region at pc for the lanes of mask (the lowest-PC group of the runnable
     * lanes), in at most {@code steps} steps; returns the ops it ran, 0 when the interpreter must
     * run the op instead.
     */
    int run(Engine e, Warp w, int pc, int mask, int runnable, int steps) {
        int n = length[pc];
        if (n < 2) {
            return 0;
        }
        CompiledRegion r = compiled[pc];
        if (r == null) {
            if (++heat[pc] < threshold) {
                return 0;
            }
            r = compile(pc, n);
            if (r == null) {
                return 0;
            }
        }
        if (n > steps || w.wgmmaPending != null) {
            return 0;
        }
        int pop = Integer.bitCount(mask);
        if (e.executed + (long) n * pop > e.ctaLimit) {
            return 0;
        }
        if (mask != runnable) {
            // Diverged: the interpreter would run this group op by op only while it stays the lowest.
            if (!e.fixedSchedule()) {
                return 0;
            }
            for (int m = runnable & ~mask; m != 0; m &= m - 1) {
                int p = w.pc[Integer.numberOfTrailingZeros(m)];
                if (p < pc + n) {
                    return 0;
                }
            }
        }
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
        if (other != 0) {
            return 0;
        }
        long before = e.executed;
        long[] regs = w.regs;
        try {
            r.run(e, w, regs, rb << 5, mask, pop);
        } catch (MemoryFault | ArithmeticException | IndexOutOfBoundsException | NegativeArraySizeException x) {
            // The op that failed is the last one counted.
            throw e.fault(x, ops[pc + (int) ((e.executed - before) / pop) - 1], w);
        }
        int end = pc + n;
        Op bra = end < ops.length ? ops[end] : null;
        w.uniformMask = 0;
        if (bra != null && bra.code == OpCode.BRA && n < steps && e.executed + pop <= e.ctaLimit) {
            // The branch that ends the region, as the interpreter's next step would run it.
            e.executed += pop;
            int exec = bra.guard < 0 ? mask
                    : CompiledRegion.guard(regs, (rb + bra.guard) << 5, mask, bra.guardNegated);
            e.branch(w, bra, end, mask, exec);
            return n + 1;
        }
        e.advance(w, mask, end);
        if (mask == (w.live & ~w.blocked)) {
            w.uniformMask = mask;
        }
        return n;
    }

    private CompiledRegion compile(int pc, int n) {
        CompiledRegion r = RegionCompiler.compile(ops, pc, n);
        if (r == null) {
            length[pc] = 0;
        } else {
            compiled[pc] = r;
        }
        return r;
    }
}
