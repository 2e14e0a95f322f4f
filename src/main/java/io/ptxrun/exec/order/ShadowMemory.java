package io.ptxrun.exec.order;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Per byte of one memory: the epoch and instruction of the last write and of up to two reads since
 * that are not ordered before each other. Pages are made on first touch. The shadow of global
 * memory is shared by the workers that run clusters at once, so its pages are locked for each
 * access when there are several; a CTA's shared memory belongs to one worker.
 */
final class ShadowMemory {
    private static final int PAGE_BITS = 12;
    private static final int PAGE = 1 << PAGE_BITS;

    /**
     * A page of shadow: one cell of four longs per aligned 4-byte word (the write's epoch, two
     * reads' epochs, and the three instructions packed in 21 bits each), since most accesses are
     * whole words; a word that an access covers only in part is split into a cell per byte until
     * a whole-word write joins it again.
     */
    private static final class Page {
        final long[] words = new long[PAGE];
        long[][] split;
        /**
         * A CTA's shared memory only, made on first need (see {@link #readWords}): per word, the
         * thread slot + 1 of its first read when the word is settled for the readers that hold
         * {@link #settledFor}, else 0; and the last read of it not yet written into its cell
         * ({@link #packRead}), else 0.
         */
        int[] settled;
        int[] settledFor;
        long[] pending;
        /**
         * A CTA's shared memory only: a bit per word that {@link #defer} or {@link #deferRun}
         * found fit to log in the log numbered {@link #verifiedIn}: a whole word, written,
         * covered by the log's knowledge. The cells do not change while a log is open, so a word
         * found fit stays so until it closes.
         */
        long[] verified;
        long verifiedIn;
        /** A CTA's shared memory only: a bit per word that a read of the log numbered {@link #readIn} touched ({@link #logged}). */
        long[] read;
        long readIn;
        /** The log in which {@link #rangeFit} found a word of this page unfit. */
        long rangeUnfitIn;
    }

    private static final int PC_BITS = 21;
    private static final long PC_MASK = (1L << PC_BITS) - 1;

    private static int pc(long pcs, int k) {
        return (int) ((pcs >>> (k * PC_BITS)) & PC_MASK);
    }

    private static long withPc(long pcs, int k, int pc) {
        return (pcs & ~(PC_MASK << (k * PC_BITS))) | ((pc & PC_MASK) << (k * PC_BITS));
    }

    /** A thread's plain read of a settled word, waiting in {@link Page#pending}: slot + 1, counter, instruction. */
    private static long packRead(int slot, int clock, int pc) {
        return ((long) (slot + 1) << (Epochs.CLOCK_BITS + PC_BITS)) | ((long) clock << PC_BITS) | (pc & PC_MASK);
    }

    /**
     * Brings the cell of the word at byte b of the page up to date (its waiting read written in,
     * as {@link #read} would have, second) and unsettles the word: whatever reads or changes
     * the cell but {@link #readWords}'s settled reads calls this first.
     */
    private void settle(Page p, int b) {
        if (p.pending == null) {
            return;
        }
        int word = b >> 2;
        long r = p.pending[word];
        if (r != 0) {
            int i = word << 2;
            int slot = (int) (r >>> (Epochs.CLOCK_BITS + PC_BITS)) - 1;
            p.words[i + 2] = Epochs.of(pendingBase + slot, (int) ((r >>> PC_BITS) & Epochs.MAX_CLOCK), false);
            p.words[i + 3] = withPc(p.words[i + 3], 2, (int) (r & PC_MASK));
            p.pending[word] = 0;
        }
        if (p.settled[word] != 0) {
            p.settled[word] = 0;
            unsettled++;
        }
    }

    /** The launch-wide slot of the cluster's slot 0 for the reads waiting in pages (one cluster at a time). */
    private long pendingBase;

    /** Global memory's shadow: pages looked up by number in a map (and each worker's recent ones), not in an array. */
    private final boolean global;
    /** Whether several workers share the shadow: each access then locks its page. */
    private final boolean locked;
    private final boolean initialized;
    private Page[] dense = new Page[0];
    private final ConcurrentHashMap<Long, Page> sparse;
    /** Bytes of shadow global memory may take (it counts against the launch's memory budget). */
    private final java.util.concurrent.atomic.AtomicLong allowance = new java.util.concurrent.atomic.AtomicLong(Long.MAX_VALUE);
    private volatile boolean full;

    private ShadowMemory(boolean global, boolean locked, boolean initialized) {
        this.global = global;
        this.locked = locked;
        this.initialized = initialized;
        this.sparse = global ? new ConcurrentHashMap<>() : null;
    }

    /**
     * Global memory: every byte holds a value from the launch. Shared by all workers, {@code
     * workers} of them; at most {@code bytes} of shadow. (On one worker no page is locked: a lock
     * is a full memory fence, which waits for the record stores that missed the cache before it.)
     */
    static ShadowMemory global(long bytes, int workers, java.util.List<long[]> uninitialized, boolean clustersUnordered) {
        ShadowMemory s = new ShadowMemory(true, workers > 1, true);
        s.allowance.set(bytes);
        s.uninitialized = uninitialized.toArray(new long[0][]);
        s.foreignReadsSuffice = workers > 1 && clustersUnordered;
        return s;
    }

    /**
     * Several workers, and no thread can learn of another cluster's accesses: a plain read of a
     * whole word whose cell already holds two reads by two other clusters is not recorded.
     *
     * <p>Any later write, by a thread of any cluster, knows at most one of those two reads, so it
     * is found to race with the other. Recorded, this read would take the second's place beside
     * the first, and again the write would know at most one of the two (they are of two clusters
     * too) and race with the other. So the same writes race, with the same first read where they
     * do not know it; the one difference is which read a report names second, and which cluster's
     * read comes last depends on how the workers' runs interleave anyway. What
     * it saves is the shared cells of the words that clusters running at once all read (a GEMM's
     * tiles of A), which each record would move from one processor's cache to the other's. On one
     * worker every read is recorded, as before.
     */
    private boolean foreignReadsSuffice;

    /** Global memory only: byte ranges {start, end} the program has not set, their words {@link Epochs#UNDEFINED} in a new page. */
    private long[][] uninitialized = new long[0][];

    /** A new page of global memory's shadow at {@code pageBase}: the words of uninitialized ranges are so marked. */
    private Page newGlobalPage(long pageBase) {
        Page p = new Page();
        for (long[] r : uninitialized) {
            long from = Math.max(r[0], pageBase), to = Math.min(r[1], pageBase + PAGE);
            for (long a = from & ~3L; a < to; a += 4) {
                p.words[(int) (a - pageBase)] = Epochs.UNDEFINED;
            }
        }
        return p;
    }

    /** Whether a byte of the {@code size} at {@code address} of global memory is still as the program never set it. */
    boolean uninitialized(long address, int size) {
        if (uninitialized.length == 0) {
            return false;
        }
        for (long a = address; a < address + size; a++) {
            // A byte whose page is not made yet is as the launch left it.
            long[] c = record(a);
            if (c == null ? inUninitializedRange(a) : c[0] == Epochs.UNDEFINED) {
                return true;
            }
        }
        return false;
    }

    private boolean inUninitializedRange(long a) {
        for (long[] r : uninitialized) {
            if (a >= r[0] && a < r[1]) {
                return true;
            }
        }
        return false;
    }

    /** Whether a page could not be made within the allowance (accesses there go unchecked). */
    boolean full() {
        return full;
    }

    /** A CTA's shared memory: undefined until written. */
    static ShadowMemory shared() {
        return new ShadowMemory(false, false, false);
    }

    /** Forgets everything (a new CTA reuses the object). */
    void clear() {
        java.util.Arrays.fill(dense, null);
        unsettled++;
        // The reads logged were ordered with nothing that comes now.
        logKnown = null;
        if (log != null) {
            log.clear();
        }
    }

    private Page page(long address, Actor a) {
        long n = address >>> PAGE_BITS;
        if (global) {
            // Each worker remembers the pages it touched lately: a warp's loads from two
            // matrices alternate between two of them.
            int k = Actor.pageSlot(n);
            if (a.pagesOf == this && a.pageNumbers[k] == n) {
                return (Page) a.pages[k];
            }
            Page p = sparse.get(n);
            if (p == null) {
                if (allowance.addAndGet(-PAGE * 8L) < 0) {
                    full = true;
                    return null;
                }
                p = sparse.computeIfAbsent(n, key -> newGlobalPage(key << PAGE_BITS));
            }
            if (a.pagesOf != this) {
                java.util.Arrays.fill(a.pageNumbers, -1);
                a.pagesOf = this;
            }
            a.pageNumbers[k] = n;
            a.pages[k] = p;
            return p;
        }
        if (n >= dense.length) {
            dense = java.util.Arrays.copyOf(dense, (int) Math.max(n + 1, dense.length * 2L));
        }
        Page p = dense[(int) n];
        if (p == null) {
            p = dense[(int) n] = new Page();
        }
        return p;
    }

    /**
     * Checks an access of {@code size} bytes at {@code address} by {@code a} against the
     * remembered ones and records it. The first conflict (or an uninitialized byte) is left in
     * {@code found}; returns whether there was one.
     */
    boolean access(long address, int size, Actor a, boolean write, boolean strong, Found found) {
        closeLog();
        found.clear();
        // The actor is the same for every byte of the access: what it knows is asked once an epoch.
        a.forget();
        if (size == 4 && (address & 3) == 0) {
            // The commonest access, one aligned word: its page and cell directly.
            Page p = page(address, a);
            if (p != null) {
                int b = (int) (address & (PAGE - 1));
                if (locked) {
                    synchronized (p) {
                        word(p, b, a, write, strong, found, address - b);
                    }
                } else {
                    word(p, b, a, write, strong, found, address - b);
                }
            }
            return found.any();
        }
        if ((size == 8 || size == 16) && (address & (size - 1)) == 0) {
            // Two or four aligned words (a vector access, a 16-byte copy): word by word.
            Page p = page(address, a);
            if (p != null) {
                int b = (int) (address & (PAGE - 1));
                if (locked) {
                    synchronized (p) {
                        for (int k = 0; k < size; k += 4) {
                            word(p, b + k, a, write, strong, found, address - b);
                        }
                    }
                } else {
                    for (int k = 0; k < size; k += 4) {
                        word(p, b + k, a, write, strong, found, address - b);
                    }
                }
            }
            return found.any();
        }
        long end = address + size;
        for (long at = address; at < end; ) {
            Page p = page(at, a);
            int from = (int) (at & (PAGE - 1));
            int to = (int) Math.min(PAGE, from + (end - at));
            if (p == null) {
                at += to - from;
                continue;
            }
            if (locked) {
                synchronized (p) {
                    bytes(p, from, to, a, write, strong, found, at - from);
                }
            } else {
                bytes(p, from, to, a, write, strong, found, at - from);
            }
            at += to - from;
        }
        return found.any();
    }

    /**
     * The plain accesses of one warp instruction by the threads {@code firstSlot + l} for the lanes
     * {@code l} of {@code lanes}, in ascending order, each as {@link #access} at {@code
     * addresses[l]}, until one finds something: returns the lanes left after it (0 once all are
     * done), with the actor and {@code found} as that lane left them. The loop lives here, with
     * the aligned word of a CTA's shared memory looked up in line, so that the JIT compiles a
     * warp's checks as one method rather than a call per lane into {@link #access}.
     */
    int lanes(int firstSlot, int lanes, long[] addresses, int size, ThreadClocks clocks, Actor a, boolean write,
            Found found) {
        closeLog();
        found.clear();
        for (int m = lanes; m != 0; ) {
            int l = Integer.numberOfTrailingZeros(m);
            long address = addresses[l];
            if (size != 4 || (address & 3) != 0) {
                m &= m - 1;
                asLane(firstSlot + l, clocks, a);
                access(address, size, a, write, false, found);
            } else {
                Page p = page(address, a);
                if (p == null) {
                    // Past the shadow's allowance: unchecked, as access leaves it.
                    m &= m - 1;
                    continue;
                }
                if (locked) {
                    synchronized (p) {
                        m = wordLanes(p, firstSlot, m, addresses, clocks, a, write, found);
                    }
                } else {
                    m = wordLanes(p, firstSlot, m, addresses, clocks, a, write, found);
                }
            }
            if (found.any()) {
                return m;
            }
        }
        return 0;
    }

    /**
     * {@link #lanes} for plain reads of {@code size} bytes (4, 8 or 16, aligned: whole words) of a
     * CTA's shared memory, by threads that all hold the knowledge array {@code known} and no other
     * cluster's clocks (so, after a barrier, a warp's lanes): each lane's checks and records as
     * {@link #cell}, and {@link #sameWordReads} for single words, make them, without the actor,
     * as long as it finds nothing and needs nothing more. Returns the lanes left (0 once all are
     * done) from the first lane with a word misaligned, split, not yet shadowed, unwritten,
     * written by what the thread may not know or by another cluster: nothing is recorded for that
     * lane, and {@link #lanes} does the rest.
     *
     * <p>Most reads of a word in a barrier interval (a tile that the threads of a GEMM read 16
     * times each) find the same: its write known through {@code known}, its first read by
     * another thread that {@code known} does not cover. For each of them {@link #read} only puts
     * the reader second. Such a word is marked settled for {@code known} with its first reader,
     * and the later reads by other threads that hold {@code known} only leave themselves waiting
     * in a small array of the page, which {@link #settle} writes into the cell before anything
     * else looks at it: the cells, far apart in memory, are not touched again.
     *
     * <p>Reads that can find nothing are not even recorded yet but logged ({@link #defer}): most
     * are never needed.
     */
    int readWords(int firstSlot, int lanes, long[] addresses, int size, ThreadClocks clocks, int[] known, int pc,
            boolean casCompared) {
        if (defer(firstSlot, lanes, addresses, size, clocks, known, pc, casCompared)) {
            return 0;
        }
        closeLog();
        return readNow(firstSlot, lanes, addresses, size, clocks, clocks.clock, known, pc, casCompared);
    }

    /** {@link #readWords} done now, the threads' counters taken from {@code clock} (by slot). */
    private int readNow(int firstSlot, int lanes, long[] addresses, int size, ThreadClocks clocks, int[] clock,
            int[] known, int pc, boolean casCompared) {
        long base = clocks.base;
        int slots = clocks.slots, threads = clocks.threads;
        int[] agentKnown = clocks.agentKnown;
        Page[] pages = dense;
        pendingBase = base;
        SettledRead repeat = pc < settledReads.length ? settledReads[pc] : null;
        if (repeat != null && repeat.repeatedBy(firstSlot, lanes, addresses, size, known, unsettled)) {
            // Every lane's words are settled for it (see SettledRead): each only waits, as below,
            // and of the lanes that read the same words only the last one's read stays.
            repeat.findLastReaders();
            int[] lastLanes = repeat.lastLanes, lastPages = repeat.lastPages, lastWords = repeat.lastWords;
            for (int i = 0, n = repeat.lastCount; i < n; i++) {
                int t = firstSlot + lastLanes[i];
                long r = packRead(t, clock[t], pc);
                long[] pending = pages[lastPages[i]].pending;
                for (int word = lastWords[i], end = word + (size >> 2); word < end; word++) {
                    pending[word] = r;
                }
            }
            return 0;
        }
        boolean sharedWords = false;
        // Found on first need (-1 until then): most reads have no two neighbours at one address.
        int sameAsNext = -1;
        for (int m = lanes; m != 0; ) {
            int l = Integer.numberOfTrailingZeros(m);
            long address = addresses[l];
            long n = address >>> PAGE_BITS;
            if ((address & (size - 1)) != 0 || n >= pages.length || pages[(int) n] == null) {
                return m;
            }
            Page p = pages[(int) n];
            int from = (int) (address & (PAGE - 1));
            int t = firstSlot + l;
            if (p.settledFor == known && settledFor(p, from, size, t)) {
                sharedWords = true;
                m &= m - 1;
                // The lanes next that read the same words the same way (up to a first reader of
                // one of them): only the last one's read stays waiting.
                int end = l;
                if (m != 0 && addresses[Integer.numberOfTrailingZeros(m)] == address) {
                    if (lanes == -1 && sameAsNext < 0) {
                        sameAsNext = sameAsNext(addresses);
                    }
                    end = runEnd(l, m, address, addresses, lanes, sameAsNext);
                }
                for (int b = from; b < from + size && end > l; b += 4) {
                    int first = p.settled[b >> 2] - 1 - firstSlot;
                    if (first > l && first <= end) {
                        int before = m & ((1 << first) - 1);
                        end = before == 0 ? l : 31 - Integer.numberOfLeadingZeros(before);
                    }
                }
                m &= ~((2 << end) - 1);
                t = firstSlot + end;
                long r = packRead(t, clock[t], pc);
                for (int b = from; b < from + size; b += 4) {
                    p.pending[b >> 2] = r;
                }
                continue;
            }
            long[] c = p.words;
            for (int b = from; b < from + size; b += 4) {
                settle(p, b);
                long w = c[b];
                if (p.split != null && p.split[b >> 2] != null || w == 0
                        || (w > 0 || !casCompared) && !knownTo(w, t, base, slots, threads, known, agentKnown)) {
                    return m;
                }
            }
            long e = Epochs.of(base + t, clock[t], false);
            for (int b = from; b < from + size; b += 4) {
                readBy(c, b, e, pc, t, base, slots, threads, known, agentKnown);
                settleFor(p, b, known, base, threads);
            }
            m &= m - 1;
            // The lanes next that read the same word, as sameWordReads finds them: the last one's
            // read stays, second.
            long w = c[from];
            if (size == 4 && m != 0 && addresses[Integer.numberOfTrailingZeros(m)] == address && c[from + 1] == e
                    && Epochs.clock(e) > known[t]
                    && (w < 0 && casCompared || Epochs.clock(w) <= known[(int) (Epochs.slot(w) - base)])) {
                if (lanes == -1 && sameAsNext < 0) {
                    sameAsNext = sameAsNext(addresses);
                }
                int end = runEnd(l, m, address, addresses, lanes, sameAsNext);
                m &= ~((2 << end) - 1);
                c[from + 2] = Epochs.of(base + firstSlot + end, clock[firstSlot + end], false);
                c[from + 3] = withPc(c[from + 3], 2, pc);
            }
        }
        if (sharedWords) {
            // Words that other threads read first: words that other warps may read alike.
            rememberSettled(lanes, addresses, size, known, pc);
        }
        return 0;
    }

    // ------------------------------------------------------------------ deferred reads

    /** The knowledge array the reads in {@link #log} were made with; null while nothing is logged. */
    private int[] logKnown;
    private ThreadClocks logClocks;
    private ReadLog log;
    /** Numbers the logs opened: a page's {@link Page#verified} bits hold for the log of its number only. */
    private long logNumber;
    /** How often a log was dropped and how often replayed: logging stops paying where it is mostly replayed. */
    private long dropped, replayed;
    /** A replayed read's addresses, and its threads' counters by slot. */
    private long[] replayAddresses;
    private int[] replayClock;
    /** Never drop a log (tests: the cells then come out as if no read had been logged). */
    boolean replayAlways;

    /** How many logs were dropped (tests: that the reads of a barrier interval are). */
    long logsDropped() {
        return dropped;
    }

    /**
     * Logs the reads of a warp instruction ({@link #readWords}) instead of recording them, where
     * that is exact ({@link ReadLog}): the threads hold the knowledge array the log was opened
     * with (a new array closes the log and opens another), and each lane reads aligned, written
     * whole words (of pages with no split word) or halves of split words, of made pages, whose
     * writes the array covers. Returns false, with the log closed, where not.
     */
    private boolean defer(int firstSlot, int lanes, long[] addresses, int size, ThreadClocks clocks, int[] known,
            int pc, boolean casCompared) {
        if (global || replayed > dropped + 64) {
            return false;
        }
        ReadLog log = openLog(known, clocks, 1);
        int held = log.holding(pc, lanes, addresses, size);
        if (held < 0) {
            // Each lane's words, once for a run of lanes at one address.
            long previous = -1;
            if (lanes == -1) {
                for (int l = 0; l < 32; l++) {
                    long address = addresses[l];
                    if (address != previous) {
                        previous = address;
                        if (!fitToLog(address, size, clocks.base, clocks.slots, known)) {
                            closeLog();
                            return false;
                        }
                    }
                }
            } else {
                for (int m = lanes; m != 0; m &= m - 1) {
                    long address = addresses[Integer.numberOfTrailingZeros(m)];
                    if (address != previous) {
                        previous = address;
                        if (!fitToLog(address, size, clocks.base, clocks.slots, known)) {
                            closeLog();
                            return false;
                        }
                    }
                }
            }
        }
        log.add(firstSlot, lanes, addresses, size, clocks.clock, pc, casCompared, held);
        return true;
    }

    /**
     * The log that reads by threads holding {@code known} go to, with room for {@code entries}
     * more: the open one, else a new one (the open one closed first). A log kept for long, a
     * table read over and over with no barrier, is closed at a bound: it holds a warp's addresses
     * per entry.
     */
    private ReadLog openLog(int[] known, ThreadClocks clocks, int entries) {
        if (log == null) {
            log = new ReadLog();
        }
        if (logKnown != known || log.count + entries > ReadLog.MAX_ENTRIES) {
            closeLog();
            logKnown = known;
            logClocks = clocks;
            logNumber++;
        }
        return log;
    }

    /**
     * Whether the {@code size} bytes a lane reads at {@code address} are fit to log ({@link
     * #defer}): aligned, on a made page, whole words of a page with no split word or half a split
     * word, written by what {@code known} covers. Whole words found so are marked for the open log.
     */
    private boolean fitToLog(long address, int size, long base, int slots, int[] known) {
        Page[] pages = dense;
        long n = address >>> PAGE_BITS;
        if ((address & (size - 1)) != 0 || n >= pages.length || pages[(int) n] == null) {
            return false;
        }
        Page p = pages[(int) n];
        long[] c = p.words;
        int b = (int) (address & (PAGE - 1));
        if (size == 2) {
            // The half's two byte cells. (A whole word is split by its first half read,
            // which a word read of it logged later would not find: not logged.)
            long[] sp = p.split == null ? null : p.split[b >> 2];
            if (sp == null) {
                return false;
            }
            c = sp;
            b = (b & 3) << 2;
        } else if (p.split != null) {
            return false;
        } else if (p.verifiedIn == logNumber) {
            // Whole words (1, 2 or 4, aligned: within one long of the bits).
            int word = b >> 2;
            long bits = ((1L << (size >> 2)) - 1) << word;
            if ((p.verified[word >> 6] & bits) == bits) {
                return true;
            }
        }
        int end = size == 2 ? b + 8 : b + size;
        do {
            if (!fit(c[b], base, slots, known)) {
                return false;
            }
            b += 4;
        } while (b < end);
        if (size != 2) {
            int word = (int) (address & (PAGE - 1)) >> 2;
            p.verified = bits(p.verified, p.verifiedIn, word, word + (size >> 2));
            p.verifiedIn = logNumber;
        }
        return true;
    }

    /**
     * Closes the log of deferred reads: dropped where every thread of the cluster knows them all
     * and no async write still pending will land on a word they read (then no later access can
     * conflict with one), else recorded in order as {@link #readWords} would
     * have when they were made, with the counters the threads had then. Whatever looks at or
     * changes the cells of a CTA's shared memory calls this first.
     */
    void closeLog() {
        int[] known = logKnown;
        if (known == null) {
            return;
        }
        logKnown = null;
        ReadLog log = this.log;
        if (log.count == 0) {
            return;
        }
        ThreadClocks clocks = logClocks;
        if (!replayAlways && log.knownToAll(clocks) && !overwrittenUnknowing(log)) {
            dropped++;
        } else {
            replayed++;
            if (replayClock == null || replayClock.length != clocks.slots) {
                replayClock = new int[clocks.slots];
                replayAddresses = new long[32];
            }
            for (int e = 0; e < log.count; e++) {
                log.addresses(e, replayAddresses);
                log.clocks(e, replayClock);
                // Nothing the checks look at has changed since the read was logged, when each
                // lane's words were found to need no more than a record: none is left over.
                if (log.size(e) == 2) {
                    halvesNow(log.firstSlot(e), log.lanes(e), replayAddresses, clocks, replayClock, known, log.pc(e),
                            log.casCompared(e));
                } else {
                    readNow(log.firstSlot(e), log.lanes(e), replayAddresses, log.size(e), clocks, replayClock,
                            known, log.pc(e), log.casCompared(e));
                }
            }
        }
        log.clear();
    }

    /**
     * Logs the loads of a compiled run ({@link MemoryOrder#sharedLoads}) as {@link #defer} logs a
     * warp instruction, each without looking at its lanes one by one: the words from the lowest
     * lane's address to the highest one's (the register's lowest and highest value, plus the
     * load's offset) must all be fit to log, found so earlier in the open log or now. Most runs
     * read rows or columns of a tile, whose words between are read by other loads or warps
     * anyway. Each register's addresses are kept once, and each load's entry is the register's
     * block plus its offset. Returns how many loads were logged, from the first; the first that
     * cannot be (its words between not all fit, on two pages, of a split page, not whole words)
     * and those after it are the caller's.
     */
    int deferRun(int firstSlot, long[] regs, int base, MemoryOrder.LoadRun run, ThreadClocks clocks, int[] known,
            boolean[] casCompared) {
        if (global || replayed > dropped + 64) {
            return 0;
        }
        ReadLog log = openLog(known, clocks, run.count);
        java.util.Arrays.fill(run.blockOf, -1);
        int clockBlock = -1, zeros = -1;
        for (int k = 0; k < run.count; k++) {
            int size = run.sizes[k], r = run.registerOf[k];
            if (size != 4 && size != 8 && size != 16) {
                return k;
            }
            long low = 0, high = 0;
            int block;
            if (r < 0) {
                if (zeros < 0) {
                    zeros = log.addressBlock(new long[32], 0);
                }
                block = zeros;
            } else {
                if (run.blockOf[r] < 0) {
                    int at = base + (run.registers[r] << 5);
                    long lo = regs[at], hi = lo;
                    for (int l = 1; l < 32; l++) {
                        long a = regs[at + l];
                        lo = Math.min(lo, a);
                        hi = Math.max(hi, a);
                    }
                    run.low[r] = lo;
                    run.high[r] = hi;
                    run.blockOf[r] = log.addressBlock(regs, at);
                }
                low = run.low[r];
                high = run.high[r];
                block = run.blockOf[r];
            }
            long offset = run.offsets[k];
            if (!rangeFit(low + offset, high + offset + size, clocks.base, clocks.slots, known)) {
                return k;
            }
            if (clockBlock < 0) {
                clockBlock = log.clockBlock(firstSlot, -1, clocks.clock);
            }
            int pc = run.pcs[k];
            log.add(firstSlot, -1, size, pc, pc < casCompared.length && casCompared[pc], block, offset, clockBlock);
        }
        return run.count;
    }

    /** The most words {@link #rangeFit} looks at: a warp reading a few rows of a tile, or 4 words a lane. */
    private static final int MOST_WORDS_IN_RANGE = 128;

    /**
     * Whether every word of bytes [from, to) (one page's, with no split word) is fit to log in the
     * open log: found so earlier in it, or now, when each is marked so. False, with nothing wrong,
     * where one is not (padding no thread writes, say: the rest of the log goes lane by lane on
     * that page).
     */
    private boolean rangeFit(long from, long to, long base, int slots, int[] known) {
        long n = from >>> PAGE_BITS;
        Page[] pages = dense;
        if (from < 0 || n != (to - 1) >>> PAGE_BITS || n >= pages.length || (to - from) >> 2 > MOST_WORDS_IN_RANGE) {
            return false;
        }
        Page p = pages[(int) n];
        if (p == null || p.split != null || p.rangeUnfitIn == logNumber) {
            return false;
        }
        int first = (int) (from & (PAGE - 1)) >> 2, end = (int) (((to - 1) & (PAGE - 1)) >> 2) + 1;
        if (p.verifiedIn == logNumber && allSet(p.verified, first, end)) {
            return true;
        }
        long[] c = p.words;
        for (int word = first; word < end; word++) {
            if (!fit(c[word << 2], base, slots, known)) {
                p.rangeUnfitIn = logNumber;
                return false;
            }
        }
        p.verified = bits(p.verified, p.verifiedIn, first, end);
        p.verifiedIn = logNumber;
        return true;
    }

    /** Whether the write of a word {@code w} is known through {@code known} (to threads of the cluster at {@code base}). */
    private static boolean fit(long w, long base, int slots, int[] known) {
        long ws = Epochs.slot(w) - base;
        return w != 0 && ws >= 0 && ws < slots && Epochs.clock(w) <= known[(int) ws];
    }

    /** Whether bits [from, to) of {@code bits} are all set, a long at a time. */
    private static boolean allSet(long[] bits, int from, int to) {
        for (int k = from >> 6; k <= (to - 1) >> 6; k++) {
            long mask = rangeMask(k, from, to);
            if ((bits[k] & mask) != mask) {
                return false;
            }
        }
        return true;
    }

    /** The bits of long {@code k} of a bit array that lie in [from, to). */
    private static long rangeMask(int k, int from, int to) {
        long mask = -1L;
        if (k == from >> 6) {
            mask &= -1L << from;
        }
        if (k == (to - 1) >> 6) {
            mask &= -1L >>> (63 - ((to - 1) & 63));
        }
        return mask;
    }

    /** Sets bits [from, to) of a page's bit array, made, or emptied unless it is the open log's ({@code taggedWith}). */
    private long[] bits(long[] bits, long taggedWith, int from, int to) {
        if (bits == null) {
            bits = new long[PAGE / 4 / 64];
        } else if (taggedWith != logNumber) {
            java.util.Arrays.fill(bits, 0);
        }
        for (int k = from >> 6; k <= (to - 1) >> 6; k++) {
            bits[k] |= rangeMask(k, from, to);
        }
        return bits;
    }

    /**
     * Whether a copy still in flight lands on a word the log read and did not know of the reads
     * when it was issued ({@link MemoryOrder.PendingWrites}): then the log must be recorded.
     */
    private boolean overwrittenUnknowing(ReadLog log) {
        if (pendingWrites == null) {
            return false;
        }
        // Most copies in flight land outside the span of the reads (the other buffer of a
        // pipeline), or know them (issued after the barrier that follows them): the words are
        // marked only for one that does neither. Nothing is computed while none is in flight.
        return pendingWrites.any(rank, (offset, size, copy) -> offset < readHigh(log) && offset + size > readLow
                && !log.knownTo(copy.known, copy.issuer, copy.issuerClock) && logged(offset, size));
    }

    /**
     * The end of the bytes [{@link #readLow}, readHigh) from the lowest word the open log read to
     * past the highest, found from its entries once a log.
     */
    private long readHigh(ReadLog log) {
        if (rangeOf != logNumber) {
            rangeOf = logNumber;
            long low = Long.MAX_VALUE, high = Long.MIN_VALUE;
            long[] at = rangeAddresses;
            for (int e = 0; e < log.count; e++) {
                log.addresses(e, at);
                int bytes = Math.max(4, log.size(e));
                for (int m = log.lanes(e); m != 0; m &= m - 1) {
                    long a = at[Integer.numberOfTrailingZeros(m)];
                    low = Math.min(low, a);
                    high = Math.max(high, a + bytes);
                }
            }
            readLow = low & ~3L;
            readHigh = high + 3 & ~3L;
        }
        return readHigh;
    }

    private final long[] rangeAddresses = new long[32];

    /**
     * Marks the words the open log's reads touched in their pages' {@link Page#read} bits, once a
     * log, on first need: only for a copy in flight onto them that did not know of the reads.
     */
    private void markRead() {
        if (readMarked == logNumber) {
            return;
        }
        readMarked = logNumber;
        long[] at = rangeAddresses;
        for (int e = 0; e < log.count; e++) {
            log.addresses(e, at);
            int words = Math.max(1, log.size(e) >> 2);
            for (int m = log.lanes(e); m != 0; m &= m - 1) {
                long a = at[Integer.numberOfTrailingZeros(m)];
                Page p = dense[(int) (a >>> PAGE_BITS)];
                int word = (int) (a & (PAGE - 1)) >> 2;
                p.read = bits(p.read, p.readIn, word, word + words);
                p.readIn = logNumber;
            }
        }
    }

    /**
     * Whether a read of the open log touched a word of the {@code size} bytes from {@code offset}
     * (asked only while a copy is in flight: the words are marked from the entries then).
     */
    private boolean logged(long offset, int size) {
        markRead();
        long from = Math.max(0, offset) >> 2, to = Math.min(offset + size, (long) dense.length << PAGE_BITS) + 3 >> 2;
        for (long word = from; word < to; ) {
            Page p = dense[(int) (word >> (PAGE_BITS - 2))];
            long pageEnd = ((word >> (PAGE_BITS - 2)) + 1) << (PAGE_BITS - 2);
            if (p == null || p.readIn != logNumber) {
                word = pageEnd;
                continue;
            }
            long end = Math.min(to, pageEnd);
            for (; word < end; word++) {
                if ((p.read[(int) (word & (PAGE / 4 - 1)) >> 6] & (1L << word)) != 0) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The log whose reads the pages' {@link Page#read} bits mark (0: none); the log whose reads lie
     * in bytes [readLow, readHigh) (found as it closes while a copy is in flight).
     */
    private long readMarked, rangeOf, readLow, readHigh;

    /** Where the async writes not yet made into this CTA's shared memory (rank {@code rank}) are found. */
    void pendingWrites(MemoryOrder.PendingWrites pending, int rank) {
        this.pendingWrites = pending;
        this.rank = rank;
    }

    private MemoryOrder.PendingWrites pendingWrites;
    private int rank;

    /** Of a whole warp's addresses: bit l set when lane l + 1 has lane l's (bit 31 clear). */
    private static int sameAsNext(long[] addresses) {
        int same = 0;
        for (int l = 0; l < 31; l++) {
            same |= (addresses[l] == addresses[l + 1] ? 1 : 0) << l;
        }
        return same;
    }

    /**
     * The last lane of the run of lanes from lane {@code l} at its {@code address}: of the lanes of
     * {@code m} (those after l), the ones up to the first at another address. For a whole warp
     * ({@code lanes} -1, so m holds every lane after l) {@link #sameAsNext} tells at once.
     */
    private static int runEnd(int l, int m, long address, long[] addresses, int lanes, int sameAsNext) {
        if (lanes == -1) {
            return Integer.numberOfTrailingZeros(~sameAsNext & (-1 << l));
        }
        int end = l;
        for (; m != 0; m &= m - 1) {
            int next = Integer.numberOfTrailingZeros(m);
            if (addresses[next] != address) {
                break;
            }
            end = next;
        }
        return end;
    }

    /**
     * A warp instruction's reads that {@link #readWords} left settled, word by word, for the
     * readers that hold {@code known}: the lanes, their addresses, and the range of the words'
     * first readers. Another warp's run of the same instruction at the same addresses with the
     * same knowledge, while no word's mark has been cleared since ({@link #unsettled} unchanged),
     * finds every word still settled, by first readers that are none of its threads: each of its
     * lanes takes the settled path, and only leaves its read waiting. The tile of a GEMM that
     * every warp reads down the same columns is read so.
     */
    private static final class SettledRead {
        final long[] addresses = new long[32];
        int lanes, size, unsettled, firstReaders, lastReader;
        int[] known;

        /**
         * The lanes whose addresses no higher lane's repeats (their reads are the ones that stay),
         * found on first need: how many, and of each the lane, its page's number and its first
         * word's index in the page.
         */
        int lastCount;
        final int[] lastLanes = new int[32], lastPages = new int[32], lastWords = new int[32];
        boolean lastReadersFound;

        boolean repeatedBy(int firstSlot, int lanes, long[] addresses, int size, int[] known, int unsettled) {
            if (lanes != this.lanes || size != this.size || known != this.known || unsettled != this.unsettled
                    || firstSlot + 31 >= firstReaders && firstSlot <= lastReader) {
                return false;
            }
            return sameAddresses(lanes, addresses);
        }

        /** Whether the lanes are these lanes at these addresses. */
        boolean sameAddresses(int lanes, long[] addresses) {
            if (lanes != this.lanes) {
                return false;
            }
            if (lanes == -1) {
                return java.util.Arrays.equals(addresses, 0, 32, this.addresses, 0, 32);
            }
            for (int m = lanes; m != 0; m &= m - 1) {
                int l = Integer.numberOfTrailingZeros(m);
                if (addresses[l] != this.addresses[l]) {
                    return false;
                }
            }
            return true;
        }

        void findLastReaders() {
            if (lastReadersFound) {
                return;
            }
            int n = 0;
            for (int m = lanes; m != 0; m &= m - 1) {
                int l = Integer.numberOfTrailingZeros(m);
                boolean repeated = false;
                for (int higher = m & (m - 1); higher != 0 && !repeated; higher &= higher - 1) {
                    repeated = addresses[Integer.numberOfTrailingZeros(higher)] == addresses[l];
                }
                if (!repeated) {
                    lastLanes[n] = l;
                    lastPages[n] = (int) (addresses[l] >>> PAGE_BITS);
                    lastWords[n] = (int) (addresses[l] & (PAGE - 1)) >> 2;
                    n++;
                }
            }
            lastCount = n;
            lastReadersFound = true;
        }
    }

    /** The instructions' settled reads by PC, as {@link #rememberSettled} last found them. */
    private SettledRead[] settledReads = new SettledRead[0];
    /** How many times a word's settled mark was cleared, or a page's marks dropped: the marks' version. */
    private int unsettled;

    /** After {@link #readWords} did all the lanes: remembers them when every word they read is settled. */
    private void rememberSettled(int lanes, long[] addresses, int size, int[] known, int pc) {
        int firstReaders = Integer.MAX_VALUE, lastReader = -1;
        for (int m = lanes; m != 0; m &= m - 1) {
            long address = addresses[Integer.numberOfTrailingZeros(m)];
            Page p = dense[(int) (address >>> PAGE_BITS)];
            if (p.settledFor != known) {
                return;
            }
            int from = (int) (address & (PAGE - 1));
            for (int b = from; b < from + size; b += 4) {
                int first = p.settled[b >> 2] - 1;
                if (first < 0) {
                    return;
                }
                firstReaders = Math.min(firstReaders, first);
                lastReader = Math.max(lastReader, first);
            }
        }
        if (pc >= settledReads.length) {
            settledReads = java.util.Arrays.copyOf(settledReads, Math.max(pc + 1, settledReads.length * 2));
        }
        SettledRead r = settledReads[pc];
        if (r == null) {
            r = settledReads[pc] = new SettledRead();
        }
        if (!r.sameAddresses(lanes, addresses)) {
            // (The same reads as last time, a tile's in the next interval, keep their last readers.)
            for (int m = lanes; m != 0; m &= m - 1) {
                int l = Integer.numberOfTrailingZeros(m);
                r.addresses[l] = addresses[l];
            }
            r.lanes = lanes;
            r.lastReadersFound = false;
        }
        r.size = size;
        r.known = known;
        r.unsettled = unsettled;
        r.firstReaders = firstReaders;
        r.lastReader = lastReader;
    }

    /**
     * Whether r1 and r2 are plain reads by threads (or async agents) of two different clusters,
     * neither the one at {@code base} ({@link #foreignReadsSuffice}).
     */
    private static boolean readByTwoOthers(long r1, long r2, long base, int slots) {
        if (r1 <= 0 || r2 <= 0) {
            return false;
        }
        long own = base / slots, first = Epochs.slot(r1) / slots, second = Epochs.slot(r2) / slots;
        return first != second && first != own && second != own;
    }

    /** {@link #read} for thread t holding {@code known} and no other cluster's clocks, by {@link #knownTo}. */
    private static void readBy(long[] c, int b, long e, int pc, int t, long base, int slots, int threads, int[] known,
            int[] agentKnown) {
        long r1 = c[b + 1];
        if (r1 == 0 || knownTo(r1, t, base, slots, threads, known, agentKnown)) {
            c[b + 1] = e;
            long r2 = c[b + 2];
            if (r2 != 0 && knownTo(r2, t, base, slots, threads, known, agentKnown)) {
                c[b + 2] = 0;
            }
            c[b + 3] = withPc(c[b + 3], 1, pc);
        } else {
            c[b + 2] = e;
            c[b + 3] = withPc(c[b + 3], 2, pc);
        }
    }

    /**
     * {@link #lanes} for plain reads of {@code size} bytes (4, 8 or 16, aligned: whole words; or 2,
     * halves of words, recorded in their byte cells) of global memory by threads that all hold the
     * knowledge array {@code known} and no other cluster's clocks (a GEMM's loads of its next tiles): each lane's checks and record as
     * {@link #cell} makes them, without the per-lane actor, the lanes on one page under one lock,
     * as long as it finds nothing. Returns the lanes left (0 once all are done) from the first
     * lane with a word misaligned, split, or last written by what the thread may not know (another
     * cluster's threads included): nothing is recorded for that lane, and {@link #lanes} does the
     * rest. {@code a} is the worker's actor, for its pages.
     */
    int readGlobalWords(int firstSlot, int lanes, long[] addresses, int size, ThreadClocks clocks, int[] known, int pc,
            Actor a, boolean casCompared) {
        for (int m = lanes; m != 0; ) {
            long address = addresses[Integer.numberOfTrailingZeros(m)];
            if ((address & (size - 1)) != 0) {
                return m;
            }
            Page p = page(address, a);
            if (p == null) {
                // Past the shadow's allowance: unchecked, as access leaves it.
                m &= m - 1;
                continue;
            }
            long pageNumber = address >>> PAGE_BITS;
            if (foreignReadsSuffice && size == 4) {
                m = unrecordedLanes(p, pageNumber, firstSlot, m, addresses, clocks, known, casCompared);
                if (m == 0 || addresses[Integer.numberOfTrailingZeros(m)] >>> PAGE_BITS != pageNumber) {
                    continue;
                }
            }
            if (locked) {
                synchronized (p) {
                    m = globalWordLanes(p, pageNumber, firstSlot, m, addresses, size, clocks, known, pc, casCompared,
                            foreignReadsSuffice);
                }
            } else {
                m = globalWordLanes(p, pageNumber, firstSlot, m, addresses, size, clocks, known, pc, casCompared,
                        foreignReadsSuffice);
            }
            if (m != 0) {
                address = addresses[Integer.numberOfTrailingZeros(m)];
                if ((address & (size - 1)) == 0 && address >>> PAGE_BITS == pageNumber) {
                    // Stopped on this page: that lane's word needs more than a record.
                    return m;
                }
            }
        }
        return 0;
    }

    /**
     * {@link #readGlobalWords}'s word reads ({@link #foreignReadsSuffice}) for the lanes of {@code
     * m} from the lowest on as long as each one's word is on page {@code p} (number {@code
     * pageNumber}), aligned, unsplit, written by what the thread knows, and already read by two
     * other clusters: such a read changes nothing, and it is made without the page's lock (whose
     * word, too, the workers would pass between their caches). A write that another worker makes
     * meanwhile, under the lock, is still found to race: with the two reads it finds there, or,
     * where this read saw it, by the lanes left here. Returns the lanes left.
     */
    private static int unrecordedLanes(Page p, long pageNumber, int firstSlot, int m, long[] addresses,
            ThreadClocks clocks, int[] known, boolean casCompared) {
        if (p.split != null) {
            return m;
        }
        long base = clocks.base;
        int slots = clocks.slots, threads = clocks.threads;
        int[] agentKnown = clocks.agentKnown;
        long[] c = p.words;
        do {
            int l = Integer.numberOfTrailingZeros(m);
            long address = addresses[l];
            if ((address & 3) != 0 || address >>> PAGE_BITS != pageNumber) {
                return m;
            }
            int b = (int) (address & (PAGE - 1));
            long w = c[b];
            if (unknownWrite(w, casCompared, firstSlot + l, base, slots, threads, known, agentKnown)
                    || !readByTwoOthers(c[b + 1], c[b + 2], base, slots)) {
                return m;
            }
            m &= m - 1;
        } while (m != 0);
        return 0;
    }

    /**
     * {@link #readGlobalWords} for the lanes of {@code m} from the lowest on as long as each one's
     * words are aligned and on page {@code p} (number {@code pageNumber}) and need no more than a
     * record: returns the lanes left.
     */
    private static int globalWordLanes(Page p, long pageNumber, int firstSlot, int m, long[] addresses, int size,
            ThreadClocks clocks, int[] known, int pc, boolean casCompared, boolean foreignReadsSuffice) {
        long base = clocks.base;
        int slots = clocks.slots, threads = clocks.threads;
        int[] clock = clocks.clock, agentKnown = clocks.agentKnown;
        long[] c = p.words;
        if (size == 2) {
            // Halves of words (16-bit elements): the two byte cells of each, as bytes records them.
            do {
                int l = Integer.numberOfTrailingZeros(m);
                long address = addresses[l];
                if ((address & 1) != 0 || address >>> PAGE_BITS != pageNumber) {
                    return m;
                }
                int b = (int) (address & (PAGE - 1));
                int t = firstSlot + l;
                if (!halfRead(splitWord(p, b >> 2), (b & 3) << 2, false, t, clock[t], pc, base, slots, threads, known,
                        agentKnown, casCompared)) {
                    return m;
                }
                m &= m - 1;
            } while (m != 0);
            return 0;
        }
        if (size == 4 && p.split == null) {
            // The commonest case, a word each lane of a page with no split word, spelt out.
            do {
                int l = Integer.numberOfTrailingZeros(m);
                long address = addresses[l];
                if ((address & 3) != 0 || address >>> PAGE_BITS != pageNumber) {
                    return m;
                }
                int b = (int) (address & (PAGE - 1));
                int t = firstSlot + l;
                long w = c[b];
                if (unknownWrite(w, casCompared, t, base, slots, threads, known, agentKnown)) {
                    return m;
                }
                if (!foreignReadsSuffice || !readByTwoOthers(c[b + 1], c[b + 2], base, slots)) {
                    readBy(c, b, Epochs.of(base + t, clock[t], false), pc, t, base, slots, threads, known, agentKnown);
                }
                m &= m - 1;
            } while (m != 0);
            return 0;
        }
        do {
            int l = Integer.numberOfTrailingZeros(m);
            long address = addresses[l];
            if ((address & (size - 1)) != 0 || address >>> PAGE_BITS != pageNumber) {
                return m;
            }
            int from = (int) (address & (PAGE - 1));
            int t = firstSlot + l;
            for (int b = from; b < from + size; b += 4) {
                long w = c[b];
                if (p.split != null && p.split[b >> 2] != null
                        || unknownWrite(w, casCompared, t, base, slots, threads, known, agentKnown)) {
                    return m;
                }
            }
            long e = Epochs.of(base + t, clock[t], false);
            for (int b = from; b < from + size; b += 4) {
                readBy(c, b, e, pc, t, base, slots, threads, known, agentKnown);
            }
            m &= m - 1;
        } while (m != 0);
        return 0;
    }

    /**
     * {@link #lanes} for plain reads of aligned halves of words (2 bytes: a 16-bit float or
     * integer tile) of a CTA's shared memory by threads that all hold the knowledge array {@code
     * known} and no other cluster's clocks: each lane's checks and records as {@link #bytes} makes
     * them in the word's byte cells, without the actor, as long as it finds nothing. Returns the
     * lanes left (0 once all are done) from the first lane misaligned, not yet shadowed, unwritten
     * or written by what the thread may not know: nothing is recorded for that lane, and {@link
     * #lanes} does the rest (and reports what it finds).
     */
    int readHalves(int firstSlot, int lanes, long[] addresses, ThreadClocks clocks, int[] known, int pc,
            boolean casCompared) {
        if (defer(firstSlot, lanes, addresses, 2, clocks, known, pc, casCompared)) {
            return 0;
        }
        closeLog();
        return halvesNow(firstSlot, lanes, addresses, clocks, clocks.clock, known, pc, casCompared);
    }

    /** {@link #readHalves} done now, the threads' counters taken from {@code clock} (by slot). */
    private int halvesNow(int firstSlot, int lanes, long[] addresses, ThreadClocks clocks, int[] clock, int[] known,
            int pc, boolean casCompared) {
        long base = clocks.base;
        int slots = clocks.slots, threads = clocks.threads;
        int[] agentKnown = clocks.agentKnown;
        Page[] pages = dense;
        for (int m = lanes; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            long address = addresses[l];
            long n = address >>> PAGE_BITS;
            if ((address & 1) != 0 || n >= pages.length || pages[(int) n] == null) {
                return m;
            }
            Page p = pages[(int) n];
            int b = (int) (address & (PAGE - 1));
            int t = firstSlot + l;
            settle(p, b & ~3);
            if (!halfRead(splitWord(p, b >> 2), (b & 3) << 2, true, t, clock[t], pc, base, slots, threads, known,
                    agentKnown, casCompared)) {
                return m;
            }
        }
        return 0;
    }

    /**
     * Thread t's plain read, at counter {@code clock}, of the half word whose two byte cells start
     * at {@code sp[i]}, as {@link #bytes} checks and records it, for a thread holding {@code known}
     * and no other cluster's clocks: false, with nothing recorded, where a byte needs more than a
     * record (written by what the thread may not know, or, with {@code unwrittenStops}, never
     * written: an uninitialized read of shared memory, which {@link #lanes} reports).
     */
    private static boolean halfRead(long[] sp, int i, boolean unwrittenStops, int t, int clock, int pc, long base,
            int slots, int threads, int[] known, int[] agentKnown, boolean casCompared) {
        for (int k = i; k < i + 8; k += 4) {
            long w = sp[k];
            if (w == 0 ? unwrittenStops
                    : (w > 0 || !casCompared) && !knownTo(w, t, base, slots, threads, known, agentKnown)) {
                return false;
            }
        }
        long e = Epochs.of(base + t, clock, false);
        readBy(sp, i, e, pc, t, base, slots, threads, known, agentKnown);
        readBy(sp, i + 4, e, pc, t, base, slots, threads, known, agentKnown);
        return true;
    }

    /**
     * {@link #lanes} for plain writes of {@code size} bytes (4, 8 or 16, aligned: whole words) of a
     * CTA's shared memory by threads that all hold the knowledge array {@code known} and no other
     * cluster's clocks: each lane's checks and record as {@link #cell} makes them, without the
     * actor, as long as it finds nothing. Returns the lanes left (0 once all are done) from the
     * first lane with a word misaligned, split, not yet shadowed, or last written or read by what
     * the thread may not know: nothing is recorded for that lane, and {@link #lanes} does the rest
     * (and reports what it finds).
     */
    int writeWords(int firstSlot, int lanes, long[] addresses, int size, ThreadClocks clocks, int[] known, int pc) {
        closeLog();
        long base = clocks.base;
        int slots = clocks.slots, threads = clocks.threads;
        int[] clock = clocks.clock, agentKnown = clocks.agentKnown;
        Page[] pages = dense;
        long pcs = withPc(0, 0, pc);
        for (int m = lanes; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            long address = addresses[l];
            long n = address >>> PAGE_BITS;
            if ((address & (size - 1)) != 0 || n >= pages.length || pages[(int) n] == null) {
                return m;
            }
            Page p = pages[(int) n];
            int from = (int) (address & (PAGE - 1));
            int t = firstSlot + l;
            long[] c = p.words;
            if (size == 4 && p.split == null) {
                // The commonest case, one word of a page with no split word, spelt out.
                settle(p, from);
                long w = c[from], r1 = c[from + 1], r2 = c[from + 2];
                if (w != 0 && !knownTo(w, t, base, slots, threads, known, agentKnown)
                        || r1 != 0 && !knownTo(r1, t, base, slots, threads, known, agentKnown)
                        || r2 != 0 && !knownTo(r2, t, base, slots, threads, known, agentKnown)) {
                    return m;
                }
                c[from] = Epochs.of(base + t, clock[t], false);
                c[from + 1] = 0;
                c[from + 2] = 0;
                c[from + 3] = pcs;
                continue;
            }
            for (int b = from; b < from + size; b += 4) {
                settle(p, b);
                long w = c[b], r1 = c[b + 1], r2 = c[b + 2];
                if (p.split != null && p.split[b >> 2] != null
                        || w != 0 && !knownTo(w, t, base, slots, threads, known, agentKnown)
                        || r1 != 0 && !knownTo(r1, t, base, slots, threads, known, agentKnown)
                        || r2 != 0 && !knownTo(r2, t, base, slots, threads, known, agentKnown)) {
                    return m;
                }
            }
            long e = Epochs.of(base + t, clock[t], false);
            for (int b = from; b < from + size; b += 4) {
                c[b] = e;
                c[b + 1] = 0;
                c[b + 2] = 0;
                c[b + 3] = pcs;
            }
        }
        return 0;
    }

    /** Whether the words of bytes [from, from + size) of the page are all settled for a read by thread t. */
    private static boolean settledFor(Page p, int from, int size, int t) {
        for (int b = from; b < from + size; b += 4) {
            int first = p.settled[b >> 2];
            if (first == 0 || first == t + 1) {
                return false;
            }
        }
        return true;
    }

    /**
     * Marks the word at byte b of the page settled for the threads that hold {@code known} when
     * a read by any of them, but the word's first reader, does no more than put itself second:
     * the word's write is known through {@code known} alone (not as a thread's own), and its first
     * read is another thread's that {@code known} does not cover (so it is no thread's own agent's,
     * and stays unknown to them while they hold {@code known}).
     */
    private void settleFor(Page p, int b, int[] known, long base, int threads) {
        long[] c = p.words;
        long w = c[b], r1 = c[b + 1];
        long ws = Epochs.slot(w) - base, rs = Epochs.slot(r1) - base;
        if (r1 == 0 || rs < 0 || rs >= threads || Epochs.clock(r1) <= known[(int) rs]
                || w != 0 && (ws < 0 || ws >= known.length || Epochs.clock(w) > known[(int) ws])) {
            return;
        }
        if (p.settled == null) {
            p.settled = new int[PAGE / 4];
            p.pending = new long[PAGE / 4];
        }
        if (p.settledFor != known) {
            // Settled for other knowledge: the readers holding it never read these marks again.
            java.util.Arrays.fill(p.settled, 0);
            p.settledFor = known;
            unsettled++;
        }
        p.settled[b >> 2] = (int) rs + 1;
    }

    /**
     * Whether a plain read by thread t of a global word last written with epoch w may race with
     * that write: a write it does not know of (none, or an atomic's where the read is one an
     * atom.cas compares against, races with nothing).
     */
    private static boolean unknownWrite(long w, boolean casCompared, int t, long base, int slots, int threads,
            int[] known, int[] agentKnown) {
        return (w > 0 || w < 0 && !casCompared) && !knownTo(w, t, base, slots, threads, known, agentKnown);
    }

    /**
     * {@link Actor#knows} for thread t holding {@code known} and no other cluster's clocks: its
     * own accesses, what the array covers, and its own async agent's copies it waited for.
     */
    private static boolean knownTo(long e, int t, long base, int slots, int threads, int[] known, int[] agentKnown) {
        long s = Epochs.slot(e) - base;
        if (s < 0 || s >= slots) {
            return false;
        }
        int c = Epochs.clock(e);
        return s == t || c <= known[(int) s] || s == threads + t && c <= agentKnown[t];
    }

    /**
     * {@link #lanes} for the lanes of {@code m} from the lowest on, as long as each one's access
     * is an aligned word of page {@code p} (the first one's is): returns the lanes left.
     */
    private int wordLanes(Page p, int firstSlot, int m, long[] addresses, ThreadClocks clocks, Actor a,
            boolean write, Found found) {
        long pageNumber = addresses[Integer.numberOfTrailingZeros(m)] >>> PAGE_BITS;
        do {
            int l = Integer.numberOfTrailingZeros(m);
            long address = addresses[l];
            m &= m - 1;
            asLane(firstSlot + l, clocks, a);
            int b = (int) (address & (PAGE - 1));
            settle(p, b);
            if (p.split == null || p.split[b >> 2] == null) {
                a.forget();
                cell(p.words, b, a, write, false, found, address);
                if (!write && m != 0 && !found.any()) {
                    m = sameWordReads(p.words, b, address, m, firstSlot, addresses, clocks, a);
                }
            } else {
                bytes(p, b, b + 4, a, write, false, found, address - b);
            }
            if (found.any() || m == 0) {
                return m;
            }
            address = addresses[Integer.numberOfTrailingZeros(m)];
            if ((address & 3) != 0 || address >>> PAGE_BITS != pageNumber) {
                return m;
            }
        } while (true);
    }

    /** The actor as thread t making a plain access. */
    private static void asLane(int t, ThreadClocks clocks, Actor a) {
        a.self = t;
        a.known = clocks.known[t];
        a.ownAgent = clocks.threads + t;
        a.ownAgentKnown = clocks.agentKnown[t];
        a.foreign = clocks.foreign[t];
        a.epoch = clocks.epoch(t, false);
    }

    /**
     * After thread {@code a} read the word cell at {@code i} of {@code c}: the lanes next in
     * {@code m} that read the same word and hold the same knowledge as it (a broadcast read, one
     * value for many lanes). When none of them can know of this read (it is recent, their arrays
     * do not cover it) and they all know of the word's last write by those arrays alone, each of
     * them, in turn, would find nothing and keep this read first and take the second place
     * itself, the next one replacing it there: only the last one's read stays. So they are done
     * at once; returns the lanes left.
     */
    private int sameWordReads(long[] c, int i, long address, int m, int firstSlot, long[] addresses,
            ThreadClocks clocks, Actor a) {
        int next = Integer.numberOfTrailingZeros(m);
        if (addresses[next] != address || c[i + 1] != a.epoch || a.knownToAll(a.epoch)) {
            return m;
        }
        long w = c[i];
        if (w == 0 ? !initialized : (w > 0 || !a.casCompared) && !a.knownToAll(w)) {
            return m;
        }
        int[] known = a.known;
        ForeignClocks foreign = a.foreign;
        int last = -1;
        while (m != 0) {
            int l = Integer.numberOfTrailingZeros(m);
            int t = firstSlot + l;
            if (addresses[l] != address || clocks.known[t] != known || clocks.foreign[t] != foreign) {
                break;
            }
            last = t;
            m &= m - 1;
        }
        if (last >= 0) {
            c[i + 2] = clocks.epoch(last, false);
            c[i + 3] = withPc(c[i + 3], 2, a.pc);
        }
        return m;
    }

    /**
     * What is remembered of the byte at {@code address}: the four longs of its cell (its word's,
     * or its own once the word is split), or null before its page exists.
     */
    long[] record(long address) {
        closeLog();
        long n = address >>> PAGE_BITS;
        Page p = global ? sparse.get(n) : n < dense.length ? dense[(int) n] : null;
        if (p == null) {
            return null;
        }
        int b = (int) (address & (PAGE - 1));
        settle(p, b & ~3);
        if (p.split != null && p.split[b >> 2] != null) {
            return java.util.Arrays.copyOfRange(p.split[b >> 2], (b & 3) << 2, ((b & 3) << 2) + 4);
        }
        return java.util.Arrays.copyOfRange(p.words, b & ~3, (b & ~3) + 4);
    }

    /** Marks bytes as written by {@code a} without checking (state the engine itself writes). */
    void mark(long address, int size, Actor a) {
        closeLog();
        for (long at = address; at < address + size; at++) {
            Page p = page(at, a);
            if (p == null) {
                continue;
            }
            int b = (int) (at & (PAGE - 1));
            settle(p, b & ~3);
            long[] c = p.words;
            int i = b & ~3;
            if (size < 4 || (address & 3) != 0) {
                c = splitWord(p, b >> 2);
                i = (b & 3) << 2;
            }
            c[i] = a.epoch;
            c[i + 1] = 0;
            c[i + 2] = 0;
            c[i + 3] = withPc(0, 0, a.pc);
        }
    }

    /** The per-byte cells of word {@code word}, made from its word cell on first need. */
    private static long[] splitWord(Page p, int word) {
        if (p.split == null) {
            p.split = new long[PAGE / 4][];
        }
        long[] sp = p.split[word];
        if (sp == null) {
            sp = new long[16];
            for (int k = 0; k < 4; k++) {
                System.arraycopy(p.words, word << 2, sp, k << 2, 4);
            }
            p.split[word] = sp;
        }
        return sp;
    }

    /** {@link #bytes} for the aligned word at byte {@code b} of the page. */
    private void word(Page p, int b, Actor a, boolean write, boolean strong, Found found, long pageBase) {
        settle(p, b);
        if (p.split != null && p.split[b >> 2] != null) {
            bytes(p, b, b + 4, a, write, strong, found, pageBase);
        } else {
            cell(p.words, b, a, write, strong, found, pageBase + b);
        }
    }

    private void bytes(Page p, int from, int to, Actor a, boolean write, boolean strong, Found found, long pageBase) {
        for (int b = from & ~3; b < to; b += 4) {
            settle(p, b);
        }
        a.forget();
        for (int b = from; b < to; ) {
            int word = b >> 2;
            long[] sp = p.split == null ? null : p.split[word];
            if ((b & 3) == 0 && b + 4 <= to) {
                if (sp == null) {
                    cell(p.words, word << 2, a, write, strong, found, pageBase + b);
                } else {
                    for (int k = 0; k < 4; k++) {
                        cell(sp, k << 2, a, write, strong, found, pageBase + b + k);
                    }
                    if (write) {
                        // A whole-word write leaves the four bytes alike: one cell again.
                        System.arraycopy(sp, 0, p.words, word << 2, 4);
                        p.split[word] = null;
                    }
                }
                b += 4;
            } else {
                cell(sp != null ? sp : splitWord(p, word), (b & 3) << 2, a, write, strong, found, pageBase + b);
                b++;
            }
        }
    }

    /**
     * Checks one cell (a word's or a byte's) against the access and records the access in it. Kept
     * small, the rare findings and the two ways of recording in methods of their own, so that the
     * JIT inlines it into the loops over a warp's lanes.
     */
    private void cell(long[] c, int i, Actor a, boolean write, boolean strong, Found found, long address) {
        long w = c[i];
        if (w == 0 || w == Epochs.UNDEFINED) {
            if ((w != 0 || !initialized) && !write && !found.any()) {
                found.uninitialized(address);
            }
        } else if (!(w < 0 && (strong ? a.morallyStrong(w) : !write && a.casCompared)) && !a.knows(w)) {
            // Strong accesses do not race with each other when their scopes include each
            // other's threads, and a plain read of what atomics write is tolerated where an
            // atom.cas compares against the value read: the compare-and-swap loop idiom reads
            // plainly, then lets the atomic check the value it read.
            if (!found.any()) {
                found.conflict(w, pc(c[i + 3], 0), true, address);
                found.scoped = w < 0 && strong;
            }
        } else if (a.proxyClocks != null && !write) {
            proxyRead(c, i, a, w, found, address);
        }
        if (write) {
            written(c, i, a, strong, found, address);
        } else {
            read(c, i, a);
        }
    }

    /**
     * An async-proxy read of what was written in order: a conflict still, when it was written
     * through the generic proxy with no fence.proxy.async between the two.
     */
    private static void proxyRead(long[] c, int i, Actor a, long w, Found found, long address) {
        if (!found.any() && !a.proxyClocks.proxyVisible(w, a.proxyFencedKnown)) {
            found.conflict(w, pc(c[i + 3], 0), true, address);
            found.proxy = true;
        }
    }

    /** A write after the cell's reads (a weak one must be ordered after them), then its record. */
    private static void written(long[] c, int i, Actor a, boolean strong, Found found, long address) {
        long r1 = c[i + 1];
        long r2 = c[i + 2];
        if (!found.any() && !strong) {
            if (r1 != 0 && !a.knows(r1)) {
                found.conflict(r1, pc(c[i + 3], 1), false, address);
            } else if (r2 != 0 && !a.knows(r2)) {
                found.conflict(r2, pc(c[i + 3], 2), false, address);
            }
        } else if (!found.any()) {
            // A strong write after strong reads whose scopes do not reach each other.
            if (r1 < 0 && !a.morallyStrong(r1) && !a.knows(r1)) {
                found.conflict(r1, pc(c[i + 3], 1), false, address);
                found.scoped = true;
            } else if (r2 < 0 && !a.morallyStrong(r2) && !a.knows(r2)) {
                found.conflict(r2, pc(c[i + 3], 2), false, address);
                found.scoped = true;
            }
        }
        c[i] = a.epoch;
        c[i + 1] = 0;
        c[i + 2] = 0;
        c[i + 3] = withPc(0, 0, a.pc);
    }

    /** A read's record: in place of the reads it is ordered after, else beside the concurrent one. */
    private static void read(long[] c, int i, Actor a) {
        long r1 = c[i + 1];
        long pcs = c[i + 3];
        if (r1 == 0 || a.knows(r1)) {
            c[i + 1] = a.epoch;
            long r2 = c[i + 2];
            if (r2 != 0 && a.knows(r2)) {
                c[i + 2] = 0;
            }
            c[i + 3] = withPc(pcs, 1, a.pc);
        } else {
            // r1 is concurrent with this read: keep it, and this read in place of r2 (an older
            // concurrent r2 is forgotten, which can only hide a hazard).
            c[i + 2] = a.epoch;
            c[i + 3] = withPc(pcs, 2, a.pc);
        }
    }

    /** What a check found: the earlier access of a conflict, or an uninitialized byte. */
    static final class Found {
        long epoch;
        int pc;
        boolean write;
        boolean uninitialized;
        long address = -1;

        boolean proxy;
        /** Both accesses are strong: they race because their scopes do not include each other's threads. */
        boolean scoped;

        void clear() {
            address = -1;
            uninitialized = false;
            proxy = false;
            scoped = false;
        }

        boolean any() {
            return address >= 0;
        }

        void conflict(long epoch, int pc, boolean write, long address) {
            this.epoch = epoch;
            this.pc = pc;
            this.write = write;
            this.address = address;
        }

        void uninitialized(long address) {
            this.uninitialized = true;
            this.address = address;
        }
    }
}
