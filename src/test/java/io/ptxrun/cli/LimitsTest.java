package io.ptxrun.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ptxrun.cli.CliRun.Run;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every limit of a launch (CUDA's grid, block, shared-memory and parameter limits; ptxrun's grid
 * threads, simulated memory, instruction and wall-clock budgets) ends in one clear message and its
 * exit code, never in a Java error or an {@code ok} that did not run: the cases of
 * {@code testdata/limits/cases.tsv}, each with the message it must print. Java running out of heap
 * ends the same way, with exit code 4.
 */
class LimitsTest {
    private static final Path DIR = Path.of("testdata/limits");

    static Stream<Arguments> cases() throws IOException {
        List<Arguments> out = new ArrayList<>();
        for (String line : Files.readAllLines(DIR.resolve("cases.tsv"))) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t");
            out.add(Arguments.of(f[0], f[1], Integer.parseInt(f[2]), f[3]));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void limitEndsInOneClearMessage(String name, String arguments, int exit, String message) {
        List<String> args = new ArrayList<>();
        for (String a : arguments.split(" ")) {
            args.add(a.endsWith(".ptx") || a.endsWith(".json") ? DIR.resolve(a).toString() : a);
        }
        Run r = CliRun.run(args.toArray(String[]::new));
        String all = r.out() + r.err();
        assertEquals(exit, r.code(), all);
        assertTrue(all.contains(message), "expected '" + message + "' in:\n" + all);
        assertNoStackTrace(all);
        if (exit != ExitCode.OK) {
            assertFalse(all.contains(": ok "), all);
        }
    }

    /** In a JVM with a small heap, buffers within --max-memory still exhaust it: one line, exit 4. */
    @Test
    void outOfHeapIsOneLineAndExitCode4(@TempDir Path tmp) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Xmx48m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), DIR.resolve("count.ptx").toString(), "--grid", "1", "--block", "1",
                "--arg", "out=u32[8000000]:0", "--arg", "a=u32[8000000]:0", "--arg", "b=u32[8000000]:0",
                "--arg", "c=u32[8000000]:0")
                .redirectError(tmp.resolve("err").toFile()).redirectOutput(tmp.resolve("out").toFile()).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "did not end");
        String err = Files.readString(tmp.resolve("err"), StandardCharsets.UTF_8);
        assertEquals(ExitCode.OUT_OF_RESOURCES, p.exitValue(), err);
        assertTrue(err.startsWith("ptxrun: error: out of memory (Java heap "), err);
        assertEquals(1, err.lines().count(), err);
    }

    static void assertNoStackTrace(String text) {
        assertFalse(text.contains("\tat ") || text.contains("Exception") || text.contains("Error:"), text);
    }
}
