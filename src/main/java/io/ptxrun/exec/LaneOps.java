package io.ptxrun.exec;

import io.ptxrun.ast.DataType;
import io.ptxrun.ast.SpecialRegister;

import static io.ptxrun.exec.Bits.zx;
import static io.ptxrun.exec.FloatOps.bits32;
import static io.ptxrun.exec.FloatOps.f32;

/**
 * The lane-local operations (those {@link Engine#isLaneLocal} names): they change only registers
 * and memory, and their lanes go on to the next op. For the lanes of a group this reads each
 * lane's sources, hands them to the family that defines the operation ({@link IntegerOps}, {@link
 * FloatArithmetic}, {@link Comparisons}, {@link Convert}, {@link LaneMemory}, {@link Atomics}) and
 * writes its results; the commonest forms run as loops over the whole group, and ld/st as {@link
 * WarpMemory}'s whole-group accesses where those apply. Compiled regions call {@link #run} for all
 * but the simple forms they inline ({@link #isFastInteger}, {@link #isFastF32}, {@link
 * #isFastSetp}), so interpreter and compiler share every definition.
 */
final class LaneOps {
    private LaneOps() {}

    /** The op for the lanes of exec (the compiled code calls this too). */
    static void run(Engine e, Warp w, Op op, int exec) {
        if (!fastInteger(e, w, op, exec) && !fastF32(e, w, op, exec) && !fastSetp(e, w, op, exec)) {
            if (exec != 0 && e.warpMemory.run(w, op, w.pc[Integer.numberOfTrailingZeros(exec)], exec)) {
                // Where the per-lane loop would have left it (a later fault names this lane).
                e.lastLane = 31 - Integer.numberOfLeadingZeros(exec);
                return;
            }
            for (int m = exec; m != 0; m &= m - 1) {
                int l = Integer.numberOfTrailingZeros(m);
                e.lastLane = l;
                lane(e, w, op, l);
            }
        }
    }

    /**
     * A compiled region's ld or st ({@link WarpMemory#applies}) at {@code pc} for the lanes of exec
     * (those of mask its guard lets run): the whole-group form when it takes the access, which
     * needs the lanes' PCs at the op only for what the per-lane form may report.
     */
    static void regionMemory(Engine e, Warp w, Op op, int pc, int mask, int exec) {
        if (exec == 0 || !e.warpMemory.run(w, op, pc, exec)) {
            e.advance(w, mask, pc);
            run(e, w, op, exec);
        } else {
            e.lastLane = 31 - Integer.numberOfLeadingZeros(exec);
        }
    }

    // ---------------------------------------------------------------- the forms run as group loops

    /**
     * The commonest integer operations ({@link #fastInteger}): no carry, saturation, high-half or
     * packed forms; mul.wide of 16 and 32 bits ({@link IntegerOps#mulWide}); and, or and xor of
     * predicates too, which {@link IntegerOps#apply} defines as the integer ones at width 1.
     */
    static boolean isFastInteger(Op op) {
        DataType t = op.type;
        if (t == null || op.mod.carry() || op.mod.sat() || op.mod.relu()) {
            return false;
        }
        OpCode c = op.code;
        if (t == DataType.PRED) {
            return c == OpCode.AND || c == OpCode.OR || c == OpCode.XOR;
        }
        if (!t.isInteger() || t == DataType.S16X2 || t == DataType.U16X2) {
            return false;
        }
        if (c == OpCode.MUL || c == OpCode.MAD) {
            // (The product half is mul's and mad's alone: other ops keep other things there.)
            return op.productHalf() == IntegerOps.ProductHalf.LO || isMulWide(op);
        }
        return c == OpCode.ADD || c == OpCode.SUB || c == OpCode.AND || c == OpCode.OR || c == OpCode.XOR
                || c == OpCode.MOV || c == OpCode.SHL;
    }

    /** mul.wide of a 16- or 32-bit integer type: the product at twice the width. */
    static boolean isMulWide(Op op) {
        return op.code == OpCode.MUL && op.productHalf() == IntegerOps.ProductHalf.WIDE && (op.type.bits == 16 || op.type.bits == 32);
    }

    /** Bits of the result of a fast integer op (twice the type's for mul.wide). */
    static int fastBits(Op op) {
        return isMulWide(op) ? 2 * op.type.bits : op.type.bits;
    }

    /** f32 add/sub/mul/fma in the default or .rn rounding, without .ftz/.sat ({@link #fastF32}). */
    static boolean isFastF32(Op op) {
        OpCode c = op.code;
        return op.type == DataType.F32 && !op.mod.ftz() && !op.mod.sat() && op.mod.rounding() <= 0
                && (c == OpCode.FADD || c == OpCode.FSUB || c == OpCode.FMUL || c == OpCode.FMA);
    }

    /** Integer setp without a combining predicate ({@link #fastSetp}). */
    static boolean isFastSetp(Op op) {
        DataType t = op.type;
        return op.code == OpCode.SETP && t != null && t.isInteger() && !(op.combination() != Comparisons.Combination.NONE && op.sources() > 2);
    }

    /**
     * Whole-group loops for the commonest integer operations (no carry, saturation or wide forms),
     * so the per-lane dispatch of {@link #lane} is skipped. Returns false when the op is not one.
     */
    private static boolean fastInteger(Engine e, Warp w, Op op, int exec) {
        if (!isFastInteger(op)) {
            return false;
        }
        DataType t = op.type;
        OpCode c = op.code;
        int bits = fastBits(op);
        final long width = bits >= 64 ? -1L : (1L << bits) - 1;
        final boolean wide = isMulWide(op);
        final long[] regs = w.regs;
        final int[] rb = w.regBase;
        final int d = op.dst[0];
        final Operands o = e.operands;
        if (c == OpCode.MOV && op.srcKind[0] == Op.SREG && d >= 0 && exec != 0) {
            movSpecial(w, op, exec, o, width);
            return true;
        }
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            long a = o.read(w, op, 0, l);
            long r;
            switch (c) {
                case MOV -> r = a;
                case ADD -> r = a + o.read(w, op, 1, l);
                case SUB -> r = a - o.read(w, op, 1, l);
                case AND -> r = a & o.read(w, op, 1, l);
                case OR -> r = a | o.read(w, op, 1, l);
                case XOR -> r = a ^ o.read(w, op, 1, l);
                case MUL -> r = wide ? IntegerOps.mulWide(a, o.read(w, op, 1, l), t.isSigned(), t.bits)
                        : a * o.read(w, op, 1, l);
                case MAD -> r = a * o.read(w, op, 1, l) + o.read(w, op, 2, l);
                default -> r = IntegerOps.shl(a, o.read(w, op, 1, l), t.bits);
            }
            if (d >= 0) {
                regs[((rb[l] + d) << 5) | l] = r & width;
            }
        }
        return true;
    }

    /**
     * mov from a special register (every kernel's first instructions: %tid, %ctaid, %ntid): one
     * that every lane reads alike is read once for the group; %tid.x, .y or .z from the warp's own
     * arrays; any other lane by lane.
     */
    private static void movSpecial(Warp w, Op op, int exec, Operands o, long width) {
        final long[] regs = w.regs;
        final int[] rb = w.regBase;
        final int d = op.dst[0];
        SpecialRegister r = op.sreg[0];
        if (SpecialRegisters.sameForEveryLane(r)) {
            long v = o.read(w, op, 0, Integer.numberOfTrailingZeros(exec)) & width;
            for (int m = exec; m != 0; m &= m - 1) {
                int l = Integer.numberOfTrailingZeros(m);
                regs[((rb[l] + d) << 5) | l] = v;
            }
        } else if (r == SpecialRegister.TID) {
            char c = op.sregComp[0];
            int[] tid = c == 'y' ? w.tidY : c == 'z' ? w.tidZ : w.tidX;
            for (int m = exec; m != 0; m &= m - 1) {
                int l = Integer.numberOfTrailingZeros(m);
                regs[((rb[l] + d) << 5) | l] = tid[l] & width;
            }
        } else {
            for (int m = exec; m != 0; m &= m - 1) {
                int l = Integer.numberOfTrailingZeros(m);
                regs[((rb[l] + d) << 5) | l] = o.read(w, op, 0, l) & width;
            }
        }
    }

    /** Whole-group loop for f32 add/sub/mul/fma in the default or .rn rounding, without .ftz/.sat. */
    private static boolean fastF32(Engine e, Warp w, Op op, int exec) {
        if (!isFastF32(op)) {
            return false;
        }
        OpCode c = op.code;
        final long[] regs = w.regs;
        final int[] rb = w.regBase;
        final int d = op.dst[0];
        final Operands o = e.operands;
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            float a = f32(o.read(w, op, 0, l)), b = f32(o.read(w, op, 1, l));
            float r = switch (c) {
                case FADD -> a + b;
                case FSUB -> a - b;
                case FMUL -> a * b;
                default -> Math.fma(a, b, f32(o.read(w, op, 2, l)));
            };
            if (d >= 0) {
                regs[((rb[l] + d) << 5) | l] = bits32(r);
            }
        }
        return true;
    }

    /** Whole-group loop for integer setp without a combining predicate. */
    private static boolean fastSetp(Engine e, Warp w, Op op, int exec) {
        if (!isFastSetp(op)) {
            return false;
        }
        DataType t = op.type;
        final long[] regs = w.regs;
        final int[] rb = w.regBase;
        final int p = op.dst[0];
        final int q = op.dst.length > 1 ? op.dst[1] : -1;
        final Operands o = e.operands;
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            boolean r = Comparisons.compare(op, t, o.read(w, op, 0, l), o.read(w, op, 1, l));
            if (p >= 0) {
                regs[((rb[l] + p) << 5) | l] = r ? 1 : 0;
            }
            if (q >= 0) {
                regs[((rb[l] + q) << 5) | l] = r ? 0 : 1;
            }
        }
        return true;
    }

    // ---------------------------------------------------------------- one lane

    /** The op for lane l: its sources read, the family's definition applied, its results written. */
    private static void lane(Engine e, Warp w, Op op, int l) {
        Operands o = e.operands;
        DataType t = op.type;
        int bits = t == null ? 64 : t.bits;
        switch (op.code) {
            case MOV -> o.write(w, op, 0, l, zx(o.read(w, op, 0, l), op.dstBits[0] == 1 ? 1 : bits));
            case MOV_PACK -> {
                int n = op.sources();
                int eb = bits / n;
                long r = 0;
                for (int k = 0; k < n; k++) {
                    r |= zx(o.read(w, op, k, l), eb) << (k * eb);
                }
                o.write(w, op, 0, l, r);
            }
            case MOV_UNPACK -> {
                int n = op.dst.length;
                int eb = bits / n;
                long v = o.read(w, op, 0, l);
                for (int k = 0; k < n; k++) {
                    o.write(w, op, k, l, zx(v >>> (k * eb), eb));
                }
            }
            case LD -> e.memory.ld(w, op, l);
            case ST -> e.memory.st(w, op, l);
            case CVTA, CVTA_TO, ISSPACEP, GETCTARANK -> o.write(w, op, 0, l, e.memory.spaceOp(op, o.read(w, op, 0, l)));
            case MAPA -> o.write(w, op, 0, l, e.memory.mapa(op, o.read(w, op, 0, l), o.read(w, op, 1, l)));
            case ATOM, RED -> Atomics.run(e, w, op, l);
            case SETP -> {
                long c = op.sources() > 2 ? o.read(w, op, 2, l) : 0;
                int pq = Comparisons.setp(op, o.read(w, op, 0, l), o.read(w, op, 1, l), c);
                o.write(w, op, 0, l, pq & 1);
                if (op.dst.length > 1) {
                    o.write(w, op, 1, l, pq >> 1);
                }
            }
            case SELP -> o.write(w, op, 0, l, (o.read(w, op, 2, l) & 1) != 0 ? o.read(w, op, 0, l) : o.read(w, op, 1, l));
            case SET -> {
                long c = op.sources() > 2 ? o.read(w, op, 2, l) : 0;
                o.write(w, op, 0, l, Comparisons.set(op, o.read(w, op, 0, l), o.read(w, op, 1, l), c));
            }
            case SLCT -> {
                long c = o.read(w, op, 2, l);
                o.write(w, op, 0, l, Comparisons.slct(op, o.read(w, op, 0, l), o.read(w, op, 1, l), c));
            }
            case CVT -> o.write(w, op, 0, l, op.sources() > 1
                    ? Convert.cvtPair(op, o.read(w, op, 0, l), o.read(w, op, 1, l))
                    : Convert.cvt(op, o.read(w, op, 0, l)));
            case COPYSIGN -> o.write(w, op, 0, l, FloatArithmetic.copysign(bits, o.read(w, op, 0, l), o.read(w, op, 1, l)));
            case TESTP -> o.write(w, op, 0, l, FloatArithmetic.testp(op, o.read(w, op, 0, l)) ? 1 : 0);
            default -> {
                int n = op.sources();
                long a = n > 0 ? o.read(w, op, 0, l) : 0, b = n > 1 ? o.read(w, op, 1, l) : 0;
                long c = n > 2 ? o.read(w, op, 2, l) : 0;
                if (t != null && t.isFloat()) {
                    o.write(w, op, 0, l, FloatArithmetic.apply(op, a, b, c));
                } else {
                    o.write(w, op, 0, l, IntegerOps.apply(op, w, l, a, b, c, n > 3 ? o.read(w, op, 3, l) : 0));
                }
            }
        }
    }
}
