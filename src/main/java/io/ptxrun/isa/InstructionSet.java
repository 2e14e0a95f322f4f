package io.ptxrun.isa;

import io.ptxrun.ast.Opcode;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Every rule table, indexed by opcode once at class load so that checking an instruction costs
 * one EnumMap lookup. An opcode without forms here is not validated beyond syntax.
 */
public final class InstructionSet {
    /** The families whose legality is modelled, in the order of the spec's chapters. */
    private static final List<RuleTable> TABLES = List.of(
            new BarrierRules(), new MbarrierRules(), new AsyncCopyRules(), new BulkCopyRules(),
            new TensorCopyRules(), new CoreIsaRules(), new ArithmeticRules(), new ConversionRules(), new BitAndWarpRules(),
            new CacheControlRules(), new TensorMapRules(), new MatrixRules());

    private static final Map<Opcode, List<Form>> FORMS = new EnumMap<>(Opcode.class);
    private static final Map<Opcode, List<FeatureRule>> FEATURES = new EnumMap<>(Opcode.class);

    static {
        for (RuleTable t : TABLES) {
            for (Form f : t.forms()) {
                FORMS.computeIfAbsent(f.opcode(), k -> new ArrayList<>()).add(f);
            }
            for (FeatureRule r : t.features()) {
                FEATURES.computeIfAbsent(r.opcode(), k -> new ArrayList<>()).add(r);
            }
        }
        FORMS.replaceAll((k, v) -> List.copyOf(v));
        FEATURES.replaceAll((k, v) -> List.copyOf(v));
    }

    private InstructionSet() {}

    /** The forms of an opcode; empty when the opcode has no rules yet. */
    public static List<Form> forms(Opcode opcode) {
        return FORMS.getOrDefault(opcode, List.of());
    }

    public static List<FeatureRule> features(Opcode opcode) {
        return FEATURES.getOrDefault(opcode, List.of());
    }

    public static boolean isModelled(Opcode opcode) {
        return FORMS.containsKey(opcode);
    }

    public static java.util.Set<Opcode> modelled() {
        return java.util.Collections.unmodifiableSet(FORMS.keySet());
    }
}
