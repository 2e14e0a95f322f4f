package io.ptxrun.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ptxrun.cli.CliRun.Run;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The same inputs give the same output, byte for byte, run after run and on one or several CTA
 * threads: a sample of the run cases (several CTAs, clusters, atomics, mbarriers, bulk copies),
 * each run 17 times (about 100 runs in all) with 1, 2 and 4 CTA threads in turn. Only the wall-clock
 * time in the stats may differ, and is left out of the comparison.
 */
class DeterminismTest {
    private static final int RUNS = 17;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"nvcc-reduce-shared", "core-atom-global", "core-atom-float", "nvcc-atomic-histogram",
            "cluster-mbarrier-remote", "bulk-multicast-2x2"})
    void sameOutputEveryRun(String name) {
        String dir = "testdata/run/" + name + "/";
        String first = null;
        for (int i = 0; i < RUNS; i++) {
            String threads = String.valueOf(1 << (i % 3));
            Run r = CliRun.run(dir + "kernel.ptx", "--launch", dir + "launch.json", "--json", "--cta-threads", threads);
            String output = r.code() + "\n" + r.out().replaceAll("\"wallMillis\":\\d+", "\"wallMillis\":_") + "\n" + r.err();
            if (first == null) {
                first = output;
            } else {
                assertEquals(first, output, "run " + i + " on " + threads + " CTA threads differs from run 0");
            }
        }
    }
}
