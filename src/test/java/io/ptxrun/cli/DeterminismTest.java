package io.ptxrun.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ptxrun.cli.CliRun.Run;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The same inputs give the same output, byte for byte, run after run and on one or several CTA
 * threads: a sample of the run cases (several CTAs, clusters, atomics, mbarriers, bulk copies),
 * each run 17 times (about 100 runs in all) with 1, 2 and 4 CTA threads in turn, and instruction
 * budgets that run out anywhere in a launch. Only the wall-clock time in the stats may differ, and
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

    /**
     * The instruction budget is the launch's, spent by the clusters in grid order: on any number of
     * CTA threads the run stops where it stops on one, with the same report, count and buffers. The
     * budgets sweep the launch: at every boundary between clusters (where clusters that start
     * together on several threads meet) and a step either side, in the middle of each cluster (one
     * that started together with others runs out), and just below and at the whole launch's count
     * (no cluster runs out of what is left when it starts, only their sum does).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"nvcc-matmul-tiled", "nvcc-atomic-histogram", "compiler/diamonds",
            "cluster-mbarrier-remote"})
    void sameStopWhereTheBudgetRunsOut(String name) {
        String dir = "testdata/" + (name.contains("/") ? name : "run/" + name) + "/";
        Run whole = CliRun.run(dir + "kernel.ptx", "--launch", dir + "launch.json", "--json", "--cta-threads", "1");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"instructions\":(\\d+)").matcher(whole.out());
        assertTrue(whole.code() == 0 && m.find(), whole::toString);
        long total = Long.parseLong(m.group(1));
        m = java.util.regex.Pattern.compile("\"grid\": \\[([\\d, ]+)\\]").matcher(read(dir + "launch.json"));
        assertTrue(m.find());
        java.util.regex.Matcher c = java.util.regex.Pattern.compile("\"cluster\": \\[([\\d, ]+)\\]")
                .matcher(read(dir + "launch.json"));
        long clusters = product(m.group(1)) / (c.find() ? product(c.group(1)) : 1);
        java.util.TreeSet<Long> budgets = new java.util.TreeSet<>(java.util.List.of(1L, total - 1, total));
        for (long k = 1; k < clusters; k++) {
            long boundary = total * k / clusters;
            budgets.addAll(java.util.List.of(boundary - 1, boundary, boundary + 1, boundary - total / clusters / 2));
        }
        budgets.add(total - total / clusters / 2);
        assertTrue(budgets.size() >= 3 * clusters, budgets::toString);
        int ok = 0;
        for (long budget : budgets) {
            String first = null;
            for (int threads : new int[] {1, 2, 4}) {
                Run r = CliRun.run(dir + "kernel.ptx", "--launch", dir + "launch.json", "--json", "--cta-threads",
                        String.valueOf(threads), "--max-instructions", String.valueOf(budget));
                String output = r.code() + "\n" + r.out().replaceAll("\"wallMillis\":\\d+", "\"wallMillis\":_")
                        + "\n" + r.err();
                if (first == null) {
                    first = output;
                    ok += r.code() == 0 ? 1 : 0;
                    assertTrue(r.code() == 0 || r.out().contains("\"status\":\"timeout\""), output);
                } else {
                    assertEquals(first, output, "budget " + budget + " on " + threads + " CTA threads differs from one");
                }
            }
        }
        // Only the whole launch's count is enough.
        assertEquals(1, ok, budgets::toString);
    }

    private static long product(String dims) {
        long p = 1;
        for (String d : dims.split(",")) {
            p *= Long.parseLong(d.trim());
        }
        return p;
    }

    private static String read(String path) {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of(path));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
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
