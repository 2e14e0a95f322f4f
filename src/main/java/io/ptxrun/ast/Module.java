package io.ptxrun.ast;

import java.util.ArrayList;
import java.util.Collections;
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

    // Loops, not streams: a short `check` would otherwise spend a few milliseconds setting up
    // the stream machinery in the interpreter for these few calls.

    public Optional<Function> function(String name) {
        for (Function f : functions()) {
            if (f.name().equals(name) && f.body().isPresent()) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }

    public List<Function> entries() {
        List<Function> out = new ArrayList<>();
        for (Function f : functions()) {
            if (f.isEntry() && f.body().isPresent()) {
                out.add(f);
            }
        }
        return Collections.unmodifiableList(out);
    }

    private <T extends ModuleItem> Optional<T> first(Class<T> type) {
        for (ModuleItem item : items) {
            if (type.isInstance(item)) {
                return Optional.of(type.cast(item));
            }
        }
        return Optional.empty();
    }

    private <T extends ModuleItem> List<T> all(Class<T> type) {
        List<T> out = new ArrayList<>();
        for (ModuleItem item : items) {
            if (type.isInstance(item)) {
                out.add(type.cast(item));
            }
        }
        return Collections.unmodifiableList(out);
    }
}
