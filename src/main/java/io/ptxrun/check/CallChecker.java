package io.ptxrun.check;

import io.ptxrun.ast.Block;
import io.ptxrun.ast.DataType;
import io.ptxrun.ast.Function;
import io.ptxrun.ast.Instruction;
import io.ptxrun.ast.Module;
import io.ptxrun.ast.ModuleItem;
import io.ptxrun.ast.Opcode;
import io.ptxrun.ast.Operand;
import io.ptxrun.ast.Param;
import io.ptxrun.ast.Qual;
import io.ptxrun.ast.Qualifier;
import io.ptxrun.ast.SourcePos;
import io.ptxrun.ast.Statement;
import io.ptxrun.ast.VarDecl;
import io.ptxrun.diag.Diagnostics;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * `call` against the callee's prototype (PTX ISA 9.7.12.2 call, 11.3 .callprototype, 11.4
 * .calltargets): the shape of the operand list, the callee (a function for a direct call; a
 * register with a prototype or target list for an indirect one), the number of return and
 * argument parameters, and the size of each against its formal parameter. ptxas compares sizes,
 * not types: an .f32 argument fills a .b32 parameter, a .b16 one does not ("Type of argument does
 * not match formal parameter 'a'"); a wrong count is "Call has wrong number of parameters". For a
 * .calltargets list the call must fit every target.
 */
final class CallChecker {
    private static final String CITE = "PTX ISA 9.7.12.2 call";

    private final Diagnostics diagnostics;
    private final Map<String, Function> functions = new HashMap<>();
    /** Module-scope variables: name -> size in bytes. */
    private final Map<String, Long> moduleVariables = new HashMap<>();

    CallChecker(Diagnostics diagnostics) {
        this.diagnostics = diagnostics;
    }

    /** A callee's signature: its return and argument parameters. */
    private record Prototype(String name, List<Param> results, List<Param> params) {}

    /** What one function body declares that a call can name. */
    private static final class Scope {
        final Map<String, Long> variables = new HashMap<>();
        final Map<String, Statement.CallPrototype> prototypes;
        final Map<String, Statement.TargetList> targetLists;
        final java.util.Set<String> labels;
        final Scope parent;

        Scope() {
            this(null);
        }

        private Scope(Scope parent) {
            this.parent = parent;
            prototypes = parent == null ? new HashMap<>() : parent.prototypes;
            targetLists = parent == null ? new HashMap<>() : parent.targetLists;
            labels = parent == null ? new java.util.HashSet<>() : parent.labels;
        }

        Scope enter() {
            return new Scope(this);
        }

        /** The size of the innermost variable of that name, or null. */
        Long variable(String name) {
            for (Scope s = this; s != null; s = s.parent) {
                Long n = s.variables.get(name);
                if (n != null) {
                    return n;
                }
            }
            return null;
        }
    }

    void check(Module module) {
        for (ModuleItem item : module.items()) {
            if (item instanceof Function f) {
                // A definition wins over a declaration of the same function.
                functions.merge(f.name(), f, (a, b) -> a.body().isPresent() ? a : b);
            } else if (item instanceof VarDecl v) {
                for (VarDecl.Declarator d : v.declarators()) {
                    moduleVariables.put(d.name(), size(v, d));
                }
            }
        }
        for (Function f : module.functions()) {
            if (f.body().isEmpty()) {
                continue;
            }
            Scope scope = new Scope();
            for (Param p : f.params()) {
                scope.variables.put(p.name(), p.sizeBytes());
            }
            for (Param p : f.results()) {
                scope.variables.put(p.name(), p.sizeBytes());
            }
            collect(f.body().get(), scope);
            checkBlock(f.body().get(), RegisterTable.of(f), scope);
        }
    }

    private static long size(VarDecl v, VarDecl.Declarator d) {
        long n = v.elementBytes();
        for (long dim : d.dims()) {
            n *= dim;
        }
        return n;
    }

    /** Prototypes, target lists and labels, which are function-wide names. */
    private static void collect(Block block, Scope scope) {
        for (Statement s : block.statements()) {
            if (s instanceof Statement.CallPrototype c) {
                scope.prototypes.put(c.label(), c);
            } else if (s instanceof Statement.TargetList t) {
                scope.targetLists.put(t.label(), t);
            } else if (s instanceof Statement.Label l) {
                scope.labels.add(l.name());
            } else if (s instanceof Block b) {
                collect(b, scope);
            }
        }
    }

    /**
     * Variables are block-scoped: compiler output declares `.param .b32 retval0` in one call's
     * braces and `.param .b64 retval0` in the next, so a block sees its own declarations first.
     */
    private void checkBlock(Block block, RegisterTable registers, Scope scope) {
        Scope inner = scope.enter();
        for (Statement s : block.statements()) {
            if (s instanceof VarDecl v) {
                for (VarDecl.Declarator d : v.declarators()) {
                    inner.variables.put(d.name(), size(v, d));
                }
            }
        }
        for (Statement s : block.statements()) {
            if (s instanceof Instruction i && i.opcode() == Opcode.CALL) {
                checkCall(i, registers, inner);
            } else if (s instanceof Block b) {
                checkBlock(b, registers.enter(b), inner);
            }
        }
    }

    private void checkCall(Instruction call, RegisterTable registers, Scope scope) {
        for (Qual q : call.qualifiers()) {
            if (q.kind() != Qualifier.UNI) {
                error(q.pos(), "isa.qualifier", "qualifier '" + q.text() + "' is not allowed on call; allowed: .uni");
            }
        }
        List<Operand> ops = call.operands();
        int i = 0;
        Operand.ArgList results = null;
        if (ops.size() > 1 && ops.get(0) instanceof Operand.ArgList r) {
            results = r;
            i = 1;
        }
        if (i >= ops.size()) {
            error(call.pos(), "isa.operand", "call needs a callee (" + CITE + ")");
            return;
        }
        Operand callee = ops.get(i++);
        Operand.ArgList arguments = null;
        if (i < ops.size() && ops.get(i) instanceof Operand.ArgList a) {
            arguments = a;
            i++;
        }
        Operand target = i < ops.size() ? ops.get(i++) : null;
        if (i < ops.size() || target != null && !(target instanceof Operand.Symbol)) {
            Operand extra = i < ops.size() ? ops.get(i) : target;
            error(extra.pos(), "isa.operand", "call takes (return parameters), a callee, (arguments) and, for an"
                    + " indirect call, a .calltargets or .callprototype label; this operand does not fit (" + CITE + ")");
            return;
        }
        List<Prototype> prototypes = callee instanceof Operand.Register
                ? indirectPrototypes(callee, (Operand.Symbol) target, scope)
                : directPrototype(callee, target, scope);
        // Every function of a target list must fit the call; the first that does not is reported.
        for (Prototype prototype : prototypes) {
            List<Operand> given = results == null ? List.of() : results.elements();
            boolean fits = checkParameters("return parameters", results == null ? callee.pos() : results.pos(), given,
                    prototype.results(), prototype, registers, scope);
            given = arguments == null ? List.of() : arguments.elements();
            fits &= checkParameters("arguments", arguments == null ? callee.pos() : arguments.pos(), given,
                    prototype.params(), prototype, registers, scope);
            if (!fits) {
                return;
            }
        }
    }

    private List<Prototype> directPrototype(Operand callee, Operand target, Scope scope) {
        if (!(callee instanceof Operand.Symbol s)) {
            error(callee.pos(), "isa.operand", "the callee of call must be a function name or, for an indirect call, a"
                    + " register holding its address (" + CITE + ")");
            return List.of();
        }
        Function f = functions.get(s.name());
        if (f == null || f.isEntry()) {
            boolean known = scope.labels.contains(s.name()) || scope.prototypes.containsKey(s.name())
                    || scope.variable(s.name()) != null || moduleVariables.containsKey(s.name());
            if (known || f != null) {
                error(s.pos(), "isa.operand", "'" + s.name() + "' is not a device function (.func); call needs one"
                        + " as its callee (" + CITE + ")");
            }
            return List.of();
        }
        if (target != null) {
            error(callee.pos(), "isa.operand", "a call with a target list or prototype is indirect: its callee must be"
                    + " a register holding the function's address, not '" + s.name() + "' (" + CITE + ")");
            return List.of();
        }
        return List.of(new Prototype(f.name(), f.results(), f.params()));
    }

    private List<Prototype> indirectPrototypes(Operand callee, Operand.Symbol target, Scope scope) {
        if (target == null) {
            error(callee.pos(), "isa.operand", "an indirect call through " + ((Operand.Register) callee).name()
                    + " needs a .callprototype or .calltargets label as its last operand (" + CITE + ", 11.3)");
            return List.of();
        }
        Statement.CallPrototype proto = scope.prototypes.get(target.name());
        if (proto != null) {
            return List.of(new Prototype(target.name(), proto.results(), proto.params()));
        }
        Statement.TargetList list = scope.targetLists.get(target.name());
        if (list != null && !list.branch()) {
            return list.targets().stream().map(functions::get).filter(java.util.Objects::nonNull)
                    .map(f -> new Prototype(f.name(), f.results(), f.params())).toList();
        }
        error(target.pos(), "isa.operand", "'" + target.name() + "' is not a .callprototype or .calltargets label;"
                + " an indirect call names one as its last operand (" + CITE + ", 11.3, 11.4)");
        return List.of();
    }

    /** Whether the parameters fit; reports the first way they do not. */
    private boolean checkParameters(String what, SourcePos at, List<Operand> given, List<Param> formals,
                                 Prototype prototype, RegisterTable registers, Scope scope) {
        if (given.size() != formals.size()) {
            error(at, "call.parameters", "call passes " + given.size() + " " + what + " to " + prototype.name()
                    + ", which takes " + formals.size() + describe(formals) + " (" + CITE + ")");
            return false;
        }
        for (int k = 0; k < given.size(); k++) {
            Operand o = given.get(k);
            Param formal = formals.get(k);
            long size = sizeOf(o, registers, scope);
            if (size >= 0 && size != formal.sizeBytes()) {
                error(o.pos(), "call.parameters", "'" + text(o) + "' is " + size + " byte" + (size == 1 ? "" : "s")
                        + ", but " + prototype.name() + "'s parameter '" + formal.name() + "' is " + formal.sizeBytes()
                        + " (" + formal.type().spelling + (formal.dims().isEmpty() ? "" : formal.dims().stream()
                        .map(d -> "[" + d + "]").collect(Collectors.joining())) + "); the sizes must match ("
                        + CITE + ")");
                return false;
            }
        }
        return true;
    }

    /** The size in bytes of an argument, or -1 where it cannot be known here (constants, undeclared names). */
    private long sizeOf(Operand o, RegisterTable registers, Scope scope) {
        if (o instanceof Operand.Register r) {
            DataType t = registers.typeOf(r.name());
            return t == null || t == DataType.PRED ? -1 : t.bytes();
        }
        if (o instanceof Operand.Symbol s) {
            Long n = scope.variable(s.name());
            if (n == null) {
                n = moduleVariables.get(s.name());
            }
            return n == null || n == 0 ? -1 : n;
        }
        return -1;
    }

    private static String text(Operand o) {
        return o instanceof Operand.Register r ? r.name() : o instanceof Operand.Symbol s ? s.name() : "argument";
    }

    private static String describe(List<Param> formals) {
        return formals.isEmpty() ? "" : " (" + formals.stream().map(p -> p.type().spelling + " " + p.name())
                .collect(Collectors.joining(", ")) + ")";
    }

    private void error(SourcePos pos, String rule, String message) {
        diagnostics.error(pos, rule, message);
    }
}
