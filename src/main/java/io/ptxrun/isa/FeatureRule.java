package io.ptxrun.isa;

import io.ptxrun.ast.Opcode;
import io.ptxrun.ast.Qualifier;
import java.util.ArrayList;
import java.util.List;
import java.util.StringTokenizer;

/**
 * A version and target requirement of one feature of an instruction: the instruction itself
 * (no condition), a qualifier, or an operand form. The diagnostic points at the first qualifier
 * of present that the instruction writes (lists, not sets: the position must be deterministic). when is a space-separated list of conditions
 * that must all hold: a qualifier `.relaxed`, `!.noComplete` (qualifier absent), `operands=3`,
 * `sink` (the first operand is `_`). feature names the feature as ptxas does.
 */
public record FeatureRule(Opcode opcode, List<Qualifier> present, List<Qualifier> absent, int operandCount,
                          boolean sink, PtxVersion minVersion, TargetRequirement target, String feature,
                          String citation) {

    public FeatureRule {
        present = List.copyOf(present);
        absent = List.copyOf(absent);
    }

    public static FeatureRule of(Opcode opcode, String when, String minVersion, TargetRequirement target,
                                 String feature, String citation) {
        List<Qualifier> present = new ArrayList<>();
        List<Qualifier> absent = new ArrayList<>();
        int count = -1;
        boolean sink = false;
        for (StringTokenizer conditions = new StringTokenizer(when); conditions.hasMoreTokens(); ) {
            String c = conditions.nextToken();
            if (c.startsWith("operands=")) {
                count = Integer.parseInt(c.substring(9));
            } else if (c.equals("sink")) {
                sink = true;
            } else {
                boolean negated = c.startsWith("!");
                Qualifier q = Qualifier.of(negated ? c.substring(1) : c);
                if (q == Qualifier.OTHER) {
                    throw new IllegalArgumentException("unclassified qualifier in rule table: " + c);
                }
                (negated ? absent : present).add(q);
            }
        }
        return new FeatureRule(opcode, present, absent, count, sink,
                minVersion == null ? null : PtxVersion.of(minVersion), target, feature, citation);
    }
}
