package io.ptxrun;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** Locates golden files under testdata/ (tests run from the repository root). */
public final class TestData {
    public static final Path ROOT = Path.of("testdata");

    private TestData() {}

    /** Files under testdata/dir whose names end with suffix, sorted, recursively. */
    public static List<Path> files(String dir, String suffix) {
        Path base = ROOT.resolve(dir);
        if (!Files.isDirectory(base)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(base)) {
            return s.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The ptxas-labelled case files under testdata/dir, one JSON object a line: {@code
     * NAME.jsonl.gz} (how they are stored, the corpora being large and repetitive) or {@code
     * NAME.jsonl}, sorted.
     */
    public static List<Path> jsonlFiles(String dir) {
        return files(dir, "").stream().filter(p -> p.toString().endsWith(".jsonl")
                || p.toString().endsWith(".jsonl.gz")).toList();
    }

    /** A case file's family: its name without .jsonl(.gz). */
    public static String family(Path jsonl) {
        return jsonl.getFileName().toString().replaceFirst("\\.jsonl(\\.gz)?$", "");
    }

    /** The lines of a file, gunzipped when its name ends in .gz. */
    public static List<String> lines(Path p) {
        try {
            if (!p.toString().endsWith(".gz")) {
                return Files.readAllLines(p);
            }
            try (BufferedReader r = new BufferedReader(new InputStreamReader(
                    new java.util.zip.GZIPInputStream(Files.newInputStream(p)), StandardCharsets.UTF_8))) {
                return r.lines().toList();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
