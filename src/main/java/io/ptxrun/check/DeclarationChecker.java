package io.ptxrun.check;

import io.ptxrun.ast.Block;
import io.ptxrun.ast.Function;
import io.ptxrun.ast.Instruction;
import io.ptxrun.ast.Module;
import io.ptxrun.ast.ModuleItem;
import io.ptxrun.ast.Operand;
import io.ptxrun.ast.Param;
import io.ptxrun.ast.SourcePos;
import io.ptxrun.ast.Statement;
import io.ptxrun.ast.StateSpace;
import io.ptxrun.ast.VarDecl;
import io.ptxrun.diag.Diagnostics;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Module structure and names (PTX ISA 4.4, 5.4, 11): `.version` and `.target` present and first,
 * no name declared twice in one scope, every label and symbol an instruction uses defined.
 */
public final class DeclarationChecker {
    /** Predefined identifiers (4.4). */
    private static final Set<String> PREDEFINED = Set.of("WARP_SZ", "%SP", "%SPL");

    private final Diagnostics diagnostics;
    private final Set<String> moduleNames = new HashSet<>();

    public DeclarationChecker(Diagnostics diagnostics) {
        this.diagnostics = diagnostics;
    }

    /**
     * Modules before PTX ISA 3.0 are assembled without the ABI when they need it, so module-scoped
     * .local variables are accepted there (ptxas: "Use of module scoped .local or .reg variable
     * 'L1' found, disabling ABI"); from 3.0 on they are an error.
     */
    private static boolean beforeAbi(Module module) {
        return module.version().map(v -> v.major() < 3).orElse(false);
    }

    public void check(Module module) {
        List<ModuleItem> items = new ArrayList<>();
        for (ModuleItem i : module.items()) {
            if (!(i instanceof ModuleItem.FileDecl || i instanceof ModuleItem.Section)) {
                items.add(i);
            }
        }
        if (items.isEmpty() || !(items.get(0) instanceof ModuleItem.Version)) {
            diagnostics.error(items.isEmpty() ? module.pos() : items.get(0).pos(), "module.version",
                    "a module must begin with a .version directive (PTX ISA 11.1.1)");
        }
        if (module.target().isEmpty()) {
            // At the first item after .version, where the .target belongs (as ptxas reports it).
            SourcePos at = module.pos();
            for (ModuleItem i : items) {
                if (!(i instanceof ModuleItem.Version)) {
                    at = i.pos();
                    break;
                }
            }
            diagnostics.error(at, "module.target", "the module has no .target directive (PTX ISA 11.1.2)");
        }
        Map<String, Function> definedFunctions = new HashMap<>();
        for (ModuleItem item : module.items()) {
            if (item instanceof VarDecl v) {
                if (v.space() == StateSpace.LOCAL && !beforeAbi(module)) {
                    diagnostics.error(v.pos(), "decl.space", ".local variables are declared inside functions, not at"
                            + " module scope (PTX ISA 5.1.5; ptxas: \"Module-scoped variables in .local state space are"
                            + " not allowed with ABI\")");
                }
                checkComplete(v);
                checkTextureMode(v, module);
                for (VarDecl.Declarator d : v.declarators()) {
                    if (!moduleNames.add(d.name())) {
                        diagnostics.error(d.pos(), "decl.duplicate", "'" + d.name() + "' is already declared in this module");
                    }
                }
            } else if (item instanceof Function f) {
                moduleNames.add(f.name());
                checkEntryDeclaration(f);
                if (f.body().isPresent() && definedFunctions.putIfAbsent(f.name(), f) != null) {
                    diagnostics.error(f.pos(), "decl.duplicate", "function '" + f.name() + "' is defined twice");
                }
            } else if (item instanceof ModuleItem.Alias a) {
                moduleNames.add(a.alias());
            }
        }
        for (Function f : module.functions()) {
            f.body().ifPresent(b -> checkFunction(f, b));
        }
    }

    /**
     * An array without a size (`[]` or `[0]`) takes its size from an initializer, or is .extern:
     * ptxas "Non-external variable 'x' has incomplete type".
     */
    private void checkComplete(VarDecl v) {
        if (v.linkage().contains(io.ptxrun.ast.Linkage.EXTERN)) {
            return;
        }
        for (VarDecl.Declarator d : v.declarators()) {
            if (d.dims().contains(0L) && d.init() == null) {
                diagnostics.error(d.pos(), "decl.incomplete", "'" + d.name() + "' is an array without a size: give"
                        + " it one or an initializer, or declare it .extern (PTX ISA 5.4.4; ptxas: \"Non-external"
                        + " variable has incomplete type\")");
            }
        }
    }

    /**
     * Samplers are separate objects only in the independent texturing mode (PTX ISA 5.3: in the
     * default unified mode the sampler state is part of the texture; ptxas "Instruction or
     * declaration violates .target texmode_unified setting").
     */
    private void checkTextureMode(VarDecl v, Module module) {
        boolean independent = module.target().map(t -> t.names().contains("texmode_independent")).orElse(false);
        if (v.type() == io.ptxrun.ast.DataType.SAMPLERREF && !independent) {
            diagnostics.error(v.pos(), "decl.texmode", ".samplerref variables need `.target ..., texmode_independent`;"
                    + " in the default texmode_unified a texture carries its own sampler state (PTX ISA 5.3)");
        }
    }

    /** Kernel parameters have a size, and .noreturn is for .func only (PTX ISA 11.3, 11.4). */
    private void checkEntryDeclaration(Function f) {
        if (!f.isEntry()) {
            return;
        }
        for (Param p : f.params()) {
            if (p.dims().contains(0L)) {
                diagnostics.error(p.pos(), "decl.incomplete", "kernel parameter '" + p.name() + "' is an array without"
                        + " a size (ptxas: \"Parameter to entry function cannot be an incomplete array\")");
            }
        }
        f.directive(io.ptxrun.ast.FunctionDirective.Kind.NORETURN).ifPresent(d -> diagnostics.error(d.pos(),
                "decl.directive", ".noreturn applies to .func functions, not to a kernel (PTX ISA 11.4)"));
    }

    private void checkFunction(Function f, Block body) {
        Set<String> labels = new HashSet<>();
        collectLabels(body, labels);
        Deque<Set<String>> scopes = new ArrayDeque<>();
        Set<String> params = new HashSet<>();
        for (Param p : f.results()) {
            params.add(p.name());
        }
        for (Param p : f.params()) {
            params.add(p.name());
        }
        scopes.push(params);
        checkBlock(body, scopes, labels);
    }

    /**
     * Labels are scoped to the block that defines them: the same label in two `{ }` blocks (an
     * inline-asm sequence inlined twice, as CUTLASS and DeepGEMM emit) is two labels. A branch
     * may name any label of the function.
     */
    private void collectLabels(Block block, Set<String> labels) {
        Set<String> inBlock = new HashSet<>();
        for (Statement s : block.statements()) {
            String name = null;
            if (s instanceof Statement.Label l) {
                name = l.name();
            } else if (s instanceof Statement.CallPrototype c) {
                name = c.label();
            } else if (s instanceof Statement.TargetList t) {
                name = t.label();
            }
            if (name != null && !inBlock.add(name)) {
                diagnostics.error(s.pos(), "decl.duplicate", "label '" + name + "' is defined twice in this block");
            }
            if (name != null) {
                labels.add(name);
            }
            if (s instanceof Block b) {
                collectLabels(b, labels);
            }
        }
    }

    private void checkBlock(Block block, Deque<Set<String>> scopes, Set<String> labels) {
        Set<String> local = new HashSet<>();
        scopes.push(local);
        for (Statement s : block.statements()) {
            if (s instanceof VarDecl v) {
                checkComplete(v);
                for (VarDecl.Declarator d : v.declarators()) {
                    if (!local.add(d.name())) {
                        diagnostics.error(d.pos(), "decl.duplicate", "'" + (d.isRange() ? d.name() + "<" + d.rangeCount() + ">" : d.name()) + "' is already declared in this scope");
                    }
                }
            } else if (s instanceof Block b) {
                checkBlock(b, scopes, labels);
            } else if (s instanceof Instruction i) {
                if (i.guard() != null) {
                    resolve(i.guard().predicate(), scopes, labels);
                }
                for (Operand o : i.operands()) {
                    resolve(o, scopes, labels);
                }
            }
        }
        scopes.pop();
    }

    private void resolve(Operand o, Deque<Set<String>> scopes, Set<String> labels) {
        if (o instanceof Operand.Symbol s) {
            if (!defined(s.name(), scopes, labels)) {
                undefined(s.pos(), s.name());
            }
        } else if (o instanceof Operand.Address a) {
            if (a.base() != null) {
                resolve(a.base(), scopes, labels);
            }
        } else if (o instanceof Operand.Vector v) {
            v.elements().forEach(e -> resolve(e, scopes, labels));
        } else if (o instanceof Operand.TensorRef t) {
            t.elements().forEach(e -> resolve(e, scopes, labels));
        } else if (o instanceof Operand.ArgList l) {
            l.elements().forEach(e -> resolve(e, scopes, labels));
        } else if (o instanceof Operand.Negated n) {
            resolve(n.operand(), scopes, labels);
        } else if (o instanceof Operand.PredPair p) {
            resolve(p.first(), scopes, labels);
            resolve(p.second(), scopes, labels);
        } else if (o instanceof Operand.Selected s) {
            resolve(s.base(), scopes, labels);
        } else if (o instanceof Operand.Indexed x) {
            resolve(x.base(), scopes, labels);
        }
    }

    private boolean defined(String name, Deque<Set<String>> scopes, Set<String> labels) {
        if (labels.contains(name) || moduleNames.contains(name) || PREDEFINED.contains(name)) {
            return true;
        }
        for (Set<String> s : scopes) {
            if (s.contains(name)) {
                return true;
            }
        }
        return false;
    }

    private void undefined(SourcePos pos, String name) {
        diagnostics.error(pos, "decl.undefined", "'" + name + "' is not declared"
                + (name.startsWith("%") ? " (registers must be declared with .reg before use)" : ""));
    }
}
