package io.ptxrun.exec;

import io.ptxrun.diag.Diagnostic;
import io.ptxrun.launch.DeviceOutput;

import java.util.List;

/**
 * The outcome of one kernel launch: status, what went wrong where, thread-instructions run, what
 * device printf printed (in launch order, see {@link DeviceLibrary}), and whether the outcome may
 * depend on how the CTA threads interleaved: the instruction budget ran out while several ran
 * (each cluster gets what is left of the budget when it starts), so running the launch again on
 * one CTA thread gives the reproducible report.
 */
public record ExecResult(ExecStatus status, List<Diagnostic> diagnostics, long instructionsExecuted,
                         List<DeviceOutput> printed, boolean dependsOnTiming) {
    public ExecResult {
        diagnostics = List.copyOf(diagnostics);
        printed = List.copyOf(printed);
    }

    public ExecResult(ExecStatus status, List<Diagnostic> diagnostics, long instructionsExecuted) {
        this(status, diagnostics, instructionsExecuted, List.of());
    }

    public ExecResult(ExecStatus status, List<Diagnostic> diagnostics, long instructionsExecuted,
                      List<DeviceOutput> printed) {
        this(status, diagnostics, instructionsExecuted, printed, false);
    }
}
