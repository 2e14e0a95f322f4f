package io.ptxrun.exec.order;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The hazards one worker found, once per rule and pair of instructions (in either order), with the
 * first witness and how often the pair was seen. Workers' logs are merged at the end of a launch.
 */
public final class HazardLog {
    /** One reported pair: its first witness and the number of conflicting accesses seen. */
    public static final class Entry {
        public final Conflict first;
        public long count;

        Entry(Conflict first) {
            this.first = first;
        }
    }

    private final Map<String, Entry> entries = new LinkedHashMap<>();

    void add(Conflict c) {
        int a = Math.min(c.firstPc(), c.secondPc()), b = Math.max(c.firstPc(), c.secondPc());
        entries.computeIfAbsent(c.rule() + ':' + a + ':' + b, k -> new Entry(c)).count++;
    }

    private static boolean earlier(Conflict a, Conflict b) {
        long sa = Math.min(a.firstSlot(), a.secondSlot()), sb = Math.min(b.firstSlot(), b.secondSlot());
        return sa != sb ? sa < sb : Math.max(a.firstSlot(), a.secondSlot()) < Math.max(b.firstSlot(), b.secondSlot());
    }

    /** Every entry of these logs, merged by pair and ordered by the second site, then the first. */
    public static List<Entry> merged(List<HazardLog> logs) {
        Map<String, Entry> all = new LinkedHashMap<>();
        for (HazardLog log : logs) {
            for (Map.Entry<String, Entry> e : log.entries.entrySet()) {
                Entry mine = all.get(e.getKey());
                if (mine == null) {
                    Entry copy = new Entry(e.getValue().first);
                    copy.count = e.getValue().count;
                    all.put(e.getKey(), copy);
                } else {
                    mine.count += e.getValue().count;
                    if (earlier(e.getValue().first, mine.first)) {
                        // Workers take clusters as they come: keep the witness lowest in the grid.
                        Entry replaced = new Entry(e.getValue().first);
                        replaced.count = mine.count;
                        all.put(e.getKey(), replaced);
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
