package io.ptxrun.exec;

import io.ptxrun.ast.DataType;

/**
 * Plain ld and st for a whole group of lanes at once, as {@link LaneOps#run} runs the commonest
 * arithmetic: every lane's address is computed and checked first, the memory is resolved once for
 * the group, then the values move and the hazard detector sees each lane's access in lane order.
 * Only the ordinary case is taken (scalar or vector accesses of 1, 2, 4 or 8 bytes a element, to
 * the CTA's own shared memory or to one global allocation, generic addresses included when every
 * lane's falls in the same one of those windows); anything else, and any access that would fault,
 * is left to the per-lane definition in {@link Engine}, which then runs from the first lane as if
 * this had not been tried. So the two give the same values, faults, reports and statistics.
 */
final class WarpMemory {
    private final Engine engine;
    /** Each lane's address in the resolved space (shared offset, or global address). */
    private final long[] address = new long[32];

    WarpMemory(Engine engine) {
        this.engine = engine;
    }

    /** Whether the op has the form this class runs (the lanes' addresses decide the rest). */
    static boolean applies(Op op) {
        OpCode c = op.code;
        int kind = op.mem.addressKind();
        if ((c != OpCode.LD && c != OpCode.ST) || op.mem.strong()
                || (kind != MemoryAccess.REGISTER && kind != MemoryAccess.ABSOLUTE)) {
            return false;
        }
        Space space = op.mem.space();
        if (space != Space.SHARED && space != Space.GLOBAL && space != Space.GENERIC) {
            return false;
        }
        int size = op.type.bytes();
        return size == 1 || size == 2 || size == 4 || size == 8;
    }

    /**
     * Runs the op at {@code pc} for the lanes of exec (not none) and returns true, or returns false
     * having changed nothing (the op or one of the lanes' accesses is not the ordinary case).
     */
    boolean run(Warp w, Op op, int pc, int exec) {
        if (!applies(op)) {
            return false;
        }
        DataType t = op.type;
        int size = t.bytes();
        boolean load = op.code == OpCode.LD;
        int n = load ? op.dst.length : op.sources();
        int span = size * n;
        long misaligned = op.mem.misalignedBits(size);
        Space space = op.mem.space();
        boolean generic = space == Space.GENERIC;
        long[] at = address;
        long lo = Long.MAX_VALUE, hi = Long.MIN_VALUE;
        // Plain loops over all 32 lanes (a lane test each) rather than over the mask's bits: the
        // whole warp is the common case, and the JIT unrolls these.
        for (int l = 0; l < 32; l++) {
            if ((exec & (1 << l)) == 0) {
                continue;
            }
            long a = engine.memory.address(w, op, l);
            if ((a & misaligned) != 0) {
                return false;
            }
            if (generic) {
                Space s = Space.ofGeneric(a);
                a -= s.window;
                if (s != space) {
                    if (space != Space.GENERIC || (s != Space.SHARED && s != Space.GLOBAL)) {
                        return false;
                    }
                    space = s;
                }
            }
            at[l] = a;
            lo = Math.min(lo, a);
            hi = Math.max(hi, a);
        }
        byte[] mem;
        long base;
        GlobalMemory.Allocation alloc = null;
        if (space == Space.SHARED) {
            mem = engine.cta().shared;
            base = 0;
            // The CTA's own window only: addresses of peer CTAs (distributed shared memory) and
            // accesses past the end are the per-lane path's to resolve or report.
            if (lo < 0 || hi > Math.min(mem.length, Cta.DSMEM_SPAN) - span) {
                return false;
            }
        } else {
            // Every lane in one allocation, or the per-lane path finds each lane's (or the fault).
            alloc = hi - lo > Integer.MAX_VALUE ? null : engine.global().holding(lo, (int) (hi - lo) + span);
            if (alloc == null) {
                return false;
            }
            mem = alloc.data();
            base = alloc.start();
        }
        long[] regs = w.regs;
        int[] regBase = w.regBase;
        if (load) {
            for (int k = 0; k < n; k++) {
                int d = op.dst[k];
                if (d < 0) {
                    continue;
                }
                int bits = op.dstBits[k];
                int shift = k * size;
                for (int l = 0; l < 32; l++) {
                    if ((exec & (1 << l)) != 0) {
                        regs[((regBase[l] + d) << 5) | l] = Bits.loaded(Bytes.get(mem, (int) (at[l] - base) + shift, size), t, bits);
                    }
                }
            }
        } else {
            engine.progressed();
            if (alloc != null) {
                // The pages of the lanes' whole range, once (those between the lanes too).
                alloc.beforeWrite((int) (lo - base), (int) (hi - lo) + span);
            }
            for (int l = 0; l < 32; l++) {
                if ((exec & (1 << l)) != 0) {
                    int off = (int) (at[l] - base);
                    for (int k = 0; k < n; k++) {
                        Bytes.put(mem, off + k * size, size, engine.operands.read(w, op, k, l));
                    }
                }
            }
        }
        if (engine.order != null) {
            engine.ordering.orderedLanes(w, exec, pc, space, at, span, !load);
        }
        return true;
    }
}
