package io.ptxrun.exec.order;

import java.util.Arrays;

/**
 * The vector clocks of the threads of the cluster in flight, and of their async agents.
 *
 * <p>Slots 0 .. threads-1 are the cluster's threads (CTA rank times threads per CTA plus the
 * thread's linear id), slots threads .. 2*threads-1 their async agents. A thread's knowledge is an
 * immutable array shared by every thread that acquired the same thing (after a barrier, all its
 * threads share one), so a barrier costs one join per distinct array, not one per thread; its own
 * counter lives apart in {@link #clock} and is what advances between releases.
 */
final class ThreadClocks {
    final int threads;
    final int slots;
    int cluster;
    long base;
    /** Each thread's knowledge (immutable arrays over all slots). */
    final int[][] known;
    /**
     * What each thread knows of its own async agent beyond {@link #known} (the copies its
     * wait_group saw complete). Kept apart so that the threads that share a knowledge array keep
     * sharing it while each waits for its own copies: otherwise every thread of a cp.async
     * pipeline holds its own array, and each barrier joins and acquires one per thread.
     */
    final int[] agentKnown;
    final ForeignClocks[] foreign;
    /** Each slot's own counter; accesses carry it, releases advance it. */
    final int[] clock;
    /** What the thread had released at its last fence: a relaxed atomic after it hands this on. */
    final int[][] fenced;
    final ForeignClocks[] fencedForeign;
    final int[] fencedClock;
    /** The scope of the thread's last fence ({@link Scopes}): how far what it released then reaches. */
    final int[] fencedScope;
    /** What relaxed atomic reads have seen released; a later fence or barrier acquires it. */
    final Release[] pending;
    /**
     * fence.proxy.async: each thread's counter at its last one (its generic writes up to then are
     * visible to the async proxy) and what it knew then (the others' writes it had acquired).
     */
    final int[] proxyFenced;
    final int[][] proxyFencedKnown;
    boolean saturated;
    /** Threads that have exited: they access nothing more, so what they know no longer matters. */
    final boolean[] exited;
    /** Counts the changes of {@link #known} and {@link #foreign}: what was found of them stays true while it stands. */
    int version;
    private final int[] zero;
    // The last joins, reused while their inputs repeat (threads that share knowledge acquire
    // alike). More than one: the warps of a producer/consumer pipeline acquire two releases in turn.
    private static final int MEMOS = 4;
    private final int[][] memoA = new int[MEMOS][], memoB = new int[MEMOS][], memoResult = new int[MEMOS][];
    private int memoNext;

    ThreadClocks(int threads) {
        this.threads = threads;
        this.slots = 2 * threads;
        this.zero = new int[slots];
        this.known = new int[threads][];
        this.agentKnown = new int[threads];
        this.foreign = new ForeignClocks[threads];
        this.clock = new int[slots];
        this.fenced = new int[threads][];
        this.fencedForeign = new ForeignClocks[threads];
        this.fencedClock = new int[threads];
        this.fencedScope = new int[threads];
        this.pending = new Release[threads];
        this.proxyFenced = new int[threads];
        this.proxyFencedKnown = new int[threads][];
        this.exited = new boolean[threads];
    }

    /** A new cluster: everything before the launch is known to every thread, nothing else. */
    void start(int clusterIndex) {
        cluster = clusterIndex;
        base = (long) clusterIndex * slots;
        version++;
        Arrays.fill(known, zero);
        Arrays.fill(agentKnown, 0);
        Arrays.fill(foreign, null);
        Arrays.fill(clock, 1);
        Arrays.fill(fenced, null);
        Arrays.fill(fencedForeign, null);
        Arrays.fill(fencedClock, 0);
        Arrays.fill(fencedScope, Scopes.GPU);
        Arrays.fill(pending, null);
        Arrays.fill(proxyFenced, 0);
        Arrays.fill(proxyFencedKnown, zero);
        Arrays.fill(exited, false);
        java.util.Arrays.fill(memoA, null);
        java.util.Arrays.fill(memoB, null);
        java.util.Arrays.fill(memoResult, null);
    }

    long epoch(int slot, boolean strong) {
        return Epochs.of(base + slot, clock[slot], strong);
    }

    /** Advances a slot's counter: its later accesses are not covered by what it released so far. */
    void tick(int slot) {
        if (clock[slot] < Epochs.MAX_CLOCK) {
            clock[slot]++;
        } else {
            saturated = true;
        }
    }

    /** The thread's knowledge with its own counter, as a release hands it on (then ticks). */
    Release release(int t) {
        int[] k = known[t].clone();
        k[t] = Math.max(k[t], clock[t]);
        k[threads + t] = Math.max(k[threads + t], agentKnown[t]);
        tick(t);
        return new Release(cluster, k, foreign[t]);
    }

    /** Thread t acquires what a release handed on. */
    void acquire(int t, Release r) {
        if (r == null) {
            return;
        }
        version++;
        if (r.cluster() == cluster) {
            known[t] = join(known[t], r.clock());
            foreign[t] = ForeignClocks.merge(foreign[t], r.foreign(), cluster);
        } else {
            foreign[t] = ForeignClocks.merge(foreign[t], ForeignClocks.of(r.cluster(), r.clock()), cluster);
            if (r.foreign() != null) {
                int[] mine = r.foreign().of(cluster);
                if (mine != null) {
                    known[t] = join(known[t], mine);
                }
                foreign[t] = ForeignClocks.merge(foreign[t], r.foreign(), cluster);
            }
        }
    }

    /**
     * Whether the 32 threads from slot {@code first} (a whole warp) share one knowledge array, hold
     * no other cluster's clocks and have seen no relaxed atomic's release: as after a barrier,
     * they then release and acquire alike, and a warp's arrival or acquisition is done at once.
     */
    boolean alike(int first) {
        int[] k = known[first];
        for (int t = first; t < first + 32; t++) {
            if (known[t] != k || foreign[t] != null || pending[t] != null) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@link #acquire} of r by the 32 threads from slot {@code first} when they are {@link #alike}
     * and r is this cluster's with no other's clocks: one join for all of them. Returns false,
     * having done nothing, otherwise.
     */
    boolean acquireWarp(int first, Release r) {
        if (r == null) {
            return true;
        }
        if (r.cluster() != cluster || r.foreign() != null || !alike(first)) {
            return false;
        }
        version++;
        Arrays.fill(known, first, first + 32, join(known[first], r.clock()));
        return true;
    }

    /** Thread t knows slot s up to {@code c} (an async agent's completed copies). */
    void learn(int t, int s, int c) {
        if (s == threads + t) {
            agentKnown[t] = Math.max(agentKnown[t], c);
        } else if (known[t][s] < c) {
            int[] k = known[t].clone();
            k[s] = c;
            known[t] = k;
            version++;
        }
    }

    /** A fence: acquires what relaxed reads saw, and marks what a later relaxed atomic releases. */
    void fence(int t, int scope) {
        if (pending[t] != null) {
            acquire(t, pending[t]);
            pending[t] = null;
        }
        fenced[t] = knownOf(t);
        fencedForeign[t] = foreign[t];
        fencedClock[t] = clock[t];
        fencedScope[t] = scope;
        tick(t);
    }

    /** Everything thread t knows of the cluster's slots, as one array (its own agent's entry included). */
    int[] knownOf(int t) {
        int a = threads + t;
        if (agentKnown[t] <= known[t][a]) {
            return known[t];
        }
        int[] k = known[t].clone();
        k[a] = agentKnown[t];
        return k;
    }

    void proxyFence(int t) {
        proxyFenced[t] = clock[t];
        proxyFencedKnown[t] = known[t];
        tick(t);
    }

    /**
     * Whether a generic write with that epoch is visible to the async proxy for a copy whose
     * issuer had fenced with {@code issuerFenced} knowledge: its writer or the issuer fenced after it.
     */
    boolean proxyVisible(long epoch, int[] issuerFenced) {
        long local = Epochs.slot(epoch) - base;
        if (local < 0 || local >= threads) {
            return true;
        }
        int c = Epochs.clock(epoch);
        return proxyFenced[(int) local] >= c || issuerFenced[(int) local] >= c;
    }

    /** What a relaxed atomic write of thread t releases: its knowledge at its last fence, if any. */
    Release fencedRelease(int t) {
        if (fenced[t] == null) {
            return null;
        }
        int[] k = fenced[t].clone();
        k[t] = Math.max(k[t], fencedClock[t]);
        return new Release(cluster, k, fencedForeign[t]);
    }

    /** A relaxed atomic read saw what was released at its location: a later fence acquires it. */
    void defer(int t, Release r) {
        if (r != null) {
            pending[t] = pending[t] == null ? r : Release.join(pending[t], r);
        }
    }

    /**
     * Element-wise maximum (a new array, or one of the inputs when it already dominates: after a
     * barrier every thread that arrived holds the barrier's own array, not a copy of it each).
     */
    int[] join(int[] a, int[] b) {
        if (a == b || b == zero) {
            return a;
        }
        if (a == zero) {
            return b;
        }
        for (int i = 0; i < MEMOS; i++) {
            if (memoA[i] == a && memoB[i] == b) {
                return memoResult[i];
            }
        }
        int[] r = max(a, b);
        int i = memoNext;
        memoNext = (i + 1) & (MEMOS - 1);
        memoA[i] = a;
        memoB[i] = b;
        memoResult[i] = r;
        return r;
    }

    static int[] max(int[] a, int[] b) {
        int n = a.length;
        boolean aGreater = false;
        int i = 0;
        for (; i < n && b[i] <= a[i]; i++) {
            aGreater |= a[i] > b[i];
        }
        if (i == n) {
            return a;
        }
        if (!aGreater) {
            // b is greater at i and nowhere smaller before: the maximum unless a is greater after.
            int j = i + 1;
            while (j < n && a[j] <= b[j]) {
                j++;
            }
            if (j == n) {
                return b;
            }
        }
        int[] r = a.clone();
        for (int k = i; k < n; k++) {
            if (b[k] > r[k]) {
                r[k] = b[k];
            }
        }
        return r;
    }

    int[] zero() {
        return zero;
    }
}
