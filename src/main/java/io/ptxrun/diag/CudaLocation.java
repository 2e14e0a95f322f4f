package io.ptxrun.diag;

import io.ptxrun.ast.SourcePos;
import java.util.Optional;

/**
 * A place in the CUDA (or other high-level) source that a PTX instruction was compiled from, as
 * its nearest preceding {@code .loc} states it: file, line, column, the function the code belongs
 * to when it was inlined ({@code function_name}), and the place it was inlined at
 * ({@code inlined_at}), itself a location with its own chain.
 *
 * @param column 1-based, or 0 when the compiler gave none
 * @param function the inlined function's name (demangled to its last component), when known
 */
public record CudaLocation(String file, int line, int column, Optional<String> function,
                           Optional<CudaLocation> inlinedAt) {

    /** As a source position (for caret rendering and SARIF). */
    public SourcePos pos() {
        return new SourcePos(file, line, column);
    }

    /** {@code kernel.cu:5:5}, without the inlining chain. */
    public String place() {
        return file + ":" + line + (column > 0 ? ":" + column : "");
    }

    /**
     * {@code kernel.cu:5:5 (in scatter, inlined at kernel.cu:12:9)}: the place and, for inlined
     * code, every call site out to the function that was not inlined.
     */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(place());
        if (inlinedAt.isPresent()) {
            sb.append(" (");
            function.ifPresent(f -> sb.append("in ").append(f).append(", "));
            sb.append("inlined at ");
            CudaLocation at = inlinedAt.get();
            sb.append(at.place());
            for (CudaLocation up = at; up.inlinedAt.isPresent(); up = up.inlinedAt.get()) {
                sb.append(", at ").append(up.inlinedAt.get().place());
            }
            sb.append(')');
        }
        return sb.toString();
    }
}
