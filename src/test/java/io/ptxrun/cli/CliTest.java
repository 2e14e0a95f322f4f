package io.ptxrun.cli;

import static io.ptxrun.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import io.ptxrun.cli.CliRun.Run;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line: exit codes, diagnostics format, JSON output. */
class CliTest {
    @TempDir
    Path dir;

    private Path write(String name, String text) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    @Test
    void validFileExitsZero() {
        Run r = run("check", "testdata/nvcc/atomics.sm_90.ptx");
        assertEquals(ExitCode.OK, r.code(), r.err());
        assertEquals("", r.err());
    }

    @Test
    void everyErrorOfAFileIsReportedWithCaret() throws Exception {
        Path f = write("bad.ptx", ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
                + "\t.reg .b32 %r<2>;\n\tmov.u32 %r1, %r7;\n\tadd.u32 %r1, %r1, %q;\n\tbra MISSING;\n\tret;\n}\n");
        Run r = run("check", f.toString());
        assertEquals(ExitCode.INPUT_ERROR, r.code());
        assertTrue(r.err().contains(f + ":7:15: error: '%r7' is not declared"), r.err());
        assertTrue(r.err().contains(f + ":8:20: error: '%q' is not declared"), r.err());
        assertTrue(r.err().contains(f + ":9:6: error: 'MISSING' is not declared"), r.err());
        assertTrue(r.err().contains("\tmov.u32 %r1, %r7;\n\t             ^\n"), r.err());
    }

    @Test
    void jsonFormatGivesOneDocumentWithValidPerFile() throws Exception {
        Path bad = write("bad.ptx", ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(\n");
        Run r = run("check", "--format", "json", "testdata/nvcc/atomics.sm_90.ptx", bad.toString());
        assertEquals(ExitCode.INPUT_ERROR, r.code());
        JsonNode root = new ObjectMapper().readTree(r.out());
        assertEquals(2, root.get("files").size());
        assertTrue(root.get("files").get(0).get("valid").asBoolean());
        JsonNode second = root.get("files").get(1);
        assertEquals(false, second.get("valid").asBoolean());
        JsonNode d = second.get("diagnostics").get(0);
        assertEquals("error", d.get("severity").asText());
        assertEquals(5, d.get("line").asInt());
        assertEquals("syntax", d.get("rule").asText());
    }

    @Test
    void missingFileIsAUsageError() {
        Run r = run("check", "no/such/file.ptx");
        assertEquals(ExitCode.USAGE, r.code());
        assertTrue(r.err().contains("no/such/file.ptx: no such file"), r.err());
    }

    @Test
    void unknownOptionIsAUsageError() {
        Run r = run("check", "--bogus", "x.ptx");
        assertEquals(ExitCode.USAGE, r.code());
        assertTrue(r.err().contains("Unknown option: '--bogus'"), r.err());
    }

    @Test
    void versionAndHelp() {
        assertTrue(run("--version").out().startsWith("ptxrun "));
        Run help = run("--help");
        assertEquals(0, help.code());
        assertTrue(help.out().contains("check"));
    }
}
