package io.ptxrun.exec.order;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The element-wise maximum of vector clocks, which hands back an input that already dominates. */
class ThreadClocksTest {
    @Test
    void maxIsElementWiseAndReusesADominatingInput() {
        Random random = new Random(13);
        for (int round = 0; round < 20_000; round++) {
            int n = 1 + random.nextInt(9);
            int[] a = new int[n], b = new int[n], expected = new int[n];
            int shape = random.nextInt(4);
            for (int i = 0; i < n; i++) {
                a[i] = random.nextInt(4);
                // Shapes: unrelated, b dominating a, a dominating b, equal.
                b[i] = switch (shape) {
                    case 0 -> random.nextInt(4);
                    case 1 -> a[i] + random.nextInt(2);
                    case 2 -> Math.max(0, a[i] - random.nextInt(2));
                    default -> a[i];
                };
                expected[i] = Math.max(a[i], b[i]);
            }
            int[] r = ThreadClocks.max(a.clone(), b.clone());
            assertArrayEquals(expected, r);
            boolean aDominates = true, bDominates = true;
            for (int i = 0; i < n; i++) {
                aDominates &= a[i] >= b[i];
                bDominates &= b[i] >= a[i];
            }
            int[] a2 = a.clone(), b2 = b.clone();
            int[] same = ThreadClocks.max(a2, b2);
            if (aDominates) {
                assertSame(a2, same);
            } else if (bDominates) {
                assertSame(b2, same);
            }
        }
    }
}
