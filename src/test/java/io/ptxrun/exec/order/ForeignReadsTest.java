package io.ptxrun.exec.order;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Global memory's shadow on several workers when no instruction can order two clusters ({@code
 * clustersUnordered}): a warp's word read that two other clusters have read already is not
 * recorded. The same writes must still be found to race, as often, as when every read is recorded.
 */
class ForeignReadsTest {
    private static final int THREADS = 32, CLUSTERS = 4;
    private static final long BASE = 4096;

    /** One launch on CLUSTERS workers, each running one cluster of one warp. */
    private static final class Run {
        final MemoryOrder.Launch launch;
        final MemoryOrder[] workers = new MemoryOrder[CLUSTERS];

        Run(boolean clustersUnordered) {
            launch = new MemoryOrder.Launch(1L << 30, CLUSTERS, List.of(), clustersUnordered);
            for (int k = 0; k < CLUSTERS; k++) {
                workers[k] = new MemoryOrder(launch, THREADS, 1);
                workers[k].startCluster(k);
            }
        }

        void read(int cluster, long[] addresses) {
            workers[cluster].accesses(0, -1, 1, MemoryOrder.GLOBAL, 0, addresses.clone(), 4, false);
        }

        void write(int cluster, int t, long address) {
            workers[cluster].access(t, 2, MemoryOrder.GLOBAL, 0, address, 4, true, false);
        }

        void barrier(int cluster) {
            MemoryOrder o = workers[cluster];
            o.barrierArrive(0, -1, 0);
            o.acquire(0, -1, o.barrierComplete(0, 0));
        }

        /** How many conflicting accesses each worker saw, by rule and sites. */
        List<String> found() {
            List<String> all = new ArrayList<>();
            for (MemoryOrder o : workers) {
                for (HazardLog.Entry e : HazardLog.merged(List.of(o.log()))) {
                    all.add(e.first.rule() + " " + e.first.firstPc() + "-" + e.first.secondPc() + " x" + e.count);
                }
            }
            return all;
        }
    }

    private static long[] warp(long address) {
        long[] a = new long[32];
        java.util.Arrays.fill(a, address);
        return a;
    }

    /**
     * Three clusters read a word; the third's read is not recorded (the cell keeps the first two).
     * A write by the first cluster's thread, which knows its own read, still races with the
     * second's, and a write by a fourth with the first's.
     */
    @Test
    void aThirdClustersReadIsNotRecordedAndWritesStillRace() {
        for (boolean unordered : new boolean[] {true, false}) {
            Run r = new Run(unordered);
            r.read(0, warp(BASE));
            r.read(1, warp(BASE));
            long[] afterTwo = r.workers[0].shadowRecord(MemoryOrder.GLOBAL, 0, BASE).clone();
            r.read(2, warp(BASE));
            long[] afterThree = r.workers[0].shadowRecord(MemoryOrder.GLOBAL, 0, BASE);
            if (unordered) {
                assertArrayEquals(afterTwo, afterThree, "the third cluster's read is not recorded");
            } else {
                assertTrue(afterTwo[2] != afterThree[2], "every read is recorded");
            }
            r.barrier(0);
            r.write(0, 5, BASE);
            assertEquals(List.of("race.global 1-2 x1"), r.found(), "a write after other clusters' reads");
        }
    }

    /**
     * Random reads by whole warps, writes by single threads and barriers, in four clusters at once
     * over a few words: the same conflicts, as often, whether third clusters' reads are recorded.
     */
    @Test
    void theSameWritesRaceAsWhenEveryReadIsRecorded() {
        int withFindings = 0;
        for (int seed = 0; seed < 300; seed++) {
            Run skipping = new Run(true), recording = new Run(false);
            Random random = new Random(seed);
            for (int step = 0; step < 60; step++) {
                int cluster = random.nextInt(CLUSTERS), kind = random.nextInt(10);
                if (kind < 6) {
                    long[] addresses = new long[32];
                    for (int l = 0; l < 32; l++) {
                        addresses[l] = BASE + 4L * random.nextInt(6);
                    }
                    skipping.read(cluster, addresses);
                    recording.read(cluster, addresses);
                } else if (kind < 8) {
                    int t = random.nextInt(THREADS);
                    long address = BASE + 4L * random.nextInt(6);
                    skipping.write(cluster, t, address);
                    recording.write(cluster, t, address);
                } else {
                    skipping.barrier(cluster);
                    recording.barrier(cluster);
                }
            }
            assertEquals(recording.found(), skipping.found(), "seed " + seed);
            withFindings += recording.found().isEmpty() ? 0 : 1;
        }
        assertTrue(withFindings > 100, withFindings + " programs with findings");
    }
}
