package io.ptxrun.launch;

import com.google.common.collect.ImmutableMap;
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
 */
public record RunResult(
        Optional<String> kernel,
        RunStatus status,
        Map<String, ResultBuffer> buffers,
        List<ResultDiagnostic> diagnostics,
        Map<String, Object> stats) {

    public RunResult {
        buffers = ImmutableMap.copyOf(buffers);
        diagnostics = List.copyOf(diagnostics);
        stats = Collections.unmodifiableMap(new LinkedHashMap<>(stats));
    }
}
