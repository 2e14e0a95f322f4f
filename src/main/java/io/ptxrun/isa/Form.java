package io.ptxrun.isa;

import io.ptxrun.ast.Opcode;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One legal shape of an instruction: its qualifier groups and operand slots (one line of the
 * spec's Syntax block, expanded where ptxas distinguishes cases), and the section it comes from.
 * Qualifiers may appear in any order; each written qualifier must fill exactly one group.
 */
public record Form(Opcode opcode, List<QualifierGroup> qualifiers, List<OperandSlot> operands, String citation,
                   PtxVersion minVersion, String feature, TargetRequirement onlyWhere) {

    public Form {
        qualifiers = List.copyOf(qualifiers);
        operands = List.copyOf(operands);
    }

    /** `Form.of(BAR, ".sync [.cta]", "a:b32|imm=0..15, b?:b32|imm", "9.7.13.1")`. */
    public static Form of(Opcode opcode, String qualifiers, String operands, String citation) {
        return new Form(opcode, PARSED_QUALIFIERS.computeIfAbsent(qualifiers, QualifierGroup::parseList),
                PARSED_OPERANDS.computeIfAbsent(operands, OperandSlot::parseList), citation, null, null, null);
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
        return new Form(opcode, qualifiers, operands, citation, PtxVersion.of(version), featureName, onlyWhere);
    }

    /**
     * This form only in modules whose version and target satisfy condition: legacy forms that
     * later targets or versions dropped (`vote.any` without `.sync` from sm_70 under PTX ISA 6.4).
     * Elsewhere the form does not exist, and the instruction is explained against the others.
     */
    public Form onlyWhere(TargetRequirement condition) {
        return new Form(opcode, qualifiers, operands, citation, minVersion, feature, condition);
    }

    public boolean existsFor(Target target, PtxVersion version) {
        return onlyWhere == null || onlyWhere.satisfiedBy(target, version);
    }

    public int minOperands() {
        // A loop: checking asks this of every instruction, mostly in the interpreter.
        int required = 0;
        for (OperandSlot o : operands) {
            if (!o.optional()) {
                required++;
            }
        }
        return required;
    }
}
