package io.ptxrun.exec;

import io.ptxrun.ast.DataType;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

import java.lang.invoke.MethodHandles;

/**
 * Compiles a region of lane-local ops ({@link Regions}) into a hidden class whose
 * {@link CompiledRegion#run} executes the ops: in a straight region one after the other, each as
 * a loop over the lanes of the group (a plain loop over all 32 lanes when every lane executes it,
 * a shape the JIT vectorises, else a loop over the bits of the lane mask); in a branching region
 * in program order under lane masks, each run of inline ops between branches and branch targets
 * a loop over the lanes that reached it (the run also finds the lanes that take a guarded branch
 * right after it). Guards become lane masks. In a lane loop the lane's registers live in JVM
 * locals ({@link LaneRegisters}), so values pass from op to op without the register array.
 *
 * <p>Only the simplest ops are inline bytecode, and exactly the interpreter's whole-group forms
 * ({@link LaneOps#isFastInteger}, {@link LaneOps#isFastF32}, {@link LaneOps#isFastSetp}, plus selp and
 * plain mov), built from the same helpers ({@link IntegerOps#shl}, {@link Comparisons#compareInt} and
 * {@link Comparisons#compareInt32}, {@link FloatOps#f32}, {@link FloatOps#bits32}); every other op calls {@link LaneOps#run}, the
 * interpreter's own definition, after setting the lanes' PC to the op (the hazard detector records
 * accesses by PC), and plain loads and stores call {@link LaneOps#regionMemory}, the interpreter's
 * whole-group form ({@link WarpMemory}). So both tiers share one definition of each instruction family.
 * The one exception is {@link WarpMemory}'s case of the CTA's own shared memory: loads run inline
 * with the ops around them ({@link #fusableEnd}, {@link #fused}), stores and lone loads in {@link
 * CompiledRegion#shared}, each with {@link Bytes} as there and after checking every lane's address
 * as there, and handed to the hazard detector as there ({@link CompiledRegion#ordered}); any
 * address that check refuses sends the op to {@link LaneOps#regionMemory}, which reports a fault as
 * the interpreter does.
 *
 * <p>A loop body of inline ops ({@link #runsByLane}) also gets a method that runs it lane by lane
 * ({@link #byLane}): each lane's passes, with real jumps for its branches (but for small
 * diamonds, which it runs both paths of and keeps the one taken, {@link IfConversion}), its
 * registers in JVM locals of the kind the ops see ({@link Kind}: ints, f32 values or truths, so
 * that a pass does not convert them), built from the same inline ops.
 */
final class RegionCompiler {
    private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();
    private static final String BASE = Type.getInternalName(CompiledRegion.class);
    private static final String ENGINE = Type.getInternalName(Engine.class);
    private static final String WARP = Type.getInternalName(Warp.class);
    private static final String OP = Type.getInternalName(Op.class);
    private static final String FLOAT_OPS = Type.getInternalName(FloatOps.class);
    private static final String BYTES = Type.getInternalName(Bytes.class);
    private static final String LANE_OPS = Type.getInternalName(LaneOps.class);
    private static final String INTEGER_OPS = Type.getInternalName(IntegerOps.class);
    private static final String WIDTHS = Type.getInternalName(Bits.class);
    private static final String NAME = "io/ptxrun/exec/Region";
    /** A part of a region in a method of its own: runK(Engine e, Warp w, long[] regs, int base, int lanes), locals as in run. */
    private static final String PART = "(L" + ENGINE + ";L" + WARP + ";[JII)";
    /** A part that runs the first ops of a run of inline ops: runK(e, w, regs, base, lanes, ops), ops in local 6. */
    private static final String LIMITED_PART = "(L" + ENGINE + ";L" + WARP + ";[JIII)";

    /** A part's code, returning void ("V": it returns at the end of the code) or what the code returns. */
    private record Part(String returns, java.util.function.Consumer<MethodVisitor> code, boolean limited) {
        Part(String returns, java.util.function.Consumer<MethodVisitor> code) {
            this(returns, code, false);
        }
    }

    // Locals of run(Engine e, Warp w, long[] regs, int base, int mask, int others, int steps), then its own: the
    // lanes counted per op, the lanes of a lane loop, the lane, the bits left, a setp's outcome; in a
    // branching region the lanes at the current op, the steps taken, where it stops early; in a run
    // with loads of shared memory the memory, its size, the lanes' bad address bits and an address;
    // the lanes whose guard of the next branch is set; from PENDING on the lanes waiting at each
    // branch target; from CACHED on a lane's registers.
    private static final int E = 1, W = 2, REGS = 3, BASE_AT = 4, MASK = 5, OTHERS = 6, STEPS = 7, POP = 8, EXEC = 9,
            LANE = 10, BITS = 11, COND = 12, CUR = 13, TAKEN = 14, STOP = 15, MEM = 16, LIMIT = 17, BAD = 19,
            AT = 21, GUARD_SET = 23, PENDING = 24, CACHED = PENDING + Regions.MAX_OPS;

    private RegionCompiler() {
    }

    /**
     * The region of n ops starting at ops[start], compiled; null when it cannot be. With checked
     * (the hazard detector on) it hands the shared-memory loads it runs itself to the detector.
     * With loops, the branch after the region jumps back to its start (see {@link #loopBack}).
     */
    static CompiledRegion compile(Op[] ops, int start, int n, boolean checked, boolean loops) {
        try {
            return (CompiledRegion) defined(generate(ops, start, n, checked, loops)).newInstance(ops, start, n);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null;
        }
    }

    /** Classes defined, most recently used last, at most {@link #CACHED_CLASSES}. */
    private static final java.util.Map<ClassBytes, java.lang.reflect.Constructor<?>> DEFINED =
            new java.util.LinkedHashMap<>(64, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(java.util.Map.Entry<ClassBytes, java.lang.reflect.Constructor<?>> e) {
                    return size() > CACHED_CLASSES;
                }
            };
    /** Region classes kept for reuse: a few kernels' worth. */
    static final int CACHED_CLASSES = 1024;
    /** Region classes defined so far (each one the JVM loads and compiles anew). */
    private static long definedCount;

    /** A class's bytes as a key: equal bytes define classes that do the same. */
    private record ClassBytes(byte[] bytes, int hash) {
        ClassBytes(byte[] bytes) {
            this(bytes, java.util.Arrays.hashCode(bytes));
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ClassBytes c && c.hash == hash && java.util.Arrays.equals(c.bytes, bytes);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /**
     * The constructor of the class of these bytes: the class defined for equal bytes before, if
     * still cached, else a new one. A region's class holds no state of a launch (its instance
     * holds the ops it calls helpers with), so a later launch of the same code, or another
     * region that compiles to the same bytes, reuses the class and the machine code the JVM has
     * made of it, instead of loading and compiling a copy.
     */
    private static java.lang.reflect.Constructor<?> defined(byte[] bytes) throws ReflectiveOperationException {
        ClassBytes key = new ClassBytes(bytes);
        synchronized (DEFINED) {
            java.lang.reflect.Constructor<?> c = DEFINED.get(key);
            if (c == null) {
                c = LOOKUP.defineHiddenClass(bytes, true).lookupClass()
                        .getDeclaredConstructor(Op[].class, int.class, int.class);
                DEFINED.put(key, c);
                definedCount++;
            }
            return c;
        }
    }

    /** Region classes defined so far. */
    static long definedClasses() {
        synchronized (DEFINED) {
            return definedCount;
        }
    }

    private static byte[] generate(Op[] ops, int start, int n, boolean checked, boolean loops) {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS) {
            @Override
            protected String getCommonSuperClass(String a, String b) {
                return "java/lang/Object";
            }
        };
        String name = NAME;
        cw.visit(Opcodes.V17, Opcodes.ACC_FINAL | Opcodes.ACC_SUPER, name, null, BASE, null);
        MethodVisitor init = cw.visitMethod(0, "<init>", "([L" + OP + ";II)V", null, null);
        init.visitCode();
        init.visitVarInsn(Opcodes.ALOAD, 0);
        init.visitVarInsn(Opcodes.ALOAD, 1);
        init.visitVarInsn(Opcodes.ILOAD, 2);
        init.visitVarInsn(Opcodes.ILOAD, 3);
        init.visitMethodInsn(Opcodes.INVOKESPECIAL, BASE, "<init>", "([L" + OP + ";II)V", false);
        init.visitInsn(Opcodes.RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();

        MethodVisitor mv = cw.visitMethod(0, "run", "(L" + ENGINE + ";L" + WARP + ";[JIIII)I", null, null);
        mv.visitCode();
        java.util.List<Part> parts = new java.util.ArrayList<>();
        if (branches(ops, start, n)) {
            // A loop run lane by lane goes back to the scheduler after a pass under lane masks (a
            // turn's last), so that the next pass may run lane by lane.
            branching(mv, ops, start, n, parts, loops && !runsByLane(ops, start, n));
        } else {
            straight(mv, ops, start, n, parts, checked, loops);
        }
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        if (loops && runsByLane(ops, start, n)) {
            MethodVisitor lanes = cw.visitMethod(0, "lanes", "(L" + ENGINE + ";L" + WARP + ";[JIIIII[I)J", null, null);
            lanes.visitCode();
            byLane(lanes, ops, start, n);
            lanes.visitMaxs(0, 0);
            lanes.visitEnd();
            MethodVisitor fits = cw.visitMethod(0, "fits", PART + "Z", null, null);
            fits.visitCode();
            fits(fits, ops, start, n);
            fits.visitMaxs(0, 0);
            fits.visitEnd();
        }
        // The runs of inline ops of a branching region and the inline shared-memory accesses, each
        // a method of its own: their lane loops would make the JVM compile the whole region again
        // for each loop it enters hot (on-stack replacement), and would make the region's method
        // too long for the JIT; small methods compile quickly and are inlined.
        for (int k = 0; k < parts.size(); k++) {
            Part part = parts.get(k);
            MethodVisitor run = cw.visitMethod(Opcodes.ACC_PRIVATE, "run" + k,
                    (part.limited() ? LIMITED_PART : PART) + part.returns(), null, null);
            run.visitCode();
            part.code().accept(run);
            if (part.returns().equals("V")) {
                run.visitInsn(Opcodes.RETURN);
            }
            run.visitMaxs(0, 0);
            run.visitEnd();
        }
        cw.visitEnd();
        return cw.toByteArray();
    }

    private static boolean branches(Op[] ops, int start, int n) {
        for (int k = 0; k < n; k++) {
            if (ops[start + k].code == OpCode.BRA) {
                return true;
            }
        }
        return false;
    }

    /**
     * The ops of a straight region one after the other for the lanes of mask; returns n, or with
     * loops the steps taken in as many passes as {@link #loopBack} allows.
     */
    private static void straight(MethodVisitor mv, Op[] ops, int start, int n, java.util.List<Part> parts,
                                 boolean checked, boolean loops) {
        mv.visitVarInsn(Opcodes.ILOAD, MASK);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/Integer", "bitCount", "(I)I", false);
        mv.visitVarInsn(Opcodes.ISTORE, POP);
        mv.visitInsn(Opcodes.ICONST_0);
        mv.visitVarInsn(Opcodes.ISTORE, TAKEN);
        Label pass = new Label();
        mv.visitLabel(pass);
        for (int k = 0; k < n; ) {
            int end = fusableEnd(ops, start + k, start + n) - start;
            if (end - k >= 2 && loads(ops, start + k, start + end)) {
                // if (!this.runK(e, w, regs, base, mask)) { the ops one by one }
                Op[] run = java.util.Arrays.copyOfRange(ops, start + k, start + end);
                Label done = new Label();
                int first = start + k;
                callPart(mv, parts, MASK, new Part("Z", m -> fused(m, run, first, checked)));
                mv.visitJumpInsn(Opcodes.IFNE, done);
                opByOp(mv, ops, start, k, end);
                mv.visitLabel(done);
                k = end;
            } else {
                // One op, or a run of inline ops in one loop.
                int to = k + 1;
                while (to < n && inlinable(ops[start + k]) && inlinable(ops[start + to])) {
                    to++;
                }
                opByOp(mv, ops, start, k, to);
                k = to;
            }
        }
        mv.visitIincInsn(TAKEN, n);
        if (loops) {
            // The first op calls its helper with the lanes at their PC: back there for the next pass.
            Label out = new Label();
            loopBack(mv, ops, start, n, MASK, n, out);
            if (!inlinable(ops[start])) {
                advance(mv, MASK, start);
            }
            mv.visitJumpInsn(Opcodes.GOTO, pass);
            mv.visitLabel(out);
        }
        mv.visitVarInsn(Opcodes.ILOAD, TAKEN);
        mv.visitInsn(Opcodes.IRETURN);
    }

    /**
     * The branch at start + n back to start, run in place when the step after this one would run
     * it and then this region again for the same lanes: the lanes in local {@code group}, all at
     * the branch, are every runnable lane of the warp and all jump (so they stay the one group, at
     * one PC), and the steps and the instruction budget left cover the branch and the next
     * {@code next} ops. Then the branch is counted and taken (the lanes' PCs are left to the
     * region's exit), else this jumps to {@code out} with the branch not run. Locals: TAKEN the
     * steps taken so far, EXEC and POP overwritten.
     */
    private static void loopBack(MethodVisitor mv, Op[] ops, int start, int n, int group, int next, Label out) {
        Op bra = ops[start + n];
        stepsLeft(mv, 1 + next, out);
        // group != (w.live & ~w.blocked)
        mv.visitVarInsn(Opcodes.ILOAD, group);
        mv.visitVarInsn(Opcodes.ALOAD, W);
        mv.visitFieldInsn(Opcodes.GETFIELD, WARP, "live", "I");
        mv.visitVarInsn(Opcodes.ALOAD, W);
        mv.visitFieldInsn(Opcodes.GETFIELD, WARP, "blocked", "I");
        mv.visitInsn(Opcodes.ICONST_M1);
        mv.visitInsn(Opcodes.IXOR);
        mv.visitInsn(Opcodes.IAND);
        mv.visitJumpInsn(Opcodes.IF_ICMPNE, out);
        mv.visitVarInsn(Opcodes.ILOAD, group);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/Integer", "bitCount", "(I)I", false);
        mv.visitVarInsn(Opcodes.ISTORE, POP);
        budgetLeft(mv, 1 + next, out);
        // Every lane jumps: exec == group.
        if (bra.guard >= 0) {
            guarded(mv, bra, group);
            mv.visitVarInsn(Opcodes.ILOAD, group);
            mv.visitJumpInsn(Opcodes.IF_ICMPNE, out);
        }
        count(mv);
        mv.visitIincInsn(TAKEN, 1);
        // As Engine.branch records a taken backward branch.
        mv.visitVarInsn(Opcodes.ALOAD, W);
        push(mv, start + n);
        mv.visitFieldInsn(Opcodes.PUTFIELD, WARP, "lastBackBranch", "I");
    }

    /**
     * Whether the loop body of n ops from start, followed by a branch back to start, can run lane
     * by lane ({@link CompiledRegion#lanes}): inline ops and forward branches inside it or to its end.
     */
    static boolean runsByLane(Op[] ops, int start, int n) {
        for (int pc = start; pc < start + n; pc++) {
            Op op = ops[pc];
            if (op.code == OpCode.BRA ? op.target <= pc || op.target > start + n : !inlinable(op)) {
                return false;
            }
        }
        return true;
    }

    // Locals of lanes(Engine e, Warp w, long[] regs, int base, int mask, int from, int passes, int tail,
    // int[] visited) beyond those of run it shares (LANE, BITS, COND): the lane's passes, the
    // instructions counted, the ops the lane ran in its pass (bits of their distance from start),
    // the lanes that left the loop and the most passes any lane ran.
    // In a body with branches, where the log's blocks of counts and unions start (PENDING's locals,
    // which only branching regions use).
    private static final int FROM = 6, PASSES = 7, TAIL = 8, VISITED = 9, PASS = 13, COUNTED = 14, RAN = 15,
            LEFT = 16, MOST = 17, COUNTS_AT = PENDING, UNIONS_AT = PENDING + 1;

    /**
     * {@link CompiledRegion#lanes}: each lane of mask in turn runs passes of the loop body (the n ops
     * from start, with real jumps for its forward branches) and the branch back at start + n, its
     * registers in JVM locals from its first pass to its last, until the branch lets it leave or it
     * has run {@code passes} passes, the first from op {@code from} of the body (n: the branch
     * back), or in a body with branches from the lane's own op (w.pc[lane]). A body without
     * branches runs, where the lane has not left, the first {@code tail} ops after the last pass.
     * A body with branches logs the ops the lane ran in each pass, the instructions counted at its
     * end and the passes it ran into visited ({@link LoopAhead}). The
     * instructions are counted into e.executed at the end. Returns the most passes a lane ran in
     * the high half, and the lanes that left in the low one.
     */
    private static void byLane(MethodVisitor mv, Op[] ops, int start, int n) {
        int end = start + n;
        boolean straight = !branches(ops, start, n);
        // Where the runs between branches and targets start, as in branching().
        java.util.TreeSet<Integer> cuts = new java.util.TreeSet<>();
        cuts.add(start);
        for (int pc = start; pc < end; pc++) {
            if (ops[pc].code == OpCode.BRA) {
                cuts.add(pc);
                cuts.add(pc + 1);
                cuts.add(ops[pc].target);
            }
        }
        cuts.add(end);
        mv.visitInsn(Opcodes.ICONST_0);
        mv.visitVarInsn(Opcodes.ISTORE, COUNTED);
        mv.visitInsn(Opcodes.ICONST_0);
        mv.visitVarInsn(Opcodes.ISTORE, LEFT);
        mv.visitInsn(Opcodes.ICONST_0);
        mv.visitVarInsn(Opcodes.ISTORE, MOST);
        if (!straight) {
            // counts at = SCRATCH + P, unions at = SCRATCH + 2 P, P = visited[CAPACITY] (LoopAhead)
            mv.visitVarInsn(Opcodes.ALOAD, VISITED);
            push(mv, LoopAhead.CAPACITY);
            mv.visitInsn(Opcodes.IALOAD);
            mv.visitInsn(Opcodes.DUP);
            push(mv, LoopAhead.SCRATCH);
            mv.visitInsn(Opcodes.IADD);
            mv.visitVarInsn(Opcodes.ISTORE, COUNTS_AT);
            mv.visitVarInsn(Opcodes.ILOAD, COUNTS_AT);
            mv.visitInsn(Opcodes.IADD);
            mv.visitVarInsn(Opcodes.ISTORE, UNIONS_AT);
        }
        Op back = ops[end];
        java.util.Map<Integer, Kind> kinds = kinds(ops, start, end + 1);
        // The passes after the first run small diamonds without branching.
        java.util.Map<Integer, IfConversion.Diamond> diamonds = IfConversion.find(ops, start, end);
        // The registers of another kind than a long are written back as their locals hold them,
        // whether the lane wrote them or not (no written flags for the passes to carry, which
        // crowded the machine registers of the pass loop): the caller has checked that this
        // changes nothing (fits).
        // Lane after lane: the work of each is long, so no whole-warp loop.
        laneLoop(mv, MASK, false, () -> {
            LaneRegisters lane = new LaneRegisters(mv, kinds);
            lane.unflagged = true;
            // Every register the loop touches into locals before the first pass (a local first set
            // on one path could not be read where paths meet).
            for (int pc = start; pc <= end; pc++) {
                lane.fetch(ops[pc], true);
            }
            Label pass = new Label(), branch = new Label(), tail = new Label(), done = new Label();
            mv.visitInsn(Opcodes.ICONST_0);
            mv.visitVarInsn(Opcodes.ISTORE, PASS);
            if (straight) {
                // The first pass from op `from`: counted = n + 1 - from; switch into a copy of the body.
                mv.visitIincInsn(COUNTED, n + 1);
                mv.visitVarInsn(Opcodes.ILOAD, COUNTED);
                mv.visitVarInsn(Opcodes.ILOAD, FROM);
                mv.visitInsn(Opcodes.ISUB);
                mv.visitVarInsn(Opcodes.ISTORE, COUNTED);
                Label[] entry = new Label[n + 1];
                for (int k = 0; k < n; k++) {
                    entry[k] = new Label();
                }
                entry[n] = branch;
                mv.visitVarInsn(Opcodes.ILOAD, FROM);
                mv.visitTableSwitchInsn(0, n, entry[0], entry);
                for (int k = 0; k < n; k++) {
                    mv.visitLabel(entry[k]);
                    guardedBody(lane, ops[start + k]);
                }
                mv.visitJumpInsn(Opcodes.GOTO, branch);
            } else {
                // visited[BASES + lane] = counted: the count before the lane's passes (LoopAhead)
                mv.visitVarInsn(Opcodes.ALOAD, VISITED);
                push(mv, LoopAhead.BASES);
                mv.visitVarInsn(Opcodes.ILOAD, LANE);
                mv.visitInsn(Opcodes.IADD);
                mv.visitVarInsn(Opcodes.ILOAD, COUNTED);
                mv.visitInsn(Opcodes.IASTORE);
                // The lane's first pass from its own op d = w.pc[lane] - start, in a copy of the body
                // (so that the loop has one entry, the branch back, as the JIT wants it): the rest
                // of d's run accounted, then into the copy there (n: the branch back alone).
                Label[] at = labels(n + 1), code = labels(n), entry = labels(n + 1);
                mv.visitVarInsn(Opcodes.ALOAD, W);
                mv.visitFieldInsn(Opcodes.GETFIELD, WARP, "pc", "[I");
                mv.visitVarInsn(Opcodes.ILOAD, LANE);
                mv.visitInsn(Opcodes.IALOAD);
                push(mv, start);
                mv.visitInsn(Opcodes.ISUB);
                mv.visitTableSwitchInsn(0, n, entry[0], entry);
                for (int k = 0; k <= n; k++) {
                    mv.visitLabel(entry[k]);
                    int length = k < n ? cuts.higher(start + k) - (start + k) : 0;
                    push(mv, (int) (((1L << length) - 1) << k));
                    mv.visitVarInsn(Opcodes.ISTORE, RAN);
                    mv.visitIincInsn(COUNTED, length);
                    mv.visitJumpInsn(Opcodes.GOTO, k < n ? code[k] : at[n]);
                }
                passOfBranches(lane, ops, start, n, cuts, at, code, java.util.Map.of());
                mv.visitJumpInsn(Opcodes.GOTO, branch);
            }
            mv.visitLabel(pass);
            if (straight) {
                mv.visitIincInsn(COUNTED, n + 1);
                for (int pc = start; pc < end; pc++) {
                    guardedBody(lane, ops[pc]);
                }
            } else {
                mv.visitInsn(Opcodes.ICONST_0);
                mv.visitVarInsn(Opcodes.ISTORE, RAN);
                passOfBranches(lane, ops, start, n, cuts, labels(n + 1), labels(n), diamonds);
            }
            // The branch back: the lane leaves where it is not taken; another pass while passes last.
            mv.visitLabel(branch);
            mv.visitIincInsn(PASS, 1);
            if (back.guard >= 0) {
                Label stays = new Label();
                jump(lane, back, stays);
                mv.visitVarInsn(Opcodes.ILOAD, LEFT);
                mv.visitInsn(Opcodes.ICONST_1);
                mv.visitVarInsn(Opcodes.ILOAD, LANE);
                mv.visitInsn(Opcodes.ISHL);
                mv.visitInsn(Opcodes.IOR);
                mv.visitVarInsn(Opcodes.ISTORE, LEFT);
                mv.visitJumpInsn(Opcodes.GOTO, done);
                mv.visitLabel(stays);
            }
            mv.visitVarInsn(Opcodes.ILOAD, PASS);
            mv.visitVarInsn(Opcodes.ILOAD, PASSES);
            mv.visitJumpInsn(Opcodes.IF_ICMPLT, pass);
            if (straight) {
                // The first `tail` ops of one more pass.
                mv.visitLabel(tail);
                mv.visitVarInsn(Opcodes.ILOAD, COUNTED);
                mv.visitVarInsn(Opcodes.ILOAD, TAIL);
                mv.visitInsn(Opcodes.IADD);
                mv.visitVarInsn(Opcodes.ISTORE, COUNTED);
                for (int k = 0; k < n; k++) {
                    mv.visitVarInsn(Opcodes.ILOAD, TAIL);
                    push(mv, k);
                    mv.visitJumpInsn(Opcodes.IF_ICMPLE, done);
                    guardedBody(lane, ops[start + k]);
                }
            }
            mv.visitLabel(done);
            if (!straight) {
                // The lane's own log (LoopAhead.ranAt, countAt, passesAt): its passes' ops and
                // counts, and the passes it ran.
                mv.visitVarInsn(Opcodes.ALOAD, VISITED);
                mv.visitVarInsn(Opcodes.ILOAD, LANE);
                mv.visitVarInsn(Opcodes.ILOAD, PASS);
                mv.visitMethodInsn(Opcodes.INVOKESTATIC, Type.getInternalName(LoopAhead.class), "logLane", "([III)V",
                        false);
            }
            // most = max(most, pass)
            mv.visitVarInsn(Opcodes.ILOAD, MOST);
            mv.visitVarInsn(Opcodes.ILOAD, PASS);
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/Math", "max", "(II)I", false);
            mv.visitVarInsn(Opcodes.ISTORE, MOST);
            lane.flush();
        });
        // e.executed += counted
        addExecuted(mv, () -> mv.visitVarInsn(Opcodes.ILOAD, COUNTED));
        // (long) most << 32 | left & 0xffffffffL
        mv.visitVarInsn(Opcodes.ILOAD, MOST);
        mv.visitInsn(Opcodes.I2L);
        push(mv, 32);
        mv.visitInsn(Opcodes.LSHL);
        mv.visitVarInsn(Opcodes.ILOAD, LEFT);
        mv.visitInsn(Opcodes.I2L);
        mv.visitLdcInsn(0xffffffffL);
        mv.visitInsn(Opcodes.LAND);
        mv.visitInsn(Opcodes.LOR);
        mv.visitInsn(Opcodes.LRETURN);
    }

    /** {@link CompiledRegion#fits} of a loop body run lane by lane ({@link #byLane}). */
    private static void fits(MethodVisitor mv, Op[] ops, int start, int n) {
        java.util.Map<Integer, Kind> kinds = kinds(ops, start, start + n + 1);
        java.util.List<Integer> checked = writtenOtherKinds(ops, start, start + n, kinds);
        mv.visitInsn(Opcodes.LCONST_0);
        mv.visitVarInsn(Opcodes.LSTORE, BAD);
        if (!checked.isEmpty()) {
            laneLoop(mv, MASK, false, () -> {
                for (int r : checked) {
                    roundTripBits(mv, r, kinds.get(r));
                    mv.visitVarInsn(Opcodes.LLOAD, BAD);
                    mv.visitInsn(Opcodes.LOR);
                    mv.visitVarInsn(Opcodes.LSTORE, BAD);
                }
            });
        }
        // bad == 0
        Label no = new Label();
        mv.visitVarInsn(Opcodes.LLOAD, BAD);
        mv.visitInsn(Opcodes.LCONST_0);
        mv.visitInsn(Opcodes.LCMP);
        mv.visitJumpInsn(Opcodes.IFNE, no);
        mv.visitInsn(Opcodes.ICONST_1);
        mv.visitInsn(Opcodes.IRETURN);
        mv.visitLabel(no);
        mv.visitInsn(Opcodes.ICONST_0);
        mv.visitInsn(Opcodes.IRETURN);
    }

    /**
     * One pass of a loop body with branches for the lane ({@link #byLane}), labels {@code at[k]}
     * before op k's run accounting (where a run starts) and {@code code[k]} before its code, and
     * {@code at[n]} before the end of the pass: each run the lane reaches ORs its ops into RAN and
     * is counted; at the end the pass is logged ({@link LoopAhead}), and the branch back
     * is counted. The diamonds
     * (by branch op) run without branching ({@link #ifConverted}): no label inside one is used.
     */
    private static void passOfBranches(LaneRegisters lane, Op[] ops, int start, int n,
                                       java.util.TreeSet<Integer> cuts, Label[] at, Label[] code,
                                       java.util.Map<Integer, IfConversion.Diamond> diamonds) {
        MethodVisitor mv = lane.mv;
        for (int pc = start; pc < start + n; pc++) {
            mv.visitLabel(at[pc - start]);
            if (cuts.contains(pc)) {
                // The lane reached the run from pc: it runs all its ops.
                int length = cuts.higher(pc) - pc;
                mv.visitVarInsn(Opcodes.ILOAD, RAN);
                push(mv, (int) (((1L << length) - 1) << (pc - start)));
                mv.visitInsn(Opcodes.IOR);
                mv.visitVarInsn(Opcodes.ISTORE, RAN);
                mv.visitIincInsn(COUNTED, length);
            }
            mv.visitLabel(code[pc - start]);
            Op op = ops[pc];
            IfConversion.Diamond diamond = diamonds.get(pc);
            if (diamond != null) {
                // The branch's run is counted above; the arms' ops count as the lane's path would.
                ifConverted(lane, ops, start, diamond, RAN, COUNTED);
                pc = diamond.join() - 1;
            } else if (op.code == OpCode.BRA) {
                jump(lane, op, at[op.target - start]);
            } else {
                guardedBody(lane, op);
            }
        }
        mv.visitLabel(at[n]);
        // The pass's log (LoopAhead): visited[SCRATCH + pass] = ran and visited[unions at + pass]
        // |= ran; the branch back counted; visited[counts at + pass] = counted. (Plain stores at
        // the pass's index, which keep the pass loop's machine code short; copied to the lane's
        // own log after its last pass.)
        mv.visitVarInsn(Opcodes.ALOAD, VISITED);
        mv.visitVarInsn(Opcodes.ILOAD, PASS);
        push(mv, LoopAhead.SCRATCH);
        mv.visitInsn(Opcodes.IADD);
        mv.visitVarInsn(Opcodes.ILOAD, RAN);
        mv.visitInsn(Opcodes.IASTORE);
        mv.visitVarInsn(Opcodes.ALOAD, VISITED);
        mv.visitVarInsn(Opcodes.ILOAD, PASS);
        mv.visitVarInsn(Opcodes.ILOAD, UNIONS_AT);
        mv.visitInsn(Opcodes.IADD);
        mv.visitInsn(Opcodes.DUP2);
        mv.visitInsn(Opcodes.IALOAD);
        mv.visitVarInsn(Opcodes.ILOAD, RAN);
        mv.visitInsn(Opcodes.IOR);
        mv.visitInsn(Opcodes.IASTORE);
        mv.visitIincInsn(COUNTED, 1);
        mv.visitVarInsn(Opcodes.ALOAD, VISITED);
        mv.visitVarInsn(Opcodes.ILOAD, PASS);
        mv.visitVarInsn(Opcodes.ILOAD, COUNTS_AT);
        mv.visitInsn(Opcodes.IADD);
        mv.visitVarInsn(Opcodes.ILOAD, COUNTED);
        mv.visitInsn(Opcodes.IASTORE);
    }

    /**
     * The diamond for the lane (in local LANE) without a jump ({@link IfConversion}): whether the
     * branch is taken becomes a mask (all ones or zero); each arm runs its ops into temporaries
     * of the registers it writes, copies of their values before it (a register one arm does not
     * write keeps its value on that path), with the ops it ran and its instructions as counts of
     * its own; then each register either arm writes, its written flag, and the locals {@code ran}
     * and {@code counted} take the taken arm's values through the mask. A diamond inside an arm
     * does the same into that arm's temporaries and counts.
     */
    private static void ifConverted(LaneRegisters lane, Op[] ops, int start, IfConversion.Diamond d, int ran,
                                    int counted) {
        MethodVisitor mv = lane.mv;
        Op bra = ops[d.branch()];
        // mask = -(taken ? 1 : 0), taken as Engine.guarded decides
        lane.bit(bra.guard);
        if (bra.guardNegated) {
            mv.visitInsn(Opcodes.ICONST_1);
            mv.visitInsn(Opcodes.IXOR);
        }
        mv.visitInsn(Opcodes.INEG);
        int mask = lane.local();
        mv.visitVarInsn(Opcodes.ISTORE, mask);
        ArmRun notTaken = armRun(lane, ops, start, d.notTaken());
        ArmRun taken = armRun(lane, ops, start, d.taken());
        java.util.TreeSet<Integer> written = new java.util.TreeSet<>(notTaken.temps().keySet());
        written.addAll(taken.temps().keySet());
        for (int r : written) {
            int current = lane.current(r);
            Kind kind = lane.kind(r);
            int a = taken.temps().getOrDefault(r, current), b = notTaken.temps().getOrDefault(r, current);
            select(mv, kind, a, b, mask);
            mv.visitVarInsn(switch (kind) {
                case LONG -> Opcodes.LSTORE;
                case F32 -> Opcodes.FSTORE;
                default -> Opcodes.ISTORE;
            }, current);
            if (kind != Kind.LONG && !lane.unflagged) {
                // written |= the chosen arm's written flag (0 where that arm does not write r)
                mv.visitVarInsn(Opcodes.ILOAD, current + 1);
                selectInt(mv, taken.temps().containsKey(r) ? a + 1 : -1, notTaken.temps().containsKey(r) ? b + 1 : -1,
                        mask);
                mv.visitInsn(Opcodes.IOR);
                mv.visitVarInsn(Opcodes.ISTORE, current + 1);
            }
        }
        mv.visitVarInsn(Opcodes.ILOAD, ran);
        selectInt(mv, taken.ran(), notTaken.ran(), mask);
        mv.visitInsn(Opcodes.IOR);
        mv.visitVarInsn(Opcodes.ISTORE, ran);
        mv.visitVarInsn(Opcodes.ILOAD, counted);
        selectInt(mv, taken.counted(), notTaken.counted(), mask);
        mv.visitInsn(Opcodes.IADD);
        mv.visitVarInsn(Opcodes.ISTORE, counted);
    }

    /** An arm run into temporaries: the local of each register it writes, and the locals of its ran ops and count. */
    private record ArmRun(java.util.Map<Integer, Integer> temps, int ran, int counted) {}

    /** The arm's ops for the lane into temporaries ({@link #ifConverted}). */
    private static ArmRun armRun(LaneRegisters lane, Op[] ops, int start, IfConversion.Arm arm) {
        MethodVisitor mv = lane.mv;
        int bits = 0;
        java.util.List<Integer> own = arm.own();
        for (int pc : own) {
            bits |= 1 << (pc - start);
        }
        int ran = lane.local(), counted = lane.local();
        push(mv, bits);
        mv.visitVarInsn(Opcodes.ISTORE, ran);
        push(mv, own.size());
        mv.visitVarInsn(Opcodes.ISTORE, counted);
        java.util.Map<Integer, Integer> temps = new java.util.TreeMap<>(), before = new java.util.TreeMap<>();
        for (int r : arm.written(ops)) {
            int t = lane.local();
            int current = lane.current(r);
            switch (lane.kind(r)) {
                case LONG -> {
                    mv.visitVarInsn(Opcodes.LLOAD, current);
                    mv.visitVarInsn(Opcodes.LSTORE, t);
                }
                case F32 -> {
                    mv.visitVarInsn(Opcodes.FLOAD, current);
                    mv.visitVarInsn(Opcodes.FSTORE, t);
                }
                default -> {
                    mv.visitVarInsn(Opcodes.ILOAD, current);
                    mv.visitVarInsn(Opcodes.ISTORE, t);
                }
            }
            if (lane.kind(r) != Kind.LONG && !lane.unflagged) {
                mv.visitInsn(Opcodes.ICONST_0);
                mv.visitVarInsn(Opcodes.ISTORE, t + 1);
            }
            temps.put(r, t);
        }
        temps.forEach((r, t) -> before.put(r, lane.hold(r, t)));
        int pc = arm.from();
        for (IfConversion.Diamond d : arm.nested()) {
            for (; pc < d.branch(); pc++) {
                guardedBody(lane, ops[pc]);
            }
            ifConverted(lane, ops, start, d, ran, counted);
            pc = d.join();
        }
        for (; pc < arm.to(); pc++) {
            if (ops[pc].code != OpCode.BRA) {
                guardedBody(lane, ops[pc]);
            }
        }
        before.forEach(lane::hold);
        return new ArmRun(temps, ran, counted);
    }

    /** Local a where the int mask is all ones, local b where it is zero, without a jump: b ^ ((a ^ b) & mask). */
    private static void select(MethodVisitor mv, Kind kind, int a, int b, int mask) {
        switch (kind) {
            case LONG -> {
                mv.visitVarInsn(Opcodes.LLOAD, b);
                mv.visitVarInsn(Opcodes.LLOAD, a);
                mv.visitVarInsn(Opcodes.LLOAD, b);
                mv.visitInsn(Opcodes.LXOR);
                mv.visitVarInsn(Opcodes.ILOAD, mask);
                mv.visitInsn(Opcodes.I2L);
                mv.visitInsn(Opcodes.LAND);
                mv.visitInsn(Opcodes.LXOR);
            }
            case F32 -> {
                // On the raw bits, so that a NaN stays the NaN the arm made.
                Runnable bitsB = () -> {
                    mv.visitVarInsn(Opcodes.FLOAD, b);
                    mv.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/Float", "floatToRawIntBits", "(F)I", false);
                };
                bitsB.run();
                mv.visitVarInsn(Opcodes.FLOAD, a);
                mv.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/Float", "floatToRawIntBits", "(F)I", false);
                bitsB.run();
                mv.visitInsn(Opcodes.IXOR);
                mv.visitVarInsn(Opcodes.ILOAD, mask);
                mv.visitInsn(Opcodes.IAND);
                mv.visitInsn(Opcodes.IXOR);
                mv.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/Float", "intBitsToFloat", "(I)F", false);
            }
            default -> selectInt(mv, a, b, mask);
        }
    }

    /** Int local a where the mask is all ones, int local b where it is zero (a local of -1: the constant 0). */
    private static void selectInt(MethodVisitor mv, int a, int b, int mask) {
        Runnable pushB = () -> {
            if (b < 0) {
                mv.visitInsn(Opcodes.ICONST_0);
            } else {
                mv.visitVarInsn(Opcodes.ILOAD, b);
            }
        };
        pushB.run();
        if (a < 0) {
            mv.visitInsn(Opcodes.ICONST_0);
        } else {
            mv.visitVarInsn(Opcodes.ILOAD, a);
        }
        pushB.run();
        mv.visitInsn(Opcodes.IXOR);
        mv.visitVarInsn(Opcodes.ILOAD, mask);
        mv.visitInsn(Opcodes.IAND);
        mv.visitInsn(Opcodes.IXOR);
    }

    private static Label[] labels(int count) {
        Label[] labels = new Label[count];
        for (int k = 0; k < count; k++) {
            labels[k] = new Label();
        }
        return labels;
    }

    /** To {@code taken} where the lane (in local LANE) takes the branch, as {@link Engine#guarded} decides. */
    private static void jump(LaneRegisters lane, Op bra, Label taken) {
        MethodVisitor mv = lane.mv;
        if (bra.guard < 0) {
            mv.visitJumpInsn(Opcodes.GOTO, taken);
            return;
        }
        lane.truth(bra.guard);
        mv.visitJumpInsn(bra.guardNegated ? Opcodes.IFEQ : Opcodes.IFNE, taken);
    }

    /**
     * Where the run of ops from {@code from} (before {@code to}) that one loop over the lanes can
     * run ends: inline ops, and unguarded loads of shared memory ({@link #isInlineShared}) whose
     * address register no earlier op of the run writes. Lane by lane, each lane doing them all in
     * order, they give what op by op gives: they touch only the lane's own registers and shared
     * memory that none of them writes, and the loads' addresses, known before the run, are checked
     * first for every lane (see {@link #fused}).
     */
    private static int fusableEnd(Op[] ops, int from, int to) {
        java.util.BitSet written = new java.util.BitSet();
        int p = from;
        for (; p < to; p++) {
            Op op = ops[p];
            if (!inlinable(op) && !(op.code == OpCode.LD && op.guard < 0 && isInlineShared(op)
                    && (op.mem.addressKind() != MemoryAccess.REGISTER || !written.get(op.mem.register())))) {
                break;
            }
            for (int d : op.dst) {
                if (d >= 0) {
                    written.set(d);
                }
            }
        }
        return p;
    }

    private static boolean loads(Op[] ops, int from, int to) {
        for (int p = from; p < to; p++) {
            if (ops[p].code == OpCode.LD) {
                return true;
            }
        }
        return false;
    }

    /**
     * A method returning whether it ran the run of ops ({@link #fusableEnd}) for the lanes of its
     * mask: when every lane's address of every load is aligned and inside the CTA's own shared
     * memory (as {@link WarpMemory} requires), the ops are counted, the loads handed to the hazard
     * detector (with {@code checked}) one after the other as op by op, and the ops run in one loop
     * over the lanes, the loads with {@link Bytes#get} as there; else it returns false having
     * changed nothing, and the region runs them op by op, which reports any fault as the
     * interpreter does.
     */
    private static void fused(MethodVisitor mv, Op[] run, int firstPc, boolean checked) {
        Label no = new Label();
        mv.visitVarInsn(Opcodes.ALOAD, E);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, BASE, "inlineShared", "(L" + ENGINE + ";)[B", false);
        mv.visitVarInsn(Opcodes.ASTORE, MEM);
        // limit = min(mem.length, Cta.DSMEM_SPAN): an access of n bytes lies in [0, limit - n]
        mv.visitVarInsn(Opcodes.ALOAD, MEM);
        mv.visitInsn(Opcodes.ARRAYLENGTH);
        mv.visitLdcInsn((int) Cta.DSMEM_SPAN);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/Math", "min", "(II)I", false);
        mv.visitInsn(Opcodes.I2L);
        mv.visitVarInsn(Opcodes.LSTORE, LIMIT);
        // bad |= (a & misaligned) | ((a | (limit - n - a)) & sign bit), each load of n bytes at a,
        // each lane: its misaligned bits or the sign bit end up set where an address is misaligned
        // or outside the memory.
        mv.visitInsn(Opcodes.LCONST_0);
        mv.visitVarInsn(Opcodes.LSTORE, BAD);
        long anyMisaligned = 0;
        for (Op op : run) {
            if (op.code == OpCode.LD) {
                anyMisaligned |= misaligned(op);
            }
        }
        java.util.List<AddressCheck> checks = addressChecks(run);
        laneLoop(mv, MASK, true, () -> {
            for (AddressCheck c : checks) {
                laneAddress(mv, c.op(), c.offset());
                mv.visitVarInsn(Opcodes.LSTORE, AT);
                mv.visitVarInsn(Opcodes.LLOAD, BAD);
                mv.visitVarInsn(Opcodes.LLOAD, AT);
                mv.visitLdcInsn(c.misaligned());
                mv.visitInsn(Opcodes.LAND);
                mv.visitInsn(Opcodes.LOR);
                mv.visitVarInsn(Opcodes.LLOAD, AT);
                mv.visitVarInsn(Opcodes.LLOAD, LIMIT);
                mv.visitLdcInsn(c.span());
                mv.visitInsn(Opcodes.LSUB);
                mv.visitVarInsn(Opcodes.LLOAD, AT);
                mv.visitInsn(Opcodes.LSUB);
                mv.visitInsn(Opcodes.LOR);
                mv.visitLdcInsn(Long.MIN_VALUE);
                mv.visitInsn(Opcodes.LAND);
                mv.visitInsn(Opcodes.LOR);
                mv.visitVarInsn(Opcodes.LSTORE, BAD);
            }
        });
        mv.visitVarInsn(Opcodes.LLOAD, BAD);
        mv.visitLdcInsn(anyMisaligned | Long.MIN_VALUE);
        mv.visitInsn(Opcodes.LAND);
        mv.visitInsn(Opcodes.LCONST_0);
        mv.visitInsn(Opcodes.LCMP);
        mv.visitJumpInsn(Opcodes.IFNE, no);
        // e.executed += run.length * bitCount(mask)
        addExecuted(mv, () -> {
            push(mv, run.length);
            mv.visitVarInsn(Opcodes.ILOAD, MASK);
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/Integer", "bitCount", "(I)I", false);
            mv.visitInsn(Opcodes.IMUL);
        });
        // The detector's checks of the loads, in program order, before the loads overwrite any
        // address register (CompiledRegion.ordered).
        if (checked) {
            mv.visitVarInsn(Opcodes.ALOAD, E);
            mv.visitVarInsn(Opcodes.ALOAD, W);
            mv.visitVarInsn(Opcodes.ALOAD, REGS);
            mv.visitVarInsn(Opcodes.ILOAD, BASE_AT);
            mv.visitVarInsn(Opcodes.ILOAD, MASK);
            mv.visitVarInsn(Opcodes.ALOAD, 0);
            mv.visitFieldInsn(Opcodes.GETFIELD, BASE, "ops", "[L" + OP + ";");
            push(mv, firstPc);
            push(mv, run.length);
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, BASE, "orderedLoads", "(L" + ENGINE + ";L" + WARP + ";[JII[L" + OP
                    + ";II)V", false);
        }
        laneLoop(mv, MASK, true, () -> body(mv, run, -1));
        // As the last load leaves it (the lane a later fault names).
        mv.visitVarInsn(Opcodes.ALOAD, E);
        mv.visitVarInsn(Opcodes.ILOAD, MASK);
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, ENGINE, "ranGroup", "(I)V", false);
        mv.visitInsn(Opcodes.ICONST_1);
        mv.visitInsn(Opcodes.IRETURN);
        mv.visitLabel(no);
        mv.visitInsn(Opcodes.ICONST_0);
        mv.visitInsn(Opcodes.IRETURN);
    }

    /** A load whose address the check before a fused run tests, at this offset from its register. */
    private record AddressCheck(Op op, long offset, long misaligned, long span) {
    }

    /**
     * The address checks that stand for those of every load of a fused run: loads with one
     * address register (or absolute addresses), one alignment and offsets alike modulo it are
     * aligned together, and lie inside [0, limit] together when the one of lowest offset starts
     * there and the one ending highest ends there. (An address that wraps around fails one of
     * the two; a failed check only sends the run op by op.) So sgemm's 32 loads from two
     * registers take two checks a lane.
     */
    private static java.util.List<AddressCheck> addressChecks(Op[] run) {
        java.util.Map<java.util.List<Long>, AddressCheck[]> groups = new java.util.LinkedHashMap<>();
        for (Op op : run) {
            if (op.code != OpCode.LD) {
                continue;
            }
            long misaligned = misaligned(op);
            long offset = op.mem.offset();
            AddressCheck c = new AddressCheck(op, offset, misaligned, (long) op.type.bytes() * op.dst.length);
            long register = op.mem.addressKind() == MemoryAccess.REGISTER ? op.mem.register() : -1;
            AddressCheck[] lowHigh = groups.computeIfAbsent(
                    java.util.List.of(register, misaligned, Math.floorMod(offset, misaligned + 1)),
                    k -> new AddressCheck[] {c, c});
            if (offset < lowHigh[0].offset()) {
                lowHigh[0] = c;
            }
            if (offset + c.span() > lowHigh[1].offset() + lowHigh[1].span()) {
                lowHigh[1] = c;
            }
        }
        java.util.List<AddressCheck> checks = new java.util.ArrayList<>();
        for (AddressCheck[] lowHigh : groups.values()) {
            checks.add(lowHigh[0]);
            if (lowHigh[1] != lowHigh[0]) {
                checks.add(lowHigh[1]);
            }
        }
        return checks;
    }

    /** The address bits that must be clear in an access of the op, as {@link WarpMemory} checks them. */
    private static long misaligned(Op op) {
        int size = op.type.bytes();
        return op.mem.misalignedBits(size);
    }

    /** One lane (in local LANE) of a shared-memory load, as {@link WarpMemory} does it (memory in local MEM). */
    private static void load(LaneRegisters lane, Op op) {
        MethodVisitor mv = lane.mv;
        DataType t = op.type;
        int size = t.bytes();
        // The address first: a vector load may write its own address register.
        address(mv, op, () -> lane.read(op.mem.register()));
        mv.visitInsn(Opcodes.L2I);
        mv.visitVarInsn(Opcodes.ISTORE, AT);
        for (int k = 0; k < op.dst.length; k++) {
            int d = op.dst[k];
            if (d < 0) {
                continue;
            }
            mv.visitVarInsn(Opcodes.ALOAD, MEM);
            mv.visitVarInsn(Opcodes.ILOAD, AT);
            if (k > 0) {
                push(mv, k * size);
                mv.visitInsn(Opcodes.IADD);
            }
            push(mv, size);
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, BYTES, "get", "([BII)J", false);
            if (t.isSigned()) {
                push(mv, t.bits);
                push(mv, op.dstBits[k]);
                mv.visitMethodInsn(Opcodes.INVOKESTATIC, WIDTHS, "signedLoad", "(JII)J", false);
            }
            lane.write(d);
        }
    }

        /** The lane's address (in local LANE) of a memory op with this offset, as {@link LaneMemory#address} gives it, on the stack. */
    private static void laneAddress(MethodVisitor mv, Op op, long offset) {
        address(mv, op, offset, () -> {
            mv.visitVarInsn(Opcodes.ALOAD, REGS);
            register(mv, op.mem.register());
            mv.visitVarInsn(Opcodes.ILOAD, LANE);
            mv.visitInsn(Opcodes.IADD);
            mv.visitInsn(Opcodes.LALOAD);
        });
    }

    /** A memory op's address on the stack: its register (pushed by {@code register}) plus offset, or absolute. */
    private static void address(MethodVisitor mv, Op op, Runnable register) {
        address(mv, op, op.mem.offset(), register);
    }

    /** The address of a memory op with this offset in place of its own, on the stack. */
    private static void address(MethodVisitor mv, Op op, long offset, Runnable register) {
        if (op.mem.addressKind() == MemoryAccess.REGISTER) {
            register.run();
            if (offset != 0) {
                mv.visitLdcInsn(offset);
                mv.visitInsn(Opcodes.LADD);
            }
        } else {
            mv.visitLdcInsn(offset);
        }
    }

    /**
     * The ops from start + from before start + to, each as a loop over the lanes of mask (a run of
     * inline ops in one), counted before it runs.
     */
    private static void opByOp(MethodVisitor mv, Op[] ops, int start, int from, int to) {
        int k = from;
        while (k < to) {
            int pc = start + k;
            if (inlinable(ops[pc])) {
                // A run of inline ops in one loop over the lanes, each lane doing them all in order:
                // they touch only the lane's own registers and cannot fail, so no one can tell.
                int end = k;
                while (end < to && inlinable(ops[start + end])) {
                    count(mv);
                    end++;
                }
                inline(mv, java.util.Arrays.copyOfRange(ops, pc, start + end), MASK, true, -1);
                k = end;
            } else {
                count(mv);
                if (isInlineShared(ops[pc])) {
                    sharedAccess(mv, ops[pc], pc);
                } else {
                    helper(mv, ops[pc], pc, k > 0);
                }
                k++;
            }
        }
    }

    /**
     * The ops of a branching region ({@link Regions}: inline ops and forward branches whose targets
     * lie inside it or at its end) in the order the interpreter's lowest-PC rule runs them: op by op
     * in program order, each for the lanes that have reached it (if-conversion: the lanes at the
     * current op, and those waiting at each branch target, are masks). Before each run of ops
     * between branches and targets, if the steps left or the instruction budget do not cover it,
     * the region stops there with every lane at its PC, as the interpreter would be after as many
     * steps, and the scheduler goes on from there. Returns the steps taken: an op run by some lanes
     * is one step.
     */
    private static void branching(MethodVisitor mv, Op[] ops, int start, int n,
                                  java.util.List<Part> parts, boolean loops) {
        int end = start + n;
        // Branch targets inside the region or at its end, each with its local of waiting lanes.
        java.util.TreeMap<Integer, Integer> pending = new java.util.TreeMap<>();
        for (int pc = start; pc < end; pc++) {
            if (ops[pc].code == OpCode.BRA) {
                pending.putIfAbsent(ops[pc].target, 0);
            }
        }
        // Lanes of others wait at the targets where they are: pending = CompiledRegion.lanesAt(w.pc, others, t).
        int slot = PENDING;
        for (java.util.Map.Entry<Integer, Integer> t : pending.entrySet()) {
            t.setValue(slot);
            mv.visitInsn(Opcodes.ICONST_0);
            mv.visitVarInsn(Opcodes.ISTORE, slot++);
        }
        Label alone = new Label();
        mv.visitVarInsn(Opcodes.ILOAD, OTHERS);
        mv.visitJumpInsn(Opcodes.IFEQ, alone);
        for (java.util.Map.Entry<Integer, Integer> t : pending.entrySet()) {
            mv.visitVarInsn(Opcodes.ALOAD, W);
            mv.visitFieldInsn(Opcodes.GETFIELD, WARP, "pc", "[I");
            mv.visitVarInsn(Opcodes.ILOAD, OTHERS);
            push(mv, t.getKey());
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, BASE, "lanesAt", "([III)I", false);
            mv.visitVarInsn(Opcodes.ISTORE, t.getValue());
        }
        mv.visitLabel(alone);
        mv.visitVarInsn(Opcodes.ILOAD, MASK);
        mv.visitVarInsn(Opcodes.ISTORE, CUR);
        mv.visitInsn(Opcodes.ICONST_0);
        mv.visitVarInsn(Opcodes.ISTORE, TAKEN);
        mv.visitInsn(Opcodes.ICONST_0);
        mv.visitVarInsn(Opcodes.ISTORE, GUARD_SET);
        boolean guardSet = false;
        Label stop = new Label();
        // Out of line, after the region's end: the runs cut short by the turn's end.
        java.util.List<Runnable> partials = new java.util.ArrayList<>();
        Label pass = new Label();
        mv.visitLabel(pass);
        for (int pc = start; pc < end; ) {
            join(mv, pending, pc);
            int k = 1;
            if (ops[pc].code != OpCode.BRA) {
                while (pc + k < end && ops[pc + k].code != OpCode.BRA && !pending.containsKey(pc + k)) {
                    k++;
                }
            }
            // if (cur != 0) { stop unless k steps and k * pop instructions are left; run the ops }
            Label skip = new Label();
            mv.visitVarInsn(Opcodes.ILOAD, CUR);
            mv.visitJumpInsn(Opcodes.IFEQ, skip);
            mv.visitVarInsn(Opcodes.ILOAD, CUR);
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/Integer", "bitCount", "(I)I", false);
            mv.visitVarInsn(Opcodes.ISTORE, POP);
            push(mv, pc);
            mv.visitVarInsn(Opcodes.ISTORE, STOP);
            if (ops[pc].code == OpCode.BRA || k == 1) {
                stepsLeft(mv, k, stop);
            } else {
                // The turn's last steps cover only the first ops of the run: those, then stop.
                Label partial = new Label();
                stepsLeft(mv, k, partial);
                Op[] first = java.util.Arrays.copyOfRange(ops, pc, pc + k);
                int at = pc;
                partials.add(() -> {
                    mv.visitLabel(partial);
                    // limit = steps - taken, the ops run; their instructions within the budget, else stop here
                    mv.visitVarInsn(Opcodes.ILOAD, STEPS);
                    mv.visitVarInsn(Opcodes.ILOAD, TAKEN);
                    mv.visitInsn(Opcodes.ISUB);
                    mv.visitVarInsn(Opcodes.ISTORE, LIMIT_OPS);
                    mv.visitVarInsn(Opcodes.ILOAD, LIMIT_OPS);
                    mv.visitJumpInsn(Opcodes.IFLE, stop);
                    // e.executed + limit * pop > e.ctaLimit: stop
                    mv.visitVarInsn(Opcodes.ALOAD, E);
                    mv.visitFieldInsn(Opcodes.GETFIELD, ENGINE, "executed", "J");
                    mv.visitVarInsn(Opcodes.ILOAD, LIMIT_OPS);
                    mv.visitVarInsn(Opcodes.ILOAD, POP);
                    mv.visitInsn(Opcodes.IMUL);
                    mv.visitInsn(Opcodes.I2L);
                    mv.visitInsn(Opcodes.LADD);
                    mv.visitVarInsn(Opcodes.ALOAD, E);
                    mv.visitFieldInsn(Opcodes.GETFIELD, ENGINE, "ctaLimit", "J");
                    mv.visitInsn(Opcodes.LCMP);
                    mv.visitJumpInsn(Opcodes.IFGT, stop);
                    // taken += limit; e.executed += limit * pop
                    mv.visitVarInsn(Opcodes.ILOAD, TAKEN);
                    mv.visitVarInsn(Opcodes.ILOAD, LIMIT_OPS);
                    mv.visitInsn(Opcodes.IADD);
                    mv.visitVarInsn(Opcodes.ISTORE, TAKEN);
                    addExecuted(mv, () -> {
                        mv.visitVarInsn(Opcodes.ILOAD, LIMIT_OPS);
                        mv.visitVarInsn(Opcodes.ILOAD, POP);
                        mv.visitInsn(Opcodes.IMUL);
                    });
                    callPart(mv, parts, CUR, new Part("V", m -> firstOps(m, first), true));
                    // The lanes stop after them.
                    mv.visitVarInsn(Opcodes.ILOAD, LIMIT_OPS);
                    push(mv, at);
                    mv.visitInsn(Opcodes.IADD);
                    mv.visitVarInsn(Opcodes.ISTORE, STOP);
                    mv.visitJumpInsn(Opcodes.GOTO, stop);
                });
            }
            budgetLeft(mv, k, stop);
            mv.visitIincInsn(TAKEN, k);
            for (int j = 0; j < k; j++) {
                count(mv);
            }
            Op op = ops[pc];
            if (op.code == OpCode.BRA) {
                // exec = the lanes whose guard lets them jump; they wait at the target, the rest go on.
                if (op.guard < 0) {
                    mv.visitVarInsn(Opcodes.ILOAD, CUR);
                } else if (guardSet) {
                    // The run just before found the lanes whose guard is set (no lane joined since).
                    if (op.guardNegated) {
                        mv.visitVarInsn(Opcodes.ILOAD, CUR);
                        mv.visitVarInsn(Opcodes.ILOAD, GUARD_SET);
                        mv.visitInsn(Opcodes.ICONST_M1);
                        mv.visitInsn(Opcodes.IXOR);
                        mv.visitInsn(Opcodes.IAND);
                    } else {
                        mv.visitVarInsn(Opcodes.ILOAD, GUARD_SET);
                    }
                } else {
                    mv.visitVarInsn(Opcodes.ALOAD, REGS);
                    register(mv, op.guard);
                    mv.visitVarInsn(Opcodes.ILOAD, CUR);
                    mv.visitInsn(op.guardNegated ? Opcodes.ICONST_1 : Opcodes.ICONST_0);
                    mv.visitMethodInsn(Opcodes.INVOKESTATIC, BASE, "guard", "([JIIZ)I", false);
                }
                mv.visitVarInsn(Opcodes.ISTORE, EXEC);
                int waiting = pending.get(op.target);
                mv.visitVarInsn(Opcodes.ILOAD, waiting);
                mv.visitVarInsn(Opcodes.ILOAD, EXEC);
                mv.visitInsn(Opcodes.IOR);
                mv.visitVarInsn(Opcodes.ISTORE, waiting);
                mv.visitVarInsn(Opcodes.ILOAD, CUR);
                mv.visitVarInsn(Opcodes.ILOAD, EXEC);
                mv.visitInsn(Opcodes.ICONST_M1);
                mv.visitInsn(Opcodes.IXOR);
                mv.visitInsn(Opcodes.IAND);
                mv.visitVarInsn(Opcodes.ISTORE, CUR);
            } else {
                Op[] run = java.util.Arrays.copyOfRange(ops, pc, pc + k);
                // A guarded branch right after the run (no lane joins there): the run's lane loop
                // finds the lanes whose guard is set, which guard() would find over again.
                int next = pc + k;
                int g = next < end && ops[next].code == OpCode.BRA && !pending.containsKey(next) ? ops[next].guard : -1;
                if (g >= 0) {
                    callPart(mv, parts, CUR, new Part("I", m -> {
                        inline(m, run, MASK, true, g);
                        m.visitVarInsn(Opcodes.ILOAD, GUARD_SET);
                        m.visitInsn(Opcodes.IRETURN);
                    }));
                    mv.visitVarInsn(Opcodes.ISTORE, GUARD_SET);
                } else {
                    callPart(mv, parts, CUR, new Part("V", m -> inline(m, run, MASK, true, -1)));
                }
            }
            guardSet = op.code != OpCode.BRA && pc + k < end && ops[pc + k].code == OpCode.BRA
                    && !pending.containsKey(pc + k);
            mv.visitLabel(skip);
            pc += k;
        }
        // Every lane has reached the end (the targets lie at or before it).
        if (loops) {
            // Another pass for them all (mask | others), every lane at the start: no one waits at
            // a target, and the next pass stops early where the steps or the budget run out.
            Label out = new Label();
            mv.visitVarInsn(Opcodes.ILOAD, MASK);
            mv.visitVarInsn(Opcodes.ILOAD, OTHERS);
            mv.visitInsn(Opcodes.IOR);
            mv.visitVarInsn(Opcodes.ISTORE, CUR);
            loopBack(mv, ops, start, n, CUR, 0, out);
            for (int waiting : pending.values()) {
                mv.visitInsn(Opcodes.ICONST_0);
                mv.visitVarInsn(Opcodes.ISTORE, waiting);
            }
            mv.visitJumpInsn(Opcodes.GOTO, pass);
            mv.visitLabel(out);
        }
        mv.visitVarInsn(Opcodes.ILOAD, TAKEN);
        mv.visitInsn(Opcodes.IRETURN);
        partials.forEach(Runnable::run);
        // Stopped early: the lanes at the current op and those waiting at targets go to their PCs.
        mv.visitLabel(stop);
        for (java.util.Map.Entry<Integer, Integer> t : pending.entrySet()) {
            advance(mv, t.getValue(), t.getKey());
        }
        mv.visitVarInsn(Opcodes.ALOAD, E);
        mv.visitVarInsn(Opcodes.ALOAD, W);
        mv.visitVarInsn(Opcodes.ILOAD, CUR);
        mv.visitVarInsn(Opcodes.ILOAD, STOP);
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, ENGINE, "advance", "(L" + WARP + ";II)V", false);
        mv.visitInsn(Opcodes.ICONST_M1);
        mv.visitVarInsn(Opcodes.ILOAD, TAKEN);
        mv.visitInsn(Opcodes.ISUB);
        mv.visitInsn(Opcodes.IRETURN);
    }

    /**
     * this.runK(e, w, regs, base, lanes): a part of the region in a method of its own, for the
     * lanes in local {@code lanes} here, in its local MASK there.
     */
    private static void callPart(MethodVisitor mv, java.util.List<Part> parts, int lanes, Part part) {
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitVarInsn(Opcodes.ALOAD, E);
        mv.visitVarInsn(Opcodes.ALOAD, W);
        mv.visitVarInsn(Opcodes.ALOAD, REGS);
        mv.visitVarInsn(Opcodes.ILOAD, BASE_AT);
        mv.visitVarInsn(Opcodes.ILOAD, lanes);
        if (part.limited()) {
            mv.visitVarInsn(Opcodes.ILOAD, LIMIT_OPS);
        }
        mv.visitMethodInsn(Opcodes.INVOKESPECIAL, NAME, "run" + parts.size(),
                (part.limited() ? LIMITED_PART : PART) + part.returns(), false);
        parts.add(part);
    }

    /** In a branching region's run, the ops of a run that fit the turn's last steps (a limited part's argument). */
    private static final int LIMIT_OPS = LANE;

    /**
     * A limited part's code: the first (local 6) of the inline ops for each lane of its mask, as
     * the interpreter's next steps would run them for the group at the first, the last of a turn.
     */
    private static void firstOps(MethodVisitor mv, Op[] run) {
        laneLoop(mv, MASK, true, () -> {
            LaneRegisters lane = new LaneRegisters(mv);
            for (Op op : run) {
                lane.fetch(op, true);
            }
            Label done = new Label();
            for (int j = 0; j < run.length; j++) {
                mv.visitVarInsn(Opcodes.ILOAD, 6);
                push(mv, j);
                mv.visitJumpInsn(Opcodes.IF_ICMPLE, done);
                guardedBody(lane, run[j]);
            }
            mv.visitLabel(done);
            lane.flush();
        });
    }

    /** Lanes waiting at pc (a branch target) join the lanes at the current op. */
    private static void join(MethodVisitor mv, java.util.Map<Integer, Integer> pending, int pc) {
        Integer waiting = pending.get(pc);
        if (waiting == null) {
            return;
        }
        mv.visitVarInsn(Opcodes.ILOAD, CUR);
        mv.visitVarInsn(Opcodes.ILOAD, waiting);
        mv.visitInsn(Opcodes.IOR);
        mv.visitVarInsn(Opcodes.ISTORE, CUR);
        mv.visitInsn(Opcodes.ICONST_0);
        mv.visitVarInsn(Opcodes.ISTORE, waiting);
    }

    /** e.advance(w, lanes in local, pc). */
    /** To {@code out} unless the turn has k more steps: taken + k > steps. */
    private static void stepsLeft(MethodVisitor mv, int k, Label out) {
        mv.visitVarInsn(Opcodes.ILOAD, TAKEN);
        push(mv, k);
        mv.visitInsn(Opcodes.IADD);
        mv.visitVarInsn(Opcodes.ILOAD, STEPS);
        mv.visitJumpInsn(Opcodes.IF_ICMPGT, out);
    }

    /** To {@code out} unless the budget covers k ops of local POP lanes: e.executed + k * pop > e.ctaLimit. */
    private static void budgetLeft(MethodVisitor mv, int k, Label out) {
        mv.visitVarInsn(Opcodes.ALOAD, E);
        mv.visitFieldInsn(Opcodes.GETFIELD, ENGINE, "executed", "J");
        push(mv, k);
        mv.visitVarInsn(Opcodes.ILOAD, POP);
        mv.visitInsn(Opcodes.IMUL);
        mv.visitInsn(Opcodes.I2L);
        mv.visitInsn(Opcodes.LADD);
        mv.visitVarInsn(Opcodes.ALOAD, E);
        mv.visitFieldInsn(Opcodes.GETFIELD, ENGINE, "ctaLimit", "J");
        mv.visitInsn(Opcodes.LCMP);
        mv.visitJumpInsn(Opcodes.IFGT, out);
    }

    private static void advance(MethodVisitor mv, int lanes, int pc) {
        mv.visitVarInsn(Opcodes.ALOAD, E);
        mv.visitVarInsn(Opcodes.ALOAD, W);
        mv.visitVarInsn(Opcodes.ILOAD, lanes);
        push(mv, pc);
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, ENGINE, "advance", "(L" + WARP + ";II)V", false);
    }

    /** e.executed += pop: each op is counted before it runs, as in the interpreter. */
    private static void count(MethodVisitor mv) {
        addExecuted(mv, () -> mv.visitVarInsn(Opcodes.ILOAD, POP));
    }

    /** e.executed += (long) the int that {@code count} pushes (the interpreter's instruction count). */
    private static void addExecuted(MethodVisitor mv, Runnable count) {
        mv.visitVarInsn(Opcodes.ALOAD, E);
        mv.visitInsn(Opcodes.DUP);
        mv.visitFieldInsn(Opcodes.GETFIELD, ENGINE, "executed", "J");
        count.run();
        mv.visitInsn(Opcodes.I2L);
        mv.visitInsn(Opcodes.LADD);
        mv.visitFieldInsn(Opcodes.PUTFIELD, ENGINE, "executed", "J");
    }

    /**
     * e.advance(w, mask, pc) when needed; LaneOps.run(e, w, op, e.guarded(w, op, mask)). A plain ld/st
     * is LaneOps.regionMemory(e, w, op, pc, mask, e.guarded(w, op, mask)), the whole-group form that moves
     * the PCs only when it falls back to the per-lane one.
     */
    private static void helper(MethodVisitor mv, Op op, int pc, boolean movePc) {
        boolean memory = WarpMemory.applies(op);
        if (movePc && !memory) {
            mv.visitVarInsn(Opcodes.ALOAD, E);
            mv.visitVarInsn(Opcodes.ALOAD, W);
            mv.visitVarInsn(Opcodes.ILOAD, MASK);
            push(mv, pc);
            mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, ENGINE, "advance", "(L" + WARP + ";II)V", false);
        }
        mv.visitVarInsn(Opcodes.ALOAD, E);
        mv.visitVarInsn(Opcodes.ALOAD, W);
        loadOp(mv, pc);
        if (memory) {
            push(mv, pc);
            mv.visitVarInsn(Opcodes.ILOAD, MASK);
        }
        if (op.guard >= 0) {
            mv.visitVarInsn(Opcodes.ALOAD, E);
            mv.visitVarInsn(Opcodes.ALOAD, W);
            loadOp(mv, pc);
            mv.visitVarInsn(Opcodes.ILOAD, MASK);
            mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, ENGINE, "guarded", "(L" + WARP + ";L" + OP + ";I)I", false);
        } else {
            mv.visitVarInsn(Opcodes.ILOAD, MASK);
        }
        if (memory) {
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, LANE_OPS, "regionMemory", "(L" + ENGINE + ";L" + WARP + ";L" + OP + ";III)V", false);
        } else {
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, LANE_OPS, "run", "(L" + ENGINE + ";L" + WARP + ";L" + OP + ";I)V", false);
        }
    }

    private static void loadOp(MethodVisitor mv, int pc) {
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitFieldInsn(Opcodes.GETFIELD, BASE, "ops", "[L" + OP + ";");
        push(mv, pc);
        mv.visitInsn(Opcodes.AALOAD);
    }

    // ---------------------------------------------------------------- inline shared-memory ld and st

    /**
     * A plain ld or st of the CTA's own shared memory ({@link WarpMemory#applies}, an explicit
     * .shared space, register or immediate values), run inline as {@link WarpMemory} runs it.
     */
    static boolean isInlineShared(Op op) {
        if (!WarpMemory.applies(op) || op.mem.space() != Space.SHARED) {
            return false;
        }
        for (int k = 0; k < op.sources(); k++) {
            if (op.srcKind[k] != Op.REG && op.srcKind[k] != Op.IMM) {
                return false;
            }
        }
        return true;
    }

    /**
     * if (!CompiledRegion.shared(e, w, regs, base, exec, op, pc)) LaneOps.regionMemory(e, w, op, pc, mask, exec),
     * exec the lanes of mask the op's guard lets run: the shared-memory case of the whole-group form
     * in a helper of its own, else (when an address is not the ordinary case) the interpreter's.
     */
    private static void sharedAccess(MethodVisitor mv, Op op, int pc) {
        Label done = new Label();
        guarded(mv, op, MASK);
        mv.visitVarInsn(Opcodes.ISTORE, EXEC);
        mv.visitVarInsn(Opcodes.ALOAD, E);
        mv.visitVarInsn(Opcodes.ALOAD, W);
        mv.visitVarInsn(Opcodes.ALOAD, REGS);
        mv.visitVarInsn(Opcodes.ILOAD, BASE_AT);
        mv.visitVarInsn(Opcodes.ILOAD, EXEC);
        loadOp(mv, pc);
        push(mv, pc);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, BASE, "shared", "(L" + ENGINE + ";L" + WARP + ";[JIIL" + OP + ";I)Z",
                false);
        mv.visitJumpInsn(Opcodes.IFNE, done);
        mv.visitVarInsn(Opcodes.ALOAD, E);
        mv.visitVarInsn(Opcodes.ALOAD, W);
        loadOp(mv, pc);
        push(mv, pc);
        mv.visitVarInsn(Opcodes.ILOAD, MASK);
        mv.visitVarInsn(Opcodes.ILOAD, EXEC);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, LANE_OPS, "regionMemory", "(L" + ENGINE + ";L" + WARP + ";L" + OP + ";III)V", false);
        mv.visitLabel(done);
    }

    /** The lanes of the local {@code lanes} that the op's guard lets run, as {@link Engine#guarded}, on the stack. */
    private static void guarded(MethodVisitor mv, Op op, int lanes) {
        if (op.guard < 0) {
            mv.visitVarInsn(Opcodes.ILOAD, lanes);
            return;
        }
        mv.visitVarInsn(Opcodes.ALOAD, REGS);
        register(mv, op.guard);
        mv.visitVarInsn(Opcodes.ILOAD, lanes);
        mv.visitInsn(op.guardNegated ? Opcodes.ICONST_1 : Opcodes.ICONST_0);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, BASE, "guard", "([JIIZ)I", false);
    }

    // ---------------------------------------------------------------- inline ops

    /** Plain mov as {@link Engine}'s lane semantics define it, for types its whole-group loop does not take. */
    private static boolean isPlainMov(Op op) {
        return op.code == OpCode.MOV && !LaneOps.isFastInteger(op) && op.dstBits.length > 0;
    }

    /** shr of a scalar integer type, as {@link IntegerOps#apply} defines it. */
    private static boolean isShr(Op op) {
        DataType t = op.type;
        return op.code == OpCode.SHR && t != null && t.isInteger() && t != DataType.S16X2 && t != DataType.U16X2;
    }

    static boolean inlinable(Op op) {
        if (op.dst.length == 0) {
            return false;
        }
        for (int k = 0; k < op.sources(); k++) {
            if (op.srcKind[k] != Op.REG && op.srcKind[k] != Op.IMM) {
                return false;
            }
        }
        int needed = switch (op.code) {
            case MOV -> 1;
            case SELP, MAD, FMA -> 3;
            default -> 2;
        };
        if (op.sources() < needed) {
            return false;
        }
        return LaneOps.isFastInteger(op) || LaneOps.isFastF32(op) || LaneOps.isFastSetp(op) || op.code == OpCode.SELP
                || isPlainMov(op) || isShr(op);
    }

    /**
     * The ops over the lanes in local {@code lanes}: all 32 in a plain loop when they are all (and
     * wholeWarpLoop), else the bits of the lane mask; a guarded op tests its guard lane by lane.
     */
    private static void inline(MethodVisitor mv, Op[] block, int lanes, boolean wholeWarpLoop, int guard) {
        mv.visitVarInsn(Opcodes.ILOAD, lanes);
        mv.visitVarInsn(Opcodes.ISTORE, EXEC);
        if (guard >= 0) {
            mv.visitInsn(Opcodes.ICONST_0);
            mv.visitVarInsn(Opcodes.ISTORE, GUARD_SET);
        }
        laneLoop(mv, EXEC, wholeWarpLoop, () -> body(mv, block, guard));
    }

    /**
     * The body once for each lane (in local LANE) of the lanes in local {@code lanes}: all 32 in a
     * plain loop when they are all (and wholeWarpLoop), else the bits of the lane mask.
     */
    private static void laneLoop(MethodVisitor mv, int lanes, boolean wholeWarpLoop, Runnable body) {
        Label masked = new Label(), end = new Label();
        if (wholeWarpLoop) {
            mv.visitVarInsn(Opcodes.ILOAD, lanes);
            mv.visitInsn(Opcodes.ICONST_M1);
            mv.visitJumpInsn(Opcodes.IF_ICMPNE, masked);
            // for (l = 0; l < 32; l++)
            Label loop = new Label();
            mv.visitInsn(Opcodes.ICONST_0);
            mv.visitVarInsn(Opcodes.ISTORE, LANE);
            mv.visitLabel(loop);
            mv.visitVarInsn(Opcodes.ILOAD, LANE);
            push(mv, 32);
            mv.visitJumpInsn(Opcodes.IF_ICMPGE, end);
            body.run();
            mv.visitIincInsn(LANE, 1);
            mv.visitJumpInsn(Opcodes.GOTO, loop);
        }
        // for (m = exec; m != 0; m &= m - 1) l = numberOfTrailingZeros(m)
        mv.visitLabel(masked);
        mv.visitVarInsn(Opcodes.ILOAD, lanes);
        mv.visitVarInsn(Opcodes.ISTORE, BITS);
        Label bits = new Label();
        mv.visitLabel(bits);
        mv.visitVarInsn(Opcodes.ILOAD, BITS);
        mv.visitJumpInsn(Opcodes.IFEQ, end);
        mv.visitVarInsn(Opcodes.ILOAD, BITS);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/Integer", "numberOfTrailingZeros", "(I)I", false);
        mv.visitVarInsn(Opcodes.ISTORE, LANE);
        body.run();
        mv.visitVarInsn(Opcodes.ILOAD, BITS);
        mv.visitVarInsn(Opcodes.ILOAD, BITS);
        mv.visitInsn(Opcodes.ICONST_1);
        mv.visitInsn(Opcodes.ISUB);
        mv.visitInsn(Opcodes.IAND);
        mv.visitVarInsn(Opcodes.ISTORE, BITS);
        mv.visitJumpInsn(Opcodes.GOTO, bits);
        mv.visitLabel(end);
    }

    /**
     * One lane (in local LANE) of the ops, each under its guard; then, for a guard register g (not
     * -1), the lane's bit in local GUARD_SET is set where the register is, as {@link
     * CompiledRegion#guard} finds it.
     */
    private static void body(MethodVisitor mv, Op[] block, int g) {
        LaneRegisters lane = new LaneRegisters(mv);
        for (Op op : block) {
            if (op.code == OpCode.LD) {
                load(lane, op);
            } else {
                guardedBody(lane, op);
            }
        }
        if (g >= 0) {
            // guardSet |= (int) ((p | -p) >>> 63) << lane
            mv.visitVarInsn(Opcodes.ILOAD, GUARD_SET);
            lane.read(g);
            mv.visitInsn(Opcodes.DUP2);
            mv.visitInsn(Opcodes.LNEG);
            mv.visitInsn(Opcodes.LOR);
            push(mv, 63);
            mv.visitInsn(Opcodes.LUSHR);
            mv.visitInsn(Opcodes.L2I);
            mv.visitVarInsn(Opcodes.ILOAD, LANE);
            mv.visitInsn(Opcodes.ISHL);
            mv.visitInsn(Opcodes.IOR);
            mv.visitVarInsn(Opcodes.ISTORE, GUARD_SET);
        }
        lane.flush();
    }

    /** One lane of an inlinable op, under its guard. */
    private static void guardedBody(LaneRegisters lane, Op op) {
        MethodVisitor mv = lane.mv;
        if (op.guard < 0) {
            body(lane, op);
            return;
        }
        // (regs[guard] != 0) != negated; what the op reads or writes is in locals on both paths.
        lane.fetch(op, true);
        Label skip = new Label();
        lane.truth(op.guard);
        mv.visitJumpInsn(op.guardNegated ? Opcodes.IFNE : Opcodes.IFEQ, skip);
        body(lane, op);
        mv.visitLabel(skip);
    }

    /**
     * The lane's registers that its run of inline ops reads or writes, in JVM locals while it runs
     * them (each read from the register array once, each written back once at the end), so that
     * values pass from op to op without going through memory. A register may be held in a local
     * of its own kind ({@link Kind}) where the ops that touch it see only that part of its value;
     * it then becomes a register value again (as the ops' own results would have it) where
     * something else reads it and where it is written back, and is written back only where the
     * lane wrote it (a written flag beside it), or, {@link #unflagged}, wherever the ops may.
     */
    private static final class LaneRegisters {
        final MethodVisitor mv;
        private final java.util.Map<Integer, Integer> slots = new java.util.HashMap<>();
        private final java.util.TreeSet<Integer> written = new java.util.TreeSet<>();
        private final java.util.Map<Integer, Kind> kinds;
        private int next = CACHED;
        /**
         * Whether the registers of other kinds than a long are written back whether the lane
         * wrote them or not, without written flags (where each one's local gives its value back,
         * see {@link #byLane}).
         */
        boolean unflagged;

        LaneRegisters(MethodVisitor mv) {
            this(mv, java.util.Map.of());
        }

        LaneRegisters(MethodVisitor mv, java.util.Map<Integer, Kind> kinds) {
            this.mv = mv;
            this.kinds = kinds;
        }

        Kind kind(int r) {
            return kinds.getOrDefault(r, Kind.LONG);
        }

        /** Register r of the lane on the stack, as a register value (a long). */
        void read(int r) {
            int s = slot(r);
            switch (kind(r)) {
                case LONG -> mv.visitVarInsn(Opcodes.LLOAD, s);
                case INT -> {
                    mv.visitVarInsn(Opcodes.ILOAD, s);
                    mv.visitInsn(Opcodes.I2L);
                    width(mv, 32);
                }
                case PREDICATE -> {
                    mv.visitVarInsn(Opcodes.ILOAD, s);
                    mv.visitInsn(Opcodes.I2L);
                }
                case F32 -> {
                    mv.visitVarInsn(Opcodes.FLOAD, s);
                    mv.visitMethodInsn(Opcodes.INVOKESTATIC, FLOAT_OPS, "bits32", "(F)J", false);
                }
            }
        }

        /** The low 32 bits of register r as an int on the stack (r not held as an f32). */
        void readInt(int r) {
            if (kind(r) == Kind.INT || kind(r) == Kind.PREDICATE) {
                mv.visitVarInsn(Opcodes.ILOAD, slot(r));
            } else {
                read(r);
                mv.visitInsn(Opcodes.L2I);
            }
        }

        /** Register r as an f32 operand, as {@link FloatOps#f32} gives it, on the stack. */
        void readF32(int r) {
            if (kind(r) == Kind.F32) {
                mv.visitVarInsn(Opcodes.FLOAD, slot(r));
            } else {
                read(r);
                mv.visitMethodInsn(Opcodes.INVOKESTATIC, FLOAT_OPS, "f32", "(J)F", false);
            }
        }

        /** An int on the stack, nonzero where register r is (a guard's test). */
        void truth(int r) {
            if (kind(r) == Kind.PREDICATE) {
                mv.visitVarInsn(Opcodes.ILOAD, slot(r));
            } else {
                read(r);
                mv.visitInsn(Opcodes.LCONST_0);
                mv.visitInsn(Opcodes.LCMP);
            }
        }

        /** The int 1 where register r is nonzero (a guard's test), else 0, on the stack. */
        void bit(int r) {
            if (kind(r) == Kind.PREDICATE) {
                mv.visitVarInsn(Opcodes.ILOAD, slot(r));
            } else {
                // (int) ((v | -v) >>> 63)
                read(r);
                mv.visitInsn(Opcodes.DUP2);
                mv.visitInsn(Opcodes.LNEG);
                mv.visitInsn(Opcodes.LOR);
                push(mv, 63);
                mv.visitInsn(Opcodes.LUSHR);
                mv.visitInsn(Opcodes.L2I);
            }
        }

        /** A fresh pair of locals: a long, or a value of another kind and its written flag. */
        int local() {
            int s = next;
            next += 2;
            return s;
        }

        /** The local holding register r now. */
        int current(int r) {
            return slot(r);
        }

        /** Register r held in local s from here on (a diamond's arm runs into temporaries); returns its local before. */
        int hold(int r, int s) {
            return slots.put(r, s);
        }

        /** The long on the stack becomes register r of the lane. */
        void write(int r) {
            int s = target(r);
            switch (kind(r)) {
                case LONG -> mv.visitVarInsn(Opcodes.LSTORE, s);
                case INT, PREDICATE -> {
                    mv.visitInsn(Opcodes.L2I);
                    mv.visitVarInsn(Opcodes.ISTORE, s);
                }
                case F32 -> {
                    mv.visitMethodInsn(Opcodes.INVOKESTATIC, FLOAT_OPS, "f32", "(J)F", false);
                    mv.visitVarInsn(Opcodes.FSTORE, s);
                }
            }
        }

        /** The int on the stack, a 32-bit op's result, becomes register r (zero-extended). */
        void writeInt(int r) {
            if (kind(r) == Kind.INT) {
                mv.visitVarInsn(Opcodes.ISTORE, target(r));
            } else {
                mv.visitInsn(Opcodes.I2L);
                width(mv, 32);
                write(r);
            }
        }

        /** The int 0 or 1 on the stack becomes register r. */
        void writeBit(int r) {
            if (kind(r) == Kind.PREDICATE || kind(r) == Kind.INT) {
                mv.visitVarInsn(Opcodes.ISTORE, target(r));
            } else {
                mv.visitInsn(Opcodes.I2L);
                write(r);
            }
        }

        /**
         * The float on the stack, an f32 op's result, becomes register r: as {@link FloatOps#bits32}
         * gives it, or as it is where r is held as an f32 (a NaN's bits are lost there, but every
         * read of r as a register value gives the canonical NaN, and an f32 op gives a NaN for any).
         */
        void writeF32(int r) {
            if (kind(r) == Kind.F32) {
                mv.visitVarInsn(Opcodes.FSTORE, target(r));
            } else {
                mv.visitMethodInsn(Opcodes.INVOKESTATIC, FLOAT_OPS, "bits32", "(F)J", false);
                write(r);
            }
        }

        /** The local of register r for a write; a register held in a local of its own kind is marked written. */
        private int target(int r) {
            int s = slot(r);
            written.add(r);
            if (kind(r) != Kind.LONG && !unflagged) {
                mv.visitInsn(Opcodes.ICONST_1);
                mv.visitVarInsn(Opcodes.ISTORE, s + 1);
            }
            return s;
        }

        /**
         * Brings the registers the op reads (and its guard and destinations, with {@code all}) into
         * locals here, before any branch of the op: a local first set on one path only could not
         * be read after the paths meet.
         */
        void fetch(Op op, boolean all) {
            for (int k = 0; k < op.sources(); k++) {
                if (op.srcKind[k] == Op.REG) {
                    slot(op.src[k]);
                }
            }
            if (all) {
                if (op.guard >= 0) {
                    slot(op.guard);
                }
                for (int d : op.dst) {
                    if (d >= 0) {
                        slot(d);
                    }
                }
            }
        }

        /** The local holding register r (and, for another kind than a long, whether the lane wrote it after it). */
        private int slot(int r) {
            Integer s = slots.get(r);
            if (s == null) {
                s = next;
                next += 2;
                slots.put(r, s);
                mv.visitVarInsn(Opcodes.ALOAD, REGS);
                register(mv, r);
                mv.visitVarInsn(Opcodes.ILOAD, LANE);
                mv.visitInsn(Opcodes.IADD);
                mv.visitInsn(Opcodes.LALOAD);
                switch (kind(r)) {
                    case LONG -> mv.visitVarInsn(Opcodes.LSTORE, s);
                    case INT -> mv.visitInsn(Opcodes.L2I);
                    case PREDICATE -> {
                        // Its truth: (int) ((p | -p) >>> 63)
                        mv.visitInsn(Opcodes.DUP2);
                        mv.visitInsn(Opcodes.LNEG);
                        mv.visitInsn(Opcodes.LOR);
                        push(mv, 63);
                        mv.visitInsn(Opcodes.LUSHR);
                        mv.visitInsn(Opcodes.L2I);
                    }
                    case F32 -> mv.visitMethodInsn(Opcodes.INVOKESTATIC, FLOAT_OPS, "f32", "(J)F", false);
                }
                if (kind(r) != Kind.LONG) {
                    mv.visitVarInsn(kind(r) == Kind.F32 ? Opcodes.FSTORE : Opcodes.ISTORE, s);
                    if (!unflagged) {
                        mv.visitInsn(Opcodes.ICONST_0);
                        mv.visitVarInsn(Opcodes.ISTORE, s + 1);
                    }
                }
            }
            return s;
        }

        /** Writes the registers the ops wrote back to the register array (those of another kind where the lane wrote them). */
        void flush() {
            for (int r : written) {
                int s = slots.get(r);
                Label skip = new Label();
                if (kind(r) != Kind.LONG && !unflagged) {
                    mv.visitVarInsn(Opcodes.ILOAD, s + 1);
                    mv.visitJumpInsn(Opcodes.IFEQ, skip);
                }
                mv.visitVarInsn(Opcodes.ALOAD, REGS);
                register(mv, r);
                mv.visitVarInsn(Opcodes.ILOAD, LANE);
                mv.visitInsn(Opcodes.IADD);
                read(r);
                mv.visitInsn(Opcodes.LASTORE);
                mv.visitLabel(skip);
            }
        }
    }

    /**
     * The registers held in a local of another kind than a long ({@link #kinds}) that the ops from
     * {@code from} to {@code to} (inclusive) write.
     */
    private static java.util.List<Integer> writtenOtherKinds(Op[] ops, int from, int to,
                                                             java.util.Map<Integer, Kind> kinds) {
        java.util.TreeSet<Integer> written = new java.util.TreeSet<>();
        for (int pc = from; pc <= to; pc++) {
            for (int d : ops[pc].dst) {
                if (d >= 0 && kinds.getOrDefault(d, Kind.LONG) != Kind.LONG) {
                    written.add(d);
                }
            }
        }
        return new java.util.ArrayList<>(written);
    }

    /**
     * The bits of register r of the lane (in local LANE) that its local of this kind does not give
     * back as LaneRegisters fetches and writes it back, as a long on the stack (0 where it does):
     * the upper half of an int's, any but bit 0 of a predicate's, those an f32's bits change by.
     */
    private static void roundTripBits(MethodVisitor mv, int r, Kind kind) {
        mv.visitVarInsn(Opcodes.ALOAD, REGS);
        register(mv, r);
        mv.visitVarInsn(Opcodes.ILOAD, LANE);
        mv.visitInsn(Opcodes.IADD);
        mv.visitInsn(Opcodes.LALOAD);
        switch (kind) {
            case INT -> {
                push(mv, 32);
                mv.visitInsn(Opcodes.LUSHR);
            }
            case PREDICATE -> {
                mv.visitLdcInsn(~1L);
                mv.visitInsn(Opcodes.LAND);
            }
            case F32 -> {
                mv.visitInsn(Opcodes.DUP2);
                mv.visitMethodInsn(Opcodes.INVOKESTATIC, FLOAT_OPS, "f32", "(J)F", false);
                mv.visitMethodInsn(Opcodes.INVOKESTATIC, FLOAT_OPS, "bits32", "(F)J", false);
                mv.visitInsn(Opcodes.LXOR);
            }
            default -> throw new IllegalStateException(kind.name());
        }
    }

    /**
     * How a lane's register is held in a JVM local: as the register value (a long), or, where
     * every op that touches it sees only that part, its low 32 bits (32-bit integer ops), its
     * truth (written by setp, read as a guard) or its f32 value (f32 arithmetic).
     */
    private enum Kind { LONG, INT, PREDICATE, F32 }

    /**
     * The kinds of the registers that the ops touch: a register is held as an int where every op
     * touching it is a 32-bit integer op ({@link #isInt32}), as a predicate where setp writes it
     * and guards read it, as an f32 where f32 arithmetic reads and writes it; else as a long.
     */
    private static java.util.Map<Integer, Kind> kinds(Op[] ops, int from, int to) {
        java.util.Map<Integer, Kind> kinds = new java.util.HashMap<>();
        java.util.Set<Integer> longs = new java.util.HashSet<>();
        java.util.function.BiConsumer<Integer, Kind> use = (r, k) -> {
            if (r >= 0 && !longs.contains(r)) {
                Kind was = kinds.putIfAbsent(r, k);
                if (was != null && was != k) {
                    kinds.remove(r);
                    longs.add(r);
                }
            }
        };
        for (int pc = from; pc < to; pc++) {
            Op op = ops[pc];
            use.accept(op.guard, Kind.PREDICATE);
            Kind operands = LaneOps.isFastF32(op) ? Kind.F32 : isInt32(op) ? Kind.INT : Kind.LONG;
            for (int k = 0; k < op.sources(); k++) {
                if (op.srcKind[k] == Op.REG) {
                    use.accept(op.src[k], op.srcNegated[k] ? Kind.LONG : operands);
                }
            }
            for (int k = 0; k < op.dst.length; k++) {
                use.accept(op.dst[k], LaneOps.isFastSetp(op) ? Kind.PREDICATE : operands);
            }
        }
        for (int r : longs) {
            kinds.remove(r);
        }
        kinds.values().removeIf(k -> k == Kind.LONG);
        return kinds;
    }

    /**
     * An inline op whose result is the low 32 bits of an integer computation on the low 32 bits
     * of its operands: add, sub, mul.lo, mad.lo, and, or, xor, mov, shl and shr of 32-bit integer
     * types, and 32-bit setp (whose operands only).
     */
    private static boolean isInt32(Op op) {
        if (op.type == null || op.type.bits != 32 || !op.type.isInteger() || !inlinable(op)) {
            return false;
        }
        if (LaneOps.isFastSetp(op)) {
            return true;
        }
        return isShr(op) || LaneOps.isFastInteger(op) && !LaneOps.isMulWide(op) && op.code != OpCode.SETP;
    }

    /** One lane (in local LANE) of an inlinable op. */
    private static void body(LaneRegisters lane, Op op) {
        MethodVisitor mv = lane.mv;
        lane.fetch(op, false);
        if (LaneOps.isFastSetp(op)) {
            int p = op.dst[0], q = op.dst.length > 1 ? op.dst[1] : -1;
            if (p < 0 && q < 0) {
                return;
            }
            push(mv, op.comparison());
            mv.visitInsn(op.type.isSigned() ? Opcodes.ICONST_1 : Opcodes.ICONST_0);
            if (op.type.bits == 32) {
                // On the ints that a lane loop holds 32-bit registers in, not widened to longs.
                sourceInt(lane, op, 0);
                sourceInt(lane, op, 1);
                mv.visitMethodInsn(Opcodes.INVOKESTATIC, Type.getInternalName(Comparisons.class), "compareInt32",
                        "(IZII)Z", false);
            } else {
                push(mv, op.type.bits);
                source(lane, op, 0);
                source(lane, op, 1);
                mv.visitMethodInsn(Opcodes.INVOKESTATIC, Type.getInternalName(Comparisons.class), "compareInt",
                        "(IZIJJ)Z", false);
            }
            mv.visitVarInsn(Opcodes.ISTORE, COND);
            if (p >= 0) {
                mv.visitVarInsn(Opcodes.ILOAD, COND);
                lane.writeBit(p);
            }
            if (q >= 0) {
                mv.visitVarInsn(Opcodes.ILOAD, COND);
                mv.visitInsn(Opcodes.ICONST_1);
                mv.visitInsn(Opcodes.IXOR);
                lane.writeBit(q);
            }
            return;
        }
        int d = op.dst[0];
        if (d < 0) {
            return;
        }
        if (LaneOps.isFastF32(op)) {
            f32(lane, op, 0);
            f32(lane, op, 1);
            switch (op.code) {
                case FADD -> mv.visitInsn(Opcodes.FADD);
                case FSUB -> mv.visitInsn(Opcodes.FSUB);
                case FMUL -> mv.visitInsn(Opcodes.FMUL);
                default -> {
                    f32(lane, op, 2);
                    mv.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/Math", "fma", "(FFF)F", false);
                }
            }
            lane.writeF32(d);
            return;
        }
        if (isInt32(op) && int32(lane, op)) {
            return;
        }
        if (op.code == OpCode.SELP) {
            Label second = new Label(), done = new Label();
            source(lane, op, 2);
            mv.visitInsn(Opcodes.LCONST_1);
            mv.visitInsn(Opcodes.LAND);
            mv.visitInsn(Opcodes.LCONST_0);
            mv.visitInsn(Opcodes.LCMP);
            mv.visitJumpInsn(Opcodes.IFEQ, second);
            source(lane, op, 0);
            mv.visitJumpInsn(Opcodes.GOTO, done);
            mv.visitLabel(second);
            source(lane, op, 1);
            mv.visitLabel(done);
        } else if (isShr(op)) {
            source(lane, op, 0);
            source(lane, op, 1);
            mv.visitInsn(op.type.isSigned() ? Opcodes.ICONST_1 : Opcodes.ICONST_0);
            push(mv, op.type.bits);
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, INTEGER_OPS, "shr", "(JJZI)J", false);
            width(mv, op.type.bits);
        } else if (isPlainMov(op)) {
            int bits = op.dstBits[0] == 1 ? 1 : op.type == null ? 64 : op.type.bits;
            source(lane, op, 0);
            width(mv, bits);
        } else {
            source(lane, op, 0);
            switch (op.code) {
                case MOV -> {
                }
                case ADD -> binary(lane, op, Opcodes.LADD);
                case SUB -> binary(lane, op, Opcodes.LSUB);
                case AND -> binary(lane, op, Opcodes.LAND);
                case OR -> binary(lane, op, Opcodes.LOR);
                case XOR -> binary(lane, op, Opcodes.LXOR);
                case MUL -> {
                    if (op.productHalf() == IntegerOps.ProductHalf.WIDE) {
                        source(lane, op, 1);
                        mv.visitInsn(op.type.isSigned() ? Opcodes.ICONST_1 : Opcodes.ICONST_0);
                        push(mv, op.type.bits);
                        mv.visitMethodInsn(Opcodes.INVOKESTATIC, INTEGER_OPS, "mulWide", "(JJZI)J", false);
                    } else {
                        binary(lane, op, Opcodes.LMUL);
                    }
                }
                case MAD -> {
                    binary(lane, op, Opcodes.LMUL);
                    source(lane, op, 2);
                    mv.visitInsn(Opcodes.LADD);
                }
                case SHL -> {
                    source(lane, op, 1);
                    push(mv, op.type.bits);
                    mv.visitMethodInsn(Opcodes.INVOKESTATIC, INTEGER_OPS, "shl", "(JJI)J", false);
                }
                default -> throw new IllegalStateException(op.code.name());
            }
            width(mv, LaneOps.fastBits(op));
        }
        lane.write(d);
    }


    /**
     * One lane of a 32-bit integer op ({@link #isInt32}) on ints, where it is one of those whose
     * low 32 bits int arithmetic gives directly; false (nothing emitted) for the others.
     */
    private static boolean int32(LaneRegisters lane, Op op) {
        MethodVisitor mv = lane.mv;
        int insn = switch (op.code) {
            case ADD -> Opcodes.IADD;
            case SUB -> Opcodes.ISUB;
            case AND -> Opcodes.IAND;
            case OR -> Opcodes.IOR;
            case XOR -> Opcodes.IXOR;
            case MUL, MAD -> Opcodes.IMUL;
            case MOV -> Opcodes.NOP;
            // By an immediate count: as IntegerOps.shl and IntegerOps.shr define it.
            case SHL, SHR -> op.srcKind[1] == Op.IMM ? Opcodes.ISHL : -1;
            default -> -1;
        };
        if (insn < 0) {
            return false;
        }
        sourceInt(lane, op, 0);
        if (op.code == OpCode.SHL || op.code == OpCode.SHR) {
            long n = op.imm[1] & 0xffffffffL;
            if (op.code == OpCode.SHR && op.type.isSigned()) {
                push(mv, (int) Math.min(n, 31));
                mv.visitInsn(Opcodes.ISHR);
            } else if (n >= 32) {
                mv.visitInsn(Opcodes.POP);
                mv.visitInsn(Opcodes.ICONST_0);
            } else {
                push(mv, (int) n);
                mv.visitInsn(op.code == OpCode.SHL ? Opcodes.ISHL : Opcodes.IUSHR);
            }
        } else if (insn != Opcodes.NOP) {
            sourceInt(lane, op, 1);
            mv.visitInsn(insn);
            if (op.code == OpCode.MAD) {
                sourceInt(lane, op, 2);
                mv.visitInsn(Opcodes.IADD);
            }
        }
        lane.writeInt(op.dst[0]);
        return true;
    }

    /** Source operand k of the lane's 32-bit integer op: its low 32 bits as an int on the stack. */
    private static void sourceInt(LaneRegisters lane, Op op, int k) {
        if (op.srcKind[k] == Op.IMM) {
            push(lane.mv, (int) op.imm[k]);
        } else if (op.srcNegated[k]) {
            source(lane, op, k);
            lane.mv.visitInsn(Opcodes.L2I);
        } else {
            lane.readInt(op.src[k]);
        }
    }

    private static void binary(LaneRegisters lane, Op op, int insn) {
        source(lane, op, 1);
        lane.mv.visitInsn(insn);
    }

    /** Keeps the low {@code bits} bits of the long on the stack. */
    private static void width(MethodVisitor mv, int bits) {
        if (bits < 64) {
            mv.visitLdcInsn((1L << bits) - 1);
            mv.visitInsn(Opcodes.LAND);
        }
    }

    private static void f32(LaneRegisters lane, Op op, int k) {
        if (op.srcKind[k] == Op.REG && !op.srcNegated[k]) {
            lane.readF32(op.src[k]);
            return;
        }
        if (op.srcKind[k] == Op.IMM) {
            // A NaN's bits may change in the constant pool: an f32 op gives a NaN for any NaN.
            lane.mv.visitLdcInsn(FloatOps.f32(op.imm[k]));
            return;
        }
        source(lane, op, k);
        lane.mv.visitMethodInsn(Opcodes.INVOKESTATIC, FLOAT_OPS, "f32", "(J)F", false);
    }

    /** Source operand k of the lane, as {@link Operands#read} gives it (registers and immediates only). */
    private static void source(LaneRegisters lane, Op op, int k) {
        MethodVisitor mv = lane.mv;
        if (op.srcKind[k] == Op.IMM) {
            mv.visitLdcInsn(op.imm[k]);
            return;
        }
        lane.read(op.src[k]);
        if (op.srcNegated[k]) {
            mv.visitInsn(Opcodes.LCONST_1);
            mv.visitInsn(Opcodes.LXOR);
        }
    }

    /** base + (r << 5): where register r's lanes start. */
    private static void register(MethodVisitor mv, int r) {
        mv.visitVarInsn(Opcodes.ILOAD, BASE_AT);
        push(mv, r << 5);
        mv.visitInsn(Opcodes.IADD);
    }

    private static void push(MethodVisitor mv, int v) {
        if (v >= -1 && v <= 5) {
            mv.visitInsn(Opcodes.ICONST_0 + v);
        } else if (v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE) {
            mv.visitIntInsn(Opcodes.BIPUSH, v);
        } else if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) {
            mv.visitIntInsn(Opcodes.SIPUSH, v);
        } else {
            mv.visitLdcInsn(v);
        }
    }
}
