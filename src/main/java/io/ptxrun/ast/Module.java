package io.ptxrun.ast;

import java.util.List;
import java.util.Optional;

/** A PTX module: its directives, global declarations and functions, in source order. */
public record Module(SourcePos pos, List<ModuleItem> items) implements Node {
    public Module {
        items = List.copyOf(items);
    }

    public Optional<ModuleItem.Version> version() {
        return first(ModuleItem.Version.class);
    }

    public Optional<ModuleItem.Target> target() {
        return first(ModuleItem.Target.class);
    }

    public Optional<ModuleItem.AddressSize> addressSize() {
        return first(ModuleItem.AddressSize.class);
    }

    public List<Function> functions() {
        return all(Function.class);
    }

    public List<VarDecl> globals() {
        return all(VarDecl.class);
    }

    public Optional<Function> function(String name) {
        return functions().stream().filter(f -> f.name().equals(name) && f.body().isPresent()).findFirst();
    }

    public List<Function> entries() {
        return functions().stream().filter(f -> f.isEntry() && f.body().isPresent()).toList();
    }

    private <T extends ModuleItem> Optional<T> first(Class<T> type) {
        return items.stream().filter(type::isInstance).map(type::cast).findFirst();
    }

    private <T extends ModuleItem> List<T> all(Class<T> type) {
        return items.stream().filter(type::isInstance).map(type::cast).toList();
    }
}
