package io.ptxrun.exec;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How far a launch has come, for a display on another thread: clusters (with clusters of one CTA,
 * CTAs) finished out of the grid's, and on request where every warp of the clusters in flight is.
 * The workers' schedulers only count finished clusters here; the warp report reads their state without
 * stopping them, so it is a snapshot that may be a step out of date.
 */
public final class Progress {
    private final AtomicInteger done = new AtomicInteger();
    private final AtomicInteger reruns = new AtomicInteger();
    private volatile int total;
    private final List<Scheduler> workers = new CopyOnWriteArrayList<>();

    /** Clusters finished (CTAs, with clusters of one CTA). */
    public int done() {
        return done.get();
    }

    /** Clusters in the grid; 0 until the launch has started. */
    public int total() {
        return total;
    }

    void start(int clusters) {
        total = clusters;
    }

    /**
     * Runs on several workers that were discarded, the launch running again on one (the clusters
     * together ran past the instruction budget, or a stop came after later clusters had started):
     * at most one a launch, counted over the launches that report here.
     */
    public int reruns() {
        return reruns.get();
    }

    /** Forgets a run that is discarded (its clusters and workers) before the launch runs again. */
    void restart() {
        done.set(0);
        workers.clear();
        reruns.incrementAndGet();
    }

    void register(Scheduler worker) {
        workers.add(worker);
    }

    /**
     * The run of these workers is over: they are forgotten. (Limits, and with them this object,
     * are often shared by many launches, {@link KernelLaunch.Limits#DEFAULT} by all that take
     * it: a worker kept here kept its launch's memory and shadows alive to the end of the process.)
     */
    void finished(Scheduler[] ended) {
        workers.removeAll(java.util.Arrays.asList(ended));
    }

    void clusterDone() {
        done.incrementAndGet();
    }

    /** One line per warp of each cluster in flight: its CTA, and the instruction each group of its lanes is at. */
    public List<String> warps() {
        List<String> lines = new ArrayList<>();
        for (Scheduler worker : workers) {
            try {
                lines.addAll(worker.reports.warpSnapshot());
            } catch (RuntimeException racing) {
                lines.add("(a worker's warps changed while being read)");
            }
        }
        return lines;
    }
}
