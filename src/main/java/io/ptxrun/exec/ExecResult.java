package io.ptxrun.exec;

import io.ptxrun.diag.Diagnostic;
import io.ptxrun.launch.DeviceOutput;

import java.util.List;

/**
 * The outcome of one kernel launch: status, what went wrong where, thread-instructions run, and
 * what device printf printed (in launch order, see {@link DeviceLibrary}).
 */
public record ExecResult(ExecStatus status, List<Diagnostic> diagnostics, long instructionsExecuted,
                         List<DeviceOutput> printed) {
    public ExecResult {
        diagnostics = List.copyOf(diagnostics);
        printed = List.copyOf(printed);
    }

    public ExecResult(ExecStatus status, List<Diagnostic> diagnostics, long instructionsExecuted) {
        this(status, diagnostics, instructionsExecuted, List.of());
    }
}
