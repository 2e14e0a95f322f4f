package io.ptxrun.ast;

import java.util.List;

/** `.pragma "nounroll";` at module or statement level. */
public record Pragma(SourcePos pos, List<String> values) implements ModuleItem, Statement {
    public Pragma {
        values = List.copyOf(values);
    }
}
