package io.ptxrun.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ptxrun.TestData;
import io.ptxrun.ast.Module;
import io.ptxrun.exec.KernelLaunch;
import io.ptxrun.launch.LaunchFile;
import io.ptxrun.launch.ResultComparison;
import io.ptxrun.launch.ResultDiagnostic;
import io.ptxrun.launch.ResultJson;
import io.ptxrun.launch.RunResult;
import io.ptxrun.syntax.PtxParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden run tests. testdata/run/CASE holds kernel.ptx, launch.json and expected.json as printed
 * by a real H100 (tools/gpu-reference); testdata/bugs/CASE holds a faulty kernel and the status and
 * line its report must name, derived from the spec. Cases the engine does not pass yet are listed
 * with their reason in testdata/run/expected-failures.tsv; a listed case that starts passing fails
 * the test too, so the list always says exactly what is missing.
 */
class RunCasesTest {
    private static final long BUDGET = 200_000_000L;
    private static final Map<String, String> EXPECTED_FAILURES = expectedFailures();

    static Stream<Path> runCases() {
        return caseDirs("run").filter(d -> Files.exists(d.resolve("expected.json")));
    }

    static Stream<Path> bugCases() {
        return caseDirs("bugs").filter(d -> Files.exists(d.resolve("expected.json")));
    }

    private static Stream<Path> caseDirs(String area) {
        return TestData.files(area, "kernel.ptx").stream().map(Path::getParent);
    }

    private static Map<String, String> expectedFailures() {
        Map<String, String> m = new TreeMap<>();
        Path list = TestData.ROOT.resolve("run/expected-failures.tsv");
        if (Files.exists(list)) {
            for (String line : TestData.read(list).split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    String[] f = line.split("\t", 2);
                    m.put(f[0].strip(), f.length > 1 ? f[1] : "");
                }
            }
        }
        return m;
    }

    @Test
    void expectedFailuresNameExistingCases() {
        for (String name : EXPECTED_FAILURES.keySet()) {
            assertTrue(Files.isDirectory(TestData.ROOT.resolve("run").resolve(name))
                    || Files.isDirectory(TestData.ROOT.resolve("bugs").resolve(name)), name);
        }
    }

    static RunResult run(Path dir) throws Exception {
        Path ptx = dir.resolve("kernel.ptx");
        PtxParser.Parsed<Module> parsed = PtxParser.parseModule(ptx.toString(), TestData.read(ptx));
        assertTrue(parsed.ok(), parsed.diagnostics()::toString);
        LaunchFile launch = LaunchFile.read(dir.resolve("launch.json"));
        return KernelRunner.run(parsed.value(), launch, KernelLaunch.Limits.ofMaxInstructions(BUDGET));
    }

    /** The case's launch file: its tolerance says how far float results may be from the hardware's. */
    static LaunchFile launch(Path dir) throws Exception {
        LaunchFile launch = LaunchFile.read(dir.resolve("launch.json"));
        assertEquals(List.of(), launch.warnings().stream().filter(w -> w.contains("tolerance")).toList(),
                dir + "/launch.json");
        return launch;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runCases")
    void matchesHardware(Path dir) throws Exception {
        String name = dir.getFileName().toString();
        List<String> problems;
        try {
            RunResult actual = run(dir);
            RunResult expected = ResultJson.read(dir.resolve("expected.json"));
            problems = new ArrayList<>(ResultComparison.compare(expected, actual, launch(dir).tolerance()));
            if (!actual.diagnostics().isEmpty() && !problems.isEmpty()) {
                problems.add("diagnostics: " + actual.diagnostics().stream().map(ResultDiagnostic::message).toList());
            }
        } catch (Exception | AssertionError e) {
            problems = List.of("did not run: " + e);
        }
        verdict(name, problems);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bugCases")
    void reportsTheBugAtItsLine(Path dir) throws Exception {
        String name = dir.getFileName().toString();
        List<String> problems = new ArrayList<>();
        try {
            JsonNode expected = new ObjectMapper().readTree(dir.resolve("expected.json").toFile());
            RunResult actual = run(dir);
            String status = expected.get("status").asText();
            if (!actual.status().jsonName().equals(status)) {
                problems.add("status " + actual.status().jsonName() + ", expected " + status);
            }
            int line = expected.path("line").asInt(0);
            if (line > 0 && actual.diagnostics().stream().noneMatch(d -> d.line() == line)) {
                problems.add("no diagnostic at line " + line + ": " + actual.diagnostics());
            }
        } catch (Exception | AssertionError e) {
            problems.add("did not run: " + e);
        }
        verdict(name, problems);
    }

    private static void verdict(String name, List<String> problems) {
        if (EXPECTED_FAILURES.containsKey(name)) {
            if (problems.isEmpty()) {
                fail(name + " now passes: remove it from testdata/run/expected-failures.tsv");
            }
            return;
        }
        assertEquals(List.of(), problems, name);
    }
}
