package io.ptxrun.check;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ptxrun.TestData;
import io.ptxrun.diag.Diagnostic;
import io.ptxrun.diag.SourceText;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** ptxas accepts every file of testdata/nvcc (ptxas-verdicts.tsv), so the full check must too. */
class NvccCorpusCheckTest {
    static Stream<Path> nvccFiles() {
        return TestData.files("nvcc", ".ptx").stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nvccFiles")
    void compilerOutputPassesEveryCheck(Path file) {
        List<Diagnostic> errors = Checker.check(new SourceText(file.toString(), TestData.read(file))).stream()
                .filter(Diagnostic::isError).toList();
        assertTrue(errors.isEmpty(), () -> errors.stream().map(Diagnostic::toString).collect(Collectors.joining("\n")));
    }
}
