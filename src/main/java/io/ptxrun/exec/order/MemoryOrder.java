package io.ptxrun.exec.order;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The ordering part of the memory model for one worker (one cluster in flight at a time): every
 * checked access, barrier, mbarrier phase, async copy and atomic of the interpreter passes through
 * here. Threads and their async agents are named by their slot in the cluster ({@link
 * ThreadClocks}); memories by space and, for shared memory, the cluster rank of the CTA that owns
 * them. What is found goes to this worker's {@link HazardLog}.
 */
public final class MemoryOrder {
    public static final int SHARED = 0, GLOBAL = 1;

    /** What all workers of one launch share: global memory's shadow and its atomics' releases. */
    public static final class Launch {
        final ShadowMemory global;
        final ConcurrentHashMap<Long, Release> released = new ConcurrentHashMap<>();
        /** Releases at .cta or .cluster scope: only the threads of that CTA or cluster acquire them. */
        final ConcurrentHashMap<ScopedSite, Release> releasedInScope = new ConcurrentHashMap<>();

        /**
         * {@code shadowBytes}: what the shadow of global memory may take (8 bytes a byte touched);
         * {@code workers}: how many run the launch's clusters at once.
         */
        public Launch(long shadowBytes, int workers) {
            this(shadowBytes, workers, List.of());
        }

        /** {@code uninitialized}: byte ranges {start, end} of global memory the program has not set. */
        public Launch(long shadowBytes, int workers, List<long[]> uninitialized) {
            this(shadowBytes, workers, uninitialized, false);
        }

        /**
         * {@code clustersUnordered}: no instruction of the program can order threads of two
         * clusters (no atomic, no strong access), so no thread ever learns of another cluster's
         * accesses ({@link ShadowMemory#global}).
         */
        public Launch(long shadowBytes, int workers, List<long[]> uninitialized, boolean clustersUnordered) {
            this.global = ShadowMemory.global(shadowBytes, workers, uninitialized, clustersUnordered);
        }

        /** Whether some global accesses went unchecked because the shadow reached its allowance. */
        public boolean shadowFull() {
            return global.full();
        }
    }

    private final Launch launch;
    private final int threadsPerCta;
    private final ThreadClocks clocks;
    private final ShadowMemory[] shared;
    private final Actor actor = new Actor();
    private final ShadowMemory.Found found = new ShadowMemory.Found();
    private final HazardLog log;
    /** The sixteen CTA barriers of each CTA, the cluster barrier, and every mbarrier's phases. */
    private final Joiner[] barriers;
    private final Joiner clusterBarrier = new Joiner();
    private Release clusterReleased;
    /** By CTA rank, by offset / 8 (an mbarrier object is 8-byte aligned): made on first use. */
    private final Phases[][] mbarriers;
    /** Releases at shared-memory atomics of the cluster in flight, by rank and offset. */
    private final Map<Long, Release> sharedReleased = new HashMap<>();
    /** The cluster's shared-memory releases at .cta scope (a .cluster one reaches the whole cluster). */
    private final Map<ScopedSite, Release> sharedReleasedInScope = new HashMap<>();

    /**
     * A location's releases made at a scope narrower than the GPU, by threads of one domain: a
     * CTA ({@code domain} 2 * its launch-wide index + 1) or a cluster (2 * its index).
     */
    record ScopedSite(long key, long domain) {}

    private final int clusterSize;
    private final boolean[] casCompared;
    /** Per thread: the agent counter at the end of each recent cp.async and bulk async-group. */
    private final int[][] copyGroupEnds, bulkGroupEnds;
    private static final int GROUPS_KEPT = 32;
    private boolean globalOverflow;
    // The last answer of sharedKnowledge and what it was asked (the clocks' version included).
    private int askedSlot = -1, askedLanes, askedVersion;
    private int[] commonKnown;

    /** The arrivals of an mbarrier's current phase and what its last completed phase released. */
    private static final class Phases {
        final Joiner current = new Joiner();
        Release completed;
    }

    public MemoryOrder(Launch launch, int threadsPerCta, int clusterSize) {
        this(launch, threadsPerCta, clusterSize, new boolean[0]);
    }

    /**
     * {@code casCompared}: by instruction, the plain loads whose value an atom.cas of the same
     * function compares against (the compare-and-swap loop idiom: read plainly, then let the CAS
     * check the value read). Only their reads of what unordered atomics write are no race; any
     * other plain read of such a value is one (a histogram's bins read back without a barrier
     * after other threads' atomicAdds).
     */
    public MemoryOrder(Launch launch, int threadsPerCta, int clusterSize, boolean[] casCompared) {
        this.casCompared = casCompared;
        this.launch = launch;
        this.log = new HazardLog(2 * threadsPerCta * clusterSize, threadsPerCta);
        this.threadsPerCta = threadsPerCta;
        int threads = threadsPerCta * clusterSize;
        this.clusterSize = clusterSize;
        this.clocks = new ThreadClocks(threads);
        this.shared = new ShadowMemory[clusterSize];
        for (int r = 0; r < clusterSize; r++) {
            shared[r] = ShadowMemory.shared();
        }
        this.mbarriers = new Phases[clusterSize][0];
        this.barriers = new Joiner[clusterSize * 16];
        for (int i = 0; i < barriers.length; i++) {
            barriers[i] = new Joiner();
        }
        this.copyGroupEnds = new int[threads][GROUPS_KEPT];
        this.bulkGroupEnds = new int[threads][GROUPS_KEPT];
        actor.slots = clocks.slots;
        actor.threadsPerCta = threadsPerCta;
    }

    /**
     * The writes into shared memory that async operations (cp.async, bulk and tensor copies,
     * st.async) were issued for and have not made yet. A copy in flight knows only what its
     * issuer knew when it was issued, so a log of reads ({@link ShadowMemory#closeLog}) that one
     * of them will overwrite is never dropped, however much the threads have learnt since.
     */
    public interface PendingWrites {
        /** Whether {@code test} holds for a write pending into the shared memory of CTA rank {@code rank}. */
        boolean any(int rank, PendingTest test);
    }

    /** A question about one pending write. */
    public interface PendingTest {
        /** Asked of the write of {@code size} bytes from {@code offset} that {@code copy} makes. */
        boolean test(long offset, int size, CopyOrigin copy);
    }

    /** Where this worker's async writes not yet made are found (none by default). */
    public void pendingWrites(PendingWrites pending) {
        for (int r = 0; r < shared.length; r++) {
            shared[r].pendingWrites(pending, r);
        }
    }

    public HazardLog log() {
        return log;
    }

    public int slotsPerCluster() {
        return clocks.slots;
    }

    /** Whether a thread's counter ran out (the detector then stops ordering that thread precisely). */
    public boolean saturated() {
        return clocks.saturated;
    }

    /** A new cluster starts: fresh clocks, shadows and synchronization state. */
    public void startCluster(int clusterIndex) {
        clocks.start(clusterIndex);
        for (ShadowMemory s : shared) {
            s.clear();
        }
        for (Joiner j : barriers) {
            j.take(clusterIndex);
        }
        clusterBarrier.take(clusterIndex);
        clusterReleased = null;
        for (Phases[] of : mbarriers) {
            java.util.Arrays.fill(of, null);
        }
        sharedReleased.clear();
        sharedReleasedInScope.clear();
        globalOverflow = (long) (clusterIndex + 1) * clocks.slots > Epochs.MAX_SLOT;
    }

    public int slot(int rank, int tid) {
        return rank * threadsPerCta + tid;
    }

    /** Thread t's counter: the one an access it makes now carries. */
    public int counter(int t) {
        return clocks.clock[t];
    }

    /**
     * What the threads of CTA rank {@code rank} know together (read only): slot s's accesses with a
     * counter up to element s happen before something one of them did.
     */
    public int[] knownByCta(int rank) {
        int first = rank * threadsPerCta;
        int[] k = clocks.known[first];
        for (int t = first + 1; t < first + threadsPerCta; t++) {
            // Threads that acquired the same thing share one array: join each distinct one once.
            if (clocks.known[t] != clocks.known[t - 1]) {
                k = ThreadClocks.max(k, clocks.known[t]);
            }
        }
        return k;
    }

    // ------------------------------------------------------------------ accesses

    private void asThread(int t, int pc, boolean strong) {
        asThread(t, pc, strong, Scopes.GPU);
    }

    private void asThread(int t, int pc, boolean strong, int scope) {
        Actor a = actor;
        a.self = t;
        a.base = clocks.base;
        a.known = clocks.known[t];
        a.ownAgent = clocks.threads + t;
        a.ownAgentKnown = clocks.agentKnown[t];
        a.foreign = clocks.foreign[t];
        a.issuer = -1;
        a.epoch = strong ? Epochs.of(clocks.base + t, clocks.clock[t], scope) : clocks.epoch(t, false);
        a.pc = pc;
        a.casCompared = casCompared(pc);
    }

    /**
     * A plain (weak) or strong access by thread {@code t} at instruction {@code pc} to {@code size}
     * bytes of global memory or of the shared memory of the CTA of rank {@code owner}.
     */
    public void access(int t, int pc, int space, int owner, long address, int size, boolean write, boolean strong) {
        asThread(t, pc, strong);
        check(space, owner, address, size, write, strong);
    }

    /**
     * The plain accesses of one warp instruction, as {@link #access} for each lane of {@code lanes}
     * in ascending order: thread {@code firstSlot + l} at instruction {@code pc} to {@code size}
     * bytes at {@code addresses[l]}.
     */
    public void accesses(int firstSlot, int lanes, int pc, int space, int owner, long[] addresses, int size,
            boolean write) {
        ShadowMemory memory = shadowOf(space, owner);
        if (memory == null) {
            return;
        }
        Actor a = actor;
        boolean cas = casCompared(pc);
        int m = lanes;
        if ((size == 4 || size == 8 || size == 16) && (space == SHARED || !write) && m != 0) {
            int[] known = sharedKnowledge(firstSlot, lanes);
            if (known != null) {
                m = space == GLOBAL ? memory.readGlobalWords(firstSlot, lanes, addresses, size, clocks, known, pc, a, cas)
                        : write ? memory.writeWords(firstSlot, lanes, addresses, size, clocks, known, pc)
                        : memory.readWords(firstSlot, lanes, addresses, size, clocks, known, pc, cas);
            }
        } else if (size == 2 && !write && m != 0) {
            int[] known = sharedKnowledge(firstSlot, lanes);
            if (known != null) {
                m = space == GLOBAL ? memory.readGlobalWords(firstSlot, lanes, addresses, 2, clocks, known, pc, a, cas)
                        : memory.readHalves(firstSlot, lanes, addresses, clocks, known, pc, cas);
            }
        }
        if (m != 0) {
            // asThread for each lane, with what is the same for all of them set once.
            a.base = clocks.base;
            a.issuer = -1;
            a.pc = pc;
            a.casCompared = cas;
        }
        while (m != 0) {
            m = memory.lanes(firstSlot, m, addresses, size, clocks, a, write, found);
            if (found.any()) {
                report(space, owner, write);
            }
        }
    }

    /**
     * The plain loads of one run of a compiled region, each by all 32 lanes of a warp from the
     * CTA's own shared memory at a register's value plus an offset (or an offset alone), every
     * address aligned and inside the memory (the region checked them first). A worker's own: it
     * keeps scratch space for {@link #sharedLoads}.
     */
    public static final class LoadRun {
        final int count;
        final int[] pcs, sizes;
        final long[] offsets;
        /** Per load: the index of its register among {@link #registers}, -1 for an offset alone. */
        final int[] registerOf;
        /** The distinct registers the loads take their addresses from. */
        final int[] registers;
        // Per register, during one call: its block of addresses in the log (-1: not yet), lowest and highest value.
        final int[] blockOf;
        final long[] low, high;

        /** The instruction of load k. */
        public int pc(int k) {
            return pcs[k];
        }

        /** How many loads the run holds. */
        public int count() {
            return count;
        }

        /** Load k: instruction pcs[k] reads sizes[k] bytes at register registers[k] (-1: none) plus offsets[k]. */
        public LoadRun(int[] pcs, int[] registers, long[] offsets, int[] sizes) {
            this.count = pcs.length;
            this.pcs = pcs;
            this.sizes = sizes;
            this.offsets = offsets;
            this.registerOf = new int[count];
            int[] distinct = java.util.Arrays.stream(registers).filter(r -> r >= 0).distinct().toArray();
            for (int k = 0; k < count; k++) {
                int r = registers[k];
                registerOf[k] = -1;
                for (int i = 0; i < distinct.length; i++) {
                    if (distinct[i] == r) {
                        registerOf[k] = i;
                    }
                }
            }
            this.registers = distinct;
            this.blockOf = new int[distinct.length];
            this.low = new long[distinct.length];
            this.high = new long[distinct.length];
        }
    }

    /**
     * The loads of {@code run} by the whole warp whose first thread is {@code firstSlot}, from the
     * shared memory of CTA rank {@code owner}, the lanes' registers at {@code regs[base + (r << 5)
     * + l]}: as {@link #accesses} for each in turn, as far as each can be logged at once
     * ({@link ShadowMemory#deferRun}). Returns how many were, from the first; the caller hands the
     * others to {@link #accesses} one by one.
     */
    public int sharedLoads(int firstSlot, int owner, long[] regs, int base, LoadRun run) {
        int[] known = sharedKnowledge(firstSlot, -1);
        int logged = known == null ? 0 : shared[owner].deferRun(firstSlot, regs, base, run, clocks, known, casCompared);
        sharedLoadsLogged += logged;
        return logged;
    }

    /** Tests: how many loads {@link #sharedLoads} logged at once. */
    int sharedLoadsLogged;

    /**
     * The knowledge array that the threads {@code firstSlot + l} for the lanes of {@code lanes} all
     * hold, with no other cluster's clocks; null when they do not. The last answer is kept while
     * the clocks' knowledge stays as it was (a warp's loads between two synchronizations ask alike).
     */
    private int[] sharedKnowledge(int firstSlot, int lanes) {
        if (firstSlot == askedSlot && lanes == askedLanes && clocks.version == askedVersion) {
            return commonKnown;
        }
        int[][] known = clocks.known;
        ForeignClocks[] foreign = clocks.foreign;
        int[] k = known[firstSlot + Integer.numberOfTrailingZeros(lanes)];
        for (int m = lanes; m != 0 && k != null; m &= m - 1) {
            int t = firstSlot + Integer.numberOfTrailingZeros(m);
            if (known[t] != k || foreign[t] != null) {
                k = null;
            }
        }
        askedSlot = firstSlot;
        askedLanes = lanes;
        askedVersion = clocks.version;
        return commonKnown = k;
    }

    /** The shadow of the space (of CTA rank owner for shared), or null when global accesses go unchecked. */
    private ShadowMemory shadowOf(int space, int owner) {
        if (space == GLOBAL) {
            return globalOverflow ? null : launch.global;
        }
        return shared[owner];
    }

    private void check(int space, int owner, long address, int size, boolean write, boolean strong) {
        ShadowMemory memory = shadowOf(space, owner);
        if (memory == null) {
            return;
        }
        if (memory.access(address, size, actor, write, strong, found)) {
            report(space, owner, write);
        }
    }

    private void report(int space, int owner, boolean write) {
        long second = Epochs.slot(actor.epoch);
        if (found.uninitialized) {
            log.add(new Conflict(space == GLOBAL ? "uninit.global" : "uninit.shared", "read", -1, -1, false,
                    actor.pc, second, false, space, packAddress(owner, found.address), -1));
            return;
        }
        long first = Epochs.slot(found.epoch);
        int threads = clocks.threads, slots = clocks.slots;
        boolean firstAgent = first % slots >= threads, secondAgent = second % slots >= threads;
        String rule;
        if (found.proxy) {
            rule = "async.missing-proxy-fence";
        } else if (firstAgent && !secondAgent && found.write && !write) {
            rule = "async.read-before-complete";
        } else if (!firstAgent && secondAgent && !found.write && write) {
            rule = "async.read-before-complete";
        } else if (firstAgent && !found.write && write) {
            rule = "async.overwrite-during-read";
        } else if (firstAgent && secondAgent && found.write && !write) {
            // An async operation (a wgmma's operand read) of what another one (a copy) writes.
            rule = "async.read-before-complete";
        } else if (space == GLOBAL) {
            rule = "race.global";
        } else {
            int firstRank = (int) (first % slots % threads) / threadsPerCta;
            int secondRank = (int) (second % slots % threads) / threadsPerCta;
            rule = firstRank != owner || secondRank != owner ? "race.dsmem" : "race.shared";
        }
        String kind = found.write && write ? "WAW" : found.write ? "RAW" : "WAR";
        log.add(new Conflict(rule, kind, found.pc, first, found.write, actor.pc, second, write, space,
                packAddress(owner, found.address),
                found.scoped ? Scopes.narrower(Epochs.scope(found.epoch), Epochs.scope(actor.epoch)) : -1));
    }

    /** Whether the plain load at pc is a compare-and-swap loop's read (see the constructor). */
    private boolean casCompared(int pc) {
        return pc >= 0 && pc < casCompared.length && casCompared[pc];
    }

    /** Shared addresses carry their owner's rank above the offset; global ones are plain. */
    private static long packAddress(int owner, long address) {
        return ((long) owner << 40) | address;
    }

    public static int rankOf(long packed) {
        return (int) (packed >>> 40);
    }

    public static long offsetOf(long packed) {
        return packed & ((1L << 40) - 1);
    }

    /**
     * A strong access (atomic, or ld/st with .relaxed, .acquire, .release or .volatile): never a
     * race with another strong one; a release hands the thread's knowledge to the location (a
     * relaxed write hands on what it had at its last fence), an acquire takes the location's (a
     * relaxed read keeps it for its next fence or barrier).
     */
    public void atomic(int t, int pc, int space, int owner, long address, int size, boolean reads, boolean writes,
            boolean acquire, boolean release, int scope) {
        asThread(t, pc, true, scope);
        if (reads && writes && space == GLOBAL && launch.global.uninitialized(address, size)) {
            // A read-modify-write of memory the program never set (a counter nobody zeroed).
            found.clear();
            found.uninitialized(address);
            report(space, owner, false);
        }
        check(space, owner, address, size, writes, true);
        if (reads) {
            Release r = releasedTo(t, scope, space, key(space, owner, address));
            if (r != null) {
                if (acquire) {
                    clocks.acquire(t, r);
                } else {
                    clocks.defer(t, r);
                }
            }
        }
    }

    /**
     * What thread t, reading the location {@code key} of {@code space} by a strong access at
     * {@code scope}, finds released there by writes it is morally strong with: the releases of
     * its own CTA's threads at any scope, of its cluster's at .cluster or wider when its own scope
     * is that wide, and of any thread at .gpu when its own is.
     */
    private Release releasedTo(int t, int scope, int space, long key) {
        Map<ScopedSite, Release> inScope = releasedInScope(space);
        Release r = inScope.isEmpty() ? null : inScope.get(new ScopedSite(key, domain(t, Scopes.CTA)));
        if (scope == Scopes.CTA) {
            return r;
        }
        if (space == SHARED) {
            // A cluster's shared memory: its map holds what reaches the cluster.
            return Release.join(r, sharedReleased.get(key));
        }
        if (!inScope.isEmpty()) {
            r = Release.join(r, inScope.get(new ScopedSite(key, domain(t, Scopes.CLUSTER))));
        }
        return scope == Scopes.CLUSTER ? r : Release.join(r, launch.released.get(key));
    }

    /**
     * The release half of a strong write, called before the write itself: a thread of another
     * cluster (another worker) that reads the new value must find what it releases. It is kept
     * for each set of readers that may acquire it ({@link #releasedTo}): the writer's CTA, its
     * cluster when it reaches that far, and every thread when it reaches the GPU.
     */
    public void releaseAt(int t, int space, int owner, long address, boolean release, int scope) {
        Release r = release ? clocks.release(t) : clocks.fencedRelease(t);
        if (r == null) {
            return;
        }
        // A relaxed write after a fence releases what the fence did, as far as both reach.
        int reach = release ? scope : Scopes.narrower(scope, clocks.fencedScope[t]);
        long key = key(space, owner, address);
        Map<ScopedSite, Release> inScope = releasedInScope(space);
        inScope.merge(new ScopedSite(key, domain(t, Scopes.CTA)), r, Release::join);
        if (reach == Scopes.CTA) {
            return;
        }
        if (space == SHARED) {
            sharedReleased.merge(key, r, Release::join);
            return;
        }
        inScope.merge(new ScopedSite(key, domain(t, Scopes.CLUSTER)), r, Release::join);
        if (reach == Scopes.GPU) {
            launch.released.merge(key, r, Release::join);
        }
    }

    private Map<ScopedSite, Release> releasedInScope(int space) {
        return space == GLOBAL ? launch.releasedInScope : sharedReleasedInScope;
    }

    /** The domain ({@link ScopedSite}) of thread t's CTA, or of its cluster. */
    private long domain(int t, int scope) {
        return scope == Scopes.CTA ? 2 * ((long) clocks.cluster * clusterSize + t / threadsPerCta) + 1
                : 2L * clocks.cluster;
    }

    /**
     * The counter of thread t by which its strong write just made is known to a thread that
     * acquires what the write released there: a release write's, the counter its release handed
     * on (the release ticked before the write); a relaxed write's after a fence with nothing
     * released since (the fence-then-relaxed release pattern), the counter at that fence, which
     * is what the write hands on; any other access's, its own counter.
     */
    public int handedOn(int t, boolean strongWrite, boolean release) {
        if (strongWrite && release) {
            return clocks.clock[t] - 1;
        }
        if (strongWrite && clocks.fenced[t] != null && clocks.clock[t] == clocks.fencedClock[t] + 1) {
            return clocks.fencedClock[t];
        }
        return clocks.clock[t];
    }

    private static long key(int space, int owner, long address) {
        return space == GLOBAL ? address : packAddress(owner, address);
    }

    /** fence.proxy.async by thread t. */
    public void proxyFence(int t) {
        clocks.proxyFence(t);
    }

    /** fence / membar (not the proxy fences): acquires deferred reads, marks what relaxed writes release. */
    public void fence(int t, int scope) {
        clocks.fence(t, scope);
    }

    // ------------------------------------------------------------------ barriers

    /**
     * The threads {@code firstSlot + l} for the lanes l of {@code lanes} (one warp) arrive at CTA
     * barrier {@code id} of their CTA.
     */
    public void barrierArrive(int firstSlot, int lanes, int id) {
        Joiner joiner = barriers[(firstSlot / threadsPerCta) * 16 + id];
        if (lanes == -1 && clocks.alike(firstSlot)) {
            joiner.arriveWarp(clocks, firstSlot);
            return;
        }
        for (int m = lanes; m != 0; m &= m - 1) {
            int t = firstSlot + Integer.numberOfTrailingZeros(m);
            settlePending(t);
            joiner.arrive(clocks, t);
        }
    }

    /** The threads {@code firstSlot + l} for the lanes l of {@code lanes} (one warp) exit. */
    public void exited(int firstSlot, int lanes) {
        for (int m = lanes; m != 0; m &= m - 1) {
            clocks.exited[firstSlot + Integer.numberOfTrailingZeros(m)] = true;
        }
    }

    /** The instance of CTA barrier {@code id} of CTA {@code rank} completed: what its waiters acquire. */
    public Release barrierComplete(int rank, int id) {
        return barriers[rank * 16 + id].take(clocks.cluster);
    }

    /**
     * The threads {@code firstSlot + l} for the lanes l of {@code lanes} (one warp) acquire what a
     * barrier released.
     */
    public void acquire(int firstSlot, int lanes, Release r) {
        if (lanes == -1 && clocks.acquireWarp(firstSlot, r)) {
            return;
        }
        for (int m = lanes; m != 0; m &= m - 1) {
            clocks.acquire(firstSlot + Integer.numberOfTrailingZeros(m), r);
        }
    }

    /** bar.warp.sync: the lanes in {@code slots} (one warp) order with each other. */
    public void warpSync(int firstSlot, int lanes) {
        Joiner j = new Joiner();
        for (int m = lanes; m != 0; m &= m - 1) {
            j.arrive(clocks, firstSlot + Integer.numberOfTrailingZeros(m));
        }
        Release r = j.take(clocks.cluster);
        for (int m = lanes; m != 0; m &= m - 1) {
            clocks.acquire(firstSlot + Integer.numberOfTrailingZeros(m), r);
        }
    }

    public void clusterArrive(int t, boolean relaxed) {
        if (relaxed) {
            // .relaxed: the arrive releases only what a fence before it did (9.7.13.3).
            clusterBarrier.arriveRelaxed(clocks, t);
            return;
        }
        settlePending(t);
        clusterBarrier.arrive(clocks, t);
    }

    public void clusterComplete() {
        clusterReleased = clusterBarrier.take(clocks.cluster);
    }

    /** barrier.cluster.wait (acquire by default) passes: the last completed phase's arrivals. */
    public void clusterWaited(int t, boolean relaxed) {
        if (relaxed) {
            clocks.defer(t, clusterReleased);
        } else {
            clocks.acquire(t, clusterReleased);
        }
    }

    private void settlePending(int t) {
        // A barrier after a relaxed atomic read acquires what it saw (as the "last block" pattern
        // of CUDA's threadFenceReduction relies on: atomicInc, then __syncthreads).
        if (clocks.pending[t] != null) {
            clocks.acquire(t, clocks.pending[t]);
            clocks.pending[t] = null;
        }
    }

    // ------------------------------------------------------------------ mbarriers

    private Phases phases(int owner, int offset) {
        Phases[] of = mbarriers[owner];
        int i = offset >>> 3;
        if (i >= of.length) {
            of = mbarriers[owner] = java.util.Arrays.copyOf(of, Math.max(i + 1, 2 * of.length));
        }
        Phases p = of[i];
        if (p == null) {
            p = of[i] = new Phases();
        }
        return p;
    }

    public void mbarrierInit(int owner, int offset) {
        Phases[] of = mbarriers[owner];
        if (offset >>> 3 < of.length) {
            of[offset >>> 3] = null;
        }
    }

    /** An arrive (release) by thread t on the mbarrier at {@code offset} of CTA {@code owner}. */
    public void mbarrierArrive(int t, int owner, int offset, boolean relaxed) {
        if (relaxed) {
            phases(owner, offset).current.arriveRelaxed(clocks, t);
            return;
        }
        settlePending(t);
        phases(owner, offset).current.arrive(clocks, t);
    }

    /** Complete-tx of an async copy: its writes are ordered before the phase's completion. */
    public void mbarrierCopyComplete(int owner, int offset, CopyOrigin copy) {
        phases(owner, offset).current.complete(clocks, copy.agent, copy.clock);
    }

    public void mbarrierPhaseComplete(int owner, int offset) {
        Phases p = phases(owner, offset);
        Release r = p.current.take(clocks.cluster);
        p.completed = r;
    }

    /**
     * A test_wait/try_wait of thread t saw the phase complete: it acquires that phase's arrivals
     * (a relaxed wait only for its next fence).
     */
    public void mbarrierWaited(int t, int owner, int offset, boolean relaxed) {
        Phases[] of = mbarriers[owner];
        Phases p = offset >>> 3 < of.length ? of[offset >>> 3] : null;
        if (p != null) {
            if (relaxed) {
                clocks.defer(t, p.completed);
            } else {
                clocks.acquire(t, p.completed);
            }
        }
    }

    // ------------------------------------------------------------------ async copies

    /** Where a copy comes from: its agent and counter, and what its issuer knew at issue. */
    public static final class CopyOrigin {
        final int agent, clock, issuer, issuerClock, pc;
        final int[] known;
        final ForeignClocks foreign;
        final long base;
        /** Bulk and tensor copies run in the async proxy: what their issuer had proxy-fenced. */
        int[] proxyFencedKnown;

        /** The slot of the async agent that makes the copy's accesses. */
        public int agent() {
            return agent;
        }

        /** The agent's counter that the copy's accesses carry. */
        public int clock() {
            return clock;
        }

        CopyOrigin(int agent, int clock, int issuer, int issuerClock, int pc, int[] known, ForeignClocks foreign,
                long base) {
            this.agent = agent;
            this.clock = clock;
            this.issuer = issuer;
            this.issuerClock = issuerClock;
            this.pc = pc;
            this.known = known;
            this.foreign = foreign;
            this.base = base;
        }
    }

    /** Thread t issues an async copy at {@code pc}: the copy's agent takes the next counter. */
    public CopyOrigin issue(int t, int pc) {
        int agent = clocks.threads + t;
        CopyOrigin o = new CopyOrigin(agent, clocks.clock[agent], t, clocks.clock[t], pc, clocks.known[t],
                clocks.foreign[t], clocks.base);
        clocks.tick(agent);
        clocks.tick(t);
        return o;
    }

    /**
     * A wgmma.mma_async of the warpgroup whose threads are {@code first .. first+count-1}: its
     * shared-memory operands are read by the async proxy (PTX ISA 9.7.15.3 "Async Proxy"), here
     * the async agent of the first thread. The operation starts once every thread of the
     * warpgroup has issued it, so it knows what any of them knew then, their own writes included;
     * a generic write is visible to it once its writer, or any of the threads after learning of
     * it, executed fence.proxy.async.
     */
    public CopyOrigin warpgroupIssue(int first, int count, int pc) {
        int[] known = clocks.knownOf(first);
        int[] proxyKnown = clocks.proxyFencedKnown[first];
        ForeignClocks foreign = clocks.foreign[first];
        for (int t = first + 1; t < first + count; t++) {
            known = clocks.join(known, clocks.knownOf(t));
            proxyKnown = ThreadClocks.max(proxyKnown, clocks.proxyFencedKnown[t]);
            foreign = ForeignClocks.merge(foreign, clocks.foreign[t], clocks.cluster);
        }
        known = known.clone();
        for (int t = first; t < first + count; t++) {
            known[t] = Math.max(known[t], clocks.clock[t]);
            clocks.tick(t);
        }
        int agent = clocks.threads + first;
        CopyOrigin o = new CopyOrigin(agent, clocks.clock[agent], first, clocks.clock[first], pc, known, foreign,
                clocks.base);
        o.proxyFencedKnown = proxyKnown;
        clocks.tick(agent);
        return o;
    }

    /** The counter of the last operation thread t's async agent took on (a group of them ends there). */
    public int agentClock(int t) {
        return clocks.clock[clocks.threads + t] - 1;
    }

    /** Thread t has seen the operations of {@code issuer}'s async agent up to {@code upTo} complete. */
    public void agentComplete(int t, int issuer, int upTo) {
        clocks.learn(t, clocks.threads + issuer, upTo);
    }

    private void asCopy(CopyOrigin o, boolean strong) {
        Actor a = actor;
        a.self = o.agent;
        a.base = o.base;
        a.known = o.known;
        a.ownAgent = -1;
        a.foreign = o.foreign;
        a.issuer = o.issuer;
        a.issuerClock = o.issuerClock;
        a.epoch = Epochs.of(o.base + o.agent, o.clock, strong);
        a.pc = o.pc;
        a.casCompared = false;
    }

    /** The copy reads its source (at issue; the agent keeps reading until it completes). */
    public void copyReads(CopyOrigin o, int space, int owner, long address, int size) {
        asCopy(o, false);
        if (o.proxyFencedKnown != null) {
            actor.proxyClocks = clocks;
            actor.proxyFencedKnown = o.proxyFencedKnown;
        }
        check(space, owner, address, size, false, false);
        actor.proxyClocks = null;
    }

    /** The copy is a bulk or tensor copy, whose reads are the async proxy's. */
    public void inAsyncProxy(CopyOrigin o) {
        o.proxyFencedKnown = clocks.proxyFencedKnown[o.issuer];
    }

    /** The copy's bytes land (a reduction's as a strong read-modify-write). */
    public void copyWrites(CopyOrigin o, int space, int owner, long address, int size, boolean strong) {
        asCopy(o, strong);
        check(space, owner, address, size, true, strong);
    }

    /** commit_group: the thread's copies issued so far form its newest group. */
    public void commit(int t, int group, boolean bulk) {
        (bulk ? bulkGroupEnds : copyGroupEnds)[t][group & (GROUPS_KEPT - 1)] = clocks.clock[clocks.threads + t] - 1;
    }

    /** wait_group: the thread's groups older than {@code before} have completed; it learns their writes. */
    public void groupsComplete(int t, int before, boolean bulk) {
        if (before <= 0) {
            return;
        }
        clocks.learn(t, clocks.threads + t, (bulk ? bulkGroupEnds : copyGroupEnds)[t][(before - 1) & (GROUPS_KEPT - 1)]);
    }

    /** What thread t's copies so far are covered by (cp.async.mbarrier.arrive fires once they land). */
    public CopyOrigin lastCopies(int t, int pc) {
        int agent = clocks.threads + t;
        return new CopyOrigin(agent, clocks.clock[agent] - 1, t, clocks.clock[t], pc, clocks.known[t],
                clocks.foreign[t], clocks.base);
    }

    /**
     * Tests: shared-memory reads logged are always recorded in the end, never dropped, so that the
     * shadow's records come out as if each had been recorded when made ({@link ShadowMemory#readWords}).
     */
    void replayLoggedReads() {
        for (ShadowMemory s : shared) {
            s.replayAlways = true;
        }
    }

    /** Tests: how many logs of shared-memory reads CTA rank {@code owner}'s shadow dropped. */
    long logsDropped(int owner) {
        return shared[owner].logsDropped();
    }

    /** What the shadow remembers of one byte ({@link ShadowMemory#record}). */
    long[] shadowRecord(int space, int owner, long address) {
        return (space == GLOBAL ? launch.global : shared[owner]).record(address);
    }

    /** Engine-written state (mbarrier objects): marks the bytes written by thread t, unchecked. */
    public void mark(int t, int pc, int owner, long offset, int size) {
        asThread(t, pc, true);
        shared[owner].mark(offset, size, actor);
    }
}
