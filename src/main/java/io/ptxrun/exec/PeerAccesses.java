package io.ptxrun.exec;

/**
 * The accesses of peer CTAs' threads to one CTA's shared memory (distributed shared memory), kept
 * for the check at the CTA's exit. Its shared memory exists only while it runs, so each of them
 * must happen before its exit: be known to one of its threads, under the hazard detector's clocks,
 * by the time the last of them exits. Whichever came first in this run does not matter; an access
 * after the exit is a fault of its own ({@link Engine#sharedOwner}).
 *
 * <p>Per accessing thread only the access with the highest counter is kept (its latest, but for a
 * release write that is known by the lower counter it hands on): when that one is known, all the
 * thread's others are too.
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

    /** A new CTA in this place: no access yet; {@code slots} threads and agents in the cluster. */
    void start(int slots) {
        if (counter.length < slots) {
            counter = new int[slots];
            pc = new int[slots];
        } else if (highest >= 0) {
            java.util.Arrays.fill(counter, lowest, highest + 1, 0);
        }
        lowest = Integer.MAX_VALUE;
        highest = -1;
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
     * ({@code known}, by slot), or -1 when every access is ordered before the exit.
     */
    int unordered(int[] known) {
        for (int s = lowest; s <= highest; s++) {
            if (counter[s] != 0 && counter[s] > known[s]) {
                return s;
            }
        }
        return -1;
    }

    int pcOf(int slot) {
        return pc[slot];
    }
}
