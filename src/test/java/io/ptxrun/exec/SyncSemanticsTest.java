package io.ptxrun.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ptxrun.diag.Diagnostic;
import org.junit.jupiter.api.Test;

/** Barriers, mbarriers, asynchronous copies and the deadlock check, kernel by kernel. */
class SyncSemanticsTest {
    private static final String MBAR = Harness.HEADER + ".shared .align 8 .b64 mbar;\n";

    private static String messages(ExecResult r) {
        return r.diagnostics().stream().map(Diagnostic::message).toList().toString();
    }

    @Test
    void mbarrierStateIsEightBytesOfSharedMemory() {
        Harness h = new Harness(MBAR + """
                .visible .entry k(.param .u64 out) {
                    .reg .b64 %s, %st; .reg .u64 %o;
                    ld.param.u64 %o, [out];
                    mbarrier.init.shared.b64 [mbar], 5;
                    mbarrier.expect_tx.shared.b64 [mbar], 48;
                    mbarrier.arrive.shared.b64 %st, [mbar], 2;
                    ld.shared.b64 %s, [mbar];
                    st.global.b64 [%o], %s;
                    ret;
                }""");
        long out = h.buffer(8);
        assertEquals(ExecStatus.OK, h.run(1, 1, out).status());
        long s = h.readLongs(out, 1)[0];
        assertEquals(3, MBarriers.pending(s));
        assertEquals(5, MBarriers.expected(s));
        assertEquals(48, MBarriers.tx(s));
        assertEquals(0, MBarriers.phase(s));
        assertEquals(MBarriers.encode(0, 3, 5, 48), s);
        assertEquals(-7, MBarriers.tx(MBarriers.encode(1, 0, 1, -7)));
    }

    @Test
    void boundedPollingLoopEndsWithFalseInsteadOfDeadlock() {
        Harness h = new Harness(MBAR + """
                .visible .entry k(.param .u64 out) {
                    .reg .u32 %t, %i, %v; .reg .u64 %o; .reg .pred %done, %more;
                    ld.param.u64 %o, [out];
                    mov.u32 %t, %tid.x;
                    setp.eq.u32 %more, %t, 0;
                    @%more mbarrier.init.shared.b64 [mbar], 1000;
                    bar.sync 0;
                    mov.u32 %i, 0;
                WAIT:
                    mbarrier.try_wait.parity.shared.b64 %done, [mbar], 0;
                    @%done bra OUT;
                    add.u32 %i, %i, 1;
                    setp.lt.u32 %more, %i, 50;
                    @%more bra WAIT;
                OUT:
                    selp.u32 %v, 1000, 0, %done;
                    add.u32 %v, %v, %i;
                    st.global.u32 [%o], %v;
                    ret;
                }""");
        long out = h.buffer(4);
        ExecResult r = h.run(1, 64, out);
        assertEquals(ExecStatus.OK, r.status(), messages(r));
        assertArrayEquals(new int[] {50}, h.readInts(out, 1));
    }

    @Test
    void deadlockReportNamesTheWaitAndTheMBarrierState() {
        Harness h = new Harness(MBAR + """
                .visible .entry k() {
                    .reg .u32 %t; .reg .pred %t0, %w0, %done;
                    mov.u32 %t, %tid.x;
                    setp.eq.u32 %t0, %t, 0;
                    setp.lt.u32 %w0, %t, 64;
                    @%t0 mbarrier.init.shared.b64 [mbar], 128;
                    bar.sync 0;
                    @%w0 mbarrier.arrive.shared.b64 _, [mbar];
                WAIT:
                    mbarrier.test_wait.parity.shared.b64 %done, [mbar], 0;
                    @!%done bra WAIT;
                    ret;
                }""");
        long start = System.nanoTime();
        ExecResult r = h.run(64, 256);
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertEquals(ExecStatus.DEADLOCK, r.status());
        assertEquals(8, r.diagnostics().size(), messages(r));
        Diagnostic first = r.diagnostics().get(0);
        assertEquals(14, first.pos().line());
        assertTrue(first.message().contains("64 of 128 arrivals pending, tx-count 0"), first.message());
        assertTrue(millis < 1000, millis + " ms");
    }

    @Test
    void warnOnlyKeepsGoingAfterUndefinedBehaviour() {
        String ptx = MBAR + """
                .visible .entry k() {
                    mbarrier.init.shared.b64 [mbar], 4;
                    mbarrier.arrive.shared.b64 _, [mbar], 5;
                    ret;
                }""";
        Harness strict = new Harness(ptx);
        ExecResult stopped = strict.run(1, 1);
        assertEquals(ExecStatus.ERROR, stopped.status());
        assertTrue(messages(stopped).contains("arrive with count 5 when 4 arrival(s) are pending"), messages(stopped));
        Harness lenient = new Harness(ptx);
        lenient.sync = new SyncOptions(SyncOptions.CopyTiming.LAZY, 0, true);
        ExecResult warned = lenient.run(1, 1);
        assertEquals(ExecStatus.OK, warned.status());
        assertTrue(!warned.diagnostics().get(0).isError(), messages(warned));
    }

    private static final String PREMATURE = Harness.HEADER + """
            .shared .align 16 .b32 s[32];
            .visible .entry k(.param .u64 in, .param .u64 out) {
                .reg .u32 %a, %early, %late; .reg .u64 %in, %o;
                ld.param.u64 %in, [in];
                ld.param.u64 %o, [out];
                mov.u32 %a, s;
                cp.async.ca.shared.global [%a], [%in], 4;
                cp.async.commit_group;
                ld.shared.u32 %early, [%a];
                cp.async.wait_group 0;
                ld.shared.u32 %late, [%a];
                st.global.v2.u32 [%o], {%early, %late};
                ret;
            }""";

    @Test
    void lazyCopiesLandAtTheWaitAndEarlyReadsAreReported() {
        Harness h = new Harness(PREMATURE);
        long in = h.ints(42);
        long out = h.buffer(8);
        ExecResult r = h.run(1, 1, in, out);
        assertEquals(ExecStatus.OK, r.status());
        assertArrayEquals(new int[] {0, 42}, h.readInts(out, 2));
        assertEquals(1, r.diagnostics().size());
        assertEquals(12, r.diagnostics().get(0).pos().line());
    }

    @Test
    void eagerCopiesLandAtIssue() {
        Harness h = new Harness(PREMATURE);
        h.sync = new SyncOptions(SyncOptions.CopyTiming.EAGER, 0, false);
        long in = h.ints(42);
        long out = h.buffer(8);
        ExecResult r = h.run(1, 1, in, out);
        assertEquals(ExecStatus.OK, r.status());
        assertArrayEquals(new int[] {42, 42}, h.readInts(out, 2));
        // The early read happened to see the data, but nothing ordered it after the copy: the
        // hazard detector reports it whatever the copy timing.
        assertEquals(1, r.diagnostics().size(), messages(r));
        assertEquals(12, r.diagnostics().get(0).pos().line());
        assertEquals("async.read-before-complete", r.diagnostics().get(0).rule());
    }

    @Test
    void barRedPopcCountsNegatedPredicates() {
        Harness h = new Harness(Harness.HEADER + """
                .visible .entry k(.param .u64 out) {
                    .reg .u32 %t, %r; .reg .u64 %o, %off; .reg .pred %odd;
                    ld.param.u64 %o, [out];
                    mov.u32 %t, %tid.x;
                    and.b32 %r, %t, 3;
                    setp.eq.u32 %odd, %r, 1;
                    bar.red.popc.u32 %r, 0, !%odd;
                    mul.wide.u32 %off, %t, 4;
                    add.u64 %off, %o, %off;
                    st.global.u32 [%off], %r;
                    ret;
                }""");
        long out = h.buffer(4 * 96);
        assertEquals(ExecStatus.OK, h.run(1, 96, out).status());
        assertEquals(72, h.readInts(out, 96)[95]);
    }
    /**
     * Lanes of a warp read a shared buffer, then lane 0 alone issues the copy that refills it (no
     * __syncwarp between): the other lanes' reads are not ordered before the copy. The report says
     * that the read must be released before the copy is issued, not that the copy must complete.
     */
    @Test
    void aCopyIssuedOverUnreleasedReadsIsReportedWithTheReleaseItLacks() {
        Harness h = new Harness(Harness.HEADER + """
                .shared .align 16 .b8 buf[16];
                .shared .align 8 .b64 mbar;
                .visible .entry k(.param .u64 src) {
                    .reg .u32 %t, %v; .reg .u64 %g, %st; .reg .pred %p, %d;
                    ld.param.u64 %g, [src];
                    mov.u32 %t, %tid.x;
                    setp.eq.u32 %p, %t, 0;
                    @%p st.shared.v4.u32 [buf], {1, 2, 3, 4};
                    @%p mbarrier.init.shared.b64 [mbar], 1;
                    bar.sync 0;
                    ld.shared.u32 %v, [buf];
                    @%p mbarrier.arrive.expect_tx.shared.b64 %st, [mbar], 16;
                    @%p cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [buf], [%g], 16, [mbar];
                WAIT:
                    mbarrier.try_wait.parity.shared.b64 %d, [mbar], 0;
                    @!%d bra WAIT;
                    ret;
                }""");
        long src = h.buffer(16);
        ExecResult r = h.run(1, 32, src);
        assertEquals(ExecStatus.OK, r.status(), messages(r));
        assertEquals(1, r.diagnostics().size(), messages(r));
        Diagnostic d = r.diagnostics().get(0);
        assertEquals("async.read-before-complete", d.rule());
        assertTrue(d.message().contains("the read must be ordered before the copy is issued"), d.message());
    }
}
