package io.ptxrun.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ptxrun.TestData;
import io.ptxrun.diag.Diagnostic;
import io.ptxrun.diag.SourceText;
import io.ptxrun.isa.Target;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Real-world PTX (testdata/wild: nvcc output of CUTLASS, ThunderKittens, DeepGEMM, CCCL, cuda-samples
 * and llm.c sources, and PTX committed in other projects), each with ptxas's verdict for the GPU
 * recorded in manifest.tsv (testdata/wild/build.py). `check --target GPU` must give the same
 * verdict, except for the files listed with their reason in testdata/wild/disagreements.tsv, which
 * must still disagree as listed (a row with ptxas's own verdict lists a module whose error ptxrun
 * finds elsewhere); where both reject, ptxrun reports an error on the line ptxas names.
 */
class WildCorpusTest {
    private static final Path WILD = TestData.ROOT.resolve("wild");

    /** One manifest row: the file, the GPU it was assembled for, ptxas's verdict and first message. */
    record Entry(String file, String project, String gpu, String ptxas, String ptxasMessage) {
        @Override
        public String toString() {
            return file;
        }
    }

    private static final Map<String, Entry> MANIFEST = manifest();
    private static final Map<String, String> DISAGREEMENTS = disagreements();

    private static Map<String, Entry> manifest() {
        Map<String, Entry> m = new LinkedHashMap<>();
        List<String> lines = TestData.read(WILD.resolve("manifest.tsv")).lines().toList();
        List<String> header = List.of(lines.get(0).split("\t"));
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split("\t", -1);
            m.put(f[0], new Entry(f[0], f[header.indexOf("project")], f[header.indexOf("gpu")],
                    f[header.indexOf("ptxas")], f[header.indexOf("ptxas_message")]));
        }
        return m;
    }

    /** file -> the verdict ptxrun gives instead of ptxas's. */
    private static Map<String, String> disagreements() {
        Map<String, String> m = new LinkedHashMap<>();
        for (String line : TestData.read(WILD.resolve("disagreements.tsv")).lines().skip(1).toList()) {
            String[] f = line.split("\t");
            m.put(f[0], f[2]);
        }
        return m;
    }

    static Stream<Entry> files() {
        return MANIFEST.values().stream();
    }

    static String text(Path file) {
        try (InputStream in = file.toString().endsWith(".gz")
                ? new GZIPInputStream(Files.newInputStream(file)) : Files.newInputStream(file)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static final Pattern PTXAS_LINE = Pattern.compile(", line (\\d+); (error|fatal)");

    @ParameterizedTest(name = "{0}")
    @MethodSource("files")
    void checkGivesPtxasVerdict(Entry entry) {
        Path file = WILD.resolve(entry.file());
        List<Diagnostic> errors = Checker.check(new SourceText(file.toString(), text(file)),
                Optional.of(Target.of(entry.gpu()))).stream().filter(Diagnostic::isError).toList();
        String verdict = errors.isEmpty() ? "accept" : "reject";
        String expected = DISAGREEMENTS.getOrDefault(entry.file(), entry.ptxas());
        assertEquals(expected, verdict, () -> "ptxas: " + entry.ptxas() + " " + entry.ptxasMessage()
                + (DISAGREEMENTS.containsKey(entry.file()) ? " (listed in disagreements.tsv as " + expected + ")" : "")
                + "\nptxrun:\n" + errors.stream().map(Diagnostic::toString).collect(Collectors.joining("\n")));
        // Where both reject, ptxrun reports the construct ptxas names: an error on ptxas's line, or
        // on the line before it (ptxas reports some errors at the token that follows). Syntax errors
        // stop ptxrun before its other checks, so with one the later lines are not compared.
        Matcher line = PTXAS_LINE.matcher(entry.ptxasMessage());
        boolean syntax = errors.stream().anyMatch(d -> d.rule().startsWith("syntax"));
        if (verdict.equals("reject") && entry.ptxas().equals("reject") && line.find() && !syntax
                && !DISAGREEMENTS.containsKey(entry.file())) {
            int ptxasLine = Integer.parseInt(line.group(1));
            assertTrue(errors.stream().anyMatch(d -> d.pos().line() == ptxasLine || d.pos().line() == ptxasLine - 1),
                    () -> "ptxas: " + entry.ptxasMessage() + "\nptxrun:\n"
                            + errors.stream().map(Diagnostic::toString).collect(Collectors.joining("\n")));
        }
    }

    @Test
    void everyListedDisagreementIsACorpusFile() {
        for (String file : DISAGREEMENTS.keySet()) {
            assertTrue(MANIFEST.containsKey(file), file);
        }
    }

    @Test
    void everyStoredFileIsInTheManifest() throws IOException {
        try (Stream<Path> s = Files.walk(WILD)) {
            List<String> stored = s.filter(p -> p.toString().endsWith(".ptx") || p.toString().endsWith(".ptx.gz"))
                    .map(p -> WILD.relativize(p).toString()).sorted().toList();
            assertEquals(stored, MANIFEST.keySet().stream().sorted().toList());
        }
    }

    @Test
    void agreementIsAtLeast99Percent() {
        long projects = MANIFEST.values().stream().map(Entry::project).distinct().count();
        assertTrue(projects >= 8, "projects: " + projects);
        long verdicts = MANIFEST.values().stream()
                .filter(e -> !DISAGREEMENTS.getOrDefault(e.file(), e.ptxas()).equals(e.ptxas())).count();
        assertTrue(verdicts * 100 <= MANIFEST.size(), verdicts + " disagreements of " + MANIFEST.size());
    }
}
