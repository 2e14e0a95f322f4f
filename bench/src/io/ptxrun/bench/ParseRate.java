package io.ptxrun.bench;

import io.ptxrun.ast.Module;
import io.ptxrun.syntax.PtxParser;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Steady-state parser throughput: parses one file repeatedly (text to AST, as `check` does) and
 * prints lines per second of the best and the median of the timed rounds.
 */
public final class ParseRate {
    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        String text = Files.readString(file);
        long lines = text.chars().filter(c -> c == '\n').count();
        for (int i = 0; i < 5; i++) {
            parse(file, text);
        }
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long[] nanos = new long[rounds];
        long[] cpu = new long[rounds];
        for (int i = 0; i < rounds; i++) {
            long c0 = threads.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            parse(file, text);
            nanos[i] = System.nanoTime() - t0;
            cpu[i] = threads.getCurrentThreadCpuTime() - c0;
        }
        java.util.Arrays.sort(nanos);
        java.util.Arrays.sort(cpu);
        // Wall time suffers from other load on the machine; the parsing thread's CPU time much less.
        System.out.printf("%s: %d lines; wall: best %.0f lines/s, median %.0f lines/s; "
                        + "CPU time of the parsing thread: best %.0f lines/s, median %.0f lines/s (%d rounds)%n",
                file, lines, lines / (nanos[0] / 1e9), lines / (nanos[rounds / 2] / 1e9),
                lines / (cpu[0] / 1e9), lines / (cpu[rounds / 2] / 1e9), rounds);
    }

    private static void parse(Path file, String text) {
        PtxParser.Parsed<Module> parsed = PtxParser.parseModule(file.toString(), text);
        if (!parsed.ok()) {
            throw new IllegalStateException("benchmark input does not parse: " + parsed.diagnostics().get(0));
        }
    }
}
