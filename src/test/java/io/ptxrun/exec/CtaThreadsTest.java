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

    @Test
    void theFirstFailingCtaInGridOrderIsReported() {
        for (int threads : new int[] {1, 3, 8}) {
            Harness h = new Harness(FAULTS);
            h.ctaThreads = threads;
            ExecResult r = h.run(40, 32, h.buffer(40 * 4));
            assertEquals(ExecStatus.ERROR, r.status());
            // (All lanes of a CTA store to one word: the race on it is reported too, before the fault.)
            assertTrue(r.diagnostics().stream().filter(d -> d.rule().equals("exec.fault")).findFirst().orElseThrow()
                    .message().contains("ctaid (7,0,0)"), r.diagnostics()::toString);
        }
    }
}
