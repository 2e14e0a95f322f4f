package io.ptxrun.isa;

import io.ptxrun.ast.Opcode;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every rule table, looked up by opcode. A table is built when one of its opcodes is first looked
 * up, so that checking a module builds only the families it uses (building all of them is a
 * visible share of a short check); after that, checking an instruction costs one map lookup. An
 * opcode without forms here is not validated beyond syntax.
 */
public final class InstructionSet {
    /** The families whose legality is modelled, in the order of the spec's chapters. */
    private static final List<RuleTable> TABLES = List.of(
            new BarrierRules(), new MbarrierRules(), new AsyncCopyRules(), new BulkCopyRules(),
            new TensorCopyRules(), new AsyncStoreRules(), new CoreIsaRules(), new ArithmeticRules(), new ConversionRules(), new BitAndWarpRules(),
            new CacheControlRules(), new TensorMapRules(), new MatrixRules());

    private static final Map<Opcode, RuleTable> TABLE_OF = new EnumMap<>(Opcode.class);

    static {
        for (RuleTable t : TABLES) {
            for (Opcode op : t.opcodes()) {
                if (TABLE_OF.put(op, t) != null) {
                    throw new IllegalStateException(op + " is in two rule tables");
                }
            }
        }
    }

    /** The rules of one opcode. */
    private record Rules(List<Form> forms, List<FeatureRule> features) {
        static final Rules NONE = new Rules(List.of(), List.of());
    }

    /** The rules of each opcode whose table is built (those of the other opcodes are NONE). */
    private static final Map<Opcode, Rules> RULES = new ConcurrentHashMap<>();

    private InstructionSet() {}

    static List<RuleTable> tables() {
        return TABLES;
    }

    /**
     * Builds the tables of these opcodes and parses their forms (which is otherwise done when a
     * check first matches an instruction against them), ahead of the checks that will need them:
     * first the forms of the opcodes given, in their order, then those of the other opcodes of
     * their tables. A check that needs a form before it is parsed here parses it itself.
     */
    public static void prepare(Opcode... opcodes) {
        List<RuleTable> tables = new ArrayList<>();
        for (Opcode op : opcodes) {
            parseForms(op);
            RuleTable table = TABLE_OF.get(op);
            if (table != null && !tables.contains(table)) {
                tables.add(table);
            }
        }
        for (RuleTable table : tables) {
            for (Opcode op : table.opcodes()) {
                parseForms(op);
            }
        }
    }

    private static void parseForms(Opcode opcode) {
        for (Form f : forms(opcode)) {
            f.qualifiers();
            f.operands();
        }
    }

    /** The forms of an opcode; empty when the opcode has no rules yet. */
    public static List<Form> forms(Opcode opcode) {
        return rules(opcode).forms();
    }

    public static List<FeatureRule> features(Opcode opcode) {
        return rules(opcode).features();
    }

    public static boolean isModelled(Opcode opcode) {
        return !forms(opcode).isEmpty();
    }

    public static Set<Opcode> modelled() {
        Set<Opcode> modelled = EnumSet.noneOf(Opcode.class);
        for (Opcode op : TABLE_OF.keySet()) {
            if (isModelled(op)) {
                modelled.add(op);
            }
        }
        return modelled;
    }

    private static Rules rules(Opcode opcode) {
        Rules rules = RULES.get(opcode);
        return rules != null ? rules : build(opcode);
    }

    /**
     * Builds the table of opcode, once, and records the rules of each of its opcodes. Each table
     * is built under a lock of its own: a check that needs one table does not wait while the
     * start-up thread builds another.
     */
    private static Rules build(Opcode opcode) {
        RuleTable table = TABLE_OF.get(opcode);
        if (table == null) {
            RULES.put(opcode, Rules.NONE);
            return Rules.NONE;
        }
        synchronized (table) {
            Rules built = RULES.get(opcode);
            if (built != null) {
                return built;
            }
            Map<Opcode, List<Form>> forms = new EnumMap<>(Opcode.class);
            Map<Opcode, List<FeatureRule>> features = new EnumMap<>(Opcode.class);
            for (Form f : table.forms()) {
                forms.computeIfAbsent(f.opcode(), k -> new ArrayList<>()).add(f);
            }
            for (FeatureRule r : table.features()) {
                features.computeIfAbsent(r.opcode(), k -> new ArrayList<>()).add(r);
            }
            for (Opcode op : table.opcodes()) {
                RULES.put(op, new Rules(List.copyOf(forms.getOrDefault(op, List.of())),
                        List.copyOf(features.getOrDefault(op, List.of()))));
            }
            return RULES.get(opcode);
        }
    }
}
