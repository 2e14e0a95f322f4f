package io.ptxrun.diag;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The source files that notes point into (the CUDA files of {@code .file} directives), read on
 * first use so a diagnostic can show the line with a caret. A path is tried as written, then,
 * since nvcc writes the path of the machine that compiled the module, by its file name in the
 * directory of the PTX file. Unreadable files are left out silently: the note still names the line.
 */
public final class SourceFiles {
    /** Resolves nothing: notes are rendered without their source line. */
    public static final SourceFiles NONE = new SourceFiles(null);

    private final Path baseDir;
    private final Map<String, Optional<SourceText>> cache = new HashMap<>();

    private SourceFiles(Path baseDir) {
        this.baseDir = baseDir;
    }

    /** Files next to this PTX file (or the current directory, for standard input). */
    public static SourceFiles besides(Path ptxFile) {
        Path dir = ptxFile == null ? null : ptxFile.toAbsolutePath().getParent();
        return new SourceFiles(dir == null ? Path.of("") : dir);
    }

    public synchronized Optional<SourceText> get(String path) {
        if (baseDir == null) {
            return Optional.empty();
        }
        return cache.computeIfAbsent(path, this::read);
    }

    private Optional<SourceText> read(String path) {
        try {
            Path p = Path.of(path);
            Path[] candidates = {p.isAbsolute() ? p : baseDir.resolve(p), baseDir.resolve(p.getFileName().toString())};
            for (Path c : candidates) {
                if (Files.isRegularFile(c) && Files.size(c) < (64 << 20)) {
                    return Optional.of(new SourceText(path, Files.readString(c, StandardCharsets.UTF_8)));
                }
            }
        } catch (IOException | InvalidPathException | UnsupportedOperationException e) {
            // not readable here: the note names the line without showing it
        } catch (java.io.UncheckedIOException e) {
            // malformed text
        }
        return Optional.empty();
    }
}
