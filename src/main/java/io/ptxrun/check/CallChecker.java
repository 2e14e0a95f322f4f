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
import io.ptxrun.ast.StateSpace;
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
 * argument parameters, and each against its formal parameter: the same size and kind of type, a
 * bit-size type matching any (an .f32 argument fills a .b32 parameter, not an .s32 or a .b16 one:
 * "Type of argument does not match formal parameter 'a'"); a wrong count is "Call has wrong number
 * of parameters". For a
 * .calltargets list the call must fit every target.
 */
final class CallChecker {
    private static final String CITE = "PTX ISA 9.7.12.2 call";

    private final Diagnostics diagnostics;
    private final Map<String, Function> functions = new HashMap<>();
    /** Module-scope variables. */
    private final Map<String, Value> moduleVariables = new HashMap<>();

    CallChecker(Diagnostics diagnostics) {
        this.diagnostics = diagnostics;
    }

    /**
     * What a call passes or a parameter declares: a type, the size in bytes, and whether it is an
     * array (`.param .align 8 .b8 s[16]`), which only an array of the same size fills.
     */
    private record Value(DataType type, long size, boolean array) {
        static Value of(Param p) {
            return new Value(p.type(), p.sizeBytes(), !p.dims().isEmpty());
        }

        String describe() {
            return type.spelling + (array ? "[" + size / Math.max(1, type.bytes()) + "]" : "");
        }

        /**
         * ptxas's rule: the same size, and for scalars types of one kind, a bit-size type
         * standing for any (an .f32 argument fills a .b32 parameter, not an .s32 one).
         */
        boolean fits(Value formal) {
            if (size != formal.size || array != formal.array) {
                return false;
            }
            return array || type.kind == DataType.Kind.BITS || formal.type.kind == DataType.Kind.BITS
                    || type.isFloat() == formal.type.isFloat();
        }
    }

    /** A callee's signature: its return and argument parameters. */
    private record Prototype(String name, List<Param> results, List<Param> params) {}

    /** What one function body declares that a call can name. */
    private static final class Scope {
        final Map<String, Value> variables = new HashMap<>();
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

        /** The innermost variable of that name, or null. */
        Value variable(String name) {
            for (Scope s = this; s != null; s = s.parent) {
                Value n = s.variables.get(name);
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
                    moduleVariables.put(d.name(), value(v, d));
                }
            }
        }
        for (Function f : module.functions()) {
            if (f.body().isEmpty()) {
                continue;
            }
            Scope scope = new Scope();
            for (Param p : f.params()) {
                scope.variables.put(p.name(), Value.of(p));
            }
            for (Param p : f.results()) {
                scope.variables.put(p.name(), Value.of(p));
            }
            collect(f.body().get(), scope);
            checkBlock(f.body().get(), RegisterTable.of(f), scope);
        }
    }

    private static Value value(VarDecl v, VarDecl.Declarator d) {
        long n = v.elementBytes();
        for (long dim : d.dims()) {
            n *= dim;
        }
        return new Value(v.type(), n, !d.dims().isEmpty());
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
                    inner.variables.put(d.name(), value(v, d));
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
            String noun = given.size() == 1 ? what.substring(0, what.length() - 1) : what;
            error(at, "call.parameters", "call passes " + given.size() + " " + noun + " to " + prototype.name()
                    + ", which takes " + formals.size() + describe(formals) + " (" + CITE + ")");
            return false;
        }
        for (int k = 0; k < given.size(); k++) {
            Operand o = given.get(k);
            Param formal = formals.get(k);
            DataType t = formal.type();
            // ptxas: "In ABI compilation, passing predicate, 8-bit and 16-bit parameters to device
            // functions is not supported" (it takes .b8 and .b16 parameters, not .u16 or .s8 ones).
            // Register parameters (`.func (.reg .pred p) f`) are outside the ABI: ptxas disables it.
            boolean abi = formal.space() != StateSpace.REG;
            if (abi && (t == DataType.PRED
                    || t.bits < 32 && (t.kind == DataType.Kind.SIGNED || t.kind == DataType.Kind.UNSIGNED))) {
                error(o.pos(), "call.parameters", prototype.name() + "'s parameter '" + formal.name() + "' is "
                        + t.spelling + ": under the ABI a device function cannot take or return predicate, or 8- or"
                        + " 16-bit integer parameters; declare it .b" + t.bits + " or widen it to 32 bits (" + CITE + ")");
                return false;
            }
            // An integer constant fills a scalar integer or bit-size parameter, not a floating-point one.
            if (o instanceof Operand.IntImm && (t.isFloat() || !formal.dims().isEmpty())) {
                error(o.pos(), "call.parameters", "the integer constant given for " + prototype.name() + "'s parameter '"
                        + formal.name() + "' (" + Value.of(formal).describe() + ") does not match its type (" + CITE + ")");
                return false;
            }
            Value actual = valueOf(o, registers, scope);
            if (actual != null && !actual.fits(Value.of(formal))) {
                error(o.pos(), "call.parameters", "'" + text(o) + "' (" + actual.describe() + ") does not match "
                        + prototype.name() + "'s parameter '" + formal.name() + "' (" + Value.of(formal).describe()
                        + "): a parameter takes a value of its size and of its kind, a bit-size type matching any ("
                        + CITE + ")");
                return false;
            }
        }
        return true;
    }

    /** What an argument passes, or null where it cannot be known here (constants, undeclared names). */
    private Value valueOf(Operand o, RegisterTable registers, Scope scope) {
        if (o instanceof Operand.Register r) {
            DataType t = registers.typeOf(r.name());
            return t == null || t == DataType.PRED ? null
                    : new Value(t, (long) t.bytes() * registers.vectorWidthOf(r.name()), false);
        }
        if (o instanceof Operand.Symbol s) {
            Value n = scope.variable(s.name());
            if (n == null) {
                n = moduleVariables.get(s.name());
            }
            return n == null || n.size() == 0 ? null : n;
        }
        return null;
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
