package io.ptxrun.exec;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * st.async and red.async (PTX ISA 9.7.9.12, 9.7.13.8): a store or reduction into a peer CTA's
 * shared memory that performs complete-tx on the mbarrier of that CTA, and the forms the spec
 * calls undefined.
 */
class AsyncStoreTest {
    /**
     * One thread per CTA. Each CTA initialises its mbarrier expecting BYTES bytes, then, after
     * barrier.cluster, runs STORE with %a = buf and %m = mbar of ranks DST and BAR (mapa), waits on
     * its own mbarrier and dumps buf to out[4 * rank ..].
     */
    private static final String KERNEL = """
            .version 8.1
            .target sm_90
            .address_size 64
            .shared .align 16 .b32 buf[4];
            .shared .align 8 .b64 mbar;
            .visible .entry k(.param .u64 out) {
                .reg .u32 %r, %peer, %a, %m, %v, %w, %i; .reg .b64 %st, %o, %off, %d; .reg .pred %p;
                ld.param.u64 %o, [out];
                mov.u32 %r, %cluster_ctarank;
                xor.b32 %peer, %r, 1;
                st.shared.v4.u32 [buf], {10, 20, 30, 40};
                mbarrier.init.shared::cta.b64 [mbar], 1;
                mbarrier.arrive.expect_tx.shared::cta.b64 %st, [mbar], BYTES;
                fence.mbarrier_init.release.cluster;
                barrier.cluster.arrive.release;
                barrier.cluster.wait.acquire;
                mapa.shared::cluster.u32 %a, buf, DST;
                mapa.shared::cluster.u32 %m, mbar, BAR;
                add.u32 %v, %r, 5;
                add.u32 %w, %r, 100;
                STORE
            WAIT:
                mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p, [mbar], 0;
                @!%p bra WAIT;
                mov.u32 %i, 0;
            DUMP:
                shl.b32 %a, %i, 2;
                mov.u32 %m, buf;
                add.u32 %a, %a, %m;
                ld.shared.u32 %v, [%a];
                mad.lo.u32 %w, %r, 4, %i;
                mul.wide.u32 %off, %w, 4;
                add.u64 %d, %o, %off;
                st.global.u32 [%d], %v;
                add.u32 %i, %i, 1;
                setp.lt.u32 %p, %i, 4;
                @%p bra DUMP;
                barrier.cluster.arrive.release;
                barrier.cluster.wait.acquire;
                ret;
            }""";

    private static String messages(ExecResult r) {
        return r.diagnostics().stream().map(d -> d.rule() + ": " + d.message()).toList().toString();
    }

    private record Run(ExecResult result, int[] out) {}

    private static Run run(int clusterSize, String dst, String bar, int bytes, String store, long seed) {
        String ptx = KERNEL.replace("DST", dst).replace("BAR", bar).replace("BYTES", Integer.toString(bytes))
                .replace("STORE", store);
        Harness h = new Harness(ptx);
        h.cluster = new int[] {clusterSize, 1, 1};
        if (seed > 0) {
            h.scheduleSeed = java.util.OptionalLong.of(seed);
            h.sync = new SyncOptions(SyncOptions.CopyTiming.RANDOM, seed, false);
        }
        long out = h.buffer(2 * 16);
        ExecResult r = h.run(2, 1, out);
        return new Run(r, h.readInts(out, 8));
    }

    @Test
    void storesAndReductionsLandInThePeerAndCompleteItsPhase() {
        String store = """
                st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.b32 [%a], {%v, %w}, [%m];
                red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%a+8], %v, [%m];
                red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.inc.u32 [%a+12], %v, [%m];""";
        for (long seed = 0; seed <= 4; seed++) {
            Run run = run(2, "%peer", "%peer", 16, store, seed);
            assertEquals(ExecStatus.OK, run.result().status(), messages(run.result()));
            assertEquals("[]", messages(run.result()), "seed " + seed);
            // Rank 0 receives rank 1's v = 6, w = 101: 30 + 6, and inc: 40 >= 6, so 0.
            assertArrayEquals(new int[] {6, 101, 36, 0, 5, 100, 35, 0}, run.out(), "seed " + seed);
        }
    }

    @Test
    void mbarrierInAnotherCtaThanTheDestinationIsUndefined() {
        Run run = run(2, "%peer", "%r", 4,
                "st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%a], %v, [%m];", 0);
        assertEquals(ExecStatus.ERROR, run.result().status(), messages(run.result()));
        String m = messages(run.result());
        assertTrue(m.contains("exec.async-store") && m.contains("both must belong to the same CTA"), m);
    }

    @Test
    void clusterOfOneCtaIsUndefined() {
        Run run = run(1, "%r", "%r", 4,
                "st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%a], %v, [%m];", 0);
        assertEquals(ExecStatus.ERROR, run.result().status(), messages(run.result()));
        assertTrue(messages(run.result()).contains("%cluster_nctarank > 1"), messages(run.result()));
    }

    @Test
    void reductionIntoTheIssuingCtaIsUndefined() {
        Run run = run(2, "%r", "%r", 4, "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes"
                + ".add.u32 [%a], %v, [%m];", 0);
        assertEquals(ExecStatus.ERROR, run.result().status(), messages(run.result()));
        assertTrue(messages(run.result()).contains("must be in another CTA of the cluster"), messages(run.result()));
    }

    @Test
    void misalignedVectorIsAFault() {
        Run run = run(2, "%peer", "%peer", 8,
                "st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.b32 [%a+4], {%v, %w}, [%m];", 0);
        assertEquals(ExecStatus.ERROR, run.result().status(), messages(run.result()));
        assertTrue(messages(run.result()).contains("misaligned 8-byte"), messages(run.result()));
    }

    @Test
    void storeBeyondThePhasesExpectTxIsReported() {
        // expect_tx 4 covers the first store only: issued in the same phase, the second lands after it completed.
        Run run = run(2, "%peer", "%peer", 4, """
                st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%a], %v, [%m];
                st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%a+4], %w, [%m];""", 0);
        String m = messages(run.result());
        assertTrue(m.contains("async.tx-mismatch") && m.contains("land after the phase"), m);
    }
}
