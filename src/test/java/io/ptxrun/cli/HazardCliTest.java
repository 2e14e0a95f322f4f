package io.ptxrun.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** The hazard detector on the command line: exit code, the switch that turns it off, warnings only. */
class HazardCliTest {
    private static final String CASE = "testdata/hazards/smem-reduce-missing-sync/";

    @Test
    void aRaceFailsTheRunWithItsOwnExitCodeAndNamesBothSites() {
        CliRun.Run r = CliRun.run(CASE + "bug.ptx", "--launch", CASE + "launch.json");
        assertEquals(ExitCode.HAZARDS, r.code(), r.err());
        assertTrue(r.err().contains("error: data race on shared memory"), r.err());
        // the other site, with its CUDA line (-lineinfo), and this one's CUDA line as a note
        assertTrue(r.err().matches("(?s).*bug\\.ptx:\\d+:\\d+ \\[[^]]*bug\\.cu:9:\\d+\\] by thread tid .*"), r.err());
        assertTrue(r.err().contains("bug.cu:6:5: note: CUDA source"), r.err());
        assertTrue(r.err().contains("hazard"), r.err());
    }

    @Test
    void theResultJsonListsHazardsWithTheirRules() throws Exception {
        CliRun.Run r = CliRun.run(CASE + "bug.ptx", "--launch", CASE + "launch.json", "--json");
        assertEquals(ExitCode.HAZARDS, r.code());
        JsonNode result = new ObjectMapper().readTree(r.out());
        assertEquals("ok", result.get("status").asText());
        assertTrue(result.get("stats").get("hazards").asInt() > 0);
        assertEquals("race.shared", result.get("diagnostics").get(0).get("rule").asText());
    }

    @Test
    void warnOnlyReportsWithoutFailing() {
        CliRun.Run r = CliRun.run(CASE + "bug.ptx", "--launch", CASE + "launch.json", "--warn-only");
        assertEquals(ExitCode.OK, r.code(), r.err());
        assertTrue(r.err().contains("warning: data race on shared memory"), r.err());
    }

    @Test
    void theDetectorCanBeTurnedOff() {
        CliRun.Run r = CliRun.run(CASE + "bug.ptx", "--launch", CASE + "launch.json", "--no-hazards");
        assertEquals(ExitCode.OK, r.code(), r.err());
        assertFalse(r.err().contains("race"), r.err());
    }

    @Test
    void theFixedTwinRunsClean() {
        CliRun.Run r = CliRun.run(CASE + "fixed.ptx", "--launch", CASE + "launch.json");
        assertEquals(ExitCode.OK, r.code(), r.err());
    }

    @Test
    void theShadowOfGlobalMemoryStaysWithinTheMemoryBudgetAndSaysSo() {
        CliRun.Run r = CliRun.run("testdata/run/nvcc-reduce-shared/kernel.ptx", "--launch",
                "testdata/run/nvcc-reduce-shared/launch.json", "--max-memory", "70K");
        assertEquals(ExitCode.OK, r.code(), r.err());
        assertTrue(r.err().contains("warning: the hazard detector's record of global memory reached the memory"
                + " budget"), r.err());
    }
}
