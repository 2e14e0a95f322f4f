package io.ptxrun.exec.order;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The checks of a whole warp's plain accesses at once ({@link MemoryOrder#accesses}, with its
 * shortcuts for broadcast reads, for word reads and writes by threads that share their knowledge
 * (of shared memory, and reads of global memory) and for locked pages) against their definition, {@link
 * MemoryOrder#access} for each lane in ascending order: on random programs of warp accesses,
 * barriers, warp syncs, atomics, fences and async copies over a few words (so that lanes share
 * words, and knowledge, often), both must find the same hazards, as often, and leave the same
 * shadow behind.
 */
class WarpAccessesTest {
    private static final int THREADS = 64, WARPS = THREADS / 32;
    /** Words in play: 16 of shared memory, and 16 of global memory around a page boundary. */
    private static final long GLOBAL_BASE = 4096 - 32;

    /**
     * One detector run three ways: {@code warp} through the warp path with every logged read of
     * shared memory recorded in the end, {@code dropping} through the warp path as launches run
     * (a log that every thread knows is dropped), {@code lanes} lane by lane.
     */
    private static final class Pair {
        final MemoryOrder warp = new MemoryOrder(new MemoryOrder.Launch(1L << 30, 1), THREADS, 1);
        final MemoryOrder dropping = new MemoryOrder(new MemoryOrder.Launch(1L << 30, 1), THREADS, 1);
        final MemoryOrder lanes = new MemoryOrder(new MemoryOrder.Launch(1L << 30, 1), THREADS, 1);

        /** Copies issued and not landed yet: a log of reads they will overwrite is never dropped. */
        final List<Copy> pending = new ArrayList<>();

        /** A copy of {@code size} bytes into shared offset {@code to} by thread t: its origin in each run. */
        record Copy(MemoryOrder.CopyOrigin[] origins, int t, long to, int size) {}

        Pair() {
            warp.startCluster(0);
            warp.replayLoggedReads();
            dropping.startCluster(0);
            lanes.startCluster(0);
            warp.pendingWrites((rank, test) -> pending.stream().anyMatch(c -> test.test(c.to, c.size, c.origins[0])));
            dropping.pendingWrites((rank, test) -> pending.stream().anyMatch(c -> test.test(c.to, c.size, c.origins[1])));
        }

        /** Thread t issues a copy of {@code size} bytes from global {@code from} into shared {@code to}. */
        Copy issue(int t, long from, long to, int size) {
            MemoryOrder.CopyOrigin[] origins = new MemoryOrder.CopyOrigin[3];
            int[] next = {0};
            both(o -> {
                MemoryOrder.CopyOrigin c = o.issue(t, 50);
                o.copyReads(c, MemoryOrder.GLOBAL, 0, from, size);
                origins[next[0]++] = c;
            });
            Copy c = new Copy(origins, t, to, size);
            pending.add(c);
            return c;
        }

        /** The copy lands (pending while it writes, as a queue's entry is); with {@code wait} its issuer then learns so. */
        void land(Copy c, boolean wait) {
            int[] next = {0};
            both(o -> {
                MemoryOrder.CopyOrigin origin = c.origins[next[0]++];
                o.copyWrites(origin, MemoryOrder.SHARED, 0, c.to, c.size, false);
                if (wait) {
                    o.agentComplete(c.t, c.t, origin.clock());
                }
            });
            pending.remove(c);
        }

        void both(Consumer<MemoryOrder> step) {
            step.accept(warp);
            step.accept(dropping);
            step.accept(lanes);
        }

        void warpAccess(int w, int mask, int pc, int space, long[] addresses, int size, boolean write) {
            warp.accesses(w * 32, mask, pc, space, 0, addresses.clone(), size, write);
            dropping.accesses(w * 32, mask, pc, space, 0, addresses.clone(), size, write);
            for (int m = mask; m != 0; m &= m - 1) {
                int l = Integer.numberOfTrailingZeros(m);
                lanes.access(w * 32 + l, pc, space, 0, addresses[l], size, write, false);
            }
        }

        void assertSame(String what) {
            List<HazardLog.Entry> b = HazardLog.merged(List.of(lanes.log()));
            for (MemoryOrder o : List.of(warp, dropping)) {
                List<HazardLog.Entry> a = HazardLog.merged(List.of(o.log()));
                String how = what + (o == warp ? "" : " (logs dropped)");
                assertEquals(b.size(), a.size(), how + ": number of hazards");
                for (int i = 0; i < a.size(); i++) {
                    assertEquals(b.get(i).first, a.get(i).first, how);
                    assertEquals(b.get(i).count, a.get(i).count, how + ": times seen");
                }
            }
            for (long at = 0; at < 64; at++) {
                assertArrayEquals(lanes.shadowRecord(MemoryOrder.SHARED, 0, at),
                        warp.shadowRecord(MemoryOrder.SHARED, 0, at), what + ": shared byte " + at);
                assertArrayEquals(lanes.shadowRecord(MemoryOrder.GLOBAL, 0, GLOBAL_BASE + at),
                        warp.shadowRecord(MemoryOrder.GLOBAL, 0, GLOBAL_BASE + at), what + ": global byte " + at);
            }
        }

        /**
         * A compiled run's loads by warp w: through {@link MemoryOrder#sharedLoads} as far as it
         * logs them and then one by one (the warp paths), against each lane's in order.
         */
        void runLoads(int w, long[] regs, MemoryOrder.LoadRun run) {
            for (MemoryOrder o : List.of(warp, dropping)) {
                for (int k = o.sharedLoads(w * 32, 0, regs, 0, run); k < run.count; k++) {
                    o.accesses(w * 32, -1, run.pcs[k], MemoryOrder.SHARED, 0, addresses(regs, run, k), run.sizes[k], false);
                }
            }
            for (int k = 0; k < run.count; k++) {
                long[] at = addresses(regs, run, k);
                for (int l = 0; l < 32; l++) {
                    lanes.access(w * 32 + l, run.pcs[k], MemoryOrder.SHARED, 0, at[l], run.sizes[k], false, false);
                }
            }
        }

        private static long[] addresses(long[] regs, MemoryOrder.LoadRun run, int k) {
            long[] at = new long[32];
            int r = run.registerOf[k];
            for (int l = 0; l < 32; l++) {
                at[l] = (r < 0 ? 0 : regs[(run.registers[r] << 5) + l]) + run.offsets[k];
            }
            return at;
        }

        int hazards() {
            return HazardLog.merged(List.of(lanes.log())).size();
        }
    }

    @Test
    void warpAccessesAreTheirLanesInOrder() {
        int racyWithHazards = 0, seeds = 400;
        for (int seed = 0; seed < seeds; seed++) {
            Pair p = new Pair();
            Random r = new Random(seed);
            boolean synced = seed % 2 == 1;
            initializeShared(p);
            run(r, p, 1 + r.nextInt(seed % 3 == 0 ? 400 : 40), synced);
            p.assertSame("seed " + seed);
            if (synced) {
                assertEquals(0, p.hazards(), "seed " + seed + ": a barrier between any two accesses orders them all");
            } else {
                racyWithHazards += p.hazards() > 0 ? 1 : 0;
            }
        }
        // The racy programs find something most of the time, and not always.
        assertTrue(racyWithHazards > seeds / 2 / 3 && racyWithHazards < seeds / 2,
                racyWithHazards + " of " + seeds / 2 + " racy programs with hazards");
    }

    /**
     * A GEMM's tile read down columns: after a barrier each warp in turn reads the same words at
     * the same instruction (the second warp's lanes all find them settled by the first's), with
     * now and then a write, a barrier, a fence or another read in between that unsettles some.
     */
    @Test
    void repeatedColumnReadsAreTheirLanesInOrder() {
        for (int seed = 0; seed < 200; seed++) {
            Pair p = new Pair();
            Random r = new Random(seed);
            initializeShared(p);
            int size = seed % 4 == 3 ? 8 : 4;
            long[] column = new long[32];
            for (int l = 0; l < 32; l++) {
                column[l] = (4L * ((seed + l) % 16)) & -size;
            }
            int mask = seed % 5 == 4 ? r.nextInt() | 1 : -1;
            for (int s = 0; s < 60; s++) {
                int kind = r.nextInt(10);
                if (kind < 6) {
                    p.warpAccess(kind % 2, mask, 7, MemoryOrder.SHARED, column, size, false);
                } else if (kind < 7) {
                    barrier(p);
                } else if (kind < 8) {
                    int t = r.nextInt(THREADS);
                    p.both(o -> o.fence(t, Scopes.GPU));
                } else {
                    warpAccess(r, p, false);
                }
            }
            p.assertSame("seed " + seed);
        }
    }

    /**
     * After a barrier one lane reads a word first; then its whole warp reads the word in one
     * broadcast, twice. The lanes before the first reader only wait on the word, settled by that
     * read; the first reader's own read is not settled for it, and the lanes after it wait again:
     * the records and findings come out as lane by lane, wherever the first reader is.
     */
    @Test
    void aBroadcastReadThroughTheWordsFirstReaderIsItsLanesInOrder() {
        for (int first = 0; first < 32; first++) {
            Pair p = new Pair();
            initializeShared(p);
            long[] word = new long[32];
            java.util.Arrays.fill(word, 12);
            p.warpAccess(1, 1 << first, 3, MemoryOrder.SHARED, word, 4, false);
            p.warpAccess(1, -1, 4, MemoryOrder.SHARED, word, 4, false);
            p.warpAccess(1, -1, 4, MemoryOrder.SHARED, word, 4, false);
            p.warpAccess(0, -1, 4, MemoryOrder.SHARED, word, 4, false);
            p.assertSame("first reader lane " + first);
            // A write of the word by a lane of warp 0 races with the other warp's reads.
            p.warpAccess(0, 1, 5, MemoryOrder.SHARED, word, 4, true);
            p.assertSame("first reader lane " + first + ", then a write");
            assertTrue(p.hazards() > 0, "first reader lane " + first);
        }
    }

    /**
     * A tile read between two barriers, as a GEMM's inner loop has it: the reads are logged, and
     * the log dropped once every thread has passed the barrier after them. A write by a thread
     * that has not passed it still finds the reads it races with.
     */
    @Test
    void aTilesReadsBetweenBarriersAreDroppedYetARacingWriteFindsThem() {
        Pair p = new Pair();
        initializeShared(p);
        long[] column = new long[32];
        for (int l = 0; l < 32; l++) {
            column[l] = 4L * (l % 16);
        }
        for (int round = 0; round < 3; round++) {
            p.warpAccess(0, -1, 1, MemoryOrder.SHARED, column, 4, false);
            p.warpAccess(1, -1, 1, MemoryOrder.SHARED, column, 4, false);
            barrier(p);
            p.warpAccess(0, 0xffff, 2, MemoryOrder.SHARED, column, 4, true);
            barrier(p);
        }
        p.assertSame("synchronized rounds");
        assertEquals(0, p.hazards(), "synchronized rounds");
        assertTrue(p.dropping.logsDropped(0) >= 3, p.dropping.logsDropped(0) + " logs dropped");
        // Now warp 1 reads, and warp 0 writes with no barrier between.
        p.warpAccess(1, -1, 1, MemoryOrder.SHARED, column, 4, false);
        p.warpAccess(0, 0xffff, 2, MemoryOrder.SHARED, column, 4, true);
        p.assertSame("a write after the other warp's reads");
        assertTrue(p.hazards() > 0, "a write after the other warp's reads");
    }

    /**
     * Warp 1 exits; warp 0 reads a tile between two barriers of its own. The exited threads know
     * nothing of the reads, but access nothing more either: the log is dropped all the same.
     */
    @Test
    void threadsThatExitedDoNotKeepALogFromBeingDropped() {
        Pair p = new Pair();
        initializeShared(p);
        p.both(o -> o.exited(32, -1));
        long[] column = new long[32];
        for (int l = 0; l < 32; l++) {
            column[l] = 4L * (l % 16);
        }
        p.warpAccess(0, -1, 1, MemoryOrder.SHARED, column, 4, false);
        p.both(o -> {
            o.barrierArrive(0, -1, 0);
            o.acquire(0, -1, o.barrierComplete(0, 0));
        });
        p.warpAccess(0, 0xffff, 2, MemoryOrder.SHARED, column, 4, true);
        p.assertSame("a write after a barrier of the threads left");
        assertEquals(0, p.hazards(), "a write after a barrier of the threads left");
        assertEquals(1, p.dropping.logsDropped(0), "logs dropped");
    }

    /**
     * Halves of a word read by one warp (16-bit elements), then the whole word by the other, then
     * a write of it by the first: the write races with the second warp's read, and the records
     * come out as lane by lane whichever of the reads were logged (a half read splits the word's
     * cell, which a word read logged after it must not miss).
     */
    @Test
    void aWordReadAfterHalfReadsOfItIsTheirLanesInOrder() {
        Pair p = new Pair();
        initializeShared(p);
        long[] halves = new long[32], words = new long[32];
        for (int l = 0; l < 32; l++) {
            halves[l] = 2L * (l % 32);
            words[l] = 4L * (l % 16);
        }
        p.warpAccess(1, -1, 1, MemoryOrder.SHARED, halves, 2, false);
        p.warpAccess(0, -1, 2, MemoryOrder.SHARED, words, 4, false);
        p.warpAccess(1, 1, 3, MemoryOrder.SHARED, words, 4, true);
        p.assertSame("a write after half and word reads");
        assertTrue(p.hazards() > 0, "a write after half and word reads");
    }

    /**
     * A table read over and over with no barrier between: the log is closed at its bound and
     * another opened, and a racing write still finds the reads.
     */
    @Test
    void aLongLogIsClosedAtItsBound() {
        Pair p = new Pair();
        initializeShared(p);
        long[] column = new long[32];
        for (int l = 0; l < 32; l++) {
            column[l] = 4L * (l % 16);
        }
        for (int i = 0; i < ReadLog.MAX_ENTRIES + 100; i++) {
            p.warpAccess(1, -1, 1 + i % 3, MemoryOrder.SHARED, column, 4, false);
        }
        p.warpAccess(0, 1, 2, MemoryOrder.SHARED, column, 4, true);
        p.assertSame("a write after many reads");
        assertTrue(p.hazards() > 0, "a write after many reads");
    }

    /**
     * Reads are logged; a thread that does not know them issues a copy into the words they read;
     * then every thread passes a barrier, and only then does the copy land. The copy knows only
     * what its issuer knew: it still races with the reads (the log is not dropped at the barrier,
     * since the copy is still to land on words it read).
     */
    @Test
    void aCopyIssuedAfterLoggedReadsStillFindsThem() {
        Pair p = new Pair();
        initializeShared(p);
        long[] column = new long[32];
        for (int l = 0; l < 32; l++) {
            column[l] = 4L * (l % 16);
        }
        p.warpAccess(1, -1, 1, MemoryOrder.SHARED, column, 4, false);
        Pair.Copy c = p.issue(0, GLOBAL_BASE, 16, 16);
        barrier(p);
        p.warpAccess(0, 1, 3, MemoryOrder.SHARED, new long[32], 4, true);
        p.land(c, true);
        p.assertSame("a copy issued after the reads");
        assertTrue(p.hazards() > 0, "a copy issued after the reads");
    }

    /** As {@link #aCopyIssuedAfterLoggedReadsStillFindsThem}, with reads of halves of a split word (16-bit elements). */
    @Test
    void aCopyIssuedAfterLoggedHalfReadsStillFindsThem() {
        Pair p = new Pair();
        initializeShared(p);
        long[] halves = new long[32];
        for (int l = 0; l < 32; l++) {
            halves[l] = 2L * (l % 2);
        }
        p.warpAccess(0, 3, 2, MemoryOrder.SHARED, halves, 2, true);
        barrier(p);
        p.warpAccess(1, -1, 1, MemoryOrder.SHARED, halves, 2, false);
        Pair.Copy c = p.issue(0, GLOBAL_BASE, 0, 16);
        barrier(p);
        p.warpAccess(0, 1, 3, MemoryOrder.SHARED, lane(0, 32), 4, true);
        p.land(c, true);
        p.assertSame("a copy issued after half reads");
        assertTrue(p.hazards() > 0, "a copy issued after half reads");
    }

    /**
     * A pipeline's buffer reused: the threads read it, pass a barrier, and then copies into it
     * are issued. Those copies know the reads, so the log is dropped while they are in flight;
     * and a thread's copy into words that only it read knows them too (its program order).
     */
    @Test
    void copiesThatKnowTheReadsLetTheLogDrop() {
        Pair p = new Pair();
        initializeShared(p);
        long[] column = new long[32];
        for (int l = 0; l < 32; l++) {
            column[l] = 4L * (l % 16);
        }
        p.warpAccess(0, -1, 1, MemoryOrder.SHARED, column, 4, false);
        p.warpAccess(1, -1, 1, MemoryOrder.SHARED, column, 4, false);
        barrier(p);
        Pair.Copy c = p.issue(5, GLOBAL_BASE, 0, 16);
        p.warpAccess(0, 1, 3, MemoryOrder.SHARED, lane(0, 48), 4, true);
        p.land(c, true);
        p.assertSame("copies after a barrier");
        assertEquals(0, p.hazards(), "copies after a barrier");
        assertEquals(1, p.dropping.logsDropped(0), "logs dropped, copies after a barrier");

        p.warpAccess(1, 1 << 3, 2, MemoryOrder.SHARED, lane(3, 32), 4, false);
        c = p.issue(32 + 3, GLOBAL_BASE, 32, 4);
        barrier(p);
        p.warpAccess(0, 1, 3, MemoryOrder.SHARED, lane(0, 48), 4, true);
        p.land(c, true);
        p.assertSame("a copy onto its issuer's own reads");
        assertEquals(0, p.hazards(), "a copy onto its issuer's own reads");
        assertEquals(2, p.dropping.logsDropped(0), "logs dropped, a copy onto its issuer's own reads");
    }

    /**
     * A pipeline's stage: a copy into one buffer is in flight while the threads read the other
     * between two barriers. The log of those reads is dropped at the next access (no copy lands
     * on what they read), and the copy landing later finds nothing.
     */
    @Test
    void readsOfAnotherBufferThanACopyInFlightAreDropped() {
        aStageBesideACopyInFlight("reads of another buffer", 48, cycling(4, 8));
    }

    /**
     * As {@link #readsOfAnotherBufferThanACopyInFlightAreDropped}, with the copy in flight onto a
     * gap between the words read (rows of a padded tile): it lands inside the span of the reads
     * yet on no word of them, so the log is still dropped.
     */
    @Test
    void readsAroundACopyInFlightAreDropped() {
        aStageBesideACopyInFlight("reads around a copy in flight", 16, cycling(32, 2));
    }

    /**
     * A copy of 16 bytes to {@code copyTo} issued, then two warps read {@code reads}, a barrier,
     * a write and the copy's landing: nothing is found, and the one log is dropped.
     */
    private static void aStageBesideACopyInFlight(String what, long copyTo, long[] reads) {
        Pair p = new Pair();
        initializeShared(p);
        Pair.Copy c = p.issue(0, GLOBAL_BASE, copyTo, 16);
        p.warpAccess(0, -1, 1, MemoryOrder.SHARED, reads, 4, false);
        p.warpAccess(1, -1, 1, MemoryOrder.SHARED, reads, 4, false);
        barrier(p);
        p.warpAccess(0, 1, 3, MemoryOrder.SHARED, reads, 4, true);
        p.land(c, true);
        p.assertSame(what);
        assertEquals(0, p.hazards(), what);
        assertEquals(1, p.dropping.logsDropped(0), what + ": logs dropped");
    }

    /**
     * Compiled runs of loads logged at once ({@link MemoryOrder#sharedLoads}): random runs of one
     * to four loads at two registers' values plus offsets (or offsets alone), amid the random
     * programs' other steps, find the same and leave the same shadow as each lane's loads in order.
     */
    @Test
    void compiledRunsOfLoadsAreTheirLanesInOrder() {
        int logged = 0;
        for (int seed = 0; seed < 300; seed++) {
            Pair p = new Pair();
            Random r = new Random(seed);
            initializeShared(p);
            boolean synced = seed % 3 == 0;
            for (int step = 0, steps = 1 + r.nextInt(80); step < steps; step++) {
                if (r.nextInt(3) == 0) {
                    logged += runOfLoads(r, p);
                    if (synced) {
                        barrier(p);
                    }
                } else {
                    steps(r, p, 1, synced);
                }
            }
            while (!p.pending.isEmpty()) {
                p.land(p.pending.get(0), r.nextBoolean());
            }
            p.assertSame("seed " + seed);
        }
        assertTrue(logged > 1000, logged + " loads logged at once");
    }

    /** One random run of loads by a random warp; returns how many the warp path logged at once. */
    private static int runOfLoads(Random r, Pair p) {
        int w = r.nextInt(WARPS), count = 1 + r.nextInt(4);
        boolean wide = r.nextInt(4) == 0;
        int size = wide ? 8 : 4;
        long[] regs = new long[64];
        for (int reg = 0; reg < 2; reg++) {
            int shape = r.nextInt(4);
            for (int l = 0; l < 32; l++) {
                long word = switch (shape) {
                    case 0 -> l % 8;
                    case 1 -> (l / 16) * 4;
                    case 2 -> r.nextInt(8);
                    default -> 3;
                };
                regs[(reg << 5) + l] = word * size / 2 * 2 & -size;
            }
        }
        int[] pcs = new int[count], registers = new int[count], sizes = new int[count];
        long[] offsets = new long[count];
        for (int k = 0; k < count; k++) {
            pcs[k] = 70 + k;
            registers[k] = r.nextInt(5) == 0 ? -1 : r.nextInt(2);
            offsets[k] = (long) size * r.nextInt(registers[k] < 0 ? 64 / size : 4);
            sizes[k] = size;
        }
        MemoryOrder.LoadRun run = new MemoryOrder.LoadRun(pcs, registers, offsets, sizes);
        int before = p.dropping.sharedLoadsLogged;
        p.runLoads(w, regs, run);
        return p.dropping.sharedLoadsLogged - before;
    }

    /** A warp's addresses with lane l's {@code address} (the others' unused). */
    /** Lane l's address {@code step * (l % period)}: the first {@code period} addresses, over and over. */
    private static long[] cycling(long step, int period) {
        long[] a = new long[32];
        for (int l = 0; l < 32; l++) {
            a[l] = step * (l % period);
        }
        return a;
    }

    private static long[] lane(int l, long address) {
        long[] a = new long[32];
        a[l] = address;
        return a;
    }

    /** Each shared word written by one thread of each warp, then a barrier. */
    private static void initializeShared(Pair p) {
        long[] words = new long[32];
        for (int l = 0; l < 32; l++) {
            words[l] = 4L * (l % 16);
        }
        p.warpAccess(0, 0xffff, 9, MemoryOrder.SHARED, words, 4, true);
        barrier(p);
    }

    private static void barrier(Pair p) {
        p.both(o -> {
            for (int t = 0; t < THREADS; t += 32) {
                o.barrierArrive(t, -1, 0);
            }
            Release rel = o.barrierComplete(0, 0);
            for (int t = 0; t < THREADS; t += 32) {
                o.acquire(t, -1, rel);
            }
        });
    }

    /** Random steps; {@code synced}: only warp accesses, a barrier after each, no two lanes writing one word. */
    private static void run(Random r, Pair p, int steps, boolean synced) {
        steps(r, p, steps, synced);
        while (!p.pending.isEmpty()) {
            p.land(p.pending.get(0), r.nextBoolean());
        }
    }

    private static void steps(Random r, Pair p, int steps, boolean synced) {
        for (int s = 0; s < steps; s++) {
            if (synced) {
                warpAccess(r, p, true);
                barrier(p);
                continue;
            }
            int kind = r.nextInt(100);
            if (kind < 70) {
                warpAccess(r, p, false);
            } else if (kind < 82) {
                barrier(p);
            } else if (kind < 86) {
                int w = r.nextInt(WARPS), mask = r.nextInt();
                p.both(o -> o.warpSync(w * 32, mask));
            } else if (kind < 92) {
                // A release by one thread and acquires by some others through an atomic flag:
                // the acquirers' knowledge parts from their warp mates'.
                int t = r.nextInt(THREADS), pc = 40 + r.nextInt(2);
                long flag = 60;
                int acquirers = r.nextInt();
                p.both(o -> {
                    o.releaseAt(t, MemoryOrder.SHARED, 0, flag, true, Scopes.GPU);
                    o.atomic(t, pc, MemoryOrder.SHARED, 0, flag, 4, true, true, true, true, Scopes.GPU);
                    for (int u = 0; u < 32; u++) {
                        if ((acquirers & (1 << u)) != 0) {
                            o.atomic(u + (t & 32), pc, MemoryOrder.SHARED, 0, flag, 4, true, false, true, false, Scopes.GPU);
                        }
                    }
                });
            } else if (kind < 93) {
                int t = r.nextInt(THREADS);
                p.both(o -> o.fence(t, Scopes.GPU));
            } else if (kind < 94) {
                // State the engine writes itself (an mbarrier.init's 8 bytes).
                int t = r.nextInt(THREADS);
                long at = 8L * r.nextInt(8);
                p.both(o -> o.mark(t, 50, 0, at, 8));
            } else {
                // A cp.async of 4 or 16 bytes into shared memory, landing now or some steps later
                // (each thread's in issue order); sometimes waited for.
                int t = r.nextInt(THREADS), size = r.nextBoolean() ? 4 : 16;
                long to = 4L * r.nextInt(16 - size / 4 + 1);
                long from = GLOBAL_BASE + 4L * r.nextInt(16 - size / 4 + 1);
                Pair.Copy c = p.issue(t, from, to, size);
                if (r.nextBoolean()) {
                    p.land(c, r.nextBoolean());
                }
            }
            if (!p.pending.isEmpty() && r.nextInt(8) == 0) {
                Pair.Copy oldest = p.pending.get(r.nextInt(p.pending.size()));
                for (Pair.Copy c : p.pending) {
                    if (c.t == oldest.t) {
                        oldest = c;
                        break;
                    }
                }
                p.land(oldest, r.nextBoolean());
            }
        }
    }

    /** One warp instruction's plain accesses in one of the shapes kernels have. */
    private static void warpAccess(Random r, Pair p, boolean oneWriterAWord) {
        int w = r.nextInt(WARPS);
        int mask = r.nextInt(3) == 0 ? r.nextInt() : -1;
        if (mask == 0) {
            mask = 1;
        }
        boolean global = r.nextInt(3) == 0;
        long base = global ? GLOBAL_BASE : 0;
        int size = r.nextInt(4) == 0 ? new int[] {8, 16, 2}[r.nextInt(3)] : 4;
        boolean write = r.nextInt(4) == 0;
        int shape = r.nextInt(5);
        if (write && oneWriterAWord) {
            mask &= 0xffff;
            mask |= mask == 0 ? 1 : 0;
            size = 4;
            shape = 2;
        }
        int a = r.nextInt(16), b = r.nextInt(16);
        long[] addresses = new long[32];
        for (int l = 0; l < 32; l++) {
            int word = switch (shape) {
                case 0 -> a;                                    // broadcast
                case 1 -> l < 16 ? a : b;                       // a row each half-warp (sgemm's A)
                case 2 -> (a + l) % 16;                         // a column, twice (sgemm's B)
                case 3 -> r.nextInt(3) == 0 ? b : a;            // mostly one word
                default -> r.nextInt(16);
            };
            long at = base + 4L * word;
            if (size == 8 || size == 16) {
                at &= -size;
            } else if (size == 2 && r.nextInt(4) == 0) {
                at += 2;
            }
            addresses[l] = at;
        }
        int pc = r.nextInt(6);
        p.warpAccess(w, mask, pc, global ? MemoryOrder.GLOBAL : MemoryOrder.SHARED, addresses, size, write);
    }

    /**
     * After a barrier, one thread writes a word; all but one lane of the other warp learn of the
     * write through an atomic flag; that warp then reads the word in one broadcast. Only the lane
     * that did not learn of it races, and that race is found (both ways alike).
     */
    @Test
    void aRaceOfOneLaneOfABroadcastReadIsFound() {
        for (int odd = 0; odd < 32; odd++) {
            int oddLane = odd;
            Pair p = new Pair();
            long[] word = new long[32];
            java.util.Arrays.fill(word, 8);
            p.both(o -> {
                o.access(32, 1, MemoryOrder.SHARED, 0, 8, 4, true, false);
                o.releaseAt(32, MemoryOrder.SHARED, 0, 60, true, Scopes.GPU);
                o.atomic(32, 2, MemoryOrder.SHARED, 0, 60, 4, true, true, true, true, Scopes.GPU);
                for (int t = 0; t < 32; t++) {
                    if (t != oddLane) {
                        o.atomic(t, 3, MemoryOrder.SHARED, 0, 60, 4, true, false, true, false, Scopes.GPU);
                    }
                }
            });
            p.warpAccess(0, -1, 4, MemoryOrder.SHARED, word, 4, false);
            p.assertSame("odd lane " + oddLane);
            List<HazardLog.Entry> found = HazardLog.merged(List.of(p.warp.log()));
            List<String> rules = new ArrayList<>();
            for (HazardLog.Entry e : found) {
                rules.add(e.first.rule() + " " + e.first.kind() + " " + e.first.secondSlot() + " x" + e.count);
            }
            assertEquals(List.of("race.shared RAW " + oddLane + " x1"), rules, "odd lane " + oddLane);
        }
    }
}
