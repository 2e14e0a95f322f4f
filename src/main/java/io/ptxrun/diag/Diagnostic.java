package io.ptxrun.diag;

import io.ptxrun.ast.SourcePos;

/**
 * One problem found in an input, at one source position. rule is a stable identifier
 * (`syntax`, `isa.target`, `exec.deadlock`, ...) that tools can filter on.
 */
public record Diagnostic(Severity severity, SourcePos pos, String message, String rule) {

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
