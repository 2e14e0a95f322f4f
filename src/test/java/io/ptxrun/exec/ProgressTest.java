package io.ptxrun.exec;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A launch's progress shows the warps in flight while it runs, and nothing of it once it is over. */
class ProgressTest {
    /** Thread 0 of a CTA traps while the others wait at a barrier it never reaches. */
    private static final String TRAPS = Harness.HEADER + """
            .visible .entry traps()
            {
                .reg .pred %first;
                .reg .b32 %t;
                mov.u32 %t, %tid.x;
                setp.eq.u32 %first, %t, 0;
                @%first trap;
                bar.sync 0;
                ret;
            }
            """;

    @Test
    void aLaunchThatStoppedLeavesNoWarpsBehind() {
        Progress progress = new Progress();
        for (int threads : new int[] {1, 2}) {
            Harness h = new Harness(TRAPS);
            h.ctaThreads = threads;
            h.progress = progress;
            ExecResult r = h.run(4, 64);
            assertEquals(ExecStatus.TRAP, r.status(), r.diagnostics()::toString);
            // The stopped launch's warps are still live in its workers; the progress of the next
            // launch that shares it (and the memory those workers hold) must not keep them.
            assertTrue(progress.warps().isEmpty(), () -> threads + " thread(s): " + progress.warps());
        }
    }
}
