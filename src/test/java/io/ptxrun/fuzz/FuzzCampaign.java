package io.ptxrun.fuzz;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * The campaign without coverage guidance (bench/fuzz.sh runs it beside the Jazzer campaign):
 * {@code FuzzCampaign SECONDS SEED [TARGET...]} runs each target on seeded random inputs for that
 * long and prints, per target, the inputs tried, crashes (any finding), hangs (an input over
 * {@link #HANG_MILLIS}) and the slowest input. Findings are written to target/fuzz-findings/TARGET/.
 * Exit status 1 when there was a finding.
 */
public final class FuzzCampaign {
    static final long HANG_MILLIS = 30_000;

    private FuzzCampaign() {}

    public static void main(String[] args) throws Exception {
        double seconds = Double.parseDouble(args[0]);
        long seed = Long.parseLong(args[1]);
        List<String> targets = args.length > 2 ? List.of(args).subList(2, args.length)
                : Targets.NAMES;
        long totalInputs = 0, totalCrashes = 0, totalHangs = 0;
        System.out.printf("%-16s %10s %8s %6s %10s%n", "target", "inputs", "crashes", "hangs", "slowest-ms");
        for (String target : targets) {
            SplittableRandom random = new SplittableRandom(seed ^ target.hashCode());
            long inputs = 0, crashes = 0, hangs = 0, slowest = 0;
            long end = System.nanoTime() + (long) (seconds * 1e9);
            while (System.nanoTime() < end) {
                byte[] input = RandomInputs.next(target, random);
                long start = System.nanoTime();
                Watchdog dog = new Watchdog(target, input);
                try {
                    Targets.run(target, input);
                } catch (Throwable t) {
                    crashes++;
                    save(target, "crash", input, t);
                } finally {
                    dog.done();
                }
                long millis = (System.nanoTime() - start) / 1_000_000;
                if (millis > HANG_MILLIS) {
                    hangs++;
                    save(target, "hang", input, null);
                }
                slowest = Math.max(slowest, millis);
                inputs++;
            }
            System.out.printf("%-16s %10d %8d %6d %10d%s%n", target, inputs, crashes, hangs, slowest,
                    target.equals("run-mutated") ? "  (" + Targets.RUNS.get() + " checked clean and ran)" : "");
            totalInputs += inputs;
            totalCrashes += crashes;
            totalHangs += hangs;
        }
        System.out.printf("%-16s %10d %8d %6d%n", "all", totalInputs, totalCrashes, totalHangs);
        System.exit(totalCrashes + totalHangs == 0 ? 0 : 1);
    }

    private static void save(String target, String kind, byte[] input, Throwable t) throws IOException {
        Path dir = Path.of("target/fuzz-findings", target);
        Files.createDirectories(dir);
        String name = kind + "-" + Integer.toHexString(java.util.Arrays.hashCode(input));
        Files.write(dir.resolve(name), input);
        if (t != null) {
            java.io.StringWriter w = new java.io.StringWriter();
            t.printStackTrace(new java.io.PrintWriter(w));
            Files.writeString(dir.resolve(name + ".txt"), w.toString());
        }
    }

    /** Stops the campaign with the input in hand when one input runs far past the hang limit. */
    private static final class Watchdog {
        private final Thread thread;

        Watchdog(String target, byte[] input) {
            thread = new Thread(() -> {
                try {
                    Thread.sleep(4 * HANG_MILLIS);
                    save(target, "hang", input, null);
                    System.out.println(target + ": an input ran past " + 4 * HANG_MILLIS / 1000 + " s; saved");
                    System.exit(1);
                } catch (InterruptedException | IOException e) {
                    // done in time
                }
            });
            thread.setDaemon(true);
            thread.start();
        }

        void done() {
            thread.interrupt();
        }
    }
}
