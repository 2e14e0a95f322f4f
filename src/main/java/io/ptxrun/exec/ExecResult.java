package io.ptxrun.exec;

import io.ptxrun.diag.Diagnostic;

import java.util.List;

/** The outcome of one kernel launch: status, what went wrong where, and thread-instructions run. */
public record ExecResult(ExecStatus status, List<Diagnostic> diagnostics, long instructionsExecuted) {
    public ExecResult {
        diagnostics = List.copyOf(diagnostics);
    }
}
