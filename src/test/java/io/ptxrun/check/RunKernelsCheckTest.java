package io.ptxrun.check;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ptxrun.TestData;
import io.ptxrun.diag.Diagnostic;
import io.ptxrun.diag.SourceText;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The hand-written run and bug kernels use much of the ISA, with ptxas's verdict on each recorded
 * in testdata/run/ptxas-verdicts.tsv (testdata/run/ptxas-verdicts.sh): `check` must agree.
 */
class RunKernelsCheckTest {
    private static final Map<String, String> VERDICTS = verdicts();

    private static Map<String, String> verdicts() {
        Map<String, String> m = new TreeMap<>();
        for (String line : TestData.read(TestData.ROOT.resolve("run/ptxas-verdicts.tsv")).split("\n")) {
            if (!line.isBlank() && !line.startsWith("#")) {
                String[] f = line.split("\t");
                m.put(f[0], f[2]);
            }
        }
        return m;
    }

    static Stream<String> kernels() {
        return VERDICTS.keySet().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kernels")
    void checkAgreesWithPtxas(String kernel) {
        Path file = TestData.ROOT.resolve(kernel);
        List<Diagnostic> errors = Checker.check(new SourceText(file.toString(), TestData.read(file))).stream()
                .filter(Diagnostic::isError).toList();
        assertEquals(VERDICTS.get(kernel), errors.isEmpty() ? "accept" : "reject",
                () -> errors.stream().map(Diagnostic::toString).collect(Collectors.joining("\n")));
    }

    @Test
    void everyKernelHasAVerdict() {
        Path root = TestData.ROOT;
        List<String> kernels = Stream.of("run", "bugs", "spin").flatMap(d -> TestData.files(d, "kernel.ptx").stream())
                .map(p -> root.relativize(p).toString()).sorted().toList();
        assertEquals(kernels, List.copyOf(VERDICTS.keySet()), "run testdata/run/ptxas-verdicts.sh");
    }
}
