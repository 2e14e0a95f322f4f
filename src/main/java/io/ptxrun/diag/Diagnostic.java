package io.ptxrun.diag;

import io.ptxrun.ast.SourcePos;
import java.util.List;

/**
 * One problem found in an input, at one source position. rule is a stable identifier
 * (`syntax`, `isa.target`, `exec.deadlock`, ...) that tools can filter on. notes are related
 * places (the CUDA source line of a PTX instruction, the sites its code was inlined at, the other
 * access of a race), each with a short message; SARIF calls them related locations.
 */
public record Diagnostic(Severity severity, SourcePos pos, String message, String rule, List<Note> notes) {

    /** A related place: rendered after the diagnostic as `file:line:col: note: message`. */
    public record Note(SourcePos pos, String message) {}

    public Diagnostic {
        notes = List.copyOf(notes);
    }

    public Diagnostic(Severity severity, SourcePos pos, String message, String rule) {
        this(severity, pos, message, rule, List.of());
    }

    public Diagnostic withNotes(List<Note> notes) {
        return new Diagnostic(severity, pos, message, rule, notes);
    }

    public static Diagnostic error(SourcePos pos, String rule, String message) {
        return new Diagnostic(Severity.ERROR, pos, message, rule);
    }

    public static Diagnostic warning(SourcePos pos, String rule, String message) {
        return new Diagnostic(Severity.WARNING, pos, message, rule);
    }

    public boolean isError() {
        return severity == Severity.ERROR;
    }

    /** `file:line:col: error: message`, the form compiler drivers use. */
    @Override
    public String toString() {
        return pos + ": " + severity.label() + ": " + message;
    }
}
