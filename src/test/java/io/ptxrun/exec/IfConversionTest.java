package io.ptxrun.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ptxrun.TestData;
import io.ptxrun.ast.Module;
import io.ptxrun.syntax.PtxParser;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import org.junit.jupiter.api.Test;

/**
 * Which diamonds of a loop body run without branching ({@link IfConversion}): triangles,
 * diamonds, diamonds inside arms (the inner branch may go straight to the outer join), and not
 * those entered from outside, with an arm of more than {@link IfConversion#MAX_ARM} ops or of
 * an op that is not inline (an arm that is too large may hold smaller diamonds, which are
 * found). The loop bodies compile ({@link RegionCompiler#compile}, the class verified as it loads).
 */
class IfConversionTest {
    @Test
    void ifConversionCase() throws Exception {
        Op[] ops = decode(TestData.read(TestData.ROOT.resolve("compiler/if-conversion/kernel.ptx")));
        List<int[]> loops = loops(ops);
        assertEquals(2, loops.size());
        // LA: a triangle, a diamond with a negated guard, a triangle with a guarded op.
        assertEquals("3->7 [4,7) [7,7); 9->18 [10,14) [14,18); 20->23 [21,23) [23,23)", shape(ops, loops.get(0)));
        // LB: a diamond holding a triangle in one arm and a diamond in the other.
        assertEquals("2->17 [3,9){5->7 [6,7) [7,7)} [9,17){11->17 [12,15) [15,17)}", shape(ops, loops.get(1)));
        compiles(ops, loops);
    }

    @Test
    void pathsOfMoreOpsAreNotConverted() throws Exception {
        // lane-resume: an arm of 8 ops (a diamond inside) is converted; diverge's of 9 is not, its inner diamond is.
        Op[] resume = decode(TestData.read(TestData.ROOT.resolve("compiler/lane-resume/kernel.ptx")));
        assertEquals("2->18 [3,8) [8,18){10->18 [11,15) [15,18)}",
                shape(resume, loops(resume).get(0)));
        compiles(resume, loops(resume));
        String diverge = TestData.read(TestData.ROOT.resolve("compiler/lane-resume/kernel.ptx"))
                .replace("xor.b32 \t%r7, %r7, %r10;\nJOIN:", "xor.b32 \t%r7, %r7, %r10;\n\tadd.s32 \t%r7, %r7, 1;\nJOIN:");
        Op[] ops = decode(diverge);
        assertEquals("10->19 [11,15) [15,19)", shape(ops, loops(ops).get(0)));
        compiles(ops, loops(ops));
    }

    @Test
    void armsThatAreEnteredOrNotInlineAreNotConverted() throws Exception {
        String body = """
                LOOP:
                	setp.gt.u32 	%p3, %r5, 50;
                	@%p3 bra 	INTO;
                	and.b32 	%r9, %r8, 1;
                	setp.eq.u32 	%p1, %r9, 0;
                	@%p1 bra 	T1;
                	add.s32 	%r5, %r5, 1;
                INTO:
                	add.s32 	%r5, %r5, 2;
                T1:
                	setp.gt.u32 	%p2, %r5, 100;
                	@%p2 bra 	T2;
                	rem.u32 	%r5, %r5, 7;
                T2:
                	add.s32 	%r8, %r8, 1;
                	setp.lt.u32 	%p4, %r8, %r1;
                	@%p4 bra 	LOOP;
                """;
        Op[] ops = decode(kernel(body));
        // The first branch jumps into the triangle after it (which it cannot hold: that one's
        // join lies beyond), and the last triangle's arm is rem.
        assertEquals("", shape(ops, loops(ops).get(0)));
        // Where the first branch goes to the same join, the one holds the other.
        ops = decode(kernel(body.replace("@%p3 bra \tINTO;", "@%p3 bra \tT1;")));
        assertEquals("1->7 [2,7){4->7 [5,7) [7,7)} [7,7)", shape(ops, loops(ops).get(0)));
    }

    @Test
    void armsOfMoreThanEightOpsAreNotConverted() throws Exception {
        StringBuilder arm = new StringBuilder();
        for (int k = 0; k < IfConversion.MAX_ARM; k++) {
            arm.append("\tadd.s32 \t%r5, %r5, ").append(k + 1).append(";\n");
        }
        String body = "LOOP:\n\tsetp.eq.u32 \t%p1, %r8, 3;\n\t@%p1 bra \tT1;\n" + arm + "T1:\n"
                + "\tadd.s32 \t%r8, %r8, 1;\n\tsetp.lt.u32 \t%p4, %r8, %r1;\n\t@%p4 bra \tLOOP;\n";
        Op[] ops = decode(kernel(body));
        assertEquals("1->10 [2,10) [10,10)", shape(ops, loops(ops).get(0)));
        ops = decode(kernel(body.replace("T1:\n", "\tadd.s32 \t%r5, %r5, 9;\nT1:\n")));
        assertEquals("", shape(ops, loops(ops).get(0)));
    }

    private static String kernel(String body) {
        return """
                .version 8.0
                .target sm_90
                .address_size 64
                .visible .entry k(.param .u32 n_param)
                {
                	.reg .pred 	%p<5>;
                	.reg .b32 	%r<10>;
                	ld.param.u32 	%r1, [n_param];
                	mov.u32 	%r5, %tid.x;
                	mov.u32 	%r8, 0;
                """ + body + "\tret;\n}\n";
    }

    private static Op[] decode(String ptx) {
        PtxParser.Parsed<Module> parsed = PtxParser.parseModule("kernel.ptx", ptx);
        assertTrue(parsed.ok(), parsed.diagnostics()::toString);
        return Decoder.decode(parsed.value(), new GlobalMemory()).ops;
    }

    /** The loops (start, branch back) of the ops: each branch to an earlier op. */
    private static List<int[]> loops(Op[] ops) {
        List<int[]> loops = new ArrayList<>();
        for (int pc = 0; pc < ops.length; pc++) {
            if (ops[pc].code == OpCode.BRA && ops[pc].target <= pc) {
                loops.add(new int[] {ops[pc].target, pc});
            }
        }
        return loops;
    }

    /** The diamonds of the loop, their ops relative to its start: branch->join [not taken) [taken){nested}. */
    private static String shape(Op[] ops, int[] loop) {
        StringJoiner all = new StringJoiner("; ");
        for (IfConversion.Diamond d : IfConversion.find(ops, loop[0], loop[1]).values()) {
            all.add(shape(d, loop[0]));
        }
        return all.toString();
    }

    private static String shape(IfConversion.Diamond d, int start) {
        return (d.branch() - start) + "->" + (d.join() - start) + " " + shape(d.notTaken(), start) + " "
                + shape(d.taken(), start);
    }

    private static String shape(IfConversion.Arm arm, int start) {
        StringJoiner nested = new StringJoiner("; ", "{", "}");
        arm.nested().forEach(d -> nested.add(shape(d, start)));
        return "[" + (arm.from() - start) + "," + (arm.to() - start) + ")" + (arm.nested().isEmpty() ? "" : nested);
    }

    private static void compiles(Op[] ops, List<int[]> loops) {
        for (int[] loop : loops) {
            int n = loop[1] - loop[0];
            assertTrue(RegionCompiler.runsByLane(ops, loop[0], n));
            assertNotNull(RegionCompiler.compile(ops, loop[0], n, false, true), "loop at " + loop[0]);
        }
    }
}
