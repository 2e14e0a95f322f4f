package io.ptxrun.isa;

import io.ptxrun.ast.Opcode;
import java.util.List;
import java.util.Set;

/** The rules of one instruction family: its legal forms and its version/target requirements. */
public interface RuleTable {
    /**
     * The opcodes whose forms and features this table holds, and no other table does: a table is
     * built only when a module uses one of them.
     */
    Set<Opcode> opcodes();

    List<Form> forms();

    List<FeatureRule> features();
}
