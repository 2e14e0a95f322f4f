package io.ptxrun.exec;

import java.util.Map;
import java.util.TreeMap;

/**
 * The global address space of one launch: a sparse set of allocations in a 64-bit space. Addresses
 * start well above 0 so that null and small integers never alias a buffer. Access outside every
 * allocation raises {@link MemoryFault}, which the engine reports as an error of the kernel.
 */
public final class GlobalMemory {
    /** First address handed out; far from 0 and from the engine's shared/local/const windows. */
    public static final long BASE = 0x7f00_0000_0000L;

    private final TreeMap<Long, byte[]> allocations = new TreeMap<>();
    private long next = BASE;
    // The last allocation hit: kernels touch one or two buffers in long runs.
    private long lastStart = -1;
    private byte[] lastData;

    /** Reserves zeroed memory; align is rounded up to at least 256 bytes. */
    public long allocate(long bytes, int align) {
        if (bytes < 0 || bytes > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("allocation size out of range: " + bytes);
        }
        long a = Math.max(256, align);
        long start = (next + a - 1) / a * a;
        allocations.put(start, new byte[(int) bytes]);
        // A gap after each allocation keeps off-by-some accesses from landing in a neighbour.
        next = start + Math.max(bytes, 1) + 256;
        return start;
    }

    public void write(long addr, byte[] data) {
        byte[] mem = find(addr, data.length);
        System.arraycopy(data, 0, mem, (int) (addr - lastStart), data.length);
    }

    public byte[] read(long addr, int len) {
        byte[] mem = find(addr, len);
        byte[] out = new byte[len];
        System.arraycopy(mem, (int) (addr - lastStart), out, 0, len);
        return out;
    }

    /** Whether [addr, addr+len) lies inside one allocation. */
    public boolean contains(long addr, int len) {
        Map.Entry<Long, byte[]> e = allocations.floorEntry(addr);
        return e != null && addr - e.getKey() + len <= e.getValue().length;
    }

    long load(long addr, int size) {
        byte[] mem = find(addr, size);
        return Bytes.get(mem, (int) (addr - lastStart), size);
    }

    void store(long addr, int size, long value) {
        byte[] mem = find(addr, size);
        Bytes.put(mem, (int) (addr - lastStart), size, value);
    }

    /** The allocation holding [addr, addr+len); sets lastStart to its start. */
    private byte[] find(long addr, int len) {
        if (lastData != null && addr >= lastStart && addr - lastStart + len <= lastData.length) {
            return lastData;
        }
        Map.Entry<Long, byte[]> e = allocations.floorEntry(addr);
        if (e == null || addr - e.getKey() + len > e.getValue().length || len < 0) {
            throw new MemoryFault(String.format("global access of %d bytes at 0x%x is outside every allocation", len, addr));
        }
        lastStart = e.getKey();
        lastData = e.getValue();
        return lastData;
    }
}
