package io.ptxrun.isa;

import io.ptxrun.ast.Opcode;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One legal shape of an instruction: its qualifier groups and operand slots (one line of the
 * spec's Syntax block, expanded where ptxas distinguishes cases), and the section it comes from.
 * Qualifiers may appear in any order; each written qualifier must fill exactly one group.
 *
 * <p>A form keeps the table's spelling of its groups and slots and parses them when they are first
 * asked for: a table is built whole when one of its opcodes is first looked up, and a module
 * uses few of its opcodes (parsing every form of the common tables was most of building them, a
 * visible share of a short check).
 */
public final class Form {
    private final Opcode opcode;
    private final String qualifierSpelling;
    private final String operandSpelling;
    private final String citation;
    private final PtxVersion minVersion;
    private final String feature;
    private final TargetRequirement onlyWhere;
    // Parsed on first use. Both are immutable lists of immutable values, so a thread that reads
    // one another thread has just parsed sees it whole, and two threads parsing at once agree.
    private List<QualifierGroup> qualifiers;
    private List<OperandSlot> operands;

    private Form(Opcode opcode, String qualifierSpelling, String operandSpelling, String citation,
                 PtxVersion minVersion, String feature, TargetRequirement onlyWhere) {
        this.opcode = opcode;
        this.qualifierSpelling = qualifierSpelling;
        this.operandSpelling = operandSpelling;
        this.citation = citation;
        this.minVersion = minVersion;
        this.feature = feature;
        this.onlyWhere = onlyWhere;
    }

    /** `Form.of(BAR, ".sync [.cta]", "a:b32|imm=0..15, b?:b32|imm", "9.7.13.1")`. */
    public static Form of(Opcode opcode, String qualifiers, String operands, String citation) {
        return new Form(opcode, qualifiers, operands, citation, null, null, null);
    }

    // The tables spell the same qualifier and operand lists many times (1,083 forms, 734 and
    // 515 distinct lists); each is parsed once. The parsed lists are immutable, so forms share them.
    private static final Map<String, List<QualifierGroup>> PARSED_QUALIFIERS = new ConcurrentHashMap<>();
    private static final Map<String, List<OperandSlot>> PARSED_OPERANDS = new ConcurrentHashMap<>();

    /**
     * This form with a version requirement of its own, for operand forms that a later version
     * introduced (the ignore-src predicate of cp.async) and that no qualifier marks.
     */
    public Form since(String version, String featureName) {
        return new Form(opcode, qualifierSpelling, operandSpelling, citation, PtxVersion.of(version), featureName,
                onlyWhere);
    }

    /**
     * This form only in modules whose version and target satisfy condition: legacy forms that
     * later targets or versions dropped (`vote.any` without `.sync` from sm_70 under PTX ISA 6.4).
     * Elsewhere the form does not exist, and the instruction is explained against the others.
     */
    public Form onlyWhere(TargetRequirement condition) {
        return new Form(opcode, qualifierSpelling, operandSpelling, citation, minVersion, feature, condition);
    }

    public Opcode opcode() {
        return opcode;
    }

    /** The qualifier groups, in the order the table writes them. */
    public List<QualifierGroup> qualifiers() {
        List<QualifierGroup> parsed = qualifiers;
        if (parsed == null) {
            parsed = PARSED_QUALIFIERS.get(qualifierSpelling);
            if (parsed == null) {
                parsed = QualifierGroup.parseList(qualifierSpelling);
                PARSED_QUALIFIERS.putIfAbsent(qualifierSpelling, parsed);
            }
            qualifiers = parsed;
        }
        return parsed;
    }

    /** The operand slots, in order. */
    public List<OperandSlot> operands() {
        List<OperandSlot> parsed = operands;
        if (parsed == null) {
            parsed = PARSED_OPERANDS.get(operandSpelling);
            if (parsed == null) {
                parsed = OperandSlot.parseList(operandSpelling);
                PARSED_OPERANDS.putIfAbsent(operandSpelling, parsed);
            }
            operands = parsed;
        }
        return parsed;
    }

    /** The section of the spec the form comes from. */
    public String citation() {
        return citation;
    }

    /** The version this form needs beyond its opcode's (null: none). */
    public PtxVersion minVersion() {
        return minVersion;
    }

    /** The feature minVersion introduced, as ptxas names it (null without minVersion). */
    public String feature() {
        return feature;
    }

    /** The condition under which the form exists (null: always). */
    public TargetRequirement onlyWhere() {
        return onlyWhere;
    }

    public boolean existsFor(Target target, PtxVersion version) {
        return onlyWhere == null || onlyWhere.satisfiedBy(target, version);
    }

    public int minOperands() {
        // A loop: checking asks this of every instruction, mostly in the interpreter.
        int required = 0;
        for (OperandSlot o : operands()) {
            if (!o.optional()) {
                required++;
            }
        }
        return required;
    }

    @Override
    public String toString() {
        return opcode.spelling + " " + qualifierSpelling + " " + operandSpelling;
    }
}
