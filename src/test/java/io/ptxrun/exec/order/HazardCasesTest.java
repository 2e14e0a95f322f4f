package io.ptxrun.exec.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ptxrun.TestData;
import io.ptxrun.ast.Module;
import io.ptxrun.cli.KernelRunner;
import io.ptxrun.exec.KernelLaunch;
import io.ptxrun.exec.SyncOptions;
import io.ptxrun.launch.LaunchFile;
import io.ptxrun.launch.ResultDiagnostic;
import io.ptxrun.launch.RunResult;
import io.ptxrun.syntax.PtxParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The hazard detector against kernels written to be wrong and their corrected twins:
 * testdata/hazards/CASE holds bug.cu and fixed.cu, the PTX nvcc made of each with -lineinfo, one
 * launch file, and expected.json naming the rule and the CUDA lines of both sites of each hazard
 * of bug.cu. The fixed twin must run clean; the same must hold for every hardware-recorded run
 * case, under the fixed schedule and under seeded random ones.
 */
class HazardCasesTest {
    private static final long BUDGET = 200_000_000L;

    static Stream<Path> cases() {
        return TestData.files("hazards", "expected.json").stream().map(Path::getParent);
    }

    static Stream<Path> runCases() {
        return TestData.files("run", "expected.json").stream().map(Path::getParent)
                .filter(d -> Files.exists(d.resolve("launch.json")));
    }

    static RunResult run(Path ptx, Path launchFile, KernelLaunch.Limits limits) throws Exception {
        PtxParser.Parsed<Module> parsed = PtxParser.parseModule(ptx.toString(), TestData.read(ptx));
        assertTrue(parsed.ok(), parsed.diagnostics()::toString);
        return KernelRunner.run(parsed.value(), LaunchFile.read(launchFile), limits);
    }

    static List<ResultDiagnostic> hazards(RunResult r) {
        return r.diagnostics().stream().filter(d -> KernelRunner.isHazard(d.rule().orElse(null))).toList();
    }

    /**
     * The line of the kernel's own .cu file (.file 1) that each PTX line belongs to: the nearest .loc
     * above it, followed through its inlined_at chain out of headers into the kernel's file.
     */
    static TreeMap<Integer, Integer> cudaLines(Path ptx) {
        TreeMap<Integer, Integer> map = new TreeMap<>();
        Pattern loc = Pattern.compile("^\\s*\\.loc\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)(?:.*inlined_at\\s+(\\d+)\\s+(\\d+)\\s+(\\d+))?");
        // A header location is inlined at several call sites: the chain is followed through the
        // latest .loc of each location, as the lines are read.
        java.util.Map<String, String> callers = new java.util.HashMap<>();
        String[] lines = TestData.read(ptx).split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            Matcher m = loc.matcher(lines[i]);
            if (!m.find()) {
                continue;
            }
            String at = m.group(1) + " " + m.group(2) + " " + m.group(3);
            String next = m.group(4) == null ? null : m.group(4) + " " + m.group(5) + " " + m.group(6);
            if (next != null) {
                callers.put(at, next);
            }
            for (int hops = 0; !at.startsWith("1 ") && next != null && hops < 64; hops++) {
                at = next;
                next = callers.get(at);
            }
            if (at.startsWith("1 ")) {
                map.put(i + 1, Integer.parseInt(at.split(" ")[1]));
            }
        }
        return map;
    }

    private static final Pattern SITE = Pattern.compile("\\.ptx:(\\d+):\\d+");

    /** The CUDA lines of a report: its own position and the other site its message names. */
    static List<Integer> sites(ResultDiagnostic d, TreeMap<Integer, Integer> cuda) {
        List<Integer> out = new ArrayList<>();
        Matcher m = SITE.matcher(d.message());
        if (m.find()) {
            out.add(cudaLine(cuda, Integer.parseInt(m.group(1))));
        }
        out.add(cudaLine(cuda, d.line()));
        return out;
    }

    private static int cudaLine(TreeMap<Integer, Integer> cuda, int ptxLine) {
        var e = cuda.floorEntry(ptxLine);
        return e == null ? 0 : e.getValue();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void reportsTheBugAtBothLines(Path dir) throws Exception {
        reportsTheBug(dir, KernelLaunch.Limits.ofMaxInstructions(BUDGET));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void reportsTheBugUnderARandomSchedule(Path dir) throws Exception {
        // Divergence is judged under the fixed schedule only: running the lowest PC first is what
        // tells a lane on another path from one a seeded schedule merely left behind.
        JsonNode expected = new ObjectMapper().readTree(dir.resolve("expected.json").toFile());
        boolean divergence = false;
        for (JsonNode h : expected.path("hazards")) {
            divergence |= h.get("rule").asText().startsWith("divergence.");
        }
        if (divergence) {
            return;
        }
        SyncOptions sync = new SyncOptions(SyncOptions.CopyTiming.RANDOM, 1, false);
        reportsTheBug(dir, new KernelLaunch.Limits(BUDGET, OptionalLong.of(1), 0, sync));
    }

    private void reportsTheBug(Path dir, KernelLaunch.Limits limits) throws Exception {
        JsonNode expected = new ObjectMapper().readTree(dir.resolve("expected.json").toFile());
        Path ptx = dir.resolve("bug.ptx");
        RunResult r = run(ptx, dir.resolve("launch.json"), limits);
        List<ResultDiagnostic> found = hazards(r);
        TreeMap<Integer, Integer> cuda = cudaLines(ptx);
        List<String> problems = new ArrayList<>();
        for (JsonNode h : expected.path("hazards")) {
            // "or": the same pair may be classified either way (e.g. a copy landing during a read).
            if (!reported(h, found, cuda) && (!h.has("or") || !reported(h.get("or"), found, cuda))) {
                problems.add("no " + h.get("rule").asText() + " at CUDA lines " + h.get("cuda"));
            }
        }
        JsonNode deadlock = expected.path("mayDeadlock");
        if (!problems.isEmpty() && !deadlock.isMissingNode() && r.status().jsonName().equals("deadlock")) {
            // The schedule may hang the kernel before the race can happen, as the hardware may too:
            // a deadlock reported at the named wait is the finding then.
            int line = deadlock.get("cuda").get(0).asInt();
            if (r.diagnostics().stream().anyMatch(d -> d.rule().orElse("").equals("exec.deadlock")
                    && cudaLine(cuda, d.line()) == line)) {
                problems.clear();
            }
        }
        if (!problems.isEmpty()) {
            problems.add("found: " + found.stream().map(d -> d.rule().orElse("") + " " + sites(d, cuda) + " "
                    + d.message()).toList());
        }
        assertEquals(List.of(), problems, dir.toString());
    }

    private static boolean reported(JsonNode h, List<ResultDiagnostic> found, TreeMap<Integer, Integer> cuda) {
        String rule = h.get("rule").asText();
        List<Integer> lines = new ArrayList<>();
        h.path("cuda").forEach(n -> lines.add(n.asInt()));
        return found.stream().anyMatch(d -> d.rule().orElse("").equals(rule) && sites(d, cuda).containsAll(lines));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void fixedTwinRunsClean(Path dir) throws Exception {
        RunResult r = run(dir.resolve("fixed.ptx"), dir.resolve("launch.json"),
                KernelLaunch.Limits.ofMaxInstructions(BUDGET));
        assertEquals("ok", r.status().jsonName(), () -> r.diagnostics().toString());
        assertEquals(List.of(), hazards(r).stream().map(ResultDiagnostic::message).toList(), dir.toString());
        for (long seed = 1; seed <= 2; seed++) {
            SyncOptions sync = new SyncOptions(SyncOptions.CopyTiming.RANDOM, seed, false);
            RunResult random = run(dir.resolve("fixed.ptx"), dir.resolve("launch.json"),
                    new KernelLaunch.Limits(BUDGET, OptionalLong.of(seed), 0, sync));
            assertEquals(List.of(), hazards(random).stream().map(ResultDiagnostic::message).toList(),
                    dir + " under schedule and copies random:" + seed);
        }
    }

    /** Run cases known to be wrong: the rules the detector must report for each (testdata/run/known-hazards.tsv). */
    private static final java.util.Map<String, java.util.Set<String>> KNOWN = known();
    /** Run cases the random schedule ends otherwise (testdata/run/random-schedule-failures.tsv), with the reason. */
    private static final java.util.Map<String, String> RANDOM_SCHEDULE_FAILURES = randomScheduleFailures();

    private static java.util.Map<String, String> randomScheduleFailures() {
        java.util.Map<String, String> m = new TreeMap<>();
        try {
            for (String line : Files.readAllLines(TestData.ROOT.resolve("run/random-schedule-failures.tsv"))) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    String[] f = line.split("\t", 2);
                    m.put(f[0], f.length > 1 ? f[1] : "");
                }
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return m;
    }

    private static java.util.Map<String, java.util.Set<String>> known() {
        java.util.Map<String, java.util.Set<String>> m = new TreeMap<>();
        for (String line : TestData.read(TestData.ROOT.resolve("run/known-hazards.tsv")).split("\n")) {
            if (!line.isBlank() && !line.startsWith("#")) {
                String[] f = line.split("\t");
                m.put(f[0], new java.util.TreeSet<>(List.of(f[1].split(","))));
            }
        }
        return m;
    }

    private static java.util.Set<String> rules(List<ResultDiagnostic> ds) {
        return new java.util.TreeSet<>(ds.stream().map(d -> d.rule().orElse("")).toList());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runCases")
    void correctKernelRunsClean(Path dir) throws Exception {
        RunResult r = run(dir.resolve("kernel.ptx"), dir.resolve("launch.json"),
                KernelLaunch.Limits.ofMaxInstructions(BUDGET));
        java.util.Set<String> expected = KNOWN.get(dir.getFileName().toString());
        if (expected != null) {
            assertEquals(expected, rules(hazards(r)), dir + ": the hazards testdata/run/known-hazards.tsv lists");
            return;
        }
        assertEquals(List.of(), hazards(r).stream().map(ResultDiagnostic::message).toList(), dir.toString());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runCases")
    void correctKernelRunsCleanUnderRandomSchedules(Path dir) throws Exception {
        // Another schedule may change which race is seen first, never how the run ends (RunCasesTest
        // holds the default schedule's ending to the H100's).
        var ending = run(dir.resolve("kernel.ptx"), dir.resolve("launch.json"),
                KernelLaunch.Limits.ofMaxInstructions(BUDGET)).status();
        String endsOtherwise = RANDOM_SCHEDULE_FAILURES.get(dir.getFileName().toString());
        if (endsOtherwise != null) {
            boolean differs = false;
            for (long seed = 1; seed <= 2; seed++) {
                SyncOptions sync = new SyncOptions(SyncOptions.CopyTiming.RANDOM, seed, false);
                differs |= run(dir.resolve("kernel.ptx"), dir.resolve("launch.json"),
                        new KernelLaunch.Limits(BUDGET, OptionalLong.of(seed), 0, sync)).status() != ending;
            }
            assertTrue(differs, dir + " now ends alike under random schedules: remove it from"
                    + " testdata/run/random-schedule-failures.tsv (" + endsOtherwise + ")");
            return;
        }
        for (long seed = 1; seed <= 2; seed++) {
            SyncOptions sync = new SyncOptions(SyncOptions.CopyTiming.RANDOM, seed, false);
            RunResult r = run(dir.resolve("kernel.ptx"), dir.resolve("launch.json"),
                    new KernelLaunch.Limits(BUDGET, OptionalLong.of(seed), 0, sync));
            assertEquals(ending, r.status(), dir + " under schedule and copies random:" + seed + ": "
                    + r.diagnostics().stream().map(ResultDiagnostic::message).toList());
            java.util.Set<String> expected = KNOWN.get(dir.getFileName().toString());
            if (expected != null) {
                assertEquals(expected, rules(hazards(r)), dir + " under schedule and copies random:" + seed);
                continue;
            }
            assertEquals(List.of(), hazards(r).stream().map(ResultDiagnostic::message).toList(),
                    dir + " under schedule and copies random:" + seed);
        }
    }
}
