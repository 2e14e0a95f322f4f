package io.ptxrun.exec.order;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Per byte of one memory: the epoch and instruction of the last write and of up to two reads since
 * that are not ordered before each other. Pages are made on first touch. The shadow of global
 * memory is shared by the workers that run clusters at once, so its pages are locked for each
 * access; a CTA's shared memory belongs to one worker.
 */
final class ShadowMemory {
    private static final int PAGE_BITS = 12;
    private static final int PAGE = 1 << PAGE_BITS;

    private static final class Page {
        final long[] write = new long[PAGE];
        final long[] read1 = new long[PAGE];
        final long[] read2 = new long[PAGE];
        final int[] writePc = new int[PAGE];
        final int[] read1Pc = new int[PAGE];
        final int[] read2Pc = new int[PAGE];
    }

    private final boolean concurrent;
    private final boolean initialized;
    private Page[] dense = new Page[0];
    private final ConcurrentHashMap<Long, Page> sparse;

    private ShadowMemory(boolean concurrent, boolean initialized) {
        this.concurrent = concurrent;
        this.initialized = initialized;
        this.sparse = concurrent ? new ConcurrentHashMap<>() : null;
    }

    /** Global memory: every byte holds a value from the launch. Shared by all workers. */
    static ShadowMemory global() {
        return new ShadowMemory(true, true);
    }

    /** A CTA's shared memory: undefined until written. */
    static ShadowMemory shared() {
        return new ShadowMemory(false, false);
    }

    /** Forgets everything (a new CTA reuses the object). */
    void clear() {
        java.util.Arrays.fill(dense, null);
    }

    private Page page(long address) {
        long n = address >>> PAGE_BITS;
        if (concurrent) {
            return sparse.computeIfAbsent(n, k -> new Page());
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
        found.clear();
        long end = address + size;
        for (long at = address; at < end; ) {
            Page p = page(at);
            int from = (int) (at & (PAGE - 1));
            int to = (int) Math.min(PAGE, from + (end - at));
            if (concurrent) {
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

    /** Marks bytes as written by {@code a} without checking (state the engine itself writes). */
    void mark(long address, int size, Actor a) {
        for (long at = address; at < address + size; at++) {
            Page p = page(at);
            int i = (int) (at & (PAGE - 1));
            p.write[i] = a.epoch;
            p.writePc[i] = a.pc;
            p.read1[i] = 0;
            p.read2[i] = 0;
        }
    }

    private void bytes(Page p, int from, int to, Actor a, boolean write, boolean strong, Found found, long pageBase) {
        long epoch = a.epoch;
        int pc = a.pc;
        for (int i = from; i < to; i++) {
            long w = p.write[i];
            if (w == 0) {
                if (!initialized && !write && !found.any()) {
                    found.uninitialized(pageBase + i);
                }
            } else if (!(w < 0 && (strong || !write)) && !a.knows(w) && !found.any()) {
                // Strong accesses never race with each other, and a plain read of what atomics
                // write is tolerated: the compare-and-swap loop idiom reads plainly, then lets the
                // atomic check the value it read.
                found.conflict(w, p.writePc[i], true, pageBase + i);
            }
            long r1 = p.read1[i];
            if (write) {
                long r2 = p.read2[i];
                if (!found.any()) {
                    if (r1 != 0 && !strong && !a.knows(r1)) {
                        found.conflict(r1, p.read1Pc[i], false, pageBase + i);
                    } else if (r2 != 0 && !strong && !a.knows(r2)) {
                        found.conflict(r2, p.read2Pc[i], false, pageBase + i);
                    }
                }
                p.write[i] = epoch;
                p.writePc[i] = pc;
                p.read1[i] = 0;
                p.read2[i] = 0;
            } else if (r1 == 0 || a.knows(r1)) {
                p.read1[i] = epoch;
                p.read1Pc[i] = pc;
                long r2 = p.read2[i];
                if (r2 != 0 && a.knows(r2)) {
                    p.read2[i] = 0;
                }
            } else {
                // r1 is concurrent with this read: keep it, and this read in place of r2 (an
                // older concurrent r2 is forgotten, which can only hide a hazard).
                p.read2[i] = epoch;
                p.read2Pc[i] = pc;
            }
        }
    }

    /** What a check found: the earlier access of a conflict, or an uninitialized byte. */
    static final class Found {
        long epoch;
        int pc;
        boolean write;
        boolean uninitialized;
        long address = -1;

        void clear() {
            address = -1;
            uninitialized = false;
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
