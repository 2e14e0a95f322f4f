package io.ptxrun.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ptxrun.cli.CliRun.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `ptxrun FILE ...`: every kind of bad launch ends with one clear message and its exit code, and
 * `--json` prints exactly the result document.
 */
class CliRunTest {
    private static final String REDUCE = "testdata/run/nvcc-reduce-shared/kernel.ptx";
    private static final String REDUCE_LAUNCH = "testdata/run/nvcc-reduce-shared/launch.json";

    @TempDir
    Path dir;

    private Path launch(String json) throws Exception {
        Path p = dir.resolve("launch.json");
        Files.writeString(p, json);
        return p;
    }

    private static void assertNoStackTrace(Run r) {
        assertTrue(!r.err().contains("\tat ") && !r.err().contains("Exception"), r.err());
    }

    @Test
    void jsonOutputIsExactlyTheResultDocument() throws Exception {
        Run r = CliRun.run(REDUCE, "--launch", REDUCE_LAUNCH, "--json");
        assertEquals(ExitCode.OK, r.code(), r.err());
        JsonNode result = new ObjectMapper().readTree(r.out());
        assertEquals("ok", result.get("status").asText());
        assertEquals("reduce_sum_shared", result.get("kernel").asText());
        JsonNode expected = new ObjectMapper().readTree(Path.of("testdata/run/nvcc-reduce-shared/expected.json").toFile());
        assertEquals(expected.get("buffers"), result.get("buffers"));
        assertTrue(result.get("stats").get("instructions").asLong() > 0);
    }

    @Test
    void flagsDescribeALaunchLikeALaunchFile() {
        Run r = CliRun.run(REDUCE, "--kernel", "reduce_sum_shared", "--grid", "4", "--block", "256",
                "--arg", "in=s32[4096]:random:101", "--arg", "out=s32[4]:-1", "--arg", "s32:3000", "--dump", "out",
                "--json");
        assertEquals(ExitCode.OK, r.code(), r.err());
        assertTrue(r.out().contains("[-1617362887,-1241344844,-127334264,-708472421]"), r.out());
    }

    @Test
    void unknownKernelIsAnInputError() {
        Run r = CliRun.run(REDUCE, "--launch", REDUCE_LAUNCH, "--kernel", "nope");
        assertEquals(ExitCode.INPUT_ERROR, r.code());
        assertTrue(r.err().contains("kernel 'nope' is not an .entry of the module"), r.err());
        assertNoStackTrace(r);
    }

    @Test
    void wrongParameterCountIsAnInputError() throws Exception {
        Path l = launch("{\"kernel\": \"reduce_sum_shared\", \"grid\": [1], \"block\": [32],"
                + " \"buffers\": {\"in\": {\"type\": \"s32\", \"count\": 4}}, \"params\": [\"in\"]}");
        Run r = CliRun.run(REDUCE, "--launch", l.toString());
        assertEquals(ExitCode.INPUT_ERROR, r.code());
        assertTrue(r.err().contains("takes 3 parameters but the launch passes 1"), r.err());
    }

    @Test
    void wrongParameterTypeIsAnInputError() throws Exception {
        Path l = launch("{\"kernel\": \"reduce_sum_shared\", \"grid\": [1], \"block\": [32],"
                + " \"buffers\": {\"in\": {\"type\": \"s32\", \"count\": 4}, \"out\": {\"type\": \"s32\", \"count\": 4}},"
                + " \"params\": [\"in\", \"out\", {\"u64\": 3}]}");
        Run r = CliRun.run(REDUCE, "--launch", l.toString());
        assertEquals(ExitCode.INPUT_ERROR, r.code());
        assertTrue(r.err().contains("params[2]") && r.err().contains("is 4 bytes"), r.err());
    }

    @Test
    void missingBufferIsAnInputError() throws Exception {
        Path l = launch("{\"grid\": [1], \"block\": [32], \"buffers\": {}, \"params\": [\"in\"]}");
        Run r = CliRun.run(REDUCE, "--launch", l.toString());
        assertEquals(ExitCode.INPUT_ERROR, r.code());
        assertTrue(r.err().contains("params[0]: buffer 'in' is not declared in buffers"), r.err());
        assertNoStackTrace(r);
    }

    @Test
    void tooLargeABlockIsAnInputError() throws Exception {
        Path l = launch("{\"grid\": [1], \"block\": [2048], \"params\": []}");
        Run r = CliRun.run(REDUCE, "--launch", l.toString());
        assertEquals(ExitCode.INPUT_ERROR, r.code());
        assertTrue(r.err().contains("block"), r.err());
    }

    @Test
    void malformedLaunchFileNamesLineAndColumn() throws Exception {
        Path l = launch("{\"grid\": [1],\n \"block\": [32,,]}");
        Run r = CliRun.run(REDUCE, "--launch", l.toString());
        assertEquals(ExitCode.INPUT_ERROR, r.code());
        assertTrue(r.err().contains("launch.json: 2:15: malformed JSON"), r.err());
        assertNoStackTrace(r);
    }

    @Test
    void outOfBoundsStoreStopsTheRunWithItsLineAndThread() {
        Run r = CliRun.run("testdata/bugs/core-oob-store/kernel.ptx", "--launch",
                "testdata/bugs/core-oob-store/launch.json");
        assertEquals(ExitCode.RUN_FAILED, r.code());
        assertTrue(r.out().contains(": error "), r.out());
        assertTrue(r.err().contains("core-oob-store/kernel.ptx:17:"), r.err());
        assertTrue(r.err().contains("tid (15,0,0)"), r.err());
    }

    @Test
    void runawayLoopEndsWithTimeout() {
        Run r = CliRun.run("testdata/bugs/core-infinite-loop/kernel.ptx", "--launch",
                "testdata/bugs/core-infinite-loop/launch.json", "--max-instructions", "100000", "--json");
        assertEquals(ExitCode.RUN_FAILED, r.code());
        assertTrue(r.out().contains("\"status\":\"timeout\""), r.out());
    }

    @Test
    void bothLaunchFileAndFlagsIsAUsageError() {
        Run r = CliRun.run(REDUCE, "--launch", REDUCE_LAUNCH, "--grid", "2");
        assertEquals(ExitCode.USAGE, r.code());
    }

    @Test
    void moduleWithSyntaxErrorsIsNotRun() throws Exception {
        Path ptx = dir.resolve("bad.ptx");
        Files.writeString(ptx, ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k() {\n ret\n}\n");
        Run r = CliRun.run(ptx.toString(), "--grid", "1", "--block", "32");
        assertEquals(ExitCode.INPUT_ERROR, r.code());
        assertTrue(r.err().contains("bad.ptx:6:1: error"), r.err());
    }
}
