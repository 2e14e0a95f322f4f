package io.ptxrun.exec;

import io.ptxrun.ast.Module;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * Everything one kernel launch needs: the module, which entry, the grid/block/cluster shape, the
 * dynamic shared memory size, the kernel's .param block (laid out per {@link ParamLayout}) and the
 * global memory the parameters point into.
 */
public record KernelLaunch(Module module, String kernel, int[] grid, int[] block, int[] cluster,
                           long sharedBytes, byte[] paramBlock, GlobalMemory memory, Limits limits) {

    public KernelLaunch {
        Objects.requireNonNull(module);
        Objects.requireNonNull(kernel);
        grid = dims(grid);
        block = dims(block);
        cluster = cluster == null ? new int[] {1, 1, 1} : dims(cluster);
        paramBlock = paramBlock == null ? new byte[0] : paramBlock.clone();
        Objects.requireNonNull(memory);
        limits = limits == null ? Limits.DEFAULT : limits;
    }

    private static int[] dims(int[] d) {
        int[] out = {1, 1, 1};
        for (int i = 0; i < Math.min(3, d.length); i++) {
            out[i] = d[i];
        }
        return out;
    }

    /**
     * Run limits: executed thread-instructions, an optional seed for schedule choices, how many
     * threads run CTAs at once (0: one per available processor; 1: one CTA after another), the
     * synchronization model (asynchronous copy timing, undefined behaviour as warnings, the hazard
     * detector), what a launch may cost: threads in the grid, bytes of simulated memory (buffers,
     * module variables, shared and local memory of the CTAs in flight) and wall-clock milliseconds
     * (0: no limit), and where progress and the timeline go. A launch beyond the limits ends in a
     * clear error or timeout, never in a Java error or a wrong result.
     */
    public record Limits(long maxInstructions, OptionalLong scheduleSeed, int ctaThreads, SyncOptions sync,
                         long maxThreads, long maxMemoryBytes, long maxWallMillis, Progress progress, Trace trace,
                         Compilation compilation) {
        /** Grid threads: every thread and CTA index fits an {@code int}. */
        public static final long DEFAULT_MAX_THREADS = Integer.MAX_VALUE;
        /** Simulated memory: fits the default heap of a small machine with room for the rest. */
        public static final long DEFAULT_MAX_MEMORY_BYTES = 1L << 30;
        /** Ten minutes: far beyond any test case, short of a hung CI job. */
        public static final long DEFAULT_MAX_WALL_MILLIS = 600_000;
        /** CTA threads: each is a Java thread with a 16 MB stack. */
        public static final int MAX_CTA_THREADS = 256;
        public static final Limits DEFAULT = new Limits(1_000_000_000L, OptionalLong.empty());

        public Limits {
            Objects.requireNonNull(scheduleSeed);
            if (ctaThreads < 0 || ctaThreads > MAX_CTA_THREADS) {
                throw new IllegalArgumentException("ctaThreads must be 0 (all processors) to " + MAX_CTA_THREADS
                        + ": " + ctaThreads);
            }
            if (maxThreads < 1 || maxMemoryBytes < 0 || maxWallMillis < 0) {
                throw new IllegalArgumentException("limits must be positive: threads " + maxThreads + ", memory "
                        + maxMemoryBytes + ", milliseconds " + maxWallMillis);
            }
            sync = sync == null ? SyncOptions.DEFAULT : sync;
            progress = progress == null ? new Progress() : progress;
            compilation = compilation == null ? Compilation.HOT : compilation;
        }

        /** Limits with hot code compiled to JVM bytecode (the default; see {@link #withCompilation}). */
        public Limits(long maxInstructions, OptionalLong scheduleSeed, int ctaThreads, SyncOptions sync,
                      long maxThreads, long maxMemoryBytes, long maxWallMillis, Progress progress, Trace trace) {
            this(maxInstructions, scheduleSeed, ctaThreads, sync, maxThreads, maxMemoryBytes, maxWallMillis, progress,
                    trace, Compilation.HOT);
        }

        public Limits(long maxInstructions, OptionalLong scheduleSeed, int ctaThreads, SyncOptions sync) {
            this(maxInstructions, scheduleSeed, ctaThreads, sync, DEFAULT_MAX_THREADS, DEFAULT_MAX_MEMORY_BYTES,
                    DEFAULT_MAX_WALL_MILLIS, null, null);
        }

        public Limits(long maxInstructions, OptionalLong scheduleSeed) {
            this(maxInstructions, scheduleSeed, 0, SyncOptions.DEFAULT);
        }

        public Limits(long maxInstructions, OptionalLong scheduleSeed, int ctaThreads) {
            this(maxInstructions, scheduleSeed, ctaThreads, SyncOptions.DEFAULT);
        }

        public Limits(long maxInstructions, OptionalLong scheduleSeed, SyncOptions sync) {
            this(maxInstructions, scheduleSeed, 0, sync);
        }

        public static Limits ofMaxInstructions(long max) {
            return new Limits(max, OptionalLong.empty(), 0);
        }

        public Limits withCtaThreads(int threads) {
            return new Limits(maxInstructions, scheduleSeed, threads, sync, maxThreads, maxMemoryBytes, maxWallMillis,
                    progress, trace, compilation);
        }

        /** The same limits with other bounds on grid threads, simulated memory and wall-clock time. */
        public Limits withCosts(long threads, long memoryBytes, long wallMillis) {
            return new Limits(maxInstructions, scheduleSeed, ctaThreads, sync, threads, memoryBytes, wallMillis,
                    progress, trace, compilation);
        }

        /** The same limits, reporting to a progress display. */
        public Limits withProgress(Progress p) {
            return new Limits(maxInstructions, scheduleSeed, ctaThreads, sync, maxThreads, maxMemoryBytes,
                    maxWallMillis, p, trace, compilation);
        }

        /** The same limits, recording every warp turn into t (null: none). */
        public Limits withTrace(Trace t) {
            return new Limits(maxInstructions, scheduleSeed, ctaThreads, sync, maxThreads, maxMemoryBytes,
                    maxWallMillis, progress, t, compilation);
        }

        /** The same limits with other regions compiled to JVM bytecode (results are the same). */
        public Limits withCompilation(Compilation c) {
            return new Limits(maxInstructions, scheduleSeed, ctaThreads, sync, maxThreads, maxMemoryBytes,
                    maxWallMillis, progress, trace, c);
        }

        /** The threads to use for a grid of that many CTAs. */
        int threadsFor(int ctas) {
            int n = ctaThreads == 0 ? Runtime.getRuntime().availableProcessors() : ctaThreads;
            return Math.max(1, Math.min(n, ctas));
        }
    }
}
