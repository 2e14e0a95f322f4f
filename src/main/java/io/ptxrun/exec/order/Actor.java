package io.ptxrun.exec.order;

/**
 * Who makes the access being checked, and what it knows: a thread (its slot, knowledge and
 * counter), or an async copy (its agent's slot and counter, and what its issuer knew at issue).
 * One mutable object per engine, set before each access, so the per-lane path allocates nothing.
 */
final class Actor {
    /** The slot whose accesses need no ordering (the thread itself, or the copy's agent). */
    int self;
    long base;
    int slots;
    int threadsPerCta;
    int[] known;
    /** For a thread: its async agent's slot and what it knows of it beyond {@code known}; -1 otherwise. */
    int ownAgent = -1;
    int ownAgentKnown;
    ForeignClocks foreign;
    /** For a copy: its issuer, known up to the issuer's counter at issue; -1 otherwise. */
    int issuer = -1;
    int issuerClock;
    /** The epoch this access leaves behind, and the instruction that made it. */
    long epoch;
    int pc;
    /** A plain read whose value an atom.cas compares against (see {@link MemoryOrder}): it may read what atomics write. */
    boolean casCompared;
    /** For the async proxy's reads (bulk and tensor copies): the clocks, and what the issuer had fenced. */
    ThreadClocks proxyClocks;
    int[] proxyFencedKnown;


    /**
     * The pages of global memory's shadow this worker touched lately, by {@link #pageSlot} (pages
     * are never dropped), and the shadow they belong to.
     */
    static final int PAGES_KEPT = 1024;

    /**
     * Where page n is kept: its number modulo the count, folded with the bits above, so that two
     * buffers a multiple of the count apart (a GEMM's two matrices, allocated one after the other)
     * do not keep taking each other's places.
     */
    static int pageSlot(long n) {
        return (int) ((n ^ (n >>> 10)) & (PAGES_KEPT - 1));
    }
    final long[] pageNumbers = new long[PAGES_KEPT];
    final Object[] pages = new Object[PAGES_KEPT];
    Object pagesOf;
    // The bytes of one access mostly carry the same epochs: the last answer is kept.
    private long askedEpoch;
    private boolean answer;

    void forget() {
        askedEpoch = 0;
    }

    /** Whether the access with that epoch happens before this one. */
    boolean knows(long e) {
        if (e == askedEpoch) {
            return answer;
        }
        askedEpoch = e;
        return answer = decide(e);
    }

    private boolean decide(long e) {
        long g = Epochs.slot(e);
        int c = Epochs.clock(e);
        long local = g - base;
        if (local >= 0 && local < slots) {
            int s = (int) local;
            if (s == self) {
                return true;
            }
            if (s == issuer) {
                return c <= issuerClock;
            }
            return c <= known[s] || s == ownAgent && c <= ownAgentKnown;
        }
        return foreign != null && foreign.knows(g, c, slots);
    }

    /**
     * Whether a strong access with epoch {@code e} and this one, strong, are morally strong
     * relative to each other: each one's scope includes the other's thread (an async agent's
     * operations count as its thread's). Only then do they not race, and only then does a
     * release through one and an acquire through the other order anything.
     */
    boolean morallyStrong(long e) {
        int theirs = Epochs.scope(e), mine = Epochs.scope(epoch);
        if ((theirs | mine) == Scopes.GPU) {
            return true;
        }
        long other = Epochs.slot(e), me = Epochs.slot(epoch);
        return includes(theirs, other, me) && includes(mine, me, other);
    }

    /** Whether the scope of an operation of launch-wide slot {@code from} includes slot {@code other}'s thread. */
    private boolean includes(int scope, long from, long other) {
        if (scope == Scopes.GPU) {
            return true;
        }
        if (from / slots != other / slots) {
            return false;
        }
        int threads = slots / 2;
        return scope == Scopes.CLUSTER
                || (from % slots % threads) / threadsPerCta == (other % slots % threads) / threadsPerCta;
    }

    /**
     * Whether the access with that epoch happens before this one by what the knowledge arrays
     * alone say: then it does for every thread that holds the same arrays, whichever it is.
     */
    boolean knownToAll(long e) {
        long g = Epochs.slot(e);
        int c = Epochs.clock(e);
        long local = g - base;
        if (local >= 0 && local < slots) {
            return c <= known[(int) local];
        }
        return foreign != null && foreign.knows(g, c, slots);
    }
}
