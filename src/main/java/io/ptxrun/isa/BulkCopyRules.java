package io.ptxrun.isa;

import java.util.List;

public final class BulkCopyRules implements RuleTable {
    @Override
    public List<Form> forms() {
        return List.of();
    }

    @Override
    public List<FeatureRule> features() {
        return List.of();
    }
}
