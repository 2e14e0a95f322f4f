package io.ptxrun.exec;

import io.ptxrun.ast.SourcePos;
import java.util.ArrayList;
import java.util.List;

/**
 * A timeline of a launch: each turn a warp takes (a run of steps between the scheduler's switches)
 * with its CTA, warp, start and end in the cluster's virtual time (thread-instructions executed
 * since the cluster started) and the instruction it began at. Kept up to a limit of turns, so a
 * long run gives a trace of its beginning rather than running out of memory.
 */
public final class Trace {
    /** One warp turn; start and end in thread-instructions since its cluster started. */
    public record Turn(int[] cta, int warp, long start, long end, SourcePos at, String mnemonic) {}

    private final int limit;
    private final List<Turn> turns = new ArrayList<>();
    private boolean truncated;

    public Trace(int limit) {
        this.limit = limit;
    }

    synchronized void turn(int[] cta, int warp, long start, long end, Op op) {
        if (turns.size() >= limit) {
            truncated = true;
            return;
        }
        turns.add(new Turn(cta.clone(), warp, start, end, op.pos, op.mnemonic()));
    }

    /** Forgets a run that is discarded, before the launch runs again. */
    synchronized void clear() {
        turns.clear();
        truncated = false;
    }

    public synchronized List<Turn> turns() {
        return List.copyOf(turns);
    }

    /** Whether turns were left out after the limit. */
    public synchronized boolean truncated() {
        return truncated;
    }
}
