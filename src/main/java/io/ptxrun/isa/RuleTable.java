package io.ptxrun.isa;

import java.util.List;

/** The rules of one instruction family: its legal forms and its version/target requirements. */
public interface RuleTable {
    List<Form> forms();

    List<FeatureRule> features();
}
