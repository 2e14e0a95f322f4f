package io.ptxrun.exec;

/**
 * How the engine models the asynchronous parts of synchronization: when the bytes of an
 * asynchronous copy land between its issue and its completion point, whether undefined
 * behaviour of the synchronization instructions and hazards stop the run / fail it or only warn,
 * and whether the hazard detector ({@link io.ptxrun.exec.order}) runs.
 */
public record SyncOptions(CopyTiming copyTiming, long seed, boolean warnOnly, boolean detectHazards) {
    public static final SyncOptions DEFAULT = new SyncOptions(CopyTiming.LAZY, 0, false, true);

    public SyncOptions(CopyTiming copyTiming, long seed, boolean warnOnly) {
        this(copyTiming, seed, warnOnly, true);
    }

    public SyncOptions withHazards(boolean detect) {
        return new SyncOptions(copyTiming, seed, warnOnly, detect);
    }

    /** When the data of cp.async / cp.async.bulk lands. */
    public enum CopyTiming {
        /** At issue: the copy behaves like a plain load and store. */
        EAGER,
        /**
         * At the last legal moment: when a wait needs it or no thread can otherwise progress,
         * so a premature read sees the old bytes.
         */
        LAZY,
        /** At points chosen by a seeded random generator, between issue and the last legal moment. */
        RANDOM
    }

    /** Parses {@code eager}, {@code lazy} or {@code random:SEED}. */
    public static SyncOptions parse(String copies, boolean warnOnly) {
        if (copies.equals("eager")) {
            return new SyncOptions(CopyTiming.EAGER, 0, warnOnly);
        }
        if (copies.equals("lazy")) {
            return new SyncOptions(CopyTiming.LAZY, 0, warnOnly);
        }
        if (copies.matches("random:[0-9]+")) {
            return new SyncOptions(CopyTiming.RANDOM, Long.parseLong(copies.substring(7)), warnOnly);
        }
        throw new IllegalArgumentException("--async-copies must be 'eager', 'lazy' or 'random:SEED', got '"
                + copies + "'");
    }
}
