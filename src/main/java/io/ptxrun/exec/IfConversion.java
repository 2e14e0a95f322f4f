package io.ptxrun.exec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The small branch diamonds and triangles of a loop body run lane by lane ({@link
 * RegionCompiler#runsByLane}) that a lane may run without branching: a guarded forward branch
 * whose two paths are short runs of inline ops ({@link RegionCompiler#inlinable}: they touch only
 * the lane's own registers and cannot fail) that meet again at one op, the join. The lane runs
 * both arms into temporaries and keeps the results of the arm the branch would have taken, so
 * the JVM's code has no data-dependent jump there to mispredict (a parity test in a loop is
 * taken at random). What the lane counts (instructions, the ops it ran in its pass) is what it
 * would have counted on the path taken. An arm may hold smaller diamonds of its own.
 *
 * <p>A diamond is {@code @p bra T; A...; bra J; T: B...; J:} (A the arm run where the branch is not
 * taken, its branch to the join included; B the arm run where it is), a triangle {@code @p bra J;
 * A...; J:} (an empty taken arm). No branch from outside the diamond may enter it, and each arm
 * runs at most {@link #MAX_ARM} ops (those of the diamonds inside it included).
 */
final class IfConversion {
    /** Ops one arm of a converted diamond runs at most (both run for every lane that reaches it). */
    static final int MAX_ARM = 8;

    /**
     * The diamond of the guarded branch at {@code branch}, whose paths meet at {@code join}:
     * {@code notTaken} runs from the op after the branch, {@code taken} from its target.
     */
    record Diamond(int branch, int join, Arm notTaken, Arm taken) {
        /** Ops the two arms run, those of the diamonds inside them included (the branch's not). */
        int size() {
            return notTaken.size + taken.size;
        }
    }

    /**
     * The ops from {@code from} to before {@code to} of one path: its own ops (inline ops, the
     * branches of diamonds inside it and, ending a not-taken arm, the branch to the join), and
     * the diamonds inside it ({@code nested}, by branch op, each covering its branch to its join).
     * {@code size} counts the inline ops it runs, those of nested diamonds' arms included.
     */
    record Arm(int from, int to, List<Diamond> nested, int size) {
        /** The arm's own ops, not those inside nested diamonds' arms. */
        List<Integer> own() {
            List<Integer> own = new ArrayList<>();
            int pc = from;
            for (Diamond d : nested) {
                while (pc < d.branch) {
                    own.add(pc++);
                }
                own.add(d.branch);
                pc = d.join;
            }
            while (pc < to) {
                own.add(pc++);
            }
            return own;
        }

        /** The registers that the ops of the arm (nested diamonds' arms included) write. */
        TreeSet<Integer> written(Op[] ops) {
            TreeSet<Integer> written = new TreeSet<>();
            for (int pc = from; pc < to; pc++) {
                if (ops[pc].code != OpCode.BRA) {
                    for (int d : ops[pc].dst) {
                        if (d >= 0) {
                            written.add(d);
                        }
                    }
                }
            }
            return written;
        }
    }

    private final Op[] ops;
    /** For each op, the branches that jump to it. */
    private final Map<Integer, List<Integer>> incoming = new TreeMap<>();

    private IfConversion(Op[] ops, int start, int end) {
        this.ops = ops;
        for (int pc = start; pc <= end; pc++) {
            if (ops[pc].code == OpCode.BRA) {
                incoming.computeIfAbsent(ops[pc].target, t -> new ArrayList<>()).add(pc);
            }
        }
    }

    /**
     * The outermost diamonds of the loop body from start to before end (the branch back), by
     * branch op, each at most {@link #MAX_ARM} ops an arm; those too large may hold smaller ones,
     * which are found instead.
     */
    static Map<Integer, Diamond> find(Op[] ops, int start, int end) {
        IfConversion c = new IfConversion(ops, start, end);
        Map<Integer, Diamond> found = new TreeMap<>();
        for (int pc = start; pc < end; ) {
            Diamond d = ops[pc].code == OpCode.BRA ? c.diamond(pc, end) : null;
            if (d != null) {
                found.put(pc, d);
                pc = d.join;
            } else {
                pc++;
            }
        }
        return found;
    }

    /** The diamond of the branch at b, joining at or before limit; null where there is none. */
    private Diamond diamond(int b, int limit) {
        Op bra = ops[b];
        int t = bra.target;
        if (bra.code != OpCode.BRA || bra.guard < 0 || t <= b || t > limit) {
            return null;
        }
        Op last = ops[t - 1];
        Diamond d;
        if (t - 1 > b && last.code == OpCode.BRA && last.guard < 0) {
            int join = last.target;
            if (join < t || join > limit) {
                return null;
            }
            Arm notTaken = arm(b + 1, t, join);
            Arm taken = arm(t, join, -1);
            d = notTaken == null || taken == null ? null : new Diamond(b, join, notTaken, taken);
        } else {
            Arm notTaken = arm(b + 1, t, -1);
            d = notTaken == null ? null : new Diamond(b, t, notTaken, new Arm(t, t, List.of(), 0));
        }
        if (d == null || d.notTaken.size > MAX_ARM || d.taken.size > MAX_ARM) {
            return null;
        }
        // Entered only at its branch: every branch to an op inside comes from inside.
        for (int pc = b + 1; pc < d.join; pc++) {
            for (int from : incoming.getOrDefault(pc, List.of())) {
                if (from < b || from >= d.join) {
                    return null;
                }
            }
        }
        return d;
    }

    /**
     * The arm of the ops from {@code from} to before {@code to}: inline ops and diamonds joining
     * within it, and where join is not -1, a last op that is a branch to join; null where there
     * is anything else.
     */
    private Arm arm(int from, int to, int join) {
        List<Diamond> nested = new ArrayList<>();
        int size = 0;
        for (int pc = from; pc < to; ) {
            Op op = ops[pc];
            if (op.code == OpCode.BRA) {
                if (pc == to - 1 && join >= 0 && op.guard < 0 && op.target == join) {
                    pc++;
                    continue;
                }
                Diamond d = diamond(pc, join >= 0 ? to - 1 : to);
                if (d == null) {
                    return null;
                }
                nested.add(d);
                size += d.size();
                pc = d.join;
            } else if (RegionCompiler.inlinable(op)) {
                size++;
                pc++;
            } else {
                return null;
            }
            if (size > MAX_ARM) {
                return null;
            }
        }
        return new Arm(from, to, List.copyOf(nested), size);
    }
}
