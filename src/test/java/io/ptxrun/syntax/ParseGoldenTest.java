package io.ptxrun.syntax;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ptxrun.TestData;
import io.ptxrun.ast.AstDump;
import io.ptxrun.ast.Module;
import io.ptxrun.check.Checker;
import io.ptxrun.diag.Diagnostic;
import io.ptxrun.diag.SourceText;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden files in testdata/parse: `<case>.ptx` (accepted by ptxas) with its AST dump
 * `<case>.ast`, and testdata/parse/errors: `<case>.ptx` (rejected by ptxas, whose report is in
 * `<case>.ptxas`) with the diagnostics `ptxrun check` must give, `<case>.diagnostics`.
 */
class ParseGoldenTest {

    static Stream<Path> validCases() {
        return TestData.files("parse", ".ptx").stream().filter(p -> !p.getParent().endsWith("errors"));
    }

    static Stream<Path> errorCases() {
        return TestData.files("parse/errors", ".ptx").stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("validCases")
    void astMatchesGolden(Path file) {
        PtxParser.Parsed<Module> parsed = PtxParser.parseModule(file.getFileName().toString(), TestData.read(file));
        assertTrue(parsed.ok(), parsed.diagnostics()::toString);
        assertEquals(TestData.read(sibling(file, ".ast")).strip(), AstDump.dump(parsed.value()).strip());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("errorCases")
    void diagnosticsMatchGolden(Path file) {
        assertTrue(Files.exists(sibling(file, ".ptxas")), "ptxas's verdict is recorded beside the case");
        String ptxas = TestData.read(sibling(file, ".ptxas"));
        assertTrue(ptxas.contains("error") || ptxas.contains("fatal"), "ptxas rejects the case");
        String name = file.getFileName().toString();
        String actual = Checker.check(new SourceText(name, TestData.read(file))).stream()
                .map(Diagnostic::toString).collect(Collectors.joining("\n"));
        assertEquals(TestData.read(sibling(file, ".diagnostics")).strip(), actual.strip());
    }

    private static Path sibling(Path file, String extension) {
        String name = file.getFileName().toString();
        return file.resolveSibling(name.substring(0, name.length() - ".ptx".length()) + extension);
    }
}
