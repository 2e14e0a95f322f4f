package io.ptxrun.exec;

/**
 * A straight-line region of lane-local ops compiled to JVM bytecode by {@link RegionCompiler}:
 * one method runs the ops, in order, for a group of lanes that are at the region's first op and
 * share one register frame. Each op is counted as the interpreter counts it, before it runs.
 */
abstract class CompiledRegion {
    /** The program's ops (the region calls the interpreter's definitions of those it does not inline). */
    final Op[] ops;
    /** Index of the region's first op and the number of ops it runs. */
    final int start, length;

    CompiledRegion(Op[] ops, int start, int length) {
        this.ops = ops;
        this.start = start;
        this.length = length;
    }

    /**
     * Runs the region's ops for the lanes of {@code mask} ({@code pop} of them), whose registers
     * start at {@code regs[base]} (register r of lane l at {@code base + (r << 5) + l}).
     */
    abstract void run(Engine e, Warp w, long[] regs, int base, int mask, int pop);

    /** The lanes of mask whose guard predicate, at regs[at + lane], lets them execute (as {@link Engine#guarded}). */
    static int guard(long[] regs, int at, int mask, boolean negated) {
        int exec = 0;
        for (int m = mask; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            if ((regs[at + l] != 0) != negated) {
                exec |= 1 << l;
            }
        }
        return exec;
    }
}
