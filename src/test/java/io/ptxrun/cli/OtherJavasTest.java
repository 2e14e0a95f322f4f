package io.ptxrun.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.ptxrun.TestData;
import io.ptxrun.launch.ResultComparison;
import io.ptxrun.launch.ResultJson;
import io.ptxrun.launch.RunResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The launcher runs ptxrun on the newest Java installed, while the suite runs on the build's Java:
 * the run cases must also match the hardware on every other Java 17+ of the machine (Java 22
 * removed atomic access through byte-array views, which crashed every global atomic on Java 25
 * alone). One child process per Java runs all of testdata/run through {@link #main}.
 */
class OtherJavasTest {
    @Test
    void runCasesMatchTheHardwareOnEveryInstalledJava() throws Exception {
        List<Path> javas = otherJavas();
        Path log = Files.createTempFile("ptxrun-other-java", ".log");
        log.toFile().deleteOnExit();
        for (Path java : javas) {
            Process p = new ProcessBuilder(java.toString(), "-Xss16m", "-XX:+UseSerialGC",
                    "-cp", System.getProperty("java.class.path"), OtherJavasTest.class.getName(),
                    TestData.ROOT.resolve("run").toString())
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!p.waitFor(10, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                fail(java + ": the run cases did not finish in 10 minutes");
            }
            String out = Files.readString(log, StandardCharsets.UTF_8);
            assertEquals("", out.strip(), java + " (exit " + p.exitValue() + ")");
            assertEquals(0, p.exitValue(), java.toString());
        }
    }

    /** Every Java 17+ under /usr/lib/jvm other than the one running the suite. */
    private static List<Path> otherJavas() throws IOException {
        Path jvms = Path.of("/usr/lib/jvm");
        Map<Path, Path> byHome = new TreeMap<>();
        Path self = Path.of(System.getProperty("java.home")).toRealPath();
        if (Files.isDirectory(jvms)) {
            try (Stream<Path> homes = Files.list(jvms)) {
                for (Path home : homes.toList()) {
                    Path java = home.resolve("bin/java");
                    if (Files.isExecutable(java) && Files.exists(home.resolve("release"))) {
                        Path real = home.toRealPath();
                        if (!real.equals(self) && featureVersion(real) >= 17) {
                            byHome.putIfAbsent(real, real.resolve("bin/java"));
                        }
                    }
                }
            }
        }
        return new ArrayList<>(byHome.values());
    }

    private static int featureVersion(Path home) throws IOException {
        for (String line : Files.readAllLines(home.resolve("release"))) {
            if (line.startsWith("JAVA_VERSION=")) {
                String v = line.substring(line.indexOf('"') + 1).replaceFirst("^1\\.", "");
                return Integer.parseInt(v.split("[^0-9]")[0]);
            }
        }
        return 0;
    }

    /** The child: runs each case of the folder given, prints one line per case that does not match. */
    public static void main(String[] args) throws Exception {
        Map<String, String> expectedFailures = new TreeMap<>();
        Path list = Path.of(args[0], "expected-failures.tsv");
        for (String line : Files.readAllLines(list)) {
            if (!line.isBlank() && !line.startsWith("#")) {
                expectedFailures.put(line.split("\t", 2)[0].strip(), "");
            }
        }
        try (Stream<Path> dirs = Files.list(Path.of(args[0]))) {
            for (Path dir : dirs.sorted().toList()) {
                String name = dir.getFileName().toString();
                if (!Files.exists(dir.resolve("expected.json")) || expectedFailures.containsKey(name)) {
                    continue;
                }
                List<String> problems;
                try {
                    RunResult actual = RunCasesTest.run(dir);
                    RunResult expected = ResultJson.read(dir.resolve("expected.json"));
                    problems = ResultComparison.compare(expected, actual, RunCasesTest.launch(dir).tolerance());
                } catch (Exception | AssertionError e) {
                    problems = List.of("did not run: " + e);
                }
                if (!problems.isEmpty()) {
                    System.out.println(name + ": " + problems);
                }
            }
        }
    }
}
