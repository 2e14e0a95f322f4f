package io.ptxrun.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ptxrun.TestData;
import io.ptxrun.diag.Diagnostic;
import io.ptxrun.diag.SourceText;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hand-picked modules under testdata/check: `<case>.ptx`, the diagnostics ptxrun gives for it
 * (`<case>.diagnostics`, one `line:column: severity: rule: message` per line) and what ptxas said
 * (`<case>.ptxas`: `accept` or `reject`, then its messages). The verdicts must agree; the
 * diagnostics must match exactly. `-Dptxrun.updateGolden=true` rewrites the .diagnostics files.
 */
class GoldenDiagnosticsTest {
    static Stream<Path> cases() {
        return TestData.files("check", ".ptx").stream();
    }

    static String render(List<Diagnostic> diagnostics) {
        return diagnostics.stream()
                .map(d -> d.pos().line() + ":" + d.pos().column() + ": " + d.severity().label() + ": " + d.rule()
                        + ": " + d.message())
                .collect(Collectors.joining("\n", "", diagnostics.isEmpty() ? "" : "\n"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void diagnosticsMatchTheGoldenFileAndPtxasVerdict(Path ptx) throws IOException {
        String base = ptx.toString().substring(0, ptx.toString().length() - ".ptx".length());
        List<Diagnostic> diagnostics = Checker.check(new SourceText(ptx.getFileName().toString(), TestData.read(ptx)));
        String actual = render(diagnostics);
        Path golden = Path.of(base + ".diagnostics");
        if (Boolean.getBoolean("ptxrun.updateGolden")) {
            Files.writeString(golden, actual);
        }
        assertTrue(Files.exists(golden), () -> "missing " + golden + "; run with -Dptxrun.updateGolden=true");
        assertEquals(TestData.read(golden), actual);

        String ptxasVerdict = TestData.read(Path.of(base + ".ptxas")).lines().findFirst().orElse("");
        boolean ptxrunAccepts = diagnostics.stream().noneMatch(Diagnostic::isError);
        assertEquals(ptxasVerdict, ptxrunAccepts ? "accept" : "reject", "verdict differs from ptxas");
    }
}
