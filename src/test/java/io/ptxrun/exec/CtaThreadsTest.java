package io.ptxrun.exec;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** CTAs on several threads: atomics stay atomic, and the run's outcome does not depend on the thread count. */
class CtaThreadsTest {
    /** Every thread adds 1 to counters[0] and its CTA index to counters[1], and ors a bit into counters[2]. */
    private static final String ATOMICS = Harness.HEADER + """
            .visible .entry count(.param .u64 counters)
            {
                .reg .b32 %c, %bit, %old;
                .reg .b64 %p;
                ld.param.u64 %p, [counters];
                mov.u32 %c, %ctaid.x;
                atom.global.add.u32 %old, [%p], 1;
                red.global.add.u32 [%p+4], %c;
                and.b32 %bit, %c, 31;
                shl.b32 %bit, 1, %bit;
                atom.global.or.b32 %old, [%p+8], %bit;
                ret;
            }
            """;

    @Test
    void globalAtomicsFromManyCtasAreExact() {
        for (int threads : new int[] {1, 2, 4, 8}) {
            Harness h = new Harness(ATOMICS);
            h.ctaThreads = threads;
            long counters = h.ints(0, 0, 0);
            ExecResult r = h.run(200, 64, counters);
            assertEquals(ExecStatus.OK, r.status(), r.diagnostics()::toString);
            assertArrayEquals(new int[] {200 * 64, 64 * (199 * 200 / 2), -1}, h.readInts(counters, 3),
                    threads + " thread(s)");
            assertEquals(200L * 64 * 8, r.instructionsExecuted());
        }
    }

    /** CTAs 7 and 12 write out of bounds; the report names CTA 7 however many threads run. */
    private static final String FAULTS = Harness.HEADER + """
            .visible .entry faults(.param .u64 out)
            {
                .reg .pred %bad;
                .reg .b32 %c;
                .reg .b64 %p, %w;
                ld.param.u64 %p, [out];
                mov.u32 %c, %ctaid.x;
                setp.eq.u32 %bad, %c, 7;
                @%bad add.u64 %p, %p, 4096;
                setp.eq.u32 %bad, %c, 12;
                @%bad add.u64 %p, %p, 8192;
                mul.wide.u32 %w, %c, 4;
                add.u64 %p, %p, %w;
                st.global.u32 [%p], %c;
                ret;
            }
            """;

    /**
     * And the run is that of one thread: CTAs after CTA 7 that started alongside it leave no stores
     * and no instructions in the count (the run is repeated: which CTAs start alongside is timing).
     */
    @Test
    void theFirstFailingCtaInGridOrderIsReported() {
        String one = null;
        for (int threads : new int[] {1, 3, 8, 3, 8, 3, 8, 3, 8}) {
            Harness h = new Harness(FAULTS);
            h.ctaThreads = threads;
            long out = h.buffer(40 * 4);
            ExecResult r = h.run(40, 32, out);
            assertEquals(ExecStatus.ERROR, r.status());
            // (All lanes of a CTA store to one word: the race on it is reported too, before the fault.)
            assertTrue(r.diagnostics().stream().filter(d -> d.rule().equals("exec.fault")).findFirst().orElseThrow()
                    .message().contains("ctaid (7,0,0)"), r.diagnostics()::toString);
            String run = r.instructionsExecuted() + " " + r.diagnostics() + " " + java.util.Arrays.toString(h.readInts(out, 40));
            if (one == null) {
                one = run;
                assertTrue(run.endsWith("[0, 1, 2, 3, 4, 5, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,"
                        + " 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]"), run);
            } else {
                assertEquals(one, run, threads + " threads");
            }
        }
    }

    /**
     * CTAs of uneven length (3 to 15 passes of a loop, by CTA index), each pass an atomic add and a
     * store, and thread 0 of each CTA printing its index at the end.
     */
    private static final String UNEVEN = Harness.HEADER + """
            .extern .func (.param .b32 r) vprintf (.param .b64 fmt, .param .b64 args);
            .global .align 1 .b8 fmt[8] = {99, 116, 97, 32, 37, 100, 10, 0};
            .visible .entry uneven(.param .u64 out, .param .u64 counters)
            {
                .reg .pred %p<3>;
                .reg .b32 %r<8>;
                .reg .b64 %rd<7>;
                .local .align 4 .b8 buf[4];
                ld.param.u64 %rd1, [out];
                ld.param.u64 %rd2, [counters];
                mov.u32 %r1, %ctaid.x;
                mov.u32 %r2, %tid.x;
                mov.u32 %r3, %ntid.x;
                mad.lo.u32 %r4, %r1, %r3, %r2;
                mul.wide.u32 %rd3, %r4, 4;
                add.u64 %rd4, %rd1, %rd3;
                mul.lo.u32 %r5, %r1, 7;
                rem.u32 %r5, %r5, 5;
                add.u32 %r5, %r5, 1;
                mul.lo.u32 %r5, %r5, 3;
                mov.u32 %r6, 0;
            LOOP:
                atom.global.add.u32 %r7, [%rd2], 1;
                add.u32 %r6, %r6, 1;
                st.global.u32 [%rd4], %r6;
                setp.lt.u32 %p1, %r6, %r5;
                @%p1 bra LOOP;
                setp.ne.u32 %p2, %r2, 0;
                @%p2 bra DONE;
                st.local.u32 [buf], %r1;
                mov.u64 %rd5, fmt;
                cvta.global.u64 %rd5, %rd5;
                mov.u64 %rd6, buf;
                cvta.local.u64 %rd6, %rd6;
                {
                .param .b64 p0;
                .param .b64 p1;
                .param .b32 r0;
                st.param.b64 [p0], %rd5;
                st.param.b64 [p1], %rd6;
                call.uni (r0), vprintf, (p0, p1);
                }
            DONE:
                ret;
            }
            """;

    private static final int UNEVEN_CTAS = 12, UNEVEN_BLOCK = 64;

    /** One run of UNEVEN: the result and the memory it leaves, as one comparable text. */
    private static String uneven(int ctas, int ctasPerCluster, int threads, long budget) {
        Harness h = new Harness(UNEVEN);
        h.ctaThreads = threads;
        h.maxInstructions = budget;
        h.cluster = new int[] {ctasPerCluster, 1, 1};
        long out = h.buffer(ctas * UNEVEN_BLOCK * 4);
        long counters = h.ints(0);
        ExecResult r = h.run(ctas, UNEVEN_BLOCK, out, counters);
        return r.status() + " " + r.instructionsExecuted() + "\n" + r.diagnostics() + "\n"
                + r.printed().stream().map(d -> java.util.Arrays.toString(d.cta()) + java.util.Arrays.toString(d.thread())
                        + d.text()).toList() + "\n"
                + java.util.Arrays.toString(h.readInts(out, ctas * UNEVEN_BLOCK)) + "\n"
                + java.util.Arrays.toString(h.readInts(counters, 1));
    }

    /**
     * The budget is the launch's, spent by the clusters in grid order, on any number of threads: at
     * each boundary between clusters and a step either side, in the middle of each cluster, and
     * over the whole launch in steps, the status, report, count, printed text and memory are those
     * of one thread. (A discarded run on several threads leaves nothing behind: not its stores,
     * atomics, printf output nor count.)
     */
    @Test
    void theBudgetRunsOutWhereItDoesOnOneThread() {
        for (int ctasPerCluster : new int[] {1, 2}) {
            int clusters = UNEVEN_CTAS / ctasPerCluster;
            // What the first k clusters run, from grids of k clusters: the boundaries in grid order.
            long[] boundary = new long[clusters + 1];
            for (int k = 1; k <= clusters; k++) {
                String whole = uneven(k * ctasPerCluster, ctasPerCluster, 1, Long.MAX_VALUE / 2);
                assertTrue(whole.startsWith("OK "), whole);
                boundary[k] = Long.parseLong(whole.substring(3, whole.indexOf('\n')));
                assertTrue(boundary[k] > boundary[k - 1]);
            }
            java.util.TreeSet<Long> budgets = new java.util.TreeSet<>();
            for (int k = 1; k <= clusters; k++) {
                budgets.addAll(java.util.List.of(boundary[k] - 1, boundary[k], boundary[k] + 1,
                        (boundary[k - 1] + boundary[k]) / 2));
            }
            long total = boundary[clusters];
            for (long b = 1; b < total; b += total / 23) {
                budgets.add(b);
            }
            for (long budget : budgets) {
                String one = uneven(UNEVEN_CTAS, ctasPerCluster, 1, budget);
                assertEquals(budget >= total, one.startsWith("OK "), one);
                for (int threads : new int[] {3, 8}) {
                    assertEquals(one, uneven(UNEVEN_CTAS, ctasPerCluster, threads, budget),
                            "budget " + budget + ", " + ctasPerCluster + " CTA(s) a cluster, " + threads + " threads");
                }
            }
        }
    }
}
