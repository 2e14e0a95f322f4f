package io.ptxrun.exec;

import io.ptxrun.diag.Diagnostic;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * Undefined behaviour and data hazards of the synchronization instructions. Undefined behaviour
 * ends the run with status error, naming the rule and the line, unless the launch asked to warn
 * only: then it becomes a warning and execution goes on with the engine's defined fallback.
 * Hazards that the hardware tolerates (a read racing with an asynchronous copy) are always
 * warnings. Each op reports at most once, so a loop does not flood the result.
 */
final class Hazards {
    /** Stop keeping warnings beyond this many: the first ones say what matters. */
    private static final int MAX_WARNINGS = 100;

    private final boolean warnOnly;
    private final List<Diagnostic> warnings = new ArrayList<>();
    private final BitSet reportedPcs = new BitSet();

    Hazards(boolean warnOnly) {
        this.warnOnly = warnOnly;
    }

    /**
     * Reports undefined behaviour at {@code op}; returns normally only when warnings were asked
     * for, so the caller then applies its fallback.
     */
    void undefined(Op op, int pc, String rule, String message, String where) {
        if (!warnOnly) {
            throw new Engine.Stop(ExecStatus.ERROR, List.of(Diagnostic.error(op.pos, rule,
                    "undefined behaviour: " + message + " (" + where + ")")));
        }
        warn(op, pc, rule, "undefined behaviour: " + message + " (" + where + ")");
    }

    /**
     * Records a hazard once per op: an error that fails the run without stopping it (the kernel
     * goes on as the hardware would), or a warning when only warnings were asked for.
     */
    void hazard(Op op, int pc, String rule, String message) {
        if (warnings.size() < MAX_WARNINGS && !reportedPcs.get(pc)) {
            reportedPcs.set(pc);
            warnings.add(warnOnly ? Diagnostic.warning(op.pos, rule, message) : Diagnostic.error(op.pos, rule, message));
        }
    }

    /** Records a warning once per op. */
    void warn(Op op, int pc, String rule, String message) {
        if (warnings.size() < MAX_WARNINGS && !reportedPcs.get(pc)) {
            reportedPcs.set(pc);
            warnings.add(Diagnostic.warning(op.pos, rule, message));
        }
    }

    List<Diagnostic> warnings() {
        return warnings;
    }

    /** The warnings followed by the diagnostics that ended the run. */
    List<Diagnostic> with(List<Diagnostic> ending) {
        List<Diagnostic> all = new ArrayList<>(warnings);
        all.addAll(ending);
        return all;
    }
}
