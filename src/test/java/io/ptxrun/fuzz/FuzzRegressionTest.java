package io.ptxrun.fuzz;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every finding of the fuzz targets, kept as its input files under
 * testdata/fuzz/regressions/TARGET/CASE/ (README.md there says what each one broke), must pass the
 * target's oracle: diagnostics or a result, no exception, no {@code ok} for a grid that did not run.
 */
class FuzzRegressionTest {
    private static final Path DIR = Path.of("testdata/fuzz/regressions");

    static Stream<Path> cases() throws IOException {
        try (Stream<Path> targets = Files.list(DIR)) {
            List<Path> out = new java.util.ArrayList<>();
            for (Path t : targets.filter(Files::isDirectory).sorted().toList()) {
                try (Stream<Path> cases = Files.list(t)) {
                    cases.filter(Files::isDirectory).sorted().forEach(out::add);
                }
            }
            return out.stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void findingStaysFixed(Path dir) throws IOException {
        String target = dir.getParent().getFileName().toString();
        assertTrue(Targets.NAMES.contains(target), "no fuzz target " + target);
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path f : s.sorted().toList()) {
                files.put(f.getFileName().toString(), Files.readString(f));
            }
        }
        assertDoesNotThrow(() -> Targets.check(target, files));
    }
}
