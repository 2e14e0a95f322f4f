package io.ptxrun.exec.order;

import java.util.Arrays;

/**
 * The plain reads of a CTA's shared memory that {@link ShadowMemory} has logged instead of
 * recording them in its cells: warp instructions (an entry holds all of one's lanes), by threads
 * that all held one knowledge array, of words whose writes that array covers. Such a read can find nothing, and reads do not
 * conflict with each other, so until something else looks at the shadow the log is all that must
 * be kept. Then, if every thread of the cluster has learnt of every logged read (they all passed a
 * barrier after them, the commonest case: a tile read between two {@code __syncthreads()}), no
 * later access can conflict with one and the log is dropped; otherwise it is replayed into the
 * cells in order, exactly as if each read had been recorded when it was made.
 */
final class ReadLog {
    /** The most entries a log holds (about 1.5 MB): a longer one is closed and another opened. */
    static final int MAX_ENTRIES = 4096;

    /** Per entry: the first thread's slot, the lanes, the access size, the instruction, the CAS flag. */
    private int[] firstSlot = new int[64], lanes = new int[64], size = new int[64], pc = new int[64];
    private boolean[] casCompared = new boolean[64];
    /**
     * Blocks of 32 lanes' addresses, and per entry the block and the offset that give its lanes'
     * addresses (block plus offset). An entry with the addresses of the one before it at its
     * instruction (another warp reading the same words) shares that one's block; the loads of a
     * compiled run that take their addresses from one register share the register's block, each
     * with its offset.
     */
    private long[] addresses = new long[64 * 32];
    private int[] block = new int[64];
    private long[] offset = new long[64];
    private int blocks;
    /** Blocks of 32 threads' counters at their reads, and per entry its block. */
    private int[] clocks = new int[64 * 32];
    private int[] clockBlock = new int[64];
    private int clockBlocks;
    int count;
    /** By thread slot: the counter of its latest logged read (0 for none), over slots [lowest, highest]. */
    private int[] lastRead = new int[0];
    private int lowest = Integer.MAX_VALUE, highest = -1;
    /** Per instruction, the entry that last logged it (-1 none): a warp that repeats its addresses is not checked again. */
    private int[] entryOfPc = new int[0];

    /**
     * Where this log already holds instruction pc with these lanes at these addresses (its last
     * entry for pc, of offset 0): the block of those addresses, else -1. The words were found fit
     * to log then, and nothing but reads came since.
     */
    int holding(int pc, int lanes, long[] addresses, int size) {
        if (pc >= entryOfPc.length) {
            return -1;
        }
        int e = entryOfPc[pc];
        if (e < 0 || e >= count || this.pc[e] != pc || this.lanes[e] != lanes || this.size[e] != size
                || offset[e] != 0) {
            return -1;
        }
        int at = block[e] * 32;
        if (lanes == -1) {
            // (Most differ in lane 0: a warp that reads other rows.)
            return addresses[0] == this.addresses[at] && Arrays.equals(addresses, 0, 32, this.addresses, at, at + 32)
                    ? block[e] : -1;
        }
        for (int m = lanes; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            if (addresses[l] != this.addresses[at + l]) {
                return -1;
            }
        }
        return block[e];
    }

    /** Logs a warp instruction's reads, the threads' counters now taken from {@code clock}; {@code
     * held} is the block of these addresses already in the log ({@link #holding}), or -1. */
    void add(int firstSlot, int lanes, long[] addresses, int size, int[] clock, int pc, boolean casCompared,
            int held) {
        int b = held < 0 ? addressBlock(addresses, 0) : held;
        add(firstSlot, lanes, size, pc, casCompared, b, 0, clockBlock(firstSlot, lanes, clock));
    }

    /** A new block of the 32 addresses of {@code from} from index {@code at}: its number. */
    int addressBlock(long[] from, int at) {
        if (blocks * 32 == addresses.length) {
            addresses = Arrays.copyOf(addresses, 2 * blocks * 32);
        }
        System.arraycopy(from, at, addresses, blocks * 32, 32);
        return blocks++;
    }

    /**
     * A new block of the counters, now in {@code clock}, of the 32 threads from {@code firstSlot}
     * (those of a warp that exist: a CTA of fewer than 32 threads has fewer slots), as the last
     * reads of the lanes of {@code lanes}: its number.
     */
    int clockBlock(int firstSlot, int lanes, int[] clock) {
        if (clockBlocks * 32 == clocks.length) {
            clocks = Arrays.copyOf(clocks, 2 * clockBlocks * 32);
        }
        int n = Math.min(32, clock.length - firstSlot);
        System.arraycopy(clock, firstSlot, clocks, clockBlocks * 32, n);
        if (firstSlot + n > lastRead.length) {
            lastRead = Arrays.copyOf(lastRead, clock.length);
        }
        if (lanes == -1) {
            System.arraycopy(clock, firstSlot, lastRead, firstSlot, n);
        } else {
            for (int m = lanes; m != 0; m &= m - 1) {
                int t = firstSlot + Integer.numberOfTrailingZeros(m);
                lastRead[t] = clock[t];
            }
        }
        lowest = Math.min(lowest, firstSlot);
        highest = Math.max(highest, firstSlot + n - 1);
        coveringKnown = null;
        return clockBlocks++;
    }

    /**
     * Logs a warp instruction's reads: lane l of {@code lanes} read {@code size} bytes at the
     * address of block {@code block}, lane l, plus {@code offset}, with the counter of clock block
     * {@code clockBlock} (whose lanes cover these).
     */
    void add(int firstSlot, int lanes, int size, int pc, boolean casCompared, int block, long offset, int clockBlock) {
        int e = count;
        if (e == this.firstSlot.length) {
            int n = 2 * e;
            this.firstSlot = Arrays.copyOf(this.firstSlot, n);
            this.lanes = Arrays.copyOf(this.lanes, n);
            this.size = Arrays.copyOf(this.size, n);
            this.pc = Arrays.copyOf(this.pc, n);
            this.casCompared = Arrays.copyOf(this.casCompared, n);
            this.block = Arrays.copyOf(this.block, n);
            this.offset = Arrays.copyOf(this.offset, n);
            this.clockBlock = Arrays.copyOf(this.clockBlock, n);
        }
        this.firstSlot[e] = firstSlot;
        this.lanes[e] = lanes;
        this.size[e] = size;
        this.pc[e] = pc;
        this.casCompared[e] = casCompared;
        this.block[e] = block;
        this.offset[e] = offset;
        this.clockBlock[e] = clockBlock;
        if (pc >= entryOfPc.length) {
            int old = entryOfPc.length;
            entryOfPc = Arrays.copyOf(entryOfPc, Math.max(pc + 1, 2 * old));
            Arrays.fill(entryOfPc, old, entryOfPc.length, -1);
        }
        entryOfPc[pc] = e;
        count = e + 1;
    }

    /**
     * Whether every thread of the cluster that has not exited knows every logged read: each
     * knowledge array they hold covers each reader's counter at its last read.
     */
    boolean knownToAll(ThreadClocks c) {
        int[] checked = null;
        for (int t = 0; t < c.threads; t++) {
            int[] k = c.known[t];
            if (k == checked || c.exited[t]) {
                continue;
            }
            for (int s = lowest; s <= highest; s++) {
                if (lastRead[s] > k[s]) {
                    return false;
                }
            }
            checked = k;
        }
        return true;
    }

    /**
     * Whether a copy knows every logged read: its knowledge {@code known}, that of its issuer when
     * it issued it, covers each reader's counter at its last read (and the issuer's own reads come
     * before the copy in its program order: {@code issuerClock} covers them).
     */
    boolean knownTo(int[] known, int issuer, int issuerClock) {
        // The copies issued after one barrier share their knowledge array: it is looked at once.
        if (known != coveringKnown) {
            coveringKnown = known;
            covers = true;
            for (int s = lowest; s <= highest && covers; s++) {
                covers = lastRead[s] <= known[s];
            }
        }
        if (covers) {
            return true;
        }
        for (int s = lowest; s <= highest; s++) {
            if (lastRead[s] > (s == issuer ? Math.max(known[s], issuerClock) : known[s])) {
                return false;
            }
        }
        return true;
    }

    /** The knowledge array {@link #knownTo} last looked at, and whether it covers every logged read alone. */
    private int[] coveringKnown;
    private boolean covers;

    // Entry e's facts, for a replay.

    int lanes(int e) {
        return lanes[e];
    }

    int firstSlot(int e) {
        return firstSlot[e];
    }

    int size(int e) {
        return size[e];
    }

    int pc(int e) {
        return pc[e];
    }

    boolean casCompared(int e) {
        return casCompared[e];
    }

    /** Copies entry e's addresses (by lane) into {@code into}. */
    void addresses(int e, long[] into) {
        System.arraycopy(addresses, block[e] * 32, into, 0, 32);
        long o = offset[e];
        if (o != 0) {
            for (int l = 0; l < 32; l++) {
                into[l] += o;
            }
        }
    }

    /** Puts entry e's counters in place in {@code clock} (by slot). */
    void clocks(int e, int[] clock) {
        int first = firstSlot[e];
        System.arraycopy(clocks, clockBlock[e] * 32, clock, first, Math.min(32, clock.length - first));
    }

    /** Empties the log. */
    void clear() {
        if (highest >= lowest) {
            Arrays.fill(lastRead, lowest, highest + 1, 0);
        }
        lowest = Integer.MAX_VALUE;
        highest = -1;
        count = 0;
        blocks = 0;
        clockBlocks = 0;
        coveringKnown = null;
    }
}
