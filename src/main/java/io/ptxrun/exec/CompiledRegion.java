package io.ptxrun.exec;

import io.ptxrun.ast.DataType;

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
     * the next ops, its lanes at their PCs, and then returns -1 minus the steps taken. A region
     * followed by a branch back to its start may run that branch and itself again in place, as
     * the next steps would (see {@link RegionCompiler}'s loopBack), before it returns.
     */
    abstract int run(Engine e, Warp w, long[] regs, int base, int mask, int others, int steps);

    /**
     * Runs a loop body ({@link RegionCompiler#runsByLane}: inline ops and forward branches, followed
     * by a branch back to its start) lane by lane for the lanes of {@code mask}, in it and sharing
     * the register frame at {@code regs[base]}: each lane runs passes of the body and the branch
     * back, its registers in JVM locals, until the branch lets it leave the loop or it has run
     * {@code passes} passes, its first pass the rest of the body from its op (n: the branch back
     * alone). In a body without branches the lanes are all at op {@code from}, and end, where the
     * lane has not left, with the first {@code tail} ops of the next pass; in a body with branches
     * each lane starts at its own op, {@code w.pc[lane]} ({@code tail} is 0), and its passes are
     * logged ({@link LoopAhead}).
     * The instructions are counted into {@code e.executed}. The ops touch only each lane's own
     * registers and cannot fail, so running lane after lane cannot be told from running the warp's
     * groups op by op (see {@link Regions}). Returns the most passes any lane ran in the high 32
     * bits and the lanes that left the loop in the low 32; the lanes' PCs are left to the caller.
     * The caller has checked that the lanes' registers hold values that its locals give back
     * ({@link #fits}).
     */
    long lanes(Engine e, Warp w, long[] regs, int base, int mask, int from, int passes, int tail, int[] visited) {
        throw new UnsupportedOperationException("not a loop body run lane by lane");
    }

    /**
     * Whether, for a loop body run lane by lane, each register held in a local of another kind
     * than a long that the body writes holds, in every lane of {@code lanes} (whose registers
     * start at {@code regs[base]}), a value that its local gives back as {@link #lanes} fetches
     * and writes it back (a 32-bit register with a clear upper half, a predicate of 0 or 1, an f32
     * register whose bits are those its float gives): {@link #lanes} writes every such register
     * back, whether the lane wrote it or not, and may run only where that changes nothing.
     */
    boolean fits(Engine e, Warp w, long[] regs, int base, int lanes) {
        throw new UnsupportedOperationException("not a loop body run lane by lane");
    }

    /** The CTA's shared memory for a region's own loads and stores of it ({@link RegionCompiler#isInlineShared}). */
    static byte[] inlineShared(Engine e) {
        return e.cta.shared;
    }

    /**
     * With the hazard detector on, hands it a plain ld or st of the CTA's own shared memory that a
     * region runs itself, by the lanes of exec, as {@link WarpMemory} does: each lane's access in
     * lane order. Called before the op moves any value (the address registers still hold the
     * addresses); the checks look at nothing the op changes.
     */
    static void ordered(Engine e, Warp w, long[] regs, int base, int exec, Op op, int pc) {
        if (e.order == null || exec == 0) {
            return;
        }
        long[] at = e.laneAddresses;
        long offset = op.mem.offset();
        int r = op.mem.addressKind() == MemoryAccess.REGISTER ? base + (op.mem.register() << 5) : -1;
        if (exec == -1 && r >= 0) {
            // The whole warp, the commonest case: a loop the JIT unrolls and vectorises.
            for (int l = 0; l < 32; l++) {
                at[l] = regs[r + l] + offset;
            }
        } else {
            for (int m = exec; m != 0; m &= m - 1) {
                int l = Integer.numberOfTrailingZeros(m);
                at[l] = (r < 0 ? 0 : regs[r + l]) + offset;
            }
        }
        boolean load = op.code == OpCode.LD;
        int n = load ? op.dst.length : op.sources();
        e.ordering.orderedLanes(w, exec, pc, Space.SHARED, at, op.type.bytes() * n, !load);
    }

    /**
     * {@link #ordered} for each load among the {@code n} ops from {@code ops[first]} (a fused run,
     * see {@link RegionCompiler}), in program order: one call from a region for all of them.
     */
    static void orderedLoads(Engine e, Warp w, long[] regs, int base, int exec, Op[] ops, int first, int n) {
        // A whole warp's loads are logged at once where they can be (AccessOrdering.sharedLoads).
        int from = e.order != null && exec == -1 ? e.ordering.sharedLoads(w, regs, base, ops, first, n) : first;
        for (int pc = from; pc < first + n; pc++) {
            if (ops[pc].code == OpCode.LD) {
                ordered(e, w, regs, base, exec, ops[pc], pc);
            }
        }
    }

    /**
     * {@link WarpMemory}'s case of the CTA's own shared memory for a plain ld or st of a region
     * ({@link RegionCompiler#isInlineShared}) by the lanes of exec, whose registers start at
     * {@code regs[base]}, handed to the hazard detector as there ({@link #ordered}). Every lane's
     * address is checked first (aligned, and inside the CTA's own window, as there); where one is
     * not, nothing has changed, it returns false, and the caller runs the op as the interpreter
     * does, which reports any fault.
     */
    static boolean shared(Engine e, Warp w, long[] regs, int base, int exec, Op op, int pc) {
        byte[] mem = inlineShared(e);
        if (exec == 0) {
            return false;
        }
        DataType t = op.type;
        int size = t.bytes();
        boolean load = op.code == OpCode.LD;
        int n = load ? op.dst.length : op.sources();
        long misaligned = op.mem.misalignedBits(size);
        // An access starts at an offset in [0, limit]: the CTA's own window only (peer CTAs'
        // addresses, distributed shared memory, are the per-lane path's to resolve).
        long limit = Math.min(mem.length, Cta.DSMEM_SPAN) - (long) size * n;
        long offset = op.mem.offset();
        // Where each lane's address register starts (absolute addresses: the offset alone).
        int at = op.mem.addressKind() == MemoryAccess.REGISTER ? base + (op.mem.register() << 5) : -1;
        // The misaligned bits or the sign bit end up set where some lane's address is misaligned
        // or outside [0, limit].
        long bad;
        if (at < 0) {
            bad = (offset & misaligned) | offset | (limit - offset);
        } else {
            bad = 0;
            if (exec == -1) {
                for (int l = 0; l < 32; l++) {
                    long a = regs[at + l] + offset;
                    bad |= (a & misaligned) | a | (limit - a);
                }
            } else {
                for (int m = exec; m != 0; m &= m - 1) {
                    long a = regs[at + Integer.numberOfTrailingZeros(m)] + offset;
                    bad |= (a & misaligned) | a | (limit - a);
                }
            }
        }
        if ((bad & (misaligned | Long.MIN_VALUE)) != 0) {
            return false;
        }
        ordered(e, w, regs, base, exec, op, pc);
        if (load) {
            // Lane by lane, the lane's address read once: a vector load may write its own address register.
            for (int m = exec; m != 0; m &= m - 1) {
                int l = Integer.numberOfTrailingZeros(m);
                long a = (at < 0 ? 0 : regs[at + l]) + offset;
                for (int k = 0; k < n; k++) {
                    int d = op.dst[k];
                    if (d >= 0) {
                        long v = Bytes.get(mem, (int) (a + (long) k * size), size);
                        regs[base + (d << 5) + l] = Bits.loaded(v, t, op.dstBits[k]);
                    }
                }
            }
        } else {
            e.progressed();
            for (int m = exec; m != 0; m &= m - 1) {
                int l = Integer.numberOfTrailingZeros(m);
                int a = (int) ((at < 0 ? 0 : regs[at + l]) + offset);
                for (int k = 0; k < n; k++) {
                    // As Engine.read gives the value.
                    long v = op.srcKind[k] == Op.IMM ? op.imm[k]
                            : regs[base + (op.src[k] << 5) + l] ^ (op.srcNegated[k] ? 1 : 0);
                    Bytes.put(mem, a + k * size, size, v);
                }
            }
        }
        e.ranGroup(exec);
        return true;
    }

    /** The lanes of mask whose guard predicate, at regs[at + lane], lets them execute (as {@link Engine#guarded}). */
    static int guard(long[] regs, int at, int mask, boolean negated) {
        // Without a branch on the predicate (data: a branch would mispredict).
        int set = 0;
        if (mask == -1) {
            // The whole warp: a plain loop, which the JIT unrolls.
            for (int l = 0; l < 32; l++) {
                long p = regs[at + l];
                set |= (int) ((p | -p) >>> 63) << l;
            }
            return negated ? ~set : set;
        }
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
