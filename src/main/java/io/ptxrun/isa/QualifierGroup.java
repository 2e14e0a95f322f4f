package io.ptxrun.isa;

import io.ptxrun.ast.Qualifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringTokenizer;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * One qualifier position of a form: a choice among alternatives, each one qualifier or a fixed
 * combination (`.release.cta`: PTX requires `.sem` and `.scope` together). Optional groups are
 * written `[a|b]`, required ones `(a|b)` or a bare `.x`. A leading `^` marks a group that must be
 * written directly after the opcode (`bar.cta.sync`, where ptxas rejects `bar.sync.cta`); the
 * other groups may be written in any order.
 */
public record QualifierGroup(boolean required, boolean leading, List<List<Qualifier>> alternatives,
                             Set<Qualifier> mentioned) {

    /** mentioned: every qualifier of the alternatives, derived from them (a set: checking asks it often). */
    public QualifierGroup {
        List<List<Qualifier>> copies = new ArrayList<>(alternatives.size());
        for (List<Qualifier> a : alternatives) {
            copies.add(List.copyOf(a));
        }
        alternatives = List.copyOf(copies);
        mentioned = EnumSet.noneOf(Qualifier.class);
        for (List<Qualifier> a : alternatives) {
            mentioned.addAll(a);
        }
        mentioned = Collections.unmodifiableSet(mentioned);
    }

    public QualifierGroup(boolean required, boolean leading, List<List<Qualifier>> alternatives) {
        this(required, leading, alternatives, Set.of());
    }

    /** Parses a whitespace-separated sequence of groups. */
    public static List<QualifierGroup> parseList(String spec) {
        List<QualifierGroup> out = new ArrayList<>();
        for (StringTokenizer tokens = new StringTokenizer(spec); tokens.hasMoreTokens(); ) {
            out.add(PARSED.computeIfAbsent(tokens.nextToken(), QualifierGroup::parse));
        }
        return List.copyOf(out);
    }

    // The tables write the same groups in many lists (the integer types, the rounding modes, the
    // state spaces): each group is parsed once, and the lists share it (it is immutable).
    private static final Map<String, QualifierGroup> PARSED = new ConcurrentHashMap<>();

    /** One group: `.x`, `(a|b)`, `[a|b]`, each optionally after `^`. */
    private static QualifierGroup parse(String token) {
        boolean leading = token.startsWith("^");
        if (leading) {
            token = token.substring(1);
        }
        boolean required = !token.startsWith("[");
        String body = token.startsWith("[") || token.startsWith("(") ? token.substring(1, token.length() - 1) : token;
        List<List<Qualifier>> alts = new ArrayList<>();
        for (String alt : body.split("\\|")) {
            List<Qualifier> combo = new ArrayList<>();
            for (String q : Qualifier.dotWords(alt)) {
                Qualifier k = Qualifier.of(q);
                if (k == Qualifier.OTHER) {
                    throw new IllegalArgumentException("unclassified qualifier in rule table: " + q);
                }
                combo.add(k);
            }
            alts.add(combo);
        }
        return new QualifierGroup(required, leading, alts);
    }

    public String describe() {
        return alternatives.stream()
                .map(a -> a.stream().map(q -> q.spelling).collect(Collectors.joining()))
                .collect(Collectors.joining(", "));
    }

    public boolean mentions(Qualifier q) {
        return mentioned.contains(q);
    }

    static List<Qualifier> list(Qualifier... qs) {
        return Arrays.asList(qs);
    }
}
