package io.ptxrun.exec.order;

/**
 * An access's epoch in one long: the strong flag (bit 63), the launch-wide slot of the thread or
 * async agent that made it (bits 26-62: cluster index times slots per cluster plus the slot), and
 * that slot's counter at the time (bits 0-25). Zero means no access.
 */
final class Epochs {
    static final int CLOCK_BITS = 26;
    static final int MAX_CLOCK = (1 << CLOCK_BITS) - 1;
    static final long MAX_SLOT = (1L << 37) - 1;
    static final long STRONG = Long.MIN_VALUE;

    private Epochs() {}

    static long of(long globalSlot, int clock, boolean strong) {
        return (strong ? STRONG : 0) | (globalSlot << CLOCK_BITS) | clock;
    }

    static long slot(long epoch) {
        return (epoch & ~STRONG) >>> CLOCK_BITS;
    }

    static int clock(long epoch) {
        return (int) (epoch & MAX_CLOCK);
    }

    static boolean strong(long epoch) {
        return epoch < 0;
    }
}
