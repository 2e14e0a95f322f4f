package io.ptxrun.exec.order;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The hazards one worker found, once per rule and pair of instructions (in either order), with a
 * witness and how often the pair was seen. Workers' logs are merged at the end of a launch. The
 * witness is the first pair of threads seen that lie furthest apart (lanes of one warp, warps of
 * one CTA, CTAs of one cluster, clusters), since the report says what would have ordered it: a
 * missing __syncthreads() whose first witness happened to be two lanes of one warp would
 * otherwise be reported as needing a __syncwarp(), which does not fix it.
 */
public final class HazardLog {
    /** One reported pair: its first witness and the number of conflicting accesses seen. */
    public static final class Entry {
        public final Conflict first;
        public long count;
        /** How far apart its witness's threads are ({@link #apart}). */
        private final int apart;

        Entry(Conflict first, int apart, long count) {
            this.first = first;
            this.apart = apart;
            this.count = count;
        }
    }

    /** A rule and pair of instructions, the lower PC first. */
    private record Pair(String rule, int low, int high) {
        static Pair of(Conflict c) {
            return new Pair(c.rule(), Math.min(c.firstPc(), c.secondPc()), Math.max(c.firstPc(), c.secondPc()));
        }
    }

    // Keyed without building a string: a kernel with a true race may report it at every element
    // of every copy (hundreds of thousands of times a launch).
    private final Map<Pair, Entry> entries = new LinkedHashMap<>();
    /** Slots per cluster and threads per CTA: how far apart a witness's threads are. */
    private final int slots, threadsPerCta;

    HazardLog(int slots, int threadsPerCta) {
        this.slots = slots;
        this.threadsPerCta = threadsPerCta;
    }

    void add(Conflict c) {
        Pair key = Pair.of(c);
        Entry e = entries.get(key);
        if (e == null) {
            entries.put(key, e = new Entry(c, apart(c), 0));
        } else if (e.apart < FURTHEST) {
            int apart = apart(c);
            if (apart > e.apart) {
                entries.put(key, e = new Entry(c, apart, e.count));
            }
        }
        e.count++;
    }

    private static final int FURTHEST = 3;

    /** 0: lanes of one warp (or one thread and its own copies), 1: one CTA, 2: one cluster, 3 ({@link #FURTHEST}): further. */
    private int apart(Conflict c) {
        long a = c.firstSlot(), b = c.secondSlot();
        if (a < 0 || b < 0 || a / slots != b / slots) {
            return a < 0 || b < 0 ? 0 : 3;
        }
        int threads = slots / 2;
        int ta = (int) (a % slots % threads), tb = (int) (b % slots % threads);
        if (ta / threadsPerCta != tb / threadsPerCta) {
            return 2;
        }
        return (ta % threadsPerCta) / 32 != (tb % threadsPerCta) / 32 ? 1 : 0;
    }

    private static boolean earlier(Conflict a, Conflict b) {
        long sa = Math.min(a.firstSlot(), a.secondSlot()), sb = Math.min(b.firstSlot(), b.secondSlot());
        return sa != sb ? sa < sb : Math.max(a.firstSlot(), a.secondSlot()) < Math.max(b.firstSlot(), b.secondSlot());
    }

    /** Every entry of these logs, merged by pair and ordered by the second site, then the first. */
    public static List<Entry> merged(List<HazardLog> logs) {
        Map<Pair, Entry> all = new LinkedHashMap<>();
        for (HazardLog log : logs) {
            for (Map.Entry<Pair, Entry> e : log.entries.entrySet()) {
                Entry mine = all.get(e.getKey());
                Entry theirs = e.getValue();
                if (mine == null) {
                    all.put(e.getKey(), new Entry(theirs.first, theirs.apart, theirs.count));
                } else {
                    mine.count += theirs.count;
                    if (theirs.apart > mine.apart || theirs.apart == mine.apart && earlier(theirs.first, mine.first)) {
                        // Workers take clusters as they come: keep the widest witness lowest in the grid.
                        all.put(e.getKey(), new Entry(theirs.first, theirs.apart, mine.count));
                    }
                }
            }
        }
        // A read that found nothing written yet, at an instruction whose reads also race with a
        // write elsewhere, read before that write rather than memory nobody writes: the race says it.
        java.util.Set<Integer> racingReads = new java.util.HashSet<>();
        for (Entry e : all.values()) {
            Conflict c = e.first;
            if (!c.rule().startsWith("uninit")) {
                if (!c.firstWrite()) {
                    racingReads.add(c.firstPc());
                }
                if (!c.secondWrite()) {
                    racingReads.add(c.secondPc());
                }
            }
        }
        all.values().removeIf(e -> e.first.rule().startsWith("uninit") && racingReads.contains(e.first.secondPc()));
        List<Entry> list = new ArrayList<>(all.values());
        list.sort(Comparator.comparingInt((Entry e) -> Math.max(e.first.firstPc(), e.first.secondPc()))
                .thenComparingInt(e -> Math.min(e.first.firstPc(), e.first.secondPc()))
                .thenComparing(e -> e.first.rule()));
        return list;
    }
}
