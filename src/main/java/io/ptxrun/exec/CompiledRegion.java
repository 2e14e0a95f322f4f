package io.ptxrun.exec;

/**
 * A region of lane-local ops compiled to JVM bytecode by {@link RegionCompiler}: one method runs
 * the ops, in the interpreter's order, for a group of lanes that are at the region's first op and
 * share one register frame. A straight region runs its ops one after the other; a branching
 * region (inline ops and forward branches, see {@link Regions}) runs them in program order, each
 * for the lanes that have reached it. Each op is counted as the interpreter counts it, before it
 * runs.
 */
abstract class CompiledRegion {
    /** The program's ops (the region calls the interpreter's definitions of those it does not inline). */
    final Op[] ops;
    /** Index of the region's first op and the number of ops it holds. */
    final int start, length;

    CompiledRegion(Op[] ops, int start, int length) {
        this.ops = ops;
        this.start = start;
        this.length = length;
    }

    /**
     * Runs the region's ops for the lanes of {@code mask}, whose registers start at
     * {@code regs[base]} (register r of lane l at {@code base + (r << 5) + l}), in at most
     * {@code steps} steps; in a branching region the lanes of {@code others} that wait at its
     * branch targets join there (the caller has checked that no other runnable lane is inside); returns the steps taken, the lanes' PCs at the region's end left to the
     * caller. A straight region runs all its ops (the caller has checked that they fit); a
     * branching region stops early where the steps or the instruction budget left do not cover
     * the next ops, its lanes at their PCs, and then returns -1 minus the steps taken.
     */
    abstract int run(Engine e, Warp w, long[] regs, int base, int mask, int others, int steps);

    /** The lanes of mask whose guard predicate, at regs[at + lane], lets them execute (as {@link Engine#guarded}). */
    static int guard(long[] regs, int at, int mask, boolean negated) {
        // Without a branch on the predicate (data: a branch would mispredict).
        int set = 0;
        for (int m = mask; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            long p = regs[at + l];
            set |= (int) ((p | -p) >>> 63) << l;
        }
        return negated ? mask & ~set : set;
    }

    /** The lanes of {@code lanes} whose PC is pc. */
    static int lanesAt(int[] pcs, int lanes, int pc) {
        int at = 0;
        for (int m = lanes; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            if (pcs[l] == pc) {
                at |= 1 << l;
            }
        }
        return at;
    }
}
