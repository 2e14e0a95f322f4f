package io.ptxrun.exec;

import io.ptxrun.ast.DataType;

import static io.ptxrun.exec.Bits.zx;

/**
 * Warp-wide operations: shfl, vote, redux, match and elect, and the checks of their member masks
 * and bar.warp.sync's with the hazard detector. Each reads the values of all
 * participating lanes before writing any, so the scratch arrays (one set per engine, which runs one
 * warp step at a time) keep the results apart from the sources without allocating per step.
 */
final class WarpOps {
    /** shfl's mode: .up, .down, .bfly or .idx. */
    enum ShuffleMode implements OpForm { UP, DOWN, BFLY, IDX }

    /** vote's mode: .all, .any, .uni or .ballot. */
    enum VoteMode implements OpForm { ALL, ANY, UNI, BALLOT }

    /** match's mode: .any or .all. */
    enum MatchMode implements OpForm { ANY, ALL }

    /** redux's operation on integers. */
    enum ReduxOp implements OpForm { ADD, MIN, MAX, AND, OR, XOR }

    /**
     * redux's .min or .max of .f32 values: of their absolute values with .abs; with .NaN a NaN
     * among them makes the result the canonical NaN, without it NaNs are left out (the result is
     * the canonical NaN only when every value is one). +0.0 counts as greater than -0.0.
     */
    record FloatReduction(boolean max, boolean abs, boolean nan) implements OpForm {
    }

    private final Engine engine;
    private final long[] values = new long[32];
    private final long[] results = new long[32];
    private final boolean[] flags = new boolean[32];

    WarpOps(Engine engine) {
        this.engine = engine;
    }

    /**
     * A warp collective for the lanes of mask at op pc, those of exec executing it (their guard
     * passed): the members named (.sync) checked, the values exchanged, the lanes moved on.
     */
    void execute(Warp w, Op op, int pc, int mask, int exec) {
        switch (op.code) {
            case SHFL -> {
                memberMask(w, op, pc, mask, exec);
                shfl(w, op, exec);
            }
            case VOTE -> {
                memberMask(w, op, pc, mask, exec);
                vote(w, op, exec);
            }
            case ACTIVEMASK -> activemask(w, op, exec);
            case REDUX, MATCH, ELECT -> {
                memberMask(w, op, pc, mask, exec);
                collective(w, op, exec);
            }
            case BAR_WARP -> warpSync(w, op, pc, mask, exec);
            default -> throw new IllegalStateException(op.code + " is no warp collective");
        }
        engine.advance(w, mask, pc + 1);
    }

    private void shfl(Warp w, Op op, int exec) {
        long[] vals = values;
        boolean[] ok = flags;
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            int b = (int) engine.operands.read(w, op, 1, l) & 31;
            int c = (int) engine.operands.read(w, op, 2, l);
            int seg = (c >>> 8) & 31;
            int maxLane = (l & seg) | (c & 31 & ~seg);
            int minLane = l & seg;
            int j;
            boolean p;
            switch ((ShuffleMode) op.form) {
                case UP -> {
                    j = l - b;
                    p = j >= maxLane;
                }
                case DOWN -> {
                    j = l + b;
                    p = j <= maxLane;
                }
                case BFLY -> {
                    j = l ^ b;
                    p = j <= maxLane;
                }
                default -> {
                    j = minLane | (b & ~seg);
                    p = j <= maxLane;
                }
            }
            if (!p) {
                j = l;
            }
            vals[l] = engine.operands.read(w, op, 0, j) & 0xffffffffL;
            ok[l] = p;
        }
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            engine.operands.write(w, op, 0, l, vals[l]);
            if (op.dst.length > 1) {
                engine.operands.write(w, op, 1, l, ok[l] ? 1 : 0);
            }
        }
    }

    private static long reduce(Op op, DataType t, long[] vals, int group) {
        if (op.form instanceof FloatReduction f) {
            return reduce(f, vals, group);
        }
        long acc = 0;
        boolean first = true;
        for (int m = group; m != 0; m &= m - 1) {
            long v = vals[Integer.numberOfTrailingZeros(m)];
            if (first) {
                acc = v;
                first = false;
                continue;
            }
            acc = switch ((ReduxOp) op.form) {
                case ADD -> acc + v;
                case MIN -> t.isSigned() ? Math.min(acc, v) : (Long.compareUnsigned(acc, v) <= 0 ? acc : v);
                case MAX -> t.isSigned() ? Math.max(acc, v) : (Long.compareUnsigned(acc, v) >= 0 ? acc : v);
                case AND -> acc & v;
                case OR -> acc | v;
                case XOR -> acc ^ v;
            };
        }
        return acc;
    }

    /** {@link #reduce} of f32 values (the low 32 bits of each), as PTX ISA's redux.sync describes. */
    private static long reduce(FloatReduction f, long[] vals, int group) {
        float acc = Float.NaN;
        for (int m = group; m != 0; m &= m - 1) {
            float v = Float.intBitsToFloat((int) vals[Integer.numberOfTrailingZeros(m)]);
            if (f.abs()) {
                v = Math.abs(v);
            }
            if (Float.isNaN(v)) {
                if (f.nan()) {
                    return FloatOps.CANONICAL_NAN_F32;
                }
            } else if (Float.isNaN(acc)) {
                acc = v;
            } else {
                // Math.min and max order -0.0 before +0.0, as redux does.
                acc = f.max() ? Math.max(acc, v) : Math.min(acc, v);
            }
        }
        return Float.isNaN(acc) ? FloatOps.CANONICAL_NAN_F32 : Float.floatToRawIntBits(acc) & 0xffffffffL;
    }

    /** activemask: each lane of exec gets the mask of exec. */
    private void activemask(Warp w, Op op, int exec) {
        for (int m = exec; m != 0; m &= m - 1) {
            engine.operands.write(w, op, 0, Integer.numberOfTrailingZeros(m), exec & 0xffffffffL);
        }
    }

    /** redux, match and elect. */
    private void collective(Warp w, Op op, int exec) {
        if (exec == 0) {
            return;
        }
        switch (op.code) {
            case REDUX -> {
                DataType t = op.type;
                long[] vals = values;
                for (int m = exec; m != 0; m &= m - 1) {
                    int l = Integer.numberOfTrailingZeros(m);
                    vals[l] = IntegerOps.ext(engine.operands.read(w, op, 0, l), t);
                }
                long[] res = results;
                for (int m = exec; m != 0; m &= m - 1) {
                    int l = Integer.numberOfTrailingZeros(m);
                    res[l] = reduce(op, t, vals, members(w, op, l, exec) | (1 << l));
                }
                for (int m = exec; m != 0; m &= m - 1) {
                    int l = Integer.numberOfTrailingZeros(m);
                    engine.operands.write(w, op, 0, l, zx(res[l], 32));
                }
            }
            case MATCH -> {
                int bits = op.type.bits;
                long[] vals = values;
                for (int m = exec; m != 0; m &= m - 1) {
                    int l = Integer.numberOfTrailingZeros(m);
                    vals[l] = zx(engine.operands.read(w, op, 0, l), bits);
                }
                long[] res = results;
                boolean[] allSame = flags;
                for (int m = exec; m != 0; m &= m - 1) {
                    int l = Integer.numberOfTrailingZeros(m);
                    int group = members(w, op, l, exec) | (1 << l);
                    int same = 0;
                    for (int k = group; k != 0; k &= k - 1) {
                        int j = Integer.numberOfTrailingZeros(k);
                        if (vals[j] == vals[l]) {
                            same |= 1 << j;
                        }
                    }
                    allSame[l] = same == group;
                    res[l] = op.form == MatchMode.ALL ? (allSame[l] ? group & 0xffffffffL : 0) : same & 0xffffffffL;
                }
                for (int m = exec; m != 0; m &= m - 1) {
                    int l = Integer.numberOfTrailingZeros(m);
                    engine.operands.write(w, op, 0, l, res[l]);
                    if (op.dst.length > 1) {
                        engine.operands.write(w, op, 1, l, allSame[l] ? 1 : 0);
                    }
                }
            }
            default -> {
                int member = (int) engine.operands.read(w, op, 0, Integer.numberOfTrailingZeros(exec));
                int candidates = exec & member;
                int leader = candidates == 0 ? -1 : Integer.numberOfTrailingZeros(candidates);
                for (int m = exec; m != 0; m &= m - 1) {
                    int l = Integer.numberOfTrailingZeros(m);
                    engine.operands.write(w, op, 0, l, leader < 0 ? 0 : leader);
                    if (op.dst.length > 1) {
                        engine.operands.write(w, op, 1, l, l == leader ? 1 : 0);
                    }
                }
            }
        }
    }

    /** The lanes lane l synchronises with: its membermask (last operand) among the lanes running. */
    private int members(Warp w, Op op, int l, int exec) {
        int n = op.sources();
        return n > 1 ? exec & (int) engine.operands.read(w, op, n - 1, l) : exec;
    }

    private void vote(Warp w, Op op, int exec) {
        int ballotAll = 0;
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            if ((engine.operands.read(w, op, 0, l) & 1) != 0) {
                ballotAll |= 1 << l;
            }
        }
        // Each lane votes among its own membermask (tiles of a warp vote separately).
        long[] out = results;
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            int group = members(w, op, l, exec) | (1 << l);
            int ballot = ballotAll & group;
            out[l] = switch ((VoteMode) op.form) {
                case ALL -> ballot == group ? 1 : 0;
                case ANY -> ballot != 0 ? 1 : 0;
                case UNI -> ballot == 0 || ballot == group ? 1 : 0;
                case BALLOT -> ballot & 0xffffffffL;
            };
        }
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            engine.operands.write(w, op, 0, l, out[l]);
        }
    }

    /** bar.warp.sync: the lanes each mask names sync with each other (only the hazard detector cares). */
    private void warpSync(Warp w, Op op, int pc, int mask, int exec) {
        if (engine.order == null) {
            return;
        }
        int done = 0;
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            if ((done & (1 << l)) != 0) {
                continue;
            }
            // Lanes may name different groups (tiled partitions): each group syncs on its own.
            int named = (int) engine.operands.read(w, op, 0, l);
            int group = 0;
            for (int k = exec & ~done; k != 0; k &= k - 1) {
                int j = Integer.numberOfTrailingZeros(k);
                if ((int) engine.operands.read(w, op, 0, j) == named) {
                    group |= 1 << j;
                }
            }
            done |= group;
            checkWarpCollective(w, op, pc, mask, group, named);
            engine.order.warpSync(engine.ordering.slot(w, 0), group & named);
        }
    }

    /**
     * A warp-collective with a member mask (shfl/vote/match/redux .sync, bar.warp.sync): every lane
     * the mask names must execute this instruction. Lanes that exited, that the guard turned off,
     * or that are already past it (the scheduler runs the lowest PC first, so they took another
     * path) will not: undefined behaviour (9.7.13.2 and the .sync forms), reported as a hazard.
     */
    private void memberMask(Warp w, Op op, int pc, int mask, int exec) {
        if (engine.order == null || exec == 0 || !op.sync() || op.sources() == 0) {
            return;
        }
        int k = op.sources() - 1;
        int done = 0;
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            if ((done & (1 << l)) == 0) {
                int named = (int) engine.operands.read(w, op, k, l);
                int group = 0;
                for (int r = exec & ~done; r != 0; r &= r - 1) {
                    int j = Integer.numberOfTrailingZeros(r);
                    if ((int) engine.operands.read(w, op, k, j) == named) {
                        group |= 1 << j;
                    }
                }
                done |= group;
                checkWarpCollective(w, op, pc, mask, group, named);
            }
        }
    }

    private void checkWarpCollective(Warp w, Op op, int pc, int mask, int exec, int named) {
        int absent = 0;
        for (int m = named & ~exec & w.live; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            // Exited lanes are not waited for (the .sync forms wait for non-exited members). Under
            // a seeded schedule lanes may run ahead of their warp; only the fixed schedule (lowest
            // PC first) tells a lane that took another path from one that is merely late.
            if ((mask & (1 << l)) != 0
                    || (engine.fixedSchedule() && (w.pc[l] > pc || ((w.blocked & (1 << l)) != 0 && w.blockedAt[l] != pc)))) {
                absent |= 1 << l;
            }
        }
        int outside = exec & ~named;
        if (absent != 0 || outside != 0) {
            int l0 = Integer.numberOfTrailingZeros(absent != 0 ? exec : outside);
            String why = absent != 0
                    ? String.format("lanes 0x%08x of them do not execute it (guarded off, or on another path) while"
                    + " lanes 0x%08x do; every non-exited lane the mask names must execute the same instruction",
                    absent, exec)
                    : String.format("lanes 0x%08x execute it without being named (undefined when the executing"
                    + " thread is not in the member mask)", outside);
            engine.hazard(op, pc, "divergence.warp-sync", String.format("'%s' with member mask 0x%08x: %s (%s)",
                    op.mnemonic(), named, why, engine.where(w, l0)));
        }
    }
}
