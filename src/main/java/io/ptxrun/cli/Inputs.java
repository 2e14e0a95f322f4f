package io.ptxrun.cli;

import io.ptxrun.diag.SourceText;
import java.io.IOException;
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
            return new SourceText(path.toString(), new String(Files.readAllBytes(path), StandardCharsets.UTF_8));
        } catch (java.nio.file.NoSuchFileException e) {
            throw new InputException(path + ": no such file");
        } catch (IOException e) {
            throw new InputException(path + ": cannot read (" + e.getMessage() + ")");
        }
    }
}
