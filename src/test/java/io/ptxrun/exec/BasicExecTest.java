package io.ptxrun.exec;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BasicExecTest {

    private static void ok(ExecResult r) {
        assertEquals(ExecStatus.OK, r.status(), () -> r.diagnostics().toString());
    }

    @Test
    void iotaOverTwoCtasWithPartialWarp() {
        Harness h = new Harness(Harness.HEADER + """
                .visible .entry iota(.param .u64 out)
                {
                    .reg .b32 %r<5>;
                    .reg .b64 %rd<4>;
                    ld.param.u64 %rd1, [out];
                    cvta.to.global.u64 %rd1, %rd1;
                    mov.u32 %r1, %tid.x;
                    mov.u32 %r2, %ctaid.x;
                    mov.u32 %r3, %ntid.x;
                    mad.lo.s32 %r4, %r2, %r3, %r1;
                    mul.wide.s32 %rd2, %r4, 4;
                    add.s64 %rd3, %rd1, %rd2;
                    shl.b32 %r1, %r4, 1;
                    add.s32 %r1, %r1, 1;
                    st.global.u32 [%rd3], %r1;
                    ret;
                }
                """);
        long out = h.buffer(80 * 4);
        ExecResult r = h.run(2, 40, out);
        ok(r);
        int[] got = h.readInts(out, 80);
        for (int i = 0; i < 80; i++) {
            assertEquals(2 * i + 1, got[i], "element " + i);
        }
        assertEquals(80 * 12, r.instructionsExecuted());
    }

    @Test
    void divergentBranchesAndLoopsReconverge() {
        // out[t] = (t odd ? sum(0..t) : -t) + 1000; the +1000 runs after the join.
        Harness h = new Harness(Harness.HEADER + """
                .visible .entry div(.param .u64 out)
                {
                    .reg .pred %p;
                    .reg .b32 %t, %i, %s, %b;
                    .reg .b64 %o, %w;
                    ld.param.u64 %o, [out];
                    mov.u32 %t, %tid.x;
                    and.b32 %b, %t, 1;
                    setp.eq.u32 %p, %b, 0;
                    @%p bra EVEN;
                    mov.u32 %s, 0;
                    mov.u32 %i, 0;
                LOOP:
                    add.u32 %s, %s, %i;
                    add.u32 %i, %i, 1;
                    setp.le.u32 %p, %i, %t;
                    @%p bra LOOP;
                    bra.uni JOIN;
                EVEN:
                    neg.s32 %s, %t;
                JOIN:
                    add.s32 %s, %s, 1000;
                    mul.wide.u32 %w, %t, 4;
                    add.s64 %o, %o, %w;
                    st.global.s32 [%o], %s;
                    exit;
                }
                """);
        long out = h.buffer(37 * 4);
        ok(h.run(1, 37, out));
        int[] got = h.readInts(out, 37);
        for (int t = 0; t < 37; t++) {
            int want = (t % 2 == 1 ? t * (t + 1) / 2 : -t) + 1000;
            assertEquals(want, got[t], "thread " + t);
        }
    }

    @Test
    void barSyncExchangesThroughSharedMemory() {
        Harness h = new Harness(Harness.HEADER + """
                .shared .align 4 .b32 buf[96];
                .visible .entry xchg(.param .u64 out)
                {
                    .reg .b32 %t, %v, %a, %n;
                    .reg .b64 %o, %w;
                    mov.u32 %t, %tid.x;
                    mov.u32 %a, buf;
                    shl.b32 %v, %t, 2;
                    add.u32 %a, %a, %v;
                    mul.lo.u32 %v, %t, 7;
                    st.shared.u32 [%a], %v;
                    bar.sync 0;
                    mov.u32 %n, 95;
                    sub.u32 %n, %n, %t;
                    shl.b32 %n, %n, 2;
                    mov.u32 %a, buf;
                    add.u32 %a, %a, %n;
                    ld.shared.u32 %v, [%a];
                    ld.param.u64 %o, [out];
                    mul.wide.u32 %w, %t, 4;
                    add.s64 %o, %o, %w;
                    st.global.u32 [%o], %v;
                    ret;
                }
                """);
        long out = h.buffer(96 * 4);
        ok(h.run(1, 96, out));
        int[] got = h.readInts(out, 96);
        for (int t = 0; t < 96; t++) {
            assertEquals((95 - t) * 7, got[t]);
        }
    }

    @Test
    void recursiveFunctionCallsWithLocalFrames() {
        Harness h = new Harness(Harness.resource("call-recursion.ptx"));
        long out = h.buffer(70 * 4);
        ok(h.run(1, 35, out));
        int[] got = h.readInts(out, 70);
        for (int t = 0; t < 35; t++) {
            assertEquals(fib(t & 15), got[t], "fib thread " + t);
            assertEquals(frames(t % 9), got[35 + t], "frames thread " + t);
        }
    }

    private static int fib(int n) {
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }

    private static int frames(int n) {
        int r = n == 0 ? 0 : frames(n - 1);
        return r * 3 + (n * 10) * 4 + 6;
    }

    @Test
    void outOfBoundsStoreIsAnErrorNamingTheLine() {
        Harness h = new Harness(Harness.HEADER + """
                .visible .entry oob(.param .u64 out)
                {
                    .reg .b64 %o;
                    .reg .b32 %v;
                    ld.param.u64 %o, [out];
                    mov.u32 %v, 1;
                    st.global.u32 [%o+64], %v;
                    ret;
                }
                """);
        long out = h.buffer(16);
        ExecResult r = h.run(1, 1, out);
        assertEquals(ExecStatus.ERROR, r.status());
        assertEquals(10, r.diagnostics().get(0).pos().line());
        assertTrue(r.diagnostics().get(0).message().contains("tid (0,0,0)"), r.diagnostics().toString());
    }

    @Test
    void misalignedAccessIsAnError() {
        Harness h = new Harness(Harness.HEADER + """
                .visible .entry mis(.param .u64 out)
                {
                    .reg .b64 %o;
                    ld.param.u64 %o, [out];
                    st.global.u32 [%o+2], 5;
                    ret;
                }
                """);
        ExecResult r = h.run(1, 1, h.buffer(16));
        assertEquals(ExecStatus.ERROR, r.status());
        assertTrue(r.diagnostics().get(0).message().contains("misaligned"));
    }

    @Test
    void infiniteLoopTimesOut() {
        Harness h = new Harness(Harness.HEADER + """
                .visible .entry spin()
                {
                LOOP:
                    bra LOOP;
                }
                """);
        h.maxInstructions = 10_000;
        ExecResult r = h.run(1, 32);
        assertEquals(ExecStatus.TIMEOUT, r.status());
        assertEquals(7, r.diagnostics().get(0).pos().line());
    }

    @Test
    void barriersThatCannotCompleteDeadlock() {
        Harness h = new Harness(Harness.HEADER + """
                .visible .entry dl()
                {
                    .reg .pred %p;
                    .reg .b32 %t;
                    mov.u32 %t, %tid.x;
                    setp.lt.u32 %p, %t, 32;
                    @%p bra FIRST;
                    bar.sync 2;
                    ret;
                FIRST:
                    bar.sync 1;
                    ret;
                }
                """);
        ExecResult r = h.run(1, 64);
        assertEquals(ExecStatus.DEADLOCK, r.status());
        assertEquals(2, r.diagnostics().size());
        assertEquals(14, r.diagnostics().get(0).pos().line());
        assertEquals(11, r.diagnostics().get(1).pos().line());
    }

    @Test
    void exitedThreadsDoNotHoldUpABarrier() {
        Harness h = new Harness(Harness.HEADER + """
                .visible .entry ex(.param .u64 out)
                {
                    .reg .pred %p;
                    .reg .b32 %t;
                    .reg .b64 %o, %w;
                    mov.u32 %t, %tid.x;
                    setp.ge.u32 %p, %t, 40;
                    @%p exit;
                    bar.sync 0;
                    ld.param.u64 %o, [out];
                    mul.wide.u32 %w, %t, 4;
                    add.s64 %o, %o, %w;
                    st.global.u32 [%o], %t;
                    ret;
                }
                """);
        long out = h.ints(new int[64]);
        ok(h.run(1, 64, out));
        int[] got = h.readInts(out, 64);
        for (int t = 0; t < 64; t++) {
            assertEquals(t < 40 ? t : 0, got[t]);
        }
    }

    @Test
    void trapStopsWithTrap() {
        Harness h = new Harness(Harness.HEADER + """
                .visible .entry tr()
                {
                    .reg .pred %p;
                    .reg .b32 %t;
                    mov.u32 %t, %tid.x;
                    setp.eq.u32 %p, %t, 5;
                    @%p trap;
                    ret;
                }
                """);
        ExecResult r = h.run(1, 8);
        assertEquals(ExecStatus.TRAP, r.status());
        assertTrue(r.diagnostics().get(0).message().contains("tid (5,0,0)"), r.diagnostics().toString());
    }

    @Test
    void unsupportedInstructionIsReportedWhenReached() {
        Harness h = new Harness(Harness.HEADER + """
                .visible .entry un()
                {
                    .reg .b64 %rd<2>;
                    mov.u64 %rd1, 0;
                    discard.global.L2 [%rd1], 128;
                    ret;
                }
                """);
        ExecResult r = h.run(1, 1);
        assertEquals(ExecStatus.ERROR, r.status());
        assertEquals("instruction 'discard.global.L2' is not supported", r.diagnostics().get(0).message()
                .replaceAll(" \\(thread.*", ""));
        assertEquals(8, r.diagnostics().get(0).pos().line());
    }

    @Test
    void aLabelBelongsToTheBlockThatDefinesIt() {
        // The same wait-loop labels in two { } blocks (inline asm inlined twice, as CUTLASS's
        // barrier waits are): each branch goes to its own block's DONE, never to the other's.
        Harness h = new Harness(Harness.HEADER + """
                .visible .entry k(.param .u64 out)
                {
                    .reg .b32 %r;
                    .reg .pred %p;
                    .reg .b64 %a;
                    ld.param.u64 %a, [out];
                    mov.u32 %r, 0;
                    {
                    .reg .pred P1;
                    setp.eq.u32 P1, %r, 0;
                    @P1 bra DONE;
                    add.u32 %r, %r, 100;
                    DONE:
                    }
                    add.u32 %r, %r, 1;
                    setp.eq.u32 %p, %r, 12345;
                    @%p bra SKIP;
                    bra END;
                SKIP:
                    {
                    .reg .pred P1;
                    setp.eq.u32 P1, %r, 0;
                    @P1 bra DONE;
                    add.u32 %r, %r, 1000;
                    DONE:
                    }
                END:
                    st.global.u32 [%a], %r;
                    ret;
                }
                """);
        long out = h.ints(7);
        ok(h.run(1, 1, out));
        assertEquals(1, h.readInts(out, 1)[0]);
    }
}
