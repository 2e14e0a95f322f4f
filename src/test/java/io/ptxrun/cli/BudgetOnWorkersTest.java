package io.ptxrun.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ptxrun.TestData;
import io.ptxrun.exec.Compilation;
import io.ptxrun.exec.KernelLaunch;
import io.ptxrun.exec.Progress;
import io.ptxrun.exec.SyncOptions;
import io.ptxrun.launch.LaunchFile;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The instruction budget on several workers ({@code exec.Grid}): the clusters run ahead of their
 * turn there, sharing what is left of the budget as they go; where together they run past it, or
 * a cluster stops the run after later ones started, the run is discarded, memory rolled back, and
 * the launch runs again on one worker. For budgets from one thread-instruction to past the
 * launch's whole count, the result (status, the report of where the budget ran out with its
 * thread and instruction, thread-instructions counted, dumped buffers, hazard findings) must be
 * the interpreter's on one worker, on 1, 2 and 4 workers; and every budget short of the whole
 * count must send a run on several workers to that second run ({@link Progress#reruns}).
 *
 * <p>In testdata/compiler/loop-ahead-grid, warps 0 and 1 of each CTA run a divergent loop of
 * about a thousand passes ahead of their turns ({@code exec.LoopAhead}) where the budget left
 * covers all the cluster could run meanwhile, and go on counting each later turn; on several
 * workers the others spend the budget meanwhile, so it runs out while warps are ahead, in the
 * middle of their loop (on one worker it never does: there the loop runs turn by turn when the
 * budget left is that short). The budgets sweep the launch evenly, the boundaries between CTAs a
 * step either side and their middles, and the ends.
 */
class BudgetOnWorkersTest {
    private static final Path LOOP_AHEAD = TestData.ROOT.resolve("compiler/loop-ahead-grid/kernel.ptx");
    private static final int CTAS = 12, THREADS = 80, PASSES = 1000, CLOCKS = 1000;

    @Test
    void loopsAheadOfTheirTurns() throws Exception {
        sweep(LOOP_AHEAD, loopAhead(CTAS), CTAS, 31, "ok");
    }

    /**
     * The CTAs from the sixth on find no counter of their own (an access out of bounds, after their
     * loop): the first of them stops the run, on several workers often with later CTAs started.
     */
    @Test
    void faultAfterLaterCtasStarted() throws Exception {
        sweep(LOOP_AHEAD, loopAhead(CTAS / 2), CTAS, 7, "error");
    }

    /** An ordinary kernel: shared-memory tiles, barriers, loads and stores, 9 CTAs. */
    @Test
    void tiledMatrixProduct() throws Exception {
        Path dir = TestData.ROOT.resolve("run/nvcc-matmul-tiled");
        sweep(dir.resolve("kernel.ptx"), TestData.read(dir.resolve("launch.json")), 9, 8, "ok");
    }

    /** The launch of testdata/compiler/loop-ahead-grid with that many counters. */
    private static String loopAhead(int counters) {
        return "{\"kernel\": \"loop_ahead_grid\", \"grid\": [" + CTAS + "], \"block\": [" + THREADS
                + "], \"buffers\": {\"out\": {\"type\": \"u32\", \"count\": " + 3 * CTAS * THREADS + ", \"init\": 0},"
                + " \"clocks\": {\"type\": \"u32\", \"count\": " + CTAS * CLOCKS * 32 + ", \"init\": 0},"
                + " \"counter\": {\"type\": \"u32\", \"count\": " + counters + ", \"init\": 0}},"
                + " \"params\": [\"out\", \"clocks\", \"counter\", {\"u32\": " + PASSES + "}, {\"u32\": " + CLOCKS
                + "}], \"dump\": [\"out\", \"clocks\", \"counter\"]}";
    }

    /**
     * Checks the launch on 1, 2 and 4 workers for each budget of the sweep (at least even steps
     * apart) against the interpreter on one, given the status of the launch without a budget.
     */
    private static void sweep(Path kernel, String json, int clusters, int even, String status) throws Exception {
        String ptx = TestData.read(kernel);
        LaunchFile launch = LaunchFile.parse(json);
        String whole = result(kernel, ptx, launch, Long.MAX_VALUE, 1, Compilation.NONE, new Progress());
        assertTrue(whole.contains("\"status\":\"" + status + "\""), whole);
        Matcher m = Pattern.compile("\"instructions\":(\\d+)").matcher(whole);
        assertTrue(m.find(), whole);
        long total = Long.parseLong(m.group(1));
        TreeSet<Long> budgets = new TreeSet<>(List.of(1L, 2L, 31L, 32L, 33L, 1000L, total - 1, total, total + 1, 2 * total,
                Long.MAX_VALUE));
        long perCluster = total / clusters;
        for (int k = 1; k < clusters; k++) {
            long boundary = total * k / clusters;
            budgets.addAll(List.of(boundary - 1, boundary, boundary + 1, boundary - perCluster / 2));
        }
        budgets.add(total - perCluster / 2);
        for (int k = 1; k < even; k++) {
            budgets.add(total * k / even);
        }
        for (long budget : budgets) {
            String one = result(kernel, ptx, launch, budget, 1, Compilation.NONE, new Progress());
            if (budget < total) {
                assertTrue(one.contains("\"status\":\"timeout\"") && one.contains("\"message\":\"instruction budget of "
                        + budget + " thread-instructions exhausted") && one.contains("(thread tid ("), one);
            } else {
                assertEquals(whole, one);
            }
            for (int workers : new int[] {1, 2, 4}) {
                Progress progress = new Progress();
                String r = result(kernel, ptx, launch, budget, workers, Compilation.HOT, progress);
                assertEquals(one, r, "budget " + budget + " of " + total + " on " + workers + " workers");
                String where = "budget " + budget + " of " + total + " on " + workers + " workers: runs again on one";
                if (budget < total || status.equals("ok")) {
                    // Short of the whole count the run on several workers always went past the
                    // budget (the op that runs out of it is counted); a whole run never does.
                    assertEquals(workers > 1 && budget < total ? 1 : 0, progress.reruns(), where);
                } else {
                    // Whether later clusters had started when the first stopped the run depends on timing.
                    assertTrue(progress.reruns() <= (workers > 1 ? 1 : 0), where);
                }
            }
        }
    }

    private static String result(Path kernel, String ptx, LaunchFile launch, long budget, int workers,
            Compilation compilation, Progress progress) throws Exception {
        KernelLaunch.Limits limits = new KernelLaunch.Limits(budget, OptionalLong.empty(), workers, SyncOptions.DEFAULT)
                .withCompilation(compilation).withProgress(progress);
        return CompiledRuns.result(kernel.toString(), ptx, launch, limits);
    }
}
