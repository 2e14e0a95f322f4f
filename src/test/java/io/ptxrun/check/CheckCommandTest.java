package io.ptxrun.check;

import static io.ptxrun.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ptxrun.cli.CliRun.Run;
import org.junit.jupiter.api.Test;

/** `ptxrun check --target` (ptxas --gpu-name rules) and `--format sarif`. */
class CheckCommandTest {
    @Test
    void targetLowerThanTheModulesIsRejectedLikePtxasGpuName() {
        Run ok = run("check", "--target", "sm_100", "testdata/nvcc/atomics.sm_90.ptx");
        assertEquals(0, ok.code(), ok.err());
        Run low = run("check", "--target", "sm_80", "testdata/nvcc/atomics.sm_90.ptx");
        assertEquals(1, low.code());
        assertTrue(low.err().contains("SM version specified by .target is higher"), low.err());
        Run unknown = run("check", "--target", "sm_99", "testdata/nvcc/atomics.sm_90.ptx");
        assertEquals(2, unknown.code());
    }

    @Test
    void sarifNamesRuleFileLineAndColumn() throws Exception {
        Run r = run("check", "--format", "sarif", "testdata/check/bar-number-out-of-range.ptx");
        assertEquals(1, r.code());
        JsonNode log = new ObjectMapper().readTree(r.out());
        assertEquals("2.1.0", log.get("version").asText());
        JsonNode result = log.get("runs").get(0).get("results").get(0);
        assertEquals("isa.immediate", result.get("ruleId").asText());
        assertEquals("error", result.get("level").asText());
        JsonNode loc = result.get("locations").get(0).get("physicalLocation");
        assertEquals("testdata/check/bar-number-out-of-range.ptx", loc.get("artifactLocation").get("uri").asText());
        assertEquals(15, loc.get("region").get("startLine").asInt());
        assertEquals(10, loc.get("region").get("startColumn").asInt());
        assertEquals("ptxrun", log.get("runs").get(0).get("tool").get("driver").get("name").asText());
    }

    @Test
    void warningsDoNotFailUnlessWerror() {
        String file = "testdata/check/mbarrier-init-count-undefined.ptx";
        Run plain = run("check", file);
        assertEquals(0, plain.code(), plain.err());
        assertTrue(plain.err().contains("warning: count 0 of mbarrier.init"), plain.err());
        assertEquals(1, run("check", "--Werror", file).code());
    }
}
