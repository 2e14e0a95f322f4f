package io.ptxrun.exec.order;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
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

    /**
     * What a thread learns of its own async agent (its wait_group) is kept beside the knowledge
     * array it shares with others, and is still part of all it knows: what it hands on at a
     * release or barrier, and what it knows at a fence.
     */
    @Test
    void ownAgentKnowledgeLeavesTheSharedArrayAlone() {
        ThreadClocks c = new ThreadClocks(4);
        c.start(0);
        int[] shared = c.known[1];
        c.learn(1, 4 + 1, 7);
        assertSame(shared, c.known[1]);
        assertEquals(7, c.knownOf(1)[5]);
        assertEquals(0, c.knownOf(2)[5]);
        assertEquals(7, c.release(1).clock()[5]);
        Joiner barrier = new Joiner();
        for (int t = 0; t < 4; t++) {
            barrier.arrive(c, t);
        }
        Release r = barrier.take(0);
        assertEquals(7, r.clock()[5]);
        for (int t = 0; t < 4; t++) {
            c.acquire(t, r);
        }
        assertEquals(7, c.known[2][5]);
        c.learn(3, 4 + 1, 9);
        assertEquals(9, c.known[3][5]);
        c.fence(1, Scopes.GPU);
        assertEquals(7, c.fenced[1][5]);
    }
    /**
     * A whole warp whose threads share one knowledge array arrives at a barrier and acquires its
     * release at once: the same joined knowledge, counters and knowledge afterwards as thread by
     * thread, from random counters, own-agent knowledge and barrier contents.
     */
    @Test
    void aWarpArrivesAndAcquiresAsItsThreadsOneByOne() {
        Random random = new Random(29);
        for (int round = 0; round < 500; round++) {
            ThreadClocks byThread = new ThreadClocks(64), byWarp = new ThreadClocks(64);
            byThread.start(0);
            byWarp.start(0);
            int[] shared = new int[128];
            for (int i = 0; i < shared.length; i++) {
                shared[i] = random.nextInt(5);
            }
            for (int t = 0; t < 64; t++) {
                byThread.known[t] = byWarp.known[t] = shared;
                byThread.clock[t] = byWarp.clock[t] = 1 + random.nextInt(6);
                byThread.agentKnown[t] = byWarp.agentKnown[t] = random.nextInt(6);
            }
            Joiner one = new Joiner(), all = new Joiner();
            if (random.nextBoolean()) {
                // Another warp arrived first with other knowledge.
                int[] other = new int[128];
                for (int i = 0; i < other.length; i++) {
                    other[i] = random.nextInt(5);
                }
                for (Joiner j : new Joiner[] {one, all}) {
                    ThreadClocks first = new ThreadClocks(64);
                    first.start(0);
                    java.util.Arrays.fill(first.known, other);
                    j.arrive(first, 40);
                }
            }
            int warp = random.nextInt(2) * 32;
            for (int t = warp; t < warp + 32; t++) {
                one.arrive(byThread, t);
            }
            assertEquals(true, byWarp.alike(warp));
            all.arriveWarp(byWarp, warp);
            assertArrayEquals(byThread.clock, byWarp.clock);
            Release r1 = one.take(0), r2 = all.take(0);
            assertArrayEquals(r1.clock(), r2.clock());
            for (int t = warp; t < warp + 32; t++) {
                byThread.acquire(t, r1);
            }
            assertEquals(true, byWarp.acquireWarp(warp, r2));
            for (int t = 0; t < 64; t++) {
                assertArrayEquals(byThread.known[t], byWarp.known[t]);
            }
        }
    }
}
