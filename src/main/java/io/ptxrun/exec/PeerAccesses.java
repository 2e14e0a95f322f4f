package io.ptxrun.exec;

/**
 * The accesses of peer CTAs' threads to one CTA's shared memory (distributed shared memory), kept
 * for the check at the CTA's exit. Its shared memory exists only while it runs, so each of them
 * must happen before its exit: be known to one of its threads, under the hazard detector's clocks,
 * by the time the last of them exits. Whichever came first in this run does not matter; an access
 * after the exit is a fault of its own ({@link LaneMemory#sharedOwner}).
 *
 * <p>Per accessing thread only the access with the highest counter is kept (its latest, but for a
 * release write that is known by the lower counter it hands on): when that one is known, all the
 * thread's others are too.
 *
 * <p>A peer's operation on one of this CTA's mbarriers (a remote arrive, expect_tx or complete_tx)
 * is done before the phase it belongs to completes, so it is also ordered before the exit once one
 * of this CTA's threads has seen that phase, or a later one, complete, relaxed as the operation
 * or the wait may be: such operations are credited to their threads when the phase is seen.
 */
final class PeerAccesses {
    /**
     * By cluster slot of the accessing thread or async agent (a copy into this CTA issued by a peer):
     * its counter at its latest access, 0 for none.
     */
    private int[] counter = new int[0];
    /** By slot: the instruction of that access. */
    private int[] pc = new int[0];
    private int lowest = Integer.MAX_VALUE, highest = -1;
    /** By slot: the highest counter of its operations on mbarriers whose phase this CTA saw complete. */
    private int[] seen = new int[0];
    /**
     * By mbarrier offset: the peers' operations on it (slot and counter packed) in its current
     * phase, and in the phases completed since one of this CTA's threads last saw one complete.
     */
    private final java.util.Map<Integer, long[]> current = new java.util.HashMap<>(), completed = new java.util.HashMap<>();

    /** A new CTA in this place: no access yet; {@code slots} threads and agents in the cluster. */
    void start(int slots) {
        if (counter.length < slots) {
            counter = new int[slots];
            pc = new int[slots];
            seen = new int[slots];
        } else if (highest >= 0) {
            java.util.Arrays.fill(counter, lowest, highest + 1, 0);
            java.util.Arrays.fill(seen, lowest, highest + 1, 0);
        }
        lowest = Integer.MAX_VALUE;
        highest = -1;
        current.clear();
        completed.clear();
    }

    /** Thread {@code slot} of a peer CTA operated on the mbarrier at {@code offset} at {@code pc}, its counter then. */
    void recordMbarrier(int offset, int slot, int counter, int pc) {
        record(slot, counter, pc);
        current.put(offset, append(current.get(offset), ((long) slot << 32) | counter));
    }

    /** A new mbarrier object at {@code offset}: the operations of the old one's unfinished phase never complete. */
    void mbarrierInit(int offset) {
        current.remove(offset);
    }

    /** The current phase of the mbarrier at {@code offset} completed. */
    void phaseCompleted(int offset) {
        long[] ops = current.remove(offset);
        if (ops != null) {
            long[] done = completed.get(offset);
            for (int i = 1; i <= ops[0]; i++) {
                done = append(done, ops[i]);
            }
            completed.put(offset, done);
        }
    }

    /** A thread of this CTA saw a phase of the mbarrier at {@code offset} complete (the latest completed one). */
    void phaseSeen(int offset) {
        long[] ops = completed.remove(offset);
        if (ops != null) {
            for (int i = 1; i <= ops[0]; i++) {
                int slot = (int) (ops[i] >>> 32), c = (int) ops[i];
                seen[slot] = Math.max(seen[slot], c);
            }
        }
    }

    /** A list of longs with its length in element 0. */
    private static long[] append(long[] list, long v) {
        if (list == null) {
            list = new long[4];
        } else if (list[0] + 1 == list.length) {
            list = java.util.Arrays.copyOf(list, list.length * 2);
        }
        list[(int) ++list[0]] = v;
        return list;
    }

    /** Thread {@code slot} of a peer CTA accessed this CTA's shared memory at {@code pc}, its counter then. */
    void record(int slot, int counter, int pc) {
        if (counter < this.counter[slot]) {
            return;
        }
        this.counter[slot] = counter;
        this.pc[slot] = pc;
        lowest = Math.min(lowest, slot);
        highest = Math.max(highest, slot);
    }

    boolean any() {
        return highest >= 0;
    }

    /**
     * The lowest slot whose latest access is not known to what the CTA's threads knew together
     * ({@code known}, by slot) nor done in a phase they saw complete, or -1 when every access is
     * ordered before the exit.
     */
    int unordered(int[] known) {
        for (int s = lowest; s <= highest; s++) {
            if (counter[s] != 0 && counter[s] > known[s] && counter[s] > seen[s]) {
                return s;
            }
        }
        return -1;
    }

    int pcOf(int slot) {
        return pc[slot];
    }
}
