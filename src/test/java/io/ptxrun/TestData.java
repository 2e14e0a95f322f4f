package io.ptxrun;

import java.io.IOException;
import java.io.UncheckedIOException;
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

    public static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
