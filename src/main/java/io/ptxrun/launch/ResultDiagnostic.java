package io.ptxrun.launch;

import io.ptxrun.diag.CudaLocation;
import io.ptxrun.diag.Severity;
import java.util.Optional;

/**
 * One entry of a result's {@code diagnostics}: what happened, where in the PTX source, and in
 * which thread, warp, CTA and cluster (each written the way the interpreter names them, e.g.
 * {@code "(3,0,0)"}).
 *
 * @param line 1-based source line, 0 when unknown
 * @param column 1-based source column, 0 when unknown
 * @param source the CUDA source location of the instruction, for modules with line information
 *     (optional key {@code source}: file, line, column, function, inlinedAt)
 */
public record ResultDiagnostic(
        Severity severity,
        String message,
        Optional<String> file,
        int line,
        int column,
        Optional<String> thread,
        Optional<String> warp,
        Optional<String> cta,
        Optional<String> cluster,
        Optional<CudaLocation> source,
        Optional<String> rule) {

    public ResultDiagnostic {
        if (line < 0 || column < 0) {
            throw new IllegalArgumentException("line and column are 1-based, or 0 when unknown");
        }
    }

    public ResultDiagnostic(Severity severity, String message, Optional<String> file, int line, int column,
                            Optional<String> thread, Optional<String> warp, Optional<String> cta,
                            Optional<String> cluster) {
        this(severity, message, file, line, column, thread, warp, cta, cluster, Optional.empty(), Optional.empty());
    }

    /** The same diagnostic with its CUDA source location. */
    public ResultDiagnostic withSource(CudaLocation location) {
        return new ResultDiagnostic(severity, message, file, line, column, thread, warp, cta, cluster,
                Optional.of(location), rule);
    }

    /** A diagnostic with a message only, as the hardware harness reports driver errors. */
    public static ResultDiagnostic error(String message) {
        return new ResultDiagnostic(
                Severity.ERROR, message, Optional.empty(), 0, 0,
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** A diagnostic at a source position. */
    public static ResultDiagnostic at(Severity severity, String message, String file, int line, int column) {
        return new ResultDiagnostic(
                severity, message, Optional.of(file), line, column,
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** The same diagnostic with the stable rule name it was reported under (e.g. {@code race.shared}). */
    public ResultDiagnostic withRule(String rule) {
        return new ResultDiagnostic(severity, message, file, line, column, thread, warp, cta, cluster,
                source, Optional.ofNullable(rule));
    }

    /** The same diagnostic, attributed to a thread (any of the arguments may be null). */
    public ResultDiagnostic inThread(String thread, String warp, String cta, String cluster) {
        return new ResultDiagnostic(
                severity, message, file, line, column,
                Optional.ofNullable(thread), Optional.ofNullable(warp), Optional.ofNullable(cta),
                Optional.ofNullable(cluster), source, rule);
    }
}
