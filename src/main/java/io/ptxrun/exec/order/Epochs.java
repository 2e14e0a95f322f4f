package io.ptxrun.exec.order;

/**
 * An access's epoch in one long: the strong flag (bit 63), a strong access's scope ({@link
 * Scopes}, bits 61-62, clear for the widest), the launch-wide slot of the thread or async agent
 * that made it (bits 26-60: cluster index times slots per cluster plus the slot), and that slot's
 * counter at the time (bits 0-25). Zero means no access.
 */
final class Epochs {
    static final int CLOCK_BITS = 26;
    static final int MAX_CLOCK = (1 << CLOCK_BITS) - 1;
    static final long MAX_SLOT = (1L << 35) - 1;
    static final long STRONG = Long.MIN_VALUE;
    /**
     * The write epoch of a byte of global memory the program has not set (a launch buffer marked
     * uninitialized): no thread's, as no slot reaches MAX_SLOT and every counter starts at 1.
     */
    static final long UNDEFINED = MAX_SLOT << CLOCK_BITS;
    private static final int SCOPE_SHIFT = 61;
    private static final long SCOPE_BITS = 3L << SCOPE_SHIFT;

    private Epochs() {}

    static long of(long globalSlot, int clock, boolean strong) {
        return (strong ? STRONG : 0) | (globalSlot << CLOCK_BITS) | clock;
    }

    /** A strong access's epoch at that scope. */
    static long of(long globalSlot, int clock, int scope) {
        return STRONG | ((long) scope << SCOPE_SHIFT) | (globalSlot << CLOCK_BITS) | clock;
    }

    static long slot(long epoch) {
        return (epoch & ~(STRONG | SCOPE_BITS)) >>> CLOCK_BITS;
    }

    /** A strong access's scope; {@link Scopes#GPU} for a plain one. */
    static int scope(long epoch) {
        return (int) ((epoch & SCOPE_BITS) >>> SCOPE_SHIFT);
    }

    static int clock(long epoch) {
        return (int) (epoch & MAX_CLOCK);
    }

    static boolean strong(long epoch) {
        return epoch < 0;
    }
}
