package io.ptxrun.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link AsyncCopies.Granules}, how a tensor copy's elements reach the hazard detector: the
 * accesses made cover the elements' bytes in the elements' order, none reaches over an aligned 16
 * bytes, and consecutive elements within one aligned 16 bytes are one access. Rows of random
 * element sizes, strides (elements apart, as an elementStrides box makes them) and swizzled
 * 16-byte chunks.
 */
class GranulesTest {
    @Test
    void accessesAreTheElementsBytesInOrderByGranule() {
        SplittableRandom random = new SplittableRandom(29);
        for (int round = 0; round < 500; round++) {
            int bytes = 1 << random.nextInt(4);
            int stride = random.nextInt(4) == 0 ? bytes * (1 + random.nextInt(3)) : bytes;
            long base = (random.nextLong(1 << 20) & ~15L) + (random.nextBoolean() ? 0 : 16L * random.nextInt(8));
            List<long[]> elements = new ArrayList<>();
            for (int row = 0, rows = 1 + random.nextInt(4); row < rows; row++) {
                // A row's 16-byte chunks in a swizzled order, or in order.
                int chunks = 1 + random.nextInt(8);
                int xor = random.nextBoolean() ? random.nextInt(8) : 0;
                long rowBase = base + 256L * row;
                for (int c = 0; c < chunks; c++) {
                    long chunk = rowBase + 16L * ((c ^ xor) & 7);
                    for (int k = 0; k < 16; k += stride) {
                        elements.add(new long[] {chunk + k, bytes});
                    }
                }
            }
            List<long[]> accesses = new ArrayList<>();
            AsyncCopies.Granules g = new AsyncCopies.Granules((a, n) -> accesses.add(new long[] {a, n}));
            for (long[] e : elements) {
                g.add(e[0], (int) e[1]);
            }
            g.flush();
            List<Long> expected = new ArrayList<>(), made = new ArrayList<>();
            for (long[] e : elements) {
                for (int k = 0; k < e[1]; k++) {
                    expected.add(e[0] + k);
                }
            }
            for (long[] a : accesses) {
                assertEquals(a[0] | 15, a[0] + a[1] - 1 | 15, "an access within one aligned 16 bytes");
                for (int k = 0; k < a[1]; k++) {
                    made.add(a[0] + k);
                }
            }
            assertEquals(expected, made, "round " + round);
            for (int i = 1; i < accesses.size(); i++) {
                long[] before = accesses.get(i - 1), now = accesses.get(i);
                assertTrue(before[0] + before[1] != now[0] || (before[0] | 15) != (now[0] | 15),
                        "round " + round + ": consecutive elements of one granule made two accesses");
            }
        }
    }
}
