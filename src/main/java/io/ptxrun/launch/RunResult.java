package io.ptxrun.launch;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a run produced, as {@code ptxrun --json} prints it and as the hardware harness records it
 * (see {@link ResultJson}).
 *
 * @param kernel the kernel that ran; empty when the run failed before one was chosen
 * @param buffers dumped buffers by name, in dump order
 * @param stats free-form counters (numbers, strings); hardware results have none
 * @param printed what device printf printed, per call, in launch order (optional key {@code printf})
 */
public record RunResult(
        Optional<String> kernel,
        RunStatus status,
        Map<String, ResultBuffer> buffers,
        List<ResultDiagnostic> diagnostics,
        Map<String, Object> stats,
        List<DeviceOutput> printed) {

    public RunResult {
        buffers = Collections.unmodifiableMap(new LinkedHashMap<>(buffers));
        diagnostics = List.copyOf(diagnostics);
        stats = Collections.unmodifiableMap(new LinkedHashMap<>(stats));
        printed = List.copyOf(printed);
    }

    public RunResult(Optional<String> kernel, RunStatus status, Map<String, ResultBuffer> buffers,
                     List<ResultDiagnostic> diagnostics, Map<String, Object> stats) {
        this(kernel, status, buffers, diagnostics, stats, List.of());
    }

    /** The printed text as the GPU's stdout shows it: every call's text, one after another. */
    public String printedText() {
        StringBuilder sb = new StringBuilder();
        printed.forEach(p -> sb.append(p.text()));
        return sb.toString();
    }
}
