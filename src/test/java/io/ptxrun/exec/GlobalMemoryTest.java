package io.ptxrun.exec;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Rolling global memory back to where a launch found it, for a launch that runs again. */
class GlobalMemoryTest {
    private static byte[] pattern(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + seed);
        }
        return b;
    }

    @Test
    void rollBackRestoresEveryWrittenPageAndForgetsLaterAllocations() {
        GlobalMemory m = new GlobalMemory(1 << 20);
        long big = m.allocate(3 * 4096 + 100, 256);
        long small = m.allocate(8, 256);
        m.write(big, pattern(3 * 4096 + 100, 1));
        m.name(big, "big");
        long reserved = m.reserved();
        m.keepOriginals();
        // Writes by every path, across page boundaries and at the allocation's last byte.
        m.write(big + 4090, pattern(20, 7));
        m.store(big + 3 * 4096 + 96, 4, 0xdeadbeefL);
        m.storeStrong(small, 8, -1L);
        m.readModifyWrite(big + 8192, 8, v -> v + 1);
        GlobalMemory.Allocation a = m.holding(big, 1);
        a.beforeWrite(100, 4);
        a.data()[100] ^= 1;
        long later = m.allocate(64, 256);
        m.store(later, 8, 5);
        assertFalse(java.util.Arrays.equals(pattern(3 * 4096 + 100, 1), m.read(big, 3 * 4096 + 100)));
        m.rollBack();
        assertArrayEquals(pattern(3 * 4096 + 100, 1), m.read(big, 3 * 4096 + 100));
        assertArrayEquals(new byte[8], m.read(small, 8));
        assertEquals(reserved, m.reserved());
        assertFalse(m.contains(later, 1));
        assertThrows(MemoryFault.class, () -> m.load(later, 8));
        // The allocator is where it was: the next allocation gets the same address again.
        assertEquals(later, m.allocate(64, 256));
        assertEquals("global 0x" + Long.toHexString(big + 5) + " ('big'+5)", m.describe(big + 5));
    }

    @Test
    void afterDroppingOriginalsWritesStand() {
        GlobalMemory m = new GlobalMemory(1 << 20);
        long a = m.allocate(16, 256);
        m.keepOriginals();
        m.store(a, 4, 42);
        m.dropOriginals();
        assertEquals(42, m.load(a, 4));
        // Nothing is kept any more: a write now is not copied first.
        m.store(a, 4, 43);
        assertEquals(43, m.load(a, 4));
    }
}
