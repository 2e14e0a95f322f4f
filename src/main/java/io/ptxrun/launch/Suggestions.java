package io.ptxrun.launch;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/** "Did you mean ...?" for misspelt keys and names. */
final class Suggestions {
    /** Farther than this, a name is taken as unrelated (a suite's own note), not as a typo. */
    static final int MAX_DISTANCE = 2;

    private Suggestions() {}

    /** The candidate closest to {@code word}, if one is within {@link #MAX_DISTANCE} edits. */
    static Optional<String> closest(String word, Collection<String> candidates) {
        String best = null;
        int bestDistance = MAX_DISTANCE + 1;
        for (String candidate : candidates) {
            int distance = distance(word, candidate);
            if (distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
            }
        }
        return Optional.ofNullable(best);
    }

    /** " (did you mean 'x'?)" or "". */
    static String didYouMean(String word, Collection<String> candidates) {
        return closest(word, candidates).map(c -> " — did you mean '" + c + "'?").orElse("");
    }

    /**
     * Edit distance where an insertion, deletion, substitution or swap of two neighbours costs 1
     * (optimal string alignment), ignoring case, so that {@code Grid} (zero edits) and {@code gird}
     * (one swap) both count as near misses of {@code grid}.
     */
    static int distance(String a, String b) {
        a = a.toLowerCase(Locale.ROOT);
        b = b.toLowerCase(Locale.ROOT);
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                int best = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                boolean swapped = i > 1 && j > 1
                        && a.charAt(i - 1) == b.charAt(j - 2)
                        && a.charAt(i - 2) == b.charAt(j - 1);
                if (swapped) {
                    best = Math.min(best, d[i - 2][j - 2] + 1);
                }
                d[i][j] = best;
            }
        }
        return d[a.length()][b.length()];
    }
}
