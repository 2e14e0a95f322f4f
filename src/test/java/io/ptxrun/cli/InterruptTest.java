package io.ptxrun.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ctrl-C on a long run: the command line, as its own process, gets SIGINT while a kernel spins
 * (testdata/spin/nvcc-counting-spin-timeout, given a budget of 10^13 thread-instructions, runs for
 * hours before it runs out: compiled, the default budget is a matter of seconds), prints
 * where every warp in flight is, with PTX and CUDA lines, and exits with 130 (128 + SIGINT).
 */
class InterruptTest {
    private static final String CASE = "testdata/spin/nvcc-counting-spin-timeout/";

    @TempDir
    Path dir;

    @Test
    void ctrlCPrintsWhereEveryWarpIsAndExitsWith130() throws Exception {
        assumeTrue(File.separatorChar == '/' && Files.isExecutable(Path.of("/bin/kill")),
                "sends SIGINT with kill(1), which exists on Linux and other Unix systems only");
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "-XX:+UseSerialGC", "-Xss16m", "-cp",
                System.getProperty("java.class.path"), Main.class.getName(),
                CASE + "kernel.ptx", "--launch", CASE + "launch.json", "--max-instructions", "10000000000000"));
        // A process started with SIGINT ignored (as Maven is when started in the background) passes
        // that on, and the child JVM would then ignore Ctrl-C: the child starts with the default
        // disposition. A JVM that was itself started with SIGINT ignored cannot restore it (it keeps
        // the signal ignored), so where env(1) can, env does it for the child.
        if (envResetsSignals()) {
            command.addAll(0, List.of("/usr/bin/env", "--default-signal=INT"));
        }
        ProcessBuilder pb = new ProcessBuilder(command)
                .redirectOutput(dir.resolve("out.txt").toFile()).redirectError(dir.resolve("err.txt").toFile());
        Signal interrupt = new Signal("INT");
        SignalHandler before = Signal.handle(interrupt, SignalHandler.SIG_DFL);
        Process p;
        try {
            p = pb.start();
        } finally {
            Signal.handle(interrupt, before);
        }
        try {
            // The kernel runs once the child has used a few seconds of processor time (JVM start-up,
            // parsing and checking take less); wall-clock time says little on a busy machine.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (cpu(p).compareTo(Duration.ofSeconds(5)) < 0 && p.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertTrue(p.isAlive(), () -> "ended before the interrupt: " + read("err.txt"));
            assertEquals(0, new ProcessBuilder("/bin/kill", "-INT", Long.toString(p.pid())).start().waitFor());
            long sent = System.nanoTime();
            assertTrue(p.waitFor(10, TimeUnit.SECONDS), "still running 10 s after SIGINT");
            long millis = (System.nanoTime() - sent) / 1_000_000;
            String err = read("err.txt");
            assertEquals(130, p.exitValue(), err);
            assertTrue(millis < 5000, "took " + millis + " ms to stop");
            assertTrue(err.contains("ptxrun: interrupted after 0/1 CTAs; warps in flight:\n"), err);
            // the warp, each group of its lanes with its PTX line (in the loop, lines 34-40) and the CUDA
            // line of the loop (the snapshot is read while the warp runs: its lanes may be at two places)
            String group = "\\d+ lanes? at " + CASE + "kernel\\.ptx:(3[4-9]|40):\\d+ '[^']+' \\[[^\\]]*kernel\\.cu:[56]:\\d+\\]";
            assertTrue(err.matches("(?s).*\n  CTA ctaid \\(0,0,0\\) warp 0: " + group + "( " + group + ")*\n.*"), err);
            assertEquals("", read("out.txt"));
        } finally {
            p.destroyForcibly();
        }
    }

    private static boolean envResetsSignals() {
        try {
            return new ProcessBuilder("/usr/bin/env", "--default-signal=INT", "true").start().waitFor() == 0;
        } catch (java.io.IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static Duration cpu(Process p) {
        return p.info().totalCpuDuration().orElse(Duration.ZERO);
    }

    private String read(String name) {
        try {
            return Files.readString(dir.resolve(name), StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
