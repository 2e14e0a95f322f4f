package io.ptxrun.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ptxrun.TestData;
import io.ptxrun.cli.CliRun.Run;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line for debugging real CUDA code: printf output, CUDA source lines in reports,
 * validation before a run, typed arguments, standard input, option suggestions, exit codes.
 */
class DebuggingCliTest {
    private static final String PRINTF = "testdata/run/nvcc-printf-formats/";
    private static final String OOB = "testdata/bugs/nvcc-lineinfo-oob/";
    private static final String HANG = "testdata/bugs/nvcc-barrier-hang/";
    private static final String REDUCE = "testdata/run/nvcc-reduce-shared/kernel.ptx";
    private static final String CHECK_CUDA = "testdata/check/cuda/";

    @TempDir
    Path dir;

    /** A module that parses but that check rejects: a .b32 register where a predicate belongs
     * (line 9, instruction forms) and an undeclared register (line 10, declarations). */
    private static final String REJECTED = """
            .version 8.0
            .target sm_90
            .address_size 64
            .visible .entry k(.param .u64 p)
            {
            \t.reg .b32 %r<4>;
            \t.reg .b64 %rd<4>;
            \t.shared .b64 bar;
            \tmbarrier.try_wait.shared.b64 %r1, [bar], %rd1;
            \tmov.u32 %r9, 1;
            \tret;
            }
            """;

    private Path write(String name, String text) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    @Test
    void printfLinesNameTheirThreadOrArePlainAsOnTheGpu() {
        Run threads = CliRun.run(PRINTF + "kernel.ptx", "--launch", PRINTF + "launch.json");
        assertEquals(ExitCode.OK, threads.code(), threads.err());
        assertTrue(threads.out().contains("ctaid (1,0,0) tid (2,0,0): block 1 thread 2 value 42\n"), threads.out());
        Run plain = CliRun.run(PRINTF + "kernel.ptx", "--launch", PRINTF + "launch.json", "--printf", "plain");
        assertTrue(plain.out().startsWith("ints: -42 7 3000000000 ff FF 10|   42|42   |00042|+42| 42|005\n"), plain.out());
        assertTrue(plain.out().contains("no newline;\nblock 0 thread 0 value 0\n"), plain.out());
        Run bad = CliRun.run(PRINTF + "kernel.ptx", "--launch", PRINTF + "launch.json", "--printf", "fancy");
        assertEquals(ExitCode.USAGE, bad.code());
    }

    @Test
    void jsonCarriesPrintfAndTheCudaLocationOfADiagnostic() throws Exception {
        JsonNode printed = new ObjectMapper().readTree(
                CliRun.run(PRINTF + "kernel.ptx", "--launch", PRINTF + "launch.json", "--json").out());
        JsonNode last = printed.get("printf").get(printed.get("printf").size() - 1);
        assertEquals("[1,0,0]", last.get("cta").toString());
        assertEquals("[2,0,0]", last.get("thread").toString());
        assertEquals("block 1 thread 2 value 42\n", last.get("text").asText());

        Run r = CliRun.run(OOB + "kernel.ptx", "--launch", OOB + "launch.json", "--json");
        assertEquals(ExitCode.RUN_FAILED, r.code());
        JsonNode d = new ObjectMapper().readTree(r.out()).get("diagnostics").get(0);
        assertEquals(47, d.get("line").asInt());
        JsonNode source = d.get("source");
        assertTrue(source.get("file").asText().endsWith("kernel.cu"), source::toString);
        assertEquals(5, source.get("line").asInt());
        assertEquals("scatter", source.get("function").asText());
        assertEquals(12, source.get("inlinedAt").get(0).get("line").asInt());
        assertFalse(printed.has("source"));
    }

    @Test
    void aFaultNamesTheCudaLineWithItsTextAndTheInliningSite() {
        Run r = CliRun.run(OOB + "kernel.ptx", "--launch", OOB + "launch.json");
        assertEquals(ExitCode.RUN_FAILED, r.code());
        // kernel.cu is found beside the PTX file although .file names the directory it was compiled in
        assertTrue(r.err().contains("kernel.cu:5:5: note: CUDA source (in scatter)\n    p[i * 1000] = v;\n    ^\n"), r.err());
        assertTrue(r.err().contains("kernel.cu:12:9: note: inlined from here\n        scatter(out, i, i + 1);\n"), r.err());
        // (In the same JVM as the fuzz tests, the fuzzer's agent may log its instrumentation first.)
        String err = r.err().lines().filter(l -> !l.startsWith("INFO: Instrumented"))
                .collect(java.util.stream.Collectors.joining("\n"));
        assertTrue(err.startsWith(OOB + "kernel.ptx:47:2: error: global access"), r.err());
    }

    @Test
    void aHungCudaBarrierIsADeadlockWithinASecond() throws Exception {
        long start = System.nanoTime();
        Run r = CliRun.run(HANG + "kernel.ptx", "--launch", HANG + "launch.json", "--json");
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertEquals(ExitCode.RUN_FAILED, r.code(), r.err());
        JsonNode result = new ObjectMapper().readTree(r.out());
        assertEquals("deadlock", result.get("status").asText());
        assertTrue(result.get("stats").get("wallMillis").asLong() < 1000, r.out());
        assertTrue(millis < 5000, "whole command took " + millis + " ms");
        JsonNode d = result.get("diagnostics").get(0);
        assertTrue(d.get("message").asText().contains("1 of 64 arrivals pending"), d::toString);
        // the wait is inlined five levels deep; the outermost call site is the kernel's line 13
        JsonNode sites = d.get("source").get("inlinedAt");
        assertEquals(13, sites.get(sites.size() - 1).get("line").asInt(), d::toString);
    }

    /**
     * A module nvcc compiled with -lineinfo for sm_90a, its .target edited to sm_80: check's errors
     * (at the lines ptxas names) carry the CUDA line, the inlining chain out to the kernel and the
     * source text, in text (`cluster-exchange-sm80.check.txt`), JSON and SARIF.
     */
    @Test
    void checkDiagnosticsNameTheirCudaLines() throws Exception {
        String ptx = CHECK_CUDA + "cluster-exchange-sm80.ptx";
        Run r = CliRun.run("check", ptx);
        assertEquals(ExitCode.INPUT_ERROR, r.code());
        assertEquals(readableExcerpts(TestData.read(Path.of(CHECK_CUDA + "cluster-exchange-sm80.check.txt")), ptx),
                withoutAgentLog(r.err()));
        // a run validates with the same diagnostics
        Run run = CliRun.run(ptx, "--grid", "2", "--block", "32", "--arg", "out=s32[2]:0");
        assertEquals(ExitCode.INPUT_ERROR, run.code());
        assertEquals(withoutAgentLog(r.err()), withoutAgentLog(run.err()));

        JsonNode all = new ObjectMapper().readTree(CliRun.run("check", "--format", "json", ptx).out())
                .get("files").get(0).get("diagnostics");
        // errors at exactly the lines ptxas names
        java.util.List<Integer> ptxasLines = new java.util.ArrayList<>();
        Matcher line = Pattern.compile(", line (\\d+); error").matcher(TestData.read(Path.of(CHECK_CUDA + "cluster-exchange-sm80.ptxas")));
        while (line.find()) {
            ptxasLines.add(Integer.parseInt(line.group(1)));
        }
        java.util.List<Integer> lines = new java.util.ArrayList<>();
        all.forEach(d -> lines.add(d.get("line").asInt()));
        assertEquals(ptxasLines, lines);
        JsonNode first = all.get(2);
        assertEquals(51, first.get("line").asInt());
        JsonNode notes = first.get("notes");
        JsonNode kernelLine = notes.get(notes.size() - 1);
        assertTrue(kernelLine.get("file").asText().endsWith("cluster_exchange.cu"), notes::toString);
        assertEquals(15, kernelLine.get("line").asInt());
        assertTrue(notes.get(0).get("message").asText().startsWith("CUDA source"), notes::toString);

        JsonNode result = new ObjectMapper().readTree(CliRun.run("check", "--format", "sarif", ptx).out())
                .get("runs").get(0).get("results").get(5);
        assertEquals(72, result.get("locations").get(0).get("physicalLocation").get("region").get("startLine").asInt());
        JsonNode related = result.get("relatedLocations");
        JsonNode call = related.get(related.size() - 2).get("physicalLocation");
        assertTrue(call.get("artifactLocation").get("uri").asText().endsWith("cluster_exchange.cu"), related::toString);
        assertEquals(7, call.get("region").get("startLine").asInt());
    }

    /** The expected text without the source excerpts of notes whose file cannot be read here (CUDA headers). */
    private static String readableExcerpts(String expected, String ptx) {
        io.ptxrun.diag.SourceFiles files = io.ptxrun.diag.SourceFiles.besides(Path.of(ptx));
        Pattern note = Pattern.compile("^(.+):\\d+:\\d+: note: .*");
        StringBuilder sb = new StringBuilder();
        String[] lines = expected.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            sb.append(lines[i]).append(i + 1 < lines.length ? "\n" : "");
            Matcher m = note.matcher(lines[i]);
            if (m.matches() && files.get(m.group(1)).isEmpty() && i + 2 < lines.length) {
                i += 2;
            }
        }
        return sb.toString();
    }

    /** (In the same JVM as the fuzz tests, the fuzzer's agent may log its instrumentation first.) */
    private static String withoutAgentLog(String err) {
        return err.lines().filter(l -> !l.startsWith("INFO: Instrumented"))
                .map(l -> l + "\n").collect(java.util.stream.Collectors.joining());
    }

    @Test
    void aModuleThatCheckRejectsDoesNotRun() throws Exception {
        Path ptx = write("bad.ptx", REJECTED);
        Run r = CliRun.run(ptx.toString(), "--grid", "1", "--block", "32", "--arg", "p=u32[32]:0");
        assertEquals(ExitCode.INPUT_ERROR, r.code());
        assertEquals("", r.out());
        // the same diagnostics as check, sorted by position
        Run check = CliRun.run("check", ptx.toString());
        assertEquals(check.err(), r.err());
        assertTrue(r.err().indexOf(":9:") < r.err().indexOf(":10:"), r.err());
    }

    @Test
    void targetMeansWhatItMeansForCheck() {
        String hopper = "testdata/run/nvcc-hopper-wgmma/kernel.ptx";
        Run check = CliRun.run("check", "--target", "sm_80", hopper);
        assertEquals(ExitCode.INPUT_ERROR, check.code());
        Run run = CliRun.run(hopper, "--launch", "testdata/run/nvcc-hopper-wgmma/launch.json", "--target", "sm_80");
        assertEquals(ExitCode.INPUT_ERROR, run.code());
        assertEquals(check.err(), run.err());
        assertEquals(ExitCode.USAGE, CliRun.run(REDUCE, "--grid", "1", "--block", "1", "--target", "sm_1").code());
    }

    @Test
    void argumentsAreCheckedAgainstTheParameterTypes() {
        // reduce_sum_shared(const int* in, int* out, int n): a float for the .u32 n
        Run r = CliRun.run(REDUCE, "--kernel", "reduce_sum_shared", "--grid", "1", "--block", "32", "--arg", "in=s32[32]:1", "--arg", "out=s32[1]:0",
                "--arg", "f32:1.5");
        assertEquals(ExitCode.INPUT_ERROR, r.code());
        assertTrue(r.err().contains("params[2]: kernel parameter 'reduce_sum_shared_param_2' is .u32 but the launch passes"
                + " f32 1.5 (a float for an integer parameter)"), r.err());
        Run count = CliRun.run(REDUCE, "--kernel", "reduce_sum_shared", "--grid", "1", "--block", "32", "--arg", "in=s32[32]:1", "--arg", "u32:32");
        assertEquals(ExitCode.INPUT_ERROR, count.code());
        assertTrue(count.err().contains("takes 3 parameters but the launch passes 2"), count.err());
    }

    @Test
    void aDashReadsTheModuleFromStandardInput() throws Exception {
        InputStream old = System.in;
        try {
            System.setIn(new ByteArrayInputStream(Files.readAllBytes(Path.of(REDUCE))));
            Run r = CliRun.run("-", "--launch", "testdata/run/nvcc-reduce-shared/launch.json", "--json");
            assertEquals(ExitCode.OK, r.code(), r.err());
            System.setIn(new ByteArrayInputStream(REJECTED.getBytes(StandardCharsets.UTF_8)));
            Run check = CliRun.run("check", "-");
            assertEquals(ExitCode.INPUT_ERROR, check.code());
            assertTrue(check.err().startsWith("<stdin>:9:"), check.err());
        } finally {
            System.setIn(old);
        }
    }

    @Test
    void anUnknownOptionSuggestsTheClosestOne() {
        Run r = CliRun.run(REDUCE, "--lauch", "x.json");
        assertEquals(ExitCode.USAGE, r.code());
        assertTrue(r.err().contains("Did you mean '--launch'?"), r.err());
        Run c = CliRun.run("check", "--formt", "json", REDUCE);
        assertEquals(ExitCode.USAGE, c.code());
        assertTrue(c.err().contains("Did you mean '--format'?"), c.err());
        assertTrue(c.err().contains("Try 'ptxrun check --help'"), c.err());
        Run far = CliRun.run(REDUCE, "--zzzzzzzzzzzz");
        assertFalse(far.err().contains("Did you mean"), far.err());
    }

    @Test
    void aMissingLaunchFileIsAUsageError() {
        Run r = CliRun.run(REDUCE, "--launch", dir.resolve("missing.json").toString());
        assertEquals(ExitCode.USAGE, r.code());
        assertTrue(r.err().contains("missing.json: no such file"), r.err());
    }

    @Test
    void werrorMakesJsonInvalidAndSarifCarriesTheVersion() throws Exception {
        String warned = "testdata/check/mbarrier-init-count-undefined.ptx";
        JsonNode plain = new ObjectMapper().readTree(CliRun.run("check", "--format", "json", warned).out());
        assertTrue(plain.get("files").get(0).get("valid").asBoolean());
        Run strict = CliRun.run("check", "--format", "json", "--Werror", warned);
        assertEquals(ExitCode.INPUT_ERROR, strict.code());
        assertFalse(new ObjectMapper().readTree(strict.out()).get("files").get(0).get("valid").asBoolean());

        Matcher m = Pattern.compile("<artifactId>ptxrun</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(TestData.read(Path.of("pom.xml")));
        assertTrue(m.find());
        JsonNode sarif = new ObjectMapper().readTree(CliRun.run("check", "--format", "sarif", warned).out());
        assertEquals(m.group(1), sarif.get("runs").get(0).get("tool").get("driver").get("version").asText());
        assertTrue(CliRun.run("--version").out().contains("ptxrun " + m.group(1)));
    }

    @Test
    void aTraceHasATrackPerWarpAndAnEventPerTurn() throws Exception {
        Path trace = dir.resolve("trace.json");
        Run r = CliRun.run(HANG + "kernel.ptx", "--launch", HANG + "launch.json", "--trace", trace.toString(), "--json");
        assertEquals(ExitCode.RUN_FAILED, r.code(), r.err());
        long instructions = new ObjectMapper().readTree(r.out()).get("stats").get("instructions").asLong();
        JsonNode events = new ObjectMapper().readTree(trace.toFile()).get("traceEvents");
        java.util.Set<String> tracks = new java.util.TreeSet<>();
        long busy = 0;
        for (JsonNode e : events) {
            if (e.get("ph").asText().equals("M") && e.get("name").asText().equals("thread_name")) {
                tracks.add(e.get("args").get("name").asText());
            } else if (e.get("ph").asText().equals("X")) {
                busy += e.get("dur").asLong();
                assertTrue(e.get("args").get("cuda").asText().contains("kernel.cu:")
                        || e.get("args").get("cuda").asText().contains(".h:"), e::toString);
            }
        }
        assertEquals(java.util.Set.of("warp 0", "warp 1"), tracks);
        // every executed thread-instruction belongs to one turn (a turn of no step is not drawn)
        assertEquals(instructions, busy);
        Run bad = CliRun.run(REDUCE, "--launch", "testdata/run/nvcc-reduce-shared/launch.json",
                "--trace", dir.resolve("no/such/dir/t.json").toString());
        assertEquals(ExitCode.USAGE, bad.code());
    }

    @Test
    void withoutATerminalNothingButTheResultIsPrinted() {
        Run r = CliRun.run(REDUCE, "--launch", "testdata/run/nvcc-reduce-shared/launch.json", "--json");
        assertEquals("", r.err());
    }
}
