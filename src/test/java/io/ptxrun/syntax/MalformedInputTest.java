package io.ptxrun.syntax;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.ptxrun.TestData;
import io.ptxrun.ast.Module;
import io.ptxrun.diag.Diagnostic;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input never crashes and never hangs: it gives diagnostics with positions. The time limits
 * here are hang guards, not performance measurements.
 */
class MalformedInputTest {
    private static final String KERNEL = TestData.read(Path.of("testdata/nvcc/atomics.sm_90.ptx"));

    static Stream<Path> nvccFiles() {
        return TestData.files("nvcc", ".sm_90.ptx").stream().limit(6);
    }

    /** A file cut in the middle of its code is an error at the cut. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("nvccFiles")
    void truncatedFilesGiveDiagnostics(Path file) {
        String text = TestData.read(file);
        int brace = text.indexOf('{');
        String cut = text.substring(0, brace + (text.length() - brace) / 2);
        PtxParser.Parsed<Module> parsed = PtxParser.parseModule("cut.ptx", cut);
        assertFalse(parsed.ok());
        Diagnostic last = parsed.diagnostics().get(parsed.diagnostics().size() - 1);
        int lastLine = (int) cut.chars().filter(c -> c == '\n').count() + 1;
        assertTrue(last.pos().line() == lastLine, "reported at the cut, line " + lastLine + ": " + last);
    }

    @Test
    void unbalancedBracesAreReported() {
        PtxParser.Parsed<Module> parsed = PtxParser.parseModule("b.ptx",
                ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n  { ret;\n}\n");
        assertFalse(parsed.ok());
        assertTrue(parsed.diagnostics().get(0).message().contains("end of file"));
    }

    @Test
    void strayBytesAreReportedWithTheirPosition() {
        PtxParser.Parsed<Module> parsed = PtxParser.parseModule("s.ptx",
                ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\tret; \u0001\u00ff\n}\n");
        assertFalse(parsed.ok());
        Diagnostic d = parsed.diagnostics().get(0);
        assertTrue(d.pos().line() == 6 && d.pos().column() == 7, d.toString());
        assertTrue(d.message().contains("\\x01"), d.toString());
    }

    @Test
    void unknownInstructionIsNamed() {
        PtxParser.Parsed<Module> parsed = PtxParser.parseModule("u.ptx",
                ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\tfrobnicate.u32 %r1;\n}\n");
        assertFalse(parsed.ok());
        assertTrue(parsed.diagnostics().get(0).message().contains("unknown instruction 'frobnicate'"));
    }

    private static String kernelWith(String body) {
        return ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 %r<2>;\n" + body
                + "\nret;\n}\n";
    }

    /** Nesting up to the limit parses; deeper nesting is one diagnostic, not a stack overflow or a hang. */
    @Test
    void nestingIsBoundedWithADiagnosticAtTheFirstTooDeepToken() {
        int n = PtxParser.MAX_NESTING - 1; // the body's own braces are one level
        assertTrue(PtxParser.parseModule("ok.ptx", kernelWith("{".repeat(n) + "}".repeat(n))).ok());
        assertTrue(PtxParser.parseModule("ok.ptx", kernelWith("mov.u32 %r1, " + "(".repeat(n) + "1"
                + ")".repeat(n) + ";")).ok());
        for (String body : new String[] {"{".repeat(300_000) + "}".repeat(300_000),
                "mov.u32 %r1, " + "(".repeat(200_000) + "1" + ")".repeat(200_000) + ";",
                "mov.u32 %r1, " + "-".repeat(300_000) + "1;"}) {
            PtxParser.Parsed<Module> parsed = assertTimeoutPreemptively(Duration.ofSeconds(30),
                    () -> PtxParser.parseModule("deep.ptx", kernelWith(body)));
            assertFalse(parsed.ok());
            Diagnostic d = parsed.diagnostics().get(0);
            assertTrue(d.pos().line() == 7 && d.message().contains("more than " + PtxParser.MAX_NESTING), d.toString());
        }
    }

    @Test
    void tenMegabytesOfGarbageEndQuicklyWithABoundedReport() {
        byte[] bytes = new byte[10 << 20];
        new Random(42).nextBytes(bytes);
        String garbage = new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1);
        PtxParser.Parsed<Module> parsed = assertTimeoutPreemptively(Duration.ofSeconds(60),
                () -> PtxParser.parseModule("garbage.ptx", garbage));
        assertFalse(parsed.ok());
        assertTrue(parsed.diagnostics().size() <= 101);
    }

    /** Random damage to a real kernel (a byte replaced, deleted or duplicated) never throws. */
    @Property(tries = 200)
    void damagedKernelsNeverThrow(@ForAll @IntRange(min = 0, max = 1 << 20) int where,
                                  @ForAll @IntRange(min = 0, max = 255) int what,
                                  @ForAll @IntRange(min = 0, max = 2) int how) {
        int at = where % KERNEL.length();
        String damaged = switch (how) {
            case 0 -> KERNEL.substring(0, at) + (char) what + KERNEL.substring(at + 1);
            case 1 -> KERNEL.substring(0, at) + KERNEL.substring(at + 1);
            default -> KERNEL.substring(0, at) + KERNEL.charAt(at) + KERNEL.substring(at);
        };
        PtxParser.Parsed<Module> parsed = PtxParser.parseModule("d.ptx", damaged);
        assertTrue(parsed.ok() || !parsed.diagnostics().isEmpty());
    }
}
