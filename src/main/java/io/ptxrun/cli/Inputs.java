package io.ptxrun.cli;

import io.ptxrun.diag.SourceText;
import java.io.FileInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reading input files; failures become usage errors with a plain message. */
final class Inputs {
    private Inputs() {}

    static final class InputException extends Exception {
        InputException(String message) {
            super(message, null, false, false);
        }
    }

    /** `-` names standard input, as in most command-line tools. */
    static boolean isStandardInput(Path path) {
        return path.toString().equals("-");
    }

    static SourceText read(Path path) throws InputException {
        try {
            if (isStandardInput(path)) {
                return new SourceText("<stdin>", new String(System.in.readAllBytes(), StandardCharsets.UTF_8));
            }
            if (Files.isDirectory(path)) {
                throw new InputException(path + ": is a directory");
            }
            // PTX is ASCII; undecodable bytes become U+FFFD and are reported by the lexer.
            return new SourceText(path.toString(), new String(readAllBytes(path), StandardCharsets.UTF_8));
        } catch (java.nio.file.NoSuchFileException e) {
            throw new InputException(path + ": no such file");
        } catch (IOException e) {
            throw new InputException(path + ": cannot read (" + e.getMessage() + ")");
        }
    }

    /**
     * A file's bytes through a java.io stream: a file channel (Files.readAllBytes) first loads the
     * JVM's network and NIO libraries, a millisecond of a short check. A file that cannot be
     * opened is opened again through Files, whose exceptions name the problem as the messages
     * above expect.
     */
    private static byte[] readAllBytes(Path path) throws IOException {
        InputStream in;
        try {
            in = new FileInputStream(path.toFile());
        } catch (FileNotFoundException e) {
            return Files.readAllBytes(path);
        }
        try (in) {
            return in.readAllBytes();
        }
    }
}
