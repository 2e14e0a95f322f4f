package io.ptxrun.ast;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A kernel (`.entry`) or device function (`.func`), with or without a body (a declaration or
 * prototype ends in `;`). Directives are those after the parameter list (11.4, 11.5).
 */
public record Function(SourcePos pos, Set<Linkage> linkage, boolean isEntry, List<Param> results,
                       String name, List<Param> params, List<FunctionDirective> directives,
                       Optional<Block> body) implements ModuleItem {
    public Function {
        linkage = Set.copyOf(linkage);
        results = List.copyOf(results);
        params = List.copyOf(params);
        directives = List.copyOf(directives);
    }

    public Optional<FunctionDirective> directive(FunctionDirective.Kind kind) {
        for (FunctionDirective d : directives) {
            if (d.kind() == kind) {
                return Optional.of(d);
            }
        }
        return Optional.empty();
    }
}
