package io.ptxrun.ast;

import java.util.List;
import java.util.stream.Collectors;

/** Prints an AST back as PTX text; parsing the output gives the same AST (AstDump-equal). */
public final class PtxPrinter {
    private final StringBuilder sb = new StringBuilder();

    private PtxPrinter() {}

    public static String print(Module module) {
        PtxPrinter p = new PtxPrinter();
        for (ModuleItem item : module.items()) {
            p.moduleItem(item);
        }
        return p.sb.toString();
    }

    /** Prints a statement list (the form of the ISA's code examples). */
    public static String print(Block statements) {
        PtxPrinter p = new PtxPrinter();
        for (Statement s : statements.statements()) {
            p.statement(s, 0);
        }
        return p.sb.toString();
    }

    public static String print(Instruction ins) {
        PtxPrinter p = new PtxPrinter();
        p.instruction(ins);
        return p.sb.toString();
    }

    public static String print(Operand o) {
        return operand(o);
    }

    private void moduleItem(ModuleItem item) {
        if (item instanceof ModuleItem.Version v) {
            sb.append(".version ").append(v).append('\n');
        } else if (item instanceof ModuleItem.Target t) {
            sb.append(".target ").append(String.join(", ", t.names())).append('\n');
        } else if (item instanceof ModuleItem.AddressSize a) {
            sb.append(".address_size ").append(a.bits()).append('\n');
        } else if (item instanceof ModuleItem.FileDecl f) {
            sb.append(".file ").append(f.index()).append(" \"").append(f.path()).append('"');
            f.extra().forEach(x -> sb.append(", ").append(x));
            sb.append('\n');
        } else if (item instanceof ModuleItem.Section s) {
            sb.append(".section ").append(s.name()).append("\n{\n");
            for (ModuleItem.SectionEntry e : s.entries()) {
                if (e instanceof ModuleItem.SectionData d) {
                    sb.append(d.width()).append(' ').append(d.values().stream()
                            .map(v -> v instanceof Operand o ? operand(o) : v.toString())
                            .collect(Collectors.joining(", ")));
                } else if (e instanceof ModuleItem.SectionLabel l) {
                    sb.append(l.name()).append(':');
                } else if (e instanceof ModuleItem.DwarfLine d) {
                    sb.append(d.text());
                }
                sb.append('\n');
            }
            sb.append("}\n");
        } else if (item instanceof ModuleItem.Alias a) {
            sb.append(".alias ").append(a.alias()).append(", ").append(a.aliasee()).append(";\n");
        } else if (item instanceof Pragma p) {
            pragma(p);
            sb.append('\n');
        } else if (item instanceof VarDecl v) {
            varDecl(v);
            sb.append('\n');
        } else if (item instanceof Function f) {
            function(f);
        }
    }

    private void function(Function f) {
        linkage(f.linkage());
        sb.append(f.isEntry() ? ".entry " : ".func ");
        if (!f.results().isEmpty()) {
            params(f.results());
            sb.append(' ');
        }
        sb.append(f.name());
        if (!f.params().isEmpty() || f.body().isPresent()) {
            sb.append(' ');
            params(f.params());
        }
        for (FunctionDirective d : f.directives()) {
            sb.append('\n').append(d.spelling());
            if (!d.values().isEmpty()) {
                sb.append(' ').append(d.values().stream().map(String::valueOf).collect(Collectors.joining(", ")));
            }
        }
        if (f.body().isPresent()) {
            sb.append('\n');
            block(f.body().get(), 0);
        } else {
            sb.append(";\n");
        }
    }

    private void linkage(java.util.Set<Linkage> linkage) {
        for (Linkage l : Linkage.values()) {
            if (linkage.contains(l)) {
                sb.append(l.spelling()).append(' ');
            }
        }
    }

    private void params(List<Param> params) {
        sb.append('(');
        for (int i = 0; i < params.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            Param p = params.get(i);
            sb.append(p.space().spelling);
            if (p.align() > 0) {
                sb.append(" .align ").append(p.align());
            }
            if (p.vectorWidth() > 1) {
                sb.append(" .v").append(p.vectorWidth());
            }
            sb.append(' ').append(p.type().spelling);
            p.pointer().ifPresent(ptr -> {
                sb.append(" .ptr").append(ptr.space().spelling);
                if (ptr.align() > 0) {
                    sb.append(".align ").append(ptr.align());
                }
            });
            sb.append(' ').append(p.name());
            for (long d : p.dims()) {
                sb.append('[').append(d == 0 ? "" : String.valueOf(d)).append(']');
            }
        }
        sb.append(')');
    }

    private void block(Block b, int depth) {
        indent(depth);
        sb.append("{\n");
        for (Statement s : b.statements()) {
            statement(s, depth + 1);
        }
        indent(depth);
        sb.append("}\n");
    }

    private void statement(Statement s, int depth) {
        if (s instanceof Block b) {
            block(b, depth);
            return;
        }
        indent(depth);
        if (s instanceof Instruction i) {
            instruction(i);
        } else if (s instanceof VarDecl v) {
            varDecl(v);
        } else if (s instanceof Statement.Label l) {
            sb.append(l.name()).append(':');
        } else if (s instanceof Pragma p) {
            pragma(p);
        } else if (s instanceof Statement.Loc l) {
            sb.append(".loc ").append(l.file()).append(' ').append(l.line()).append(' ').append(l.column());
            l.attributes().forEach(a -> sb.append(", ").append(a));
        } else if (s instanceof Statement.CallPrototype c) {
            sb.append(c.label()).append(": .callprototype ");
            if (!c.results().isEmpty()) {
                params(c.results());
                sb.append(' ');
            }
            sb.append("_ ");
            params(c.params());
            sb.append(';');
        } else if (s instanceof Statement.TargetList t) {
            sb.append(t.label()).append(t.branch() ? ": .branchtargets " : ": .calltargets ")
                    .append(String.join(", ", t.targets())).append(';');
        }
        sb.append('\n');
    }

    private void pragma(Pragma p) {
        sb.append(".pragma ").append(p.values().stream().map(v -> '"' + v + '"').collect(Collectors.joining(", ")))
                .append(';');
    }

    private void varDecl(VarDecl v) {
        linkage(v.linkage());
        sb.append(v.space().spelling);
        if (v.align() > 0) {
            sb.append(" .align ").append(v.align());
        }
        if (v.vectorWidth() > 1) {
            sb.append(" .v").append(v.vectorWidth());
        }
        sb.append(' ').append(v.type().spelling).append(' ');
        for (int i = 0; i < v.declarators().size(); i++) {
            VarDecl.Declarator d = v.declarators().get(i);
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(d.name());
            if (d.isRange()) {
                sb.append('<').append(d.rangeCount()).append('>');
            }
            for (long n : d.dims()) {
                sb.append('[').append(n == 0 ? "" : String.valueOf(n)).append(']');
            }
            if (d.init() != null) {
                sb.append(" = ");
                initializer(d.init());
            }
        }
        sb.append(';');
    }

    private void initializer(Initializer init) {
        if (init instanceof Initializer.Value v) {
            sb.append(operand(v.value()));
        } else {
            Initializer.Braced b = (Initializer.Braced) init;
            sb.append('{');
            for (int i = 0; i < b.elements().size(); i++) {
                if (i > 0) {
                    sb.append(", ");
                }
                initializer(b.elements().get(i));
            }
            sb.append('}');
        }
    }

    private void instruction(Instruction i) {
        if (i.guard() != null) {
            sb.append('@').append(i.guard().negated() ? "!" : "").append(operand(i.guard().predicate())).append(' ');
        }
        sb.append(i.mnemonic());
        for (int k = 0; k < i.operands().size(); k++) {
            sb.append(k == 0 ? " " : ", ").append(operand(i.operands().get(k)));
        }
        sb.append(';');
    }

    static String operand(Operand o) {
        if (o instanceof Operand.Register r) {
            return r.name();
        }
        if (o instanceof Operand.SpecialReg s) {
            String name = s.register().isNumbered()
                    ? (s.register() == SpecialRegister.PM_64 ? "%pm" + s.index() + "_64"
                       : s.register().spelling + s.index())
                    : s.register().spelling;
            return s.component() == 0 ? name : name + "." + s.component();
        }
        if (o instanceof Operand.IntImm i) {
            return Long.toString(i.value());
        }
        if (o instanceof Operand.FloatImm f) {
            return f.single() ? String.format("0f%08X", f.bits() & 0xffffffffL) : String.format("0d%016X", f.bits());
        }
        if (o instanceof Operand.Symbol s) {
            String base = s.generic() ? "generic(" + s.name() + ")" : s.name();
            return s.offset() == 0 ? base : base + (s.offset() > 0 ? "+" : "") + s.offset();
        }
        if (o instanceof Operand.Sink) {
            return "_";
        }
        if (o instanceof Operand.Vector v) {
            return "{" + v.elements().stream().map(PtxPrinter::operand).collect(Collectors.joining(", ")) + "}";
        }
        if (o instanceof Operand.Address a) {
            String inner = a.base() == null ? Long.toString(a.offset())
                    : operand(a.base()) + (a.offset() == 0 ? "" : (a.offset() > 0 ? "+" : "") + a.offset());
            return "[" + inner + "]" + a.suffix();
        }
        if (o instanceof Operand.TensorRef t) {
            return "[" + t.elements().stream().map(PtxPrinter::operand).collect(Collectors.joining(", ")) + "]";
        }
        if (o instanceof Operand.Negated n) {
            return (n.arithmetic() ? "-" : "!") + operand(n.operand());
        }
        if (o instanceof Operand.PredPair p) {
            return operand(p.first()) + "|" + operand(p.second());
        }
        if (o instanceof Operand.ArgList l) {
            return "(" + l.elements().stream().map(PtxPrinter::operand).collect(Collectors.joining(", ")) + ")";
        }
        if (o instanceof Operand.Selected s) {
            return operand(s.base()) + s.selector();
        }
        Operand.Indexed x = (Operand.Indexed) o;
        return operand(x.base()) + "[" + x.index() + "]";
    }

    private void indent(int depth) {
        sb.append("\t".repeat(depth));
    }
}
