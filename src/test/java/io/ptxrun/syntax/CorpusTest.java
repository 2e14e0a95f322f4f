package io.ptxrun.syntax;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ptxrun.TestData;
import io.ptxrun.ast.AstDump;
import io.ptxrun.ast.Block;
import io.ptxrun.ast.Module;
import io.ptxrun.ast.PtxPrinter;
import io.ptxrun.check.DeclarationChecker;
import io.ptxrun.diag.Diagnostics;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Real compiler output (testdata/nvcc, accepted by ptxas: ptxas-verdicts.tsv) and the ISA's code
 * examples (testdata/spec-examples) must parse; nvcc output must also pass the declaration
 * checks; and printing any of them then parsing again gives the same AST.
 */
class CorpusTest {

    static Stream<Path> nvccFiles() {
        return TestData.files("nvcc", ".ptx").stream();
    }

    static Stream<Path> specStatementFiles() {
        return TestData.files("spec-examples", ".stmts.ptx").stream();
    }

    @Test
    void corpusIsPresent() {
        assertTrue(nvccFiles().count() >= 20, "testdata/nvcc holds the compiler corpus");
        assertTrue(specStatementFiles().count() >= 100, "testdata/spec-examples holds the ISA examples");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nvccFiles")
    void nvccOutputParsesChecksAndRoundTrips(Path file) {
        PtxParser.Parsed<Module> parsed = PtxParser.parseModule(file.toString(), TestData.read(file));
        assertTrue(parsed.ok(), () -> render(parsed.diagnostics()));
        Diagnostics checks = new Diagnostics();
        new DeclarationChecker(checks).check(parsed.value());
        assertFalse(checks.hasErrors(), () -> render(checks.list()));

        String printed = PtxPrinter.print(parsed.value());
        PtxParser.Parsed<Module> again = PtxParser.parseModule(file + " (printed)", printed);
        assertTrue(again.ok(), () -> render(again.diagnostics()));
        assertEquals(AstDump.dump(parsed.value()), AstDump.dump(again.value()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("specStatementFiles")
    void specExampleStatementsParseAndRoundTrip(Path file) {
        PtxParser.Parsed<Block> parsed = PtxParser.parseStatements(file.toString(), TestData.read(file));
        assertTrue(parsed.ok(), () -> render(parsed.diagnostics()));
        assertFalse(parsed.value().statements().isEmpty(), "an example has at least one statement");
        String printed = PtxPrinter.print(parsed.value());
        PtxParser.Parsed<Block> again = PtxParser.parseStatements(file + " (printed)", printed);
        assertTrue(again.ok(), () -> render(again.diagnostics()) + "\n" + printed);
        assertEquals(AstDump.dump(parsed.value()), AstDump.dump(again.value()));
    }

    /** The large module is parsed in pieces on several cores; the AST must be the same. */
    @Test
    void parsingInPiecesGivesTheSameAst() {
        Path file = Path.of("testdata/nvcc/large/radix_sort_many.sm_90.ptx");
        String text = TestData.read(file);
        PtxParser.Parsed<Module> whole = PtxParser.parseModuleInOnePiece(file.toString(), text);
        PtxParser.Parsed<Module> pieces = PtxParser.parseInPieces(file.toString(), text, 4);
        assertTrue(pieces != null, "the large module is parsed in pieces");
        assertTrue(whole.ok() && pieces.ok());
        assertEquals(AstDump.dump(whole.value()), AstDump.dump(pieces.value()));
    }

    /** A syntax error in a late piece is reported as the single-piece parse reports it. */
    @Test
    void syntaxErrorInALatePieceIsReportedPrecisely() {
        Path file = Path.of("testdata/nvcc/large/radix_sort_many.sm_90.ptx");
        String[] lines = TestData.read(file).split("\n", -1);
        int target = lines.length - 200;
        while (!lines[target].strip().startsWith("add.")) {
            target++;
        }
        lines[target] = lines[target].replace(";", " ,;");
        String damaged = String.join("\n", lines);
        assertEquals(null, PtxParser.parseInPieces(file.toString(), damaged, 4));
        PtxParser.Parsed<Module> parsed = PtxParser.parseModule(file.toString(), damaged);
        assertEquals(render(PtxParser.parseModuleInOnePiece(file.toString(), damaged).diagnostics()),
                render(parsed.diagnostics()));
        int line = target + 1;
        assertTrue(parsed.diagnostics().stream().anyMatch(d -> d.isError() && d.pos().line() == line),
                () -> render(parsed.diagnostics()));
    }

    static String render(List<io.ptxrun.diag.Diagnostic> ds) {
        return ds.stream().map(Object::toString).limit(20).collect(Collectors.joining("\n"));
    }
}
