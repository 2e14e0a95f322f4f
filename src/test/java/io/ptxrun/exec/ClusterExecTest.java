package io.ptxrun.exec;

import io.ptxrun.diag.Diagnostic;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CTAs of a cluster: interleaved execution, distributed shared memory, barrier.cluster; and bulk
 * reductions that clusters on different workers aim at the same global memory.
 */
class ClusterExecTest {
    /** Each CTA passes its rank to the next one's shared word, then dumps what it got. */
    private static final String RING = Harness.HEADER + """
            .shared .align 4 .b32 word;
            .visible .entry ring(.param .u64 out) {
                .reg .u32 %r, %n, %next, %a, %v, %cta; .reg .u64 %o, %off;
                ld.param.u64 %o, [out];
                mov.u32 %r, %cluster_ctarank;
                mov.u32 %n, %cluster_nctarank;
                mov.u32 %cta, %ctaid.x;
                add.u32 %next, %r, 1;
                rem.u32 %next, %next, %n;
                mapa.shared::cluster.u32 %a, word, %next;
                st.shared::cluster.u32 [%a], %cta;
                barrier.cluster.arrive.release;
                barrier.cluster.wait.acquire;
                ld.shared.u32 %v, [word];
                mul.wide.u32 %off, %cta, 4;
                add.u64 %o, %o, %off;
                st.global.u32 [%o], %v;
                barrier.cluster.arrive;
                barrier.cluster.wait;
                ret;
            }""";

    private static String messages(ExecResult r) {
        return r.diagnostics().stream().map(Diagnostic::message).toList().toString();
    }

    @Test
    void peersWriteEachOthersSharedMemoryOnAnyNumberOfWorkers() {
        for (int workers : new int[] {1, 2}) {
            Harness h = new Harness(RING);
            h.cluster = new int[] {4, 1, 1};
            h.ctaThreads = workers;
            long out = h.buffer(8 * 4);
            ExecResult r = h.run(8, 32, out);
            assertEquals(ExecStatus.OK, r.status(), messages(r));
            assertArrayEquals(new int[] {3, 0, 1, 2, 7, 4, 5, 6}, h.readInts(out, 8), "workers " + workers);
        }
    }

    @Test
    void gridThatIsNoWholeNumberOfClustersIsRefused() {
        Harness h = new Harness(RING);
        h.cluster = new int[] {4, 1, 1};
        ExecResult r = h.run(6, 32, h.buffer(6 * 4));
        assertEquals(ExecStatus.ERROR, r.status());
        assertTrue(messages(r).contains("not a whole number of clusters"), messages(r));
    }

    @Test
    void deadlockReportCoversEveryCtaOfTheCluster() {
        Harness h = new Harness(Harness.HEADER + """
                .shared .align 8 .b64 mbar;
                .visible .entry k() {
                    .reg .u32 %r, %t; .reg .pred %one, %t0, %done;
                    mov.u32 %r, %cluster_ctarank;
                    setp.eq.u32 %one, %r, 1;
                    @%one bra WAIT;
                    barrier.cluster.arrive;
                    barrier.cluster.wait;
                    ret;
                WAIT:
                    // 64 arrivals expected, the CTA's 32 threads give 32: the phase never completes.
                    mov.u32 %t, %tid.x;
                    setp.eq.u32 %t0, %t, 0;
                    @%t0 mbarrier.init.shared.b64 [mbar], 64;
                    bar.sync 0;
                    mbarrier.arrive.shared.b64 _, [mbar];
                POLL:
                    mbarrier.test_wait.parity.shared.b64 %done, [mbar], 0;
                    @!%done bra POLL;
                    ret;
                }""");
        h.cluster = new int[] {2, 1, 1};
        ExecResult r = h.run(2, 32);
        assertEquals(ExecStatus.DEADLOCK, r.status(), messages(r));
        assertTrue(messages(r).contains("barrier.cluster: 32 of 64 live threads of the cluster arrived"), messages(r));
        assertTrue(messages(r).contains("mbarrier at shared 0x0"), messages(r));
    }

    @Test
    void bulkReductionsFromCtasOnSeveralWorkersAreExact() {
        Harness h = new Harness(Harness.HEADER + """
                .shared .align 16 .b32 sbuf[4];
                .visible .entry k(.param .u64 out) {
                    .reg .u32 %t; .reg .u64 %g; .reg .pred %t0;
                    ld.param.u64 %g, [out];
                    mov.u32 %t, %tid.x;
                    setp.eq.u32 %t0, %t, 0;
                    @!%t0 bra DONE;
                    st.shared.v4.u32 [sbuf], {1, 2, 3, 4};
                    fence.proxy.async.shared::cta;
                    cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%g], [sbuf], 16;
                    cp.async.bulk.commit_group;
                    cp.async.bulk.wait_group 0;
                DONE:
                    ret;
                }""");
        h.ctaThreads = 2;
        long out = h.ints(0, 0, 0, 0);
        ExecResult r = h.run(2000, 32, out);
        assertEquals(ExecStatus.OK, r.status(), messages(r));
        assertArrayEquals(new int[] {2000, 4000, 6000, 8000}, h.readInts(out, 4));
    }

    /**
     * One thread per CTA. After a cluster barrier (the flag is cleared), rank 0 stores into rank 1's
     * shared memory, then sets a flag there that rank 1 spins on before it exits: the store always
     * comes before the exit in the run, but only a release of the flag that rank 1 acquires orders
     * it there (FLAG_STORE and FLAG_LOAD say which).
     */
    private static final String PEER_STORE_THEN_OWNER_EXITS = Harness.HEADER + """
            .shared .align 4 .b32 data;
            .shared .align 4 .b32 flag;
            .visible .entry k() {
                .reg .u32 %r, %t, %a, %v; .reg .pred %p;
                mov.u32 %r, %cluster_ctarank;
                mov.u32 %t, %tid.x;
                st.shared.u32 [flag], 0;
                barrier.cluster.arrive.release;
                barrier.cluster.wait.acquire;
                setp.ne.u32 %p, %t, 0;
                @%p bra END;
                setp.eq.u32 %p, %r, 1;
                @%p bra OWNER;
                mapa.shared::cluster.u32 %a, data, 1;
                st.shared::cluster.u32 [%a], 7;
                mapa.shared::cluster.u32 %a, flag, 1;
                FLAG_STORE [%a], 1;
                bra END;
            OWNER:
                FLAG_LOAD %v, [flag];
                setp.eq.u32 %p, %v, 0;
                @%p bra OWNER;
            END:
                ret;
            }""";

    /** The kernel as one cluster of two one-thread CTAs; seed 0: the default schedule, else that seed's random schedule and copy timing. */
    private static ExecResult clusterOfTwo(String kernel, long seed) {
        Harness h = new Harness(kernel);
        h.cluster = new int[] {2, 1, 1};
        if (seed > 0) {
            h.scheduleSeed = java.util.OptionalLong.of(seed);
            h.sync = new SyncOptions(SyncOptions.CopyTiming.RANDOM, seed, false);
        }
        return h.run(2, 1);
    }

    private static ExecResult peerStoreThenOwnerExits(String store, String load, long seed) {
        return clusterOfTwo(PEER_STORE_THEN_OWNER_EXITS.replace("FLAG_STORE", store).replace("FLAG_LOAD", load), seed);
    }

    @Test
    void peerAccessNotOrderedBeforeTheOwnersExitIsReportedThoughItCameFirst() {
        for (long seed = 0; seed <= 8; seed++) {
            ExecResult r = peerStoreThenOwnerExits("st.relaxed.cluster.shared::cluster.u32",
                    "ld.relaxed.cluster.shared.u32", seed);
            assertEquals(ExecStatus.ERROR, r.status(), "seed " + seed + ": " + messages(r));
            Diagnostic d = r.diagnostics().get(r.diagnostics().size() - 1);
            // The thread's latest access to the owner (the flag) is the one named.
            assertEquals(20, d.pos().line(), "seed " + seed + ": " + messages(r));
            assertTrue(d.message().contains("shared memory of CTA rank 1 of the cluster, which exits at line 27")
                    && d.message().contains("CTA ctaid (0,0,0) rank 0"), messages(r));
        }
    }

    @Test
    void peerAccessReleasedToTheOwnerBeforeItExitsIsFine() {
        runsCleanUnderSeeds0To8(seed -> peerStoreThenOwnerExits("st.release.cluster.shared::cluster.u32",
                "ld.acquire.cluster.shared.u32", seed));
    }

    @Test
    void peerAccessHandedToTheOwnerByAFenceAndARelaxedFlagIsFine() {
        // The fence-then-relaxed release pattern on the peer, relaxed-then-fence acquire on the owner.
        runsCleanUnderSeeds0To8(seed -> peerStoreThenOwnerExits("fence.acq_rel.cluster;\n st.relaxed.cluster.shared::cluster.u32",
                "ld.relaxed.cluster.shared.u32 %v, [flag];\n fence.acq_rel.cluster;\n //", seed));
    }

    @Test
    void peerAccessAfterTheFenceOfARelaxedFlagIsReported() {
        // A second data store comes after the fence (line 22): the flag does not hand it on.
        for (long seed = 0; seed <= 8; seed++) {
            ExecResult r = peerStoreThenOwnerExits("fence.acq_rel.cluster;\n"
                    + " mapa.shared::cluster.u32 %a, data, 1;\n st.shared::cluster.u32 [%a], 9;\n"
                    + " mapa.shared::cluster.u32 %a, flag, 1;\n st.relaxed.cluster.shared::cluster.u32",
                    "ld.acquire.cluster.shared.u32", seed);
            assertEquals(ExecStatus.ERROR, r.status(), "seed " + seed + ": " + messages(r));
            Diagnostic d = r.diagnostics().get(r.diagnostics().size() - 1);
            assertTrue(d.message().contains("shared memory of CTA rank 1 of the cluster, which exits"), messages(r));
            assertEquals(22, d.pos().line(), "seed " + seed + ": " + messages(r));
        }
    }

    /**
     * One thread per CTA. Rank 1's mbarrier expects one arrival a phase; rank 0 operates on it
     * remotely (PEER_OPS: a relaxed arrival, then perhaps more); rank 1 waits for phase 0 to
     * complete and exits. A relaxed arrival releases nothing, but it is done once the phase it
     * belongs to has completed.
     */
    private static final String PEER_ARRIVES_OWNER_WAITS = Harness.HEADER + """
            .shared .align 8 .b64 mbar;
            .visible .entry k() {
                .reg .u32 %r, %m; .reg .pred %p;
                mov.u32 %r, %cluster_ctarank;
                mbarrier.init.shared::cta.b64 [mbar], 1;
                fence.mbarrier_init.release.cluster;
                barrier.cluster.arrive.relaxed;
                barrier.cluster.wait;
                setp.eq.u32 %p, %r, 1;
                @%p bra OWNER;
                mapa.shared::cluster.u32 %m, mbar, 1;
                PEER_OPS
                bra END;
            OWNER:
                mbarrier.try_wait.parity.relaxed.cluster.shared::cta.b64 %p, [mbar], 0;
                @!%p bra OWNER;
            END:
                ret;
            }""";

    private static ExecResult peerArrivesOwnerWaits(String more, long seed) {
        return clusterOfTwo(PEER_ARRIVES_OWNER_WAITS.replace("PEER_OPS",
                "mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [%m];\n" + more), seed);
    }

    @Test
    void remoteArrivalInAPhaseTheOwnerSawCompleteIsFine() {
        runsCleanUnderSeeds0To8(seed -> peerArrivesOwnerWaits("", seed));
    }

    @Test
    void remoteMbarrierOperationInAPhaseTheOwnerNeverSawIsReported() {
        java.util.Set<String> ways = new java.util.TreeSet<>();
        for (long seed = 0; seed <= 8; seed++) {
            ExecResult r = peerArrivesOwnerWaits("mbarrier.expect_tx.relaxed.cluster.shared::cluster.b64 [%m], 16;", seed);
            assertEquals(ExecStatus.ERROR, r.status(), "seed " + seed + ": " + messages(r));
            Diagnostic d = r.diagnostics().get(r.diagnostics().size() - 1);
            // The expect_tx (line 16) belongs to phase 1, which never completes.
            assertEquals(16, d.pos().line(), "seed " + seed + ": " + messages(r));
            ways.add(d.message().contains("which has exited") ? "after the exit" : "before the exit");
        }
        assertTrue(ways.contains("before the exit"), ways.toString());
    }

    /**
     * One thread per CTA. Rank 0 copies 16 bytes into rank 1's shared memory with
     * cp.async.bulk.shared::cluster, completing on rank 1's mbarrier; rank 1 exits after WAIT
     * (nothing, or a wait on that mbarrier's phase).
     */
    private static final String PEER_COPY_THEN_OWNER_EXITS = Harness.HEADER + """
            .shared .align 16 .b8 src[16];
            .shared .align 16 .b8 dst[16];
            .shared .align 8 .b64 mbar;
            .visible .entry k() {
                .reg .u32 %r, %a, %m; .reg .b64 %st; .reg .pred %p;
                mov.u32 %r, %cluster_ctarank;
                st.shared.v4.u32 [src], {1, 2, 3, 4};
                fence.proxy.async.shared::cta;
                mbarrier.init.shared::cta.b64 [mbar], 1;
                mbarrier.arrive.expect_tx.shared::cta.b64 %st, [mbar], 16;
                fence.mbarrier_init.release.cluster;
                barrier.cluster.arrive.release;
                barrier.cluster.wait.acquire;
                setp.eq.u32 %p, %r, 1;
                @%p bra OWNER;
                mapa.shared::cluster.u32 %a, dst, 1;
                mapa.shared::cluster.u32 %m, mbar, 1;
                cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%a], [src], 16, [%m];
                bra END;
            OWNER:
                WAIT
            END:
                ret;
            }""";

    @Test
    void peerCopyTheOwnerNeverWaitsForIsReported() {
        java.util.Set<String> ways = new java.util.TreeSet<>();
        for (long seed = 0; seed <= 8; seed++) {
            ExecResult r = peerCopyThenOwnerExits("", seed);
            assertEquals(ExecStatus.ERROR, r.status(), "seed " + seed + ": " + messages(r));
            String m = messages(r);
            if (m.contains("write by an async copy to the shared memory of CTA rank 1 of the cluster, which exits at")) {
                assertTrue(m.contains("issued by thread tid (0,0,0), warp 0, CTA ctaid (0,0,0) rank 0"), m);
                assertEquals(21, r.diagnostics().get(r.diagnostics().size() - 1).pos().line(), m);
                ways.add("landed before the exit");
            } else {
                assertTrue(m.contains("which has exited"), "seed " + seed + ": " + m);
                ways.add("issued or landed after the exit");
            }
        }
        assertTrue(ways.contains("landed before the exit"), ways.toString());
    }

    @Test
    void peerCopyTheOwnerWaitsForIsFine() {
        runsCleanUnderSeeds0To8(seed -> peerCopyThenOwnerExits("""
                WAIT:
                    mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p, [mbar], 0;
                    @!%p bra WAIT;""", seed));
    }

    private static ExecResult peerCopyThenOwnerExits(String wait, long seed) {
        return clusterOfTwo(PEER_COPY_THEN_OWNER_EXITS.replace("WAIT", wait), seed);
    }

    /** The run is OK and reports nothing under the default schedule (seed 0) and seeds 1-8. */
    private static void runsCleanUnderSeeds0To8(java.util.function.LongFunction<ExecResult> run) {
        for (long seed = 0; seed <= 8; seed++) {
            ExecResult r = run.apply(seed);
            assertEquals(ExecStatus.OK, r.status(), "seed " + seed + ": " + messages(r));
            assertEquals("[]", messages(r), "seed " + seed);
        }
    }
}
