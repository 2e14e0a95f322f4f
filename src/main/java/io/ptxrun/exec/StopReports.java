package io.ptxrun.exec;

import io.ptxrun.ast.Function;
import io.ptxrun.diag.Diagnostic;

import java.util.ArrayList;
import java.util.List;

/**
 * Words why the {@link Scheduler} stopped a cluster, for one worker: a deadlock (each group of
 * waiting lanes with the barrier or mbarrier state it waits on), a spin that never ends (or one
 * that only a CTA not yet started could end), a run out of instruction budget (named by the loop
 * it spins in) or of wall-clock time, and where every warp in flight is (also for Ctrl-C, through
 * {@link Progress}). The verdicts are the scheduler's; the texts are kept here so the scheduler's
 * loop stays short and each report reads in one place.
 */
final class StopReports {
    private final Engine engine;
    private final KernelLaunch launch;

    StopReports(Engine engine, KernelLaunch launch) {
        this.engine = engine;
        this.launch = launch;
    }

    /** Every live thread waits: one diagnostic per warp and waiting instruction, with the state waited on. */
    Engine.Stop deadlock() {
        List<Diagnostic> ds = new ArrayList<>();
        for (int r = 0; r < engine.clusterSize; r++) {
            deadlocked(engine.cluster[r], ds);
        }
        return new Engine.Stop(ExecStatus.DEADLOCK, engine.hazards.with(ds));
    }

    private void deadlocked(Cta c, List<Diagnostic> ds) {
        Op[] ops = engine.program.ops;
        for (Warp w : c.warps) {
            int waiting = (w.blocked | w.spinning) & w.live;
            while (waiting != 0) {
                int l0 = Integer.numberOfTrailingZeros(waiting);
                int pc = w.blockedAt[l0];
                int kind = (w.blocked & (1 << l0)) != 0 ? w.waitKind[l0] : Warp.WAIT_MBARRIER;
                int group = 0;
                for (int m = waiting; m != 0; m &= m - 1) {
                    int l = Integer.numberOfTrailingZeros(m);
                    int k = (w.blocked & (1 << l)) != 0 ? w.waitKind[l] : Warp.WAIT_MBARRIER;
                    if (w.blockedAt[l] == pc && k == kind) {
                        group |= 1 << l;
                    }
                }
                waiting &= ~group;
                Op op = ops[pc];
                int last = 31 - Integer.numberOfLeadingZeros(group);
                String state = kind == Warp.WAIT_BARRIER ? c.barriers.describe(w.barrierOf[l0])
                        : kind == Warp.WAIT_WARPGROUP ? c.warpgroups.describe(w.id / Warpgroups.WARPS)
                        : kind == Warp.WAIT_CLUSTER ? engine.clusterBarrier.describe() : c.mbarriers.describe(w.waitAddr[l0]);
                ds.add(Diagnostic.error(op.pos, "exec.deadlock", String.format(
                        "deadlock: %d thread(s) of warp %d (tid.x %d-%d) wait at '%s'%s forever; %s; CTA ctaid (%d,%d,%d)",
                        Integer.bitCount(group), w.id, w.tidX[l0], w.tidX[last], op.mnemonic(), engine.cuda(op), state,
                        c.ctaid[0], c.ctaid[1], c.ctaid[2])));
            }
        }
    }

    /**
     * The cluster's warps run in a circle that reads only memory nobody changes. {@code alone}:
     * every other cluster has finished, so it is a deadlock (a livelock); otherwise only one of the
     * {@code notStarted} clusters could end it, which needs them resident together.
     */
    Engine.Stop spinForever(boolean alone, int notStarted, int workerCount) {
        Op[] ops = engine.program.ops;
        List<Diagnostic> ds = new ArrayList<>();
        for (int r = 0; r < engine.clusterSize; r++) {
            Cta c = engine.cluster[r];
            for (Warp w : c.warps) {
                int spinning = w.live & ~w.blocked & ~w.spinning;
                if (spinning == 0) {
                    continue;
                }
                int l0 = Integer.numberOfTrailingZeros(spinning), last = 31 - Integer.numberOfLeadingZeros(spinning);
                Op at = ops[w.pc[l0]];
                String loop = w.lastBackBranch < 0 ? "at '" + at.mnemonic() + "' (line " + at.pos.line() + engine.cuda(at) + ")"
                        : "in the loop closed by '" + ops[w.lastBackBranch].mnemonic() + "' at line "
                                + ops[w.lastBackBranch].pos.line() + engine.cuda(ops[w.lastBackBranch]);
                Op site = w.lastBackBranch < 0 ? at : ops[w.lastBackBranch];
                String who = String.format("%d thread(s) of warp %d (tid.x %d-%d)", Integer.bitCount(spinning), w.id,
                        w.tidX[l0], w.tidX[last]);
                String cta = String.format("CTA ctaid (%d,%d,%d)", c.ctaid[0], c.ctaid[1], c.ctaid[2]);
                ds.add(alone
                        ? Diagnostic.error(site.pos, "exec.deadlock", "deadlock: " + who + " spin forever " + loop
                                + ": the loop reads memory that no running thread writes (a livelock: no thread can"
                                + " make progress, and every other CTA has finished); " + cta)
                        : Diagnostic.error(site.pos, "exec.co-residency", who + " spin " + loop + " on memory that no"
                                + " running thread writes; only a CTA that has not started could write it (" + notStarted
                                + " have not). ptxrun runs " + workerCount + " CTA (cluster) at a time (--cta-threads) and"
                                + " starts one when another finishes, as a GPU does when the grid does not fit at once:"
                                + " the kernel relies on its CTAs running concurrently, which CUDA promises only for a"
                                + " cooperative launch. --cta-threads " + Math.min(256, notStarted + 1)
                                + " runs them together; " + cta));
            }
            if (alone) {
                deadlocked(c, ds);
            }
        }
        Engine.Stop stop = new Engine.Stop(alone ? ExecStatus.DEADLOCK : ExecStatus.ERROR, engine.hazards.with(ds));
        stop.spinAmongClusters = true;
        return stop;
    }

    /**
     * The timeout report. A run out of budget is almost always spinning in a loop, so it names the
     * loop (the backward branch the warp last took, and the loop head it jumps to) rather than
     * whichever instruction happened to be the last one paid for.
     */
    Engine.Stop budgetExhausted(Warp w, Op at, int l, long maxInstructions) {
        Op[] ops = engine.program.ops;
        String budget = "instruction budget of " + maxInstructions + " thread-instructions exhausted";
        if (w.lastBackBranch < 0) {
            return engine.stop(ExecStatus.TIMEOUT, "exec.timeout", at, w, l, budget + " at '" + at.mnemonic() + "'");
        }
        Op branch = ops[w.lastBackBranch];
        Op head = ops[branch.target];
        String loop = engine.cuda(branch);
        return engine.stop(ExecStatus.TIMEOUT, "exec.timeout", branch, w, l, budget + " in the loop closed by '"
                + branch.mnemonic() + "' at line " + branch.pos.line() + loop + " (loop head at line "
                + head.pos.line() + (engine.cuda(head).equals(loop) ? "" : engine.cuda(head)) + ", last instruction run '"
                + at.mnemonic() + "' at line " + at.pos.line() + (engine.cuda(at).equals(loop) ? "" : engine.cuda(at)) + ")");
    }

    /** The wall-clock budget ran out after {@code executed} thread-instructions of the launch. */
    Engine.Stop wallTimeExhausted(long executed) {
        Function kernel = launch.module().function(launch.kernel()).orElseThrow();
        List<String> warps = warpSnapshot();
        String where = warps.isEmpty() ? "" : "; " + String.join("; ", warps.subList(0, Math.min(4, warps.size())))
                + (warps.size() > 4 ? "; and " + (warps.size() - 4) + " more warps" : "");
        Engine.Stop stop = new Engine.Stop(ExecStatus.TIMEOUT, List.of(Diagnostic.error(kernel.pos(), "exec.timeout",
                "wall-clock budget of " + launch.limits().maxWallMillis() / 1000.0 + " s exhausted after "
                        + executed + " thread-instructions (--max-seconds)" + where)));
        stop.wallClock = true;
        return stop;
    }

    /**
     * For {@link Progress#warps}: each live warp of the cluster in flight and where its lane groups
     * are. Read from another thread while the worker runs, so it copes with state changing under it.
     */
    List<String> warpSnapshot() {
        List<String> lines = new ArrayList<>();
        Cta[] ctas = engine.cluster;
        Decoder.Program program = engine.program;
        Op[] ops = program == null ? new Op[0] : program.ops;
        int n = Math.min(engine.clusterSize, ctas.length);
        for (int r = 0; r < n; r++) {
            Cta c = ctas[r];
            Warp[] warps = c == null ? null : c.warps;
            if (warps == null) {
                continue;
            }
            for (Warp w : warps) {
                int live = w.live;
                if (live == 0) {
                    continue;
                }
                StringBuilder sb = new StringBuilder(String.format("CTA ctaid (%d,%d,%d) warp %d:",
                        c.ctaid[0], c.ctaid[1], c.ctaid[2], w.id));
                java.util.TreeMap<Integer, Integer> byPc = new java.util.TreeMap<>();
                for (int m = live; m != 0; m &= m - 1) {
                    int l = Integer.numberOfTrailingZeros(m);
                    byPc.merge(w.pc[l], 1, Integer::sum);
                }
                byPc.forEach((pc, count) -> {
                    Op op = pc >= 0 && pc < ops.length ? ops[pc] : null;
                    sb.append(' ').append(count).append(count == 1 ? " lane at " : " lanes at ")
                            .append(op == null ? "pc " + pc : op.pos + " '" + op.mnemonic() + "'" + engine.cuda(op));
                });
                if ((w.blocked & live) != 0) {
                    sb.append(" (").append(Integer.bitCount(w.blocked & live)).append(" waiting)");
                }
                lines.add(sb.toString());
            }
        }
        return lines;
    }
}
