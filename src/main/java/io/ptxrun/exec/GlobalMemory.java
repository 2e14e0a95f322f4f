package io.ptxrun.exec;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The global address space of one launch: a sparse set of allocations in a 64-bit space. Addresses
 * start well above 0 so that null and small integers never alias a buffer. Access outside every
 * allocation raises {@link MemoryFault}, which the engine reports as an error of the kernel.
 *
 * <p>CTAs run on several threads at once, so this class is thread-safe: each allocation is its own
 * byte array, plain loads and stores go to it directly (racing kernels see some value, as on the
 * hardware), and atomic read-modify-writes and strong stores hold a lock of their address.
 */
public final class GlobalMemory {
    /** First address handed out; far from 0 and from the engine's shared/local/const windows. */
    public static final long BASE = 0x7f00_0000_0000L;

    /**
     * Locks of atomic accesses, striped by address. Atomics cannot be compare-and-set loops on
     * array views: since Java 22 byte-array views support plain access only.
     */
    private final Object[] locks = new Object[64];

    {
        java.util.Arrays.setAll(locks, i -> new Object());
    }

    /**
     * One allocation: its first address and its bytes, and while a launch may have to be run again
     * ({@link #keepOriginals}) the bytes of each page before the launch first wrote it.
     */
    static final class Allocation {
        final long start;
        final byte[] data;
        /** Each page's bytes as they were before its first write, null while unwritten; null when none are kept. */
        private AtomicReferenceArray<byte[]> originals;

        Allocation(long start, byte[] data) {
            this.start = start;
            this.data = data;
        }

        long start() {
            return start;
        }

        byte[] data() {
            return data;
        }

        boolean holds(long addr, int len) {
            return addr >= start && len >= 0 && addr - start + len <= data.length;
        }

        /** Keeps the original of every page that [off, off+len) touches, before the bytes change. */
        void beforeWrite(int off, int len) {
            AtomicReferenceArray<byte[]> kept = originals;
            if (kept == null || len <= 0) {
                return;
            }
            for (int p = off >>> PAGE_BITS, last = (off + len - 1) >>> PAGE_BITS; p <= last; p++) {
                if (kept.get(p) == null) {
                    keep(kept, p);
                }
            }
        }

        /** The first writer of a page copies it; a writer racing with it waits for the copy. */
        private synchronized void keep(AtomicReferenceArray<byte[]> kept, int page) {
            if (kept.get(page) == null) {
                int from = page << PAGE_BITS;
                kept.set(page, Arrays.copyOfRange(data, from, Math.min(data.length, from + (1 << PAGE_BITS))));
            }
        }
    }

    /** Pages of 4 KB: a kernel writes its output in runs, so few pages are kept that it did not write. */
    private static final int PAGE_BITS = 12;

    private final ConcurrentSkipListMap<Long, Allocation> allocations = new ConcurrentSkipListMap<>();
    /**
     * The allocations by start address, replaced whole on each allocation: lookups binary-search it
     * without boxing (kernels alternate between buffers, so the one-entry cache below often misses).
     */
    private volatile Allocation[] byStart = new Allocation[0];
    private long next = BASE;
    /** Simulated bytes allowed in all: allocations and the engine's CTA memory count against it. */
    private final long budget;
    private final java.util.concurrent.atomic.AtomicLong reserved = new java.util.concurrent.atomic.AtomicLong();
    // The last allocation hit: kernels touch one or two buffers in long runs. An immutable record
    // read and written whole, so threads racing on it at worst miss the cache.
    private Allocation last;

    private final java.util.TreeMap<Long, String> names = new java.util.TreeMap<>();

    /** Memory with the default budget ({@link KernelLaunch.Limits#DEFAULT_MAX_MEMORY_BYTES}). */
    public GlobalMemory() {
        this(KernelLaunch.Limits.DEFAULT_MAX_MEMORY_BYTES);
    }

    /** Memory that holds at most {@code budget} simulated bytes. */
    public GlobalMemory(long budget) {
        this.budget = budget;
    }

    public long budget() {
        return budget;
    }

    /** Bytes counted against the budget so far. */
    public long reserved() {
        return reserved.get();
    }

    /** Counts bytes against the budget; false, with nothing counted, when they do not fit. */
    public boolean reserve(long bytes) {
        while (true) {
            long now = reserved.get();
            if (bytes > budget - now) {
                return false;
            }
            if (reserved.compareAndSet(now, now + bytes)) {
                return true;
            }
        }
    }

    /** Gives back bytes counted by {@link #reserve}. */
    public void release(long bytes) {
        reserved.addAndGet(-bytes);
    }

    /**
     * Reserves zeroed memory; align is rounded up to at least 256 bytes. An allocation larger than a
     * Java array or beyond the budget is a {@link MemoryFault}, before anything is allocated.
     */
    public synchronized long allocate(long bytes, int align) {
        if (bytes < 0 || bytes > Integer.MAX_VALUE - 16) {
            throw new MemoryFault(bytes + " bytes is more than one allocation can hold (" + (Integer.MAX_VALUE - 16)
                    + ")");
        }
        if (!reserve(bytes)) {
            throw new MemoryFault(bytes + " bytes would exceed the simulated-memory budget of " + budget
                    + " bytes (--max-memory)");
        }
        long a = Math.max(256, align);
        long start = (next + a - 1) / a * a;
        allocations.put(start, new Allocation(start, new byte[(int) bytes]));
        byStart = allocations.values().toArray(new Allocation[0]);
        // A gap after each allocation keeps off-by-some accesses from landing in a neighbour.
        next = start + Math.max(bytes, 1) + 256;
        return start;
    }

    /** Where {@link #rollBack} returns to: the allocator as {@link #keepOriginals} found it. */
    private record Mark(Allocation[] allocations, long next, long reserved, Map<Long, String> names) {}

    private Mark mark;

    /**
     * From now on keeps the original of each page that is written, so that {@link #rollBack} can
     * return memory to this moment. A page is copied on its first write, outside the simulated-memory
     * budget (the budget must give the run the same answers whether or not it may be rolled back):
     * at most the memory allocated now, once more.
     */
    synchronized void keepOriginals() {
        for (Allocation a : byStart) {
            a.originals = new AtomicReferenceArray<>((a.data.length + (1 << PAGE_BITS) - 1) >>> PAGE_BITS);
        }
        mark = new Mark(byStart, next, reserved.get(), new java.util.TreeMap<>(names));
    }

    /**
     * Returns memory to where {@link #keepOriginals} found it: every page written since gets its
     * original bytes back, allocations made since (device malloc) are gone, the budget counts what
     * it counted then; no more originals are kept.
     */
    synchronized void rollBack() {
        allocations.clear();
        for (Allocation a : mark.allocations) {
            for (int p = 0; p < a.originals.length(); p++) {
                byte[] page = a.originals.get(p);
                if (page != null) {
                    System.arraycopy(page, 0, a.data, p << PAGE_BITS, page.length);
                }
            }
            a.originals = null;
            allocations.put(a.start, a);
        }
        byStart = mark.allocations;
        last = null;
        next = mark.next;
        reserved.set(mark.reserved);
        names.clear();
        names.putAll(mark.names);
        mark = null;
    }

    /** Stops keeping originals: what was written since {@link #keepOriginals} stands. */
    synchronized void dropOriginals() {
        for (Allocation a : mark.allocations) {
            a.originals = null;
        }
        mark = null;
    }

    /** Names the allocation at {@code start} (a launch buffer), for reports. */
    public synchronized void name(long start, String name) {
        names.put(start, name);
    }

    /** Byte ranges {start, end} whose contents the program has not set (see {@link #markUninitialized}). */
    private final java.util.List<long[]> uninitialized = new java.util.ArrayList<>();

    /**
     * Marks {@code size} bytes at {@code start} as memory the program has not set (a launch buffer
     * that stands for cudaMalloc'd memory): the hazard detector reports reads of them before a write.
     */
    public synchronized void markUninitialized(long start, long size) {
        uninitialized.add(new long[] {start, start + size});
    }

    /** The ranges {@link #markUninitialized} marked. */
    public synchronized java.util.List<long[]> uninitialized() {
        return java.util.List.copyOf(uninitialized);
    }

    /** {@code name[+offset]} of the named allocation that holds {@code addr}, or null. */
    public synchronized String describe(long addr) {
        java.util.Map.Entry<Long, String> e = names.floorEntry(addr);
        Allocation m = e == null ? null : allocations.get(e.getKey());
        if (m == null || addr >= m.start() + m.data().length) {
            return null;
        }
        return String.format("global 0x%x ('%s'+%d)", addr, e.getValue(), addr - m.start());
    }

    public void write(long addr, byte[] data) {
        Allocation m = find(addr, data.length);
        m.beforeWrite((int) (addr - m.start), data.length);
        System.arraycopy(data, 0, m.data, (int) (addr - m.start), data.length);
    }

    public byte[] read(long addr, int len) {
        Allocation m = find(addr, len);
        byte[] out = new byte[len];
        System.arraycopy(m.data, (int) (addr - m.start), out, 0, len);
        return out;
    }

    /** Whether [addr, addr+len) lies inside one allocation. */
    public boolean contains(long addr, int len) {
        Map.Entry<Long, Allocation> e = allocations.floorEntry(addr);
        return e != null && e.getValue().holds(addr, len);
    }

    long load(long addr, int size) {
        Allocation m = find(addr, size);
        return Bytes.get(m.data, (int) (addr - m.start), size);
    }

    void store(long addr, int size, long value) {
        Allocation m = find(addr, size);
        m.beforeWrite((int) (addr - m.start), size);
        Bytes.put(m.data, (int) (addr - m.start), size, value);
    }

    /**
     * One atomic read-modify-write of size 1, 2, 4 or 8 naturally aligned bytes: replaces the value
     * v at addr with {@code update.applyAsLong(v)} (zero-extended v; the result is truncated to
     * size) and returns v. Atomic with every other read-modify-write and strong store of the launch.
     */
    long readModifyWrite(long addr, int size, java.util.function.LongUnaryOperator update) {
        Allocation m = find(addr, size);
        int off = (int) (addr - m.start);
        m.beforeWrite(off, size);
        synchronized (lockOf(addr)) {
            long old = Bytes.get(m.data, off, size);
            Bytes.put(m.data, off, size, update.applyAsLong(old));
            return old;
        }
    }

    /**
     * A strong (relaxed, volatile, release) store: it may race with a read-modify-write of another
     * CTA on another thread, which must not lose it between its read and its write.
     */
    void storeStrong(long addr, int size, long value) {
        Allocation m = find(addr, size);
        m.beforeWrite((int) (addr - m.start), size);
        synchronized (lockOf(addr)) {
            Bytes.put(m.data, (int) (addr - m.start), size, value);
        }
    }

    /** The lock of the naturally aligned 8 bytes holding addr (accesses of 8 bytes or less share it). */
    private Object lockOf(long addr) {
        return locks[(int) (addr >>> 3) & (locks.length - 1)];
    }

    /** The allocation holding [addr, addr+len). */
    private Allocation find(long addr, int len) {
        Allocation m = holding(addr, len);
        if (m == null) {
            throw new MemoryFault(String.format("global access of %d bytes at 0x%x is outside every allocation", len, addr));
        }
        return m;
    }

    /** The allocation holding [addr, addr+len), or null (for whole-warp accesses that check each lane). */
    Allocation holding(long addr, int len) {
        Allocation m = last;
        if (m != null && m.holds(addr, len)) {
            return m;
        }
        Allocation[] all = byStart;
        int lo = 0, hi = all.length - 1;
        Allocation floor = null;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (all[mid].start <= addr) {
                floor = all[mid];
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        if (floor == null || !floor.holds(addr, len)) {
            return null;
        }
        last = floor;
        return floor;
    }
}
