package io.ptxrun.exec.order;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A hazard's witness is the pair of threads furthest apart that was seen for its pair of
 * instructions: the report's remedy follows from it (a __syncwarp() orders lanes of one warp, a
 * barrier the warps of a CTA).
 */
class HazardLogTest {
    /** Two CTAs of 128 threads a cluster: 512 slots a cluster (threads, then their agents). */
    private static final int THREADS_PER_CTA = 128, SLOTS = 2 * 2 * THREADS_PER_CTA;

    private static Conflict race(long first, long second) {
        return new Conflict("race.shared", "RAW", 3, first, true, 7, second, false, MemoryOrder.SHARED, 0x40, -1);
    }

    @Test
    void theWitnessIsTheFirstPairFurthestApart() {
        HazardLog log = new HazardLog(SLOTS, THREADS_PER_CTA);
        log.add(race(9, 0));            // lanes of warp 0
        log.add(race(40, 1));           // warps 1 and 0 of CTA 0
        log.add(race(33, 2));           // warps 1 and 0 again: not further apart
        log.add(race(5, 6));            // lanes again
        List<HazardLog.Entry> entries = HazardLog.merged(List.of(log));
        assertEquals(1, entries.size());
        assertEquals(40, entries.get(0).first.firstSlot());
        assertEquals(4, entries.get(0).count);

        HazardLog other = new HazardLog(SLOTS, THREADS_PER_CTA);
        other.add(race(SLOTS + 200, SLOTS + 3));   // CTAs 1 and 0 of cluster 1
        entries = HazardLog.merged(List.of(log, other));
        assertEquals(SLOTS + 200, entries.get(0).first.firstSlot());
        assertEquals(5, entries.get(0).count);
    }
}
