package io.ptxrun.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ptxrun.cli.CliRun.Run;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The same inputs give the same output, byte for byte, run after run and on one or several CTA
 * threads: a sample of the run cases (several CTAs, clusters, atomics, mbarriers, bulk copies),
 * each run 17 times (about 100 runs in all) with 1, 2 and 4 CTA threads in turn, and with an
 * instruction budget that runs out part way. Only the wall-clock time in the stats may differ, and
 * is left out of the comparison.
 */
class DeterminismTest {
    private static final int RUNS = 17;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"nvcc-reduce-shared", "core-atom-global", "core-atom-float", "nvcc-atomic-histogram",
            "cluster-mbarrier-remote", "bulk-multicast-2x2"})
    void sameOutputEveryRun(String name) {
        sameOutput(name);
    }

    /** A stop by the budget, where each cluster gets what is left of it when it starts. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"nvcc-matmul-tiled", "nvcc-atomic-histogram", "compiler/diamonds"})
    void sameStopWhereTheBudgetRunsOut(String name) {
        sameOutput(name, "--max-instructions", "20011");
    }

    private static void sameOutput(String name, String... more) {
        String dir = "testdata/" + (name.contains("/") ? name : "run/" + name) + "/";
        String first = null;
        for (int i = 0; i < RUNS; i++) {
            String threads = String.valueOf(1 << (i % 3));
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of(dir + "kernel.ptx", "--launch",
                    dir + "launch.json", "--json", "--cta-threads", threads));
            args.addAll(java.util.List.of(more));
            Run r = CliRun.run(args.toArray(String[]::new));
            String output = r.code() + "\n" + r.out().replaceAll("\"wallMillis\":\\d+", "\"wallMillis\":_") + "\n" + r.err();
            if (first == null) {
                first = output;
            } else {
                assertEquals(first, output, "run " + i + " on " + threads + " CTA threads differs from run 0");
            }
        }
    }
}
