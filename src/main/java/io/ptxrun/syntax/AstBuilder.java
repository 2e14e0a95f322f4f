package io.ptxrun.syntax;

import io.ptxrun.ast.Block;
import io.ptxrun.ast.DataType;
import io.ptxrun.ast.Function;
import io.ptxrun.ast.FunctionDirective;
import io.ptxrun.ast.Guard;
import io.ptxrun.ast.Initializer;
import io.ptxrun.ast.Instruction;
import io.ptxrun.ast.Linkage;
import io.ptxrun.ast.Module;
import io.ptxrun.ast.ModuleItem;
import io.ptxrun.ast.Opcode;
import io.ptxrun.ast.Operand;
import io.ptxrun.ast.Param;
import io.ptxrun.ast.Pragma;
import io.ptxrun.ast.Qual;
import io.ptxrun.ast.SourcePos;
import io.ptxrun.ast.SpecialRegister;
import io.ptxrun.ast.StateSpace;
import io.ptxrun.ast.Statement;
import io.ptxrun.ast.VarDecl;
import io.ptxrun.diag.Diagnostics;
import io.ptxrun.syntax.generated.PTXParser;
import io.ptxrun.syntax.generated.PTXParser.*;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.tree.TerminalNode;

/**
 * Builds the typed AST from the parse tree in one pass: folds constant expressions, classifies
 * opcodes and qualifiers, and tells registers from other names using the `.reg` declarations in
 * scope (registers are declared before use, 5.4). Problems become diagnostics, never exceptions.
 */
final class AstBuilder {
    private final String file;
    private final Diagnostics diagnostics;
    /** Register names declared in each enclosing scope; ranges (`%r<40>`) by prefix. */
    private final Deque<Scope> scopes = new ArrayDeque<>();
    /**
     * What isRegister answered for each name since the scopes last changed: a function body
     * names its few registers over and over.
     */
    private final Map<String, Boolean> registers = new HashMap<>();

    AstBuilder(String file, Diagnostics diagnostics) {
        this.file = file;
        this.diagnostics = diagnostics;
    }

    private static final class Scope {
        final Set<String> names = new HashSet<>();
        final Map<String, Integer> ranges = new HashMap<>();
    }

    // ------------------------------------------------------------------------------------------
    // Module level

    Module module(ModuleContext ctx) {
        List<ModuleItem> items = new ArrayList<>();
        for (ModuleItemContext item : ctx.moduleItem()) {
            moduleItem(item, items);
        }
        return new Module(new SourcePos(file, 1, 1), items);
    }

    /** A statement list (code examples): module directives and statements in one block. */
    Block statementList(StatementListContext ctx) {
        enterScope();
        List<Statement> out = new ArrayList<>();
        for (int i = 0; i < ctx.getChildCount(); i++) {
            if (ctx.getChild(i) instanceof StatementContext s) {
                statement(s, out);
            }
        }
        exitScope();
        return new Block(new SourcePos(file, 1, 1), out);
    }

    private void moduleItem(ModuleItemContext ctx, List<ModuleItem> out) {
        if (ctx.directive() != null) {
            directive(ctx.directive(), out);
        } else if (ctx.varDecl() != null) {
            out.add(varDecl(ctx.varDecl(), linkage(ctx.linkage())));
        } else if (ctx.function() != null) {
            out.add(function(ctx.function(), linkage(ctx.linkage()), pos(ctx)));
        } else if (ctx.pragma() != null) {
            out.add(pragma(ctx.pragma()));
        }
    }

    private void directive(DirectiveContext ctx, List<ModuleItem> out) {
        SourcePos pos = pos(ctx);
        if (ctx instanceof VersionDirectiveContext v) {
            version(pos, v.DEC_FLOAT().getSymbol(), out);
        } else if (ctx instanceof TargetDirectiveContext t) {
            out.add(new ModuleItem.Target(pos, t.IDENT().stream().map(TerminalNode::getText).toList()));
        } else if (ctx instanceof AddressSizeDirectiveContext a) {
            out.add(new ModuleItem.AddressSize(pos, countLiteral(a.INT().getSymbol())));
        } else if (ctx instanceof FileDirectiveContext f) {
            out.add(fileDecl(pos, symbols(f.INT()), f.STRING().getSymbol()));
        } else if (ctx instanceof SectionDirectiveContext s) {
            out.add(section(s, pos));
        } else if (ctx instanceof AliasDirectiveContext a) {
            out.add(new ModuleItem.Alias(pos, a.IDENT(0).getText(), a.IDENT(1).getText()));
        }
    }

    /** `.version major.minor` (added to out), or a diagnostic. */
    void version(SourcePos pos, Token number, List<ModuleItem> out) {
        String text = number.getText();
        if (!isMajorMinor(text)) {
            diagnostics.error(pos(number), "syntax.version",
                    "malformed .version '" + text + "': expected major.minor, e.g. 8.7");
            return;
        }
        int dot = text.indexOf('.');
        if (dot > 4) {
            // (A major version of more than four digits would not even fit an int.)
            diagnostics.error(pos(number), "syntax.version",
                    "malformed .version '" + text + "': the major version is too large");
            return;
        }
        out.add(new ModuleItem.Version(pos, Integer.parseInt(text.substring(0, dot)),
                Integer.parseInt(text.substring(dot + 1))));
    }

    /** Whether text is `[0-9]+\.[0-9]` (a loop: a short check would spend a millisecond setting up a regex). */
    private static boolean isMajorMinor(String text) {
        int dot = text.indexOf('.');
        if (dot < 1 || dot != text.length() - 2) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (i != dot && (c < '0' || c > '9')) {
                return false;
            }
        }
        return true;
    }

    /** `.file INDEX "PATH" (, INT)*`: ints holds the index and then the extra numbers. */
    ModuleItem.FileDecl fileDecl(SourcePos pos, List<Token> ints, Token path) {
        List<Long> extra = new ArrayList<>();
        for (int i = 1; i < ints.size(); i++) {
            extra.add(intLiteral(ints.get(i)));
        }
        return new ModuleItem.FileDecl(pos, countLiteral(ints.get(0)), unquote(path.getText()), extra);
    }

    private static List<Token> symbols(List<TerminalNode> nodes) {
        List<Token> out = new ArrayList<>(nodes.size());
        for (TerminalNode n : nodes) {
            out.add(n.getSymbol());
        }
        return out;
    }

    private ModuleItem.Section section(SectionDirectiveContext s, SourcePos pos) {
        List<ModuleItem.SectionEntry> entries = new ArrayList<>();
        for (SectionItemContext item : s.sectionItem()) {
            if (item.DWARF_LINE() != null) {
                entries.add(new ModuleItem.DwarfLine(item.DWARF_LINE().getText()));
            } else if (item.IDENT() != null) {
                entries.add(new ModuleItem.SectionLabel(item.IDENT().getText()));
            } else {
                List<Object> values = new ArrayList<>();
                for (SectionValueContext v : item.sectionValue()) {
                    values.add(v.dotWord() != null ? v.getText() : valueOperand(v.expr()));
                }
                entries.add(new ModuleItem.SectionData(item.dotWord().getText(), values));
            }
        }
        return new ModuleItem.Section(pos, s.dotWord().getText(), entries);
    }

    private Set<Linkage> linkage(List<LinkageContext> list) {
        List<Token> words = new ArrayList<>(list.size());
        for (LinkageContext l : list) {
            words.add(l.getStart());
        }
        return linkageOf(words);
    }

    /** The linkage of `.visible`, `.extern`, `.weak` and `.common` words. */
    static Set<Linkage> linkageOf(List<Token> words) {
        Set<Linkage> out = EnumSet.noneOf(Linkage.class);
        for (Token l : words) {
            out.add(Linkage.valueOf(l.getText().substring(1).toUpperCase()));
        }
        return out;
    }

    private Pragma pragma(PragmaContext ctx) {
        return pragma(pos(ctx), symbols(ctx.STRING()));
    }

    Pragma pragma(SourcePos pos, List<Token> strings) {
        List<String> values = new ArrayList<>(strings.size());
        for (Token s : strings) {
            values.add(unquote(s.getText()));
        }
        return new Pragma(pos, values);
    }

    // ------------------------------------------------------------------------------------------
    // Functions

    private Function function(FunctionContext ctx, Set<Linkage> linkage, SourcePos pos) {
        boolean entry = ctx.kind.getType() == PTXParser.ENTRY;
        List<Param> results = ctx.results == null ? List.of() : params(ctx.results);
        List<Param> params = ctx.inputs == null ? List.of() : params(ctx.inputs);
        List<FunctionDirective> directives = new ArrayList<>();
        for (FuncDirectiveContext d : ctx.funcDirective()) {
            directives.add(funcDirective(d));
        }
        Optional<Block> body = Optional.empty();
        if (ctx.block() != null) {
            enterFunctionBody(results, params);
            body = Optional.of(block(ctx.block(), false));
            exitScope();
        }
        return new Function(pos, linkage, entry, results, ctx.name.getText(), params, directives, body);
    }

    /** A function body's scope, which holds its `.reg` parameters; exitScope() leaves it. */
    void enterFunctionBody(List<Param> results, List<Param> params) {
        Scope scope = new Scope();
        for (Param p : results) {
            if (p.space() == StateSpace.REG) {
                scope.names.add(p.name());
            }
        }
        for (Param p : params) {
            if (p.space() == StateSpace.REG) {
                scope.names.add(p.name());
            }
        }
        scopes.push(scope);
        registers.clear();
    }

    /** A nested block's scope; exitScope() leaves it. */
    void enterScope() {
        scopes.push(new Scope());
        registers.clear();
    }

    void exitScope() {
        scopes.pop();
        registers.clear();
    }

    private FunctionDirective funcDirective(FuncDirectiveContext d) {
        return funcDirective(d.DOT_WORD().getSymbol(), symbols(d.INT()));
    }

    /** `.maxntid 256, 1, 1`, `.noreturn`. */
    FunctionDirective funcDirective(Token word, List<Token> ints) {
        List<Long> values = new ArrayList<>(ints.size());
        for (Token n : ints) {
            values.add(intLiteral(n));
        }
        String spelling = word.getText();
        return new FunctionDirective(pos(word), FunctionDirective.Kind.of(spelling), spelling, values);
    }

    private List<Param> params(ParamListContext ctx) {
        List<Param> out = new ArrayList<>();
        for (ParamContext p : ctx.param()) {
            out.add(param(p));
        }
        return out;
    }

    private Param param(ParamContext p) {
        ParamType t = paramType(pos(p), p.space, attrs(p.declAttr()), p.IDENT().getSymbol());
        return t.param(pos(p), p.IDENT().getText(), dims(p.arrayDim()));
    }

    /**
     * One attribute of a declaration: `.align N` (align is the N) or a word such as `.u32`,
     * `.v4`, `.ptr` or a state space (align is null).
     */
    record DeclAttr(Token first, Token align) {}

    private static List<DeclAttr> attrs(List<DeclAttrContext> list) {
        List<DeclAttr> out = new ArrayList<>(list.size());
        for (DeclAttrContext a : list) {
            out.add(new DeclAttr(a.getStart(), a.ALIGN() != null ? a.INT().getSymbol() : null));
        }
        return out;
    }

    /** What a parameter's space and attributes say, before its name and dimensions. */
    record ParamType(StateSpace space, int align, int vectorWidth, DataType type,
                     Optional<Param.PointerAttribute> pointer) {
        Param param(SourcePos pos, String name, List<Long> dims) {
            return new Param(pos, space, align, vectorWidth, type, pointer, name, dims);
        }
    }

    /** The type of the parameter declared at pos with the space token space (`.param`, `.reg`). */
    ParamType paramType(SourcePos pos, Token spaceToken, List<DeclAttr> attrs, Token name) {
        StateSpace space = spaceToken.getType() == PTXParser.PARAM ? StateSpace.PARAM : StateSpace.REG;
        int align = 0;
        DataType type = null;
        boolean pointer = false;
        StateSpace pointee = StateSpace.GENERIC;
        int pointeeAlign = 0;
        int vectorWidth = 1;
        for (DeclAttr a : attrs) {
            if (a.align() != null) {
                int n = countLiteral(a.align());
                if (pointer) {
                    pointeeAlign = n;
                } else {
                    align = n;
                }
                continue;
            }
            String w = a.first().getText();
            DataType t = DataType.ofSpelling(w);
            StateSpace s = StateSpace.ofSpelling(w);
            if (t != null && type == null) {
                type = t;
            } else if (w.equals(".ptr")) {
                pointer = true;
            } else if (space == StateSpace.REG && vectorWidth == 1 && (w.equals(".v2") || w.equals(".v4"))) {
                vectorWidth = w.charAt(2) - '0';
            } else if (pointer && s != null) {
                pointee = s;
            } else {
                diagnostics.error(pos(a.first()), "syntax.param", "unexpected '" + w + "' in parameter declaration");
            }
        }
        if (type == null) {
            diagnostics.error(pos, "syntax.param", "parameter '" + name.getText() + "' has no type");
            type = DataType.B32;
        }
        return new ParamType(space, align, vectorWidth, type,
                pointer ? Optional.of(new Param.PointerAttribute(pointee, pointeeAlign)) : Optional.empty());
    }

    private List<Long> dims(List<ArrayDimContext> list) {
        List<Long> out = new ArrayList<>(list.size());
        for (ArrayDimContext d : list) {
            out.add(d.expr() == null ? 0L : arraySize(eval(d.expr()), d.getStart()));
        }
        return out;
    }

    /** The size in `[size]` (at the bracket open): a non-negative integer constant. */
    long arraySize(Value v, Token open) {
        if (v instanceof Value.Int i && i.v >= 0) {
            return i.v;
        }
        diagnostics.error(pos(open), "syntax.array", "array size must be a non-negative integer constant");
        return 0L;
    }

    // ------------------------------------------------------------------------------------------
    // Declarations

    private VarDecl varDecl(VarDeclContext ctx, Set<Linkage> linkage) {
        DeclType declType = declType(pos(ctx), ctx.stateSpace().getStart(), attrs(ctx.declAttr()));
        List<VarDecl.Declarator> declarators = new ArrayList<>();
        for (DeclaratorContext d : ctx.declarator()) {
            String name = d.IDENT().getText();
            int range = d.INT() == null ? -1 : countLiteral(d.INT().getSymbol());
            Initializer init = d.initializer() == null ? null : initializer(d.initializer());
            declarators.add(declarator(declType, pos(d), name, range, dims(d.arrayDim()), init));
        }
        return declType.varDecl(pos(ctx), linkage, declarators);
    }

    /** What a variable declaration's state space and attributes say, before its declarators. */
    record DeclType(StateSpace space, int align, int vectorWidth, DataType type) {
        VarDecl varDecl(SourcePos pos, Set<Linkage> linkage, List<VarDecl.Declarator> declarators) {
            return new VarDecl(pos, linkage, space, align, vectorWidth, type, declarators);
        }
    }

    /** The type of the declaration at pos with the state space word space (`.reg`, `.shared`, ...). */
    DeclType declType(SourcePos pos, Token space, List<DeclAttr> attrs) {
        int align = 0;
        int vector = 1;
        DataType type = null;
        for (DeclAttr a : attrs) {
            if (a.align() != null) {
                align = countLiteral(a.align());
                continue;
            }
            String w = a.first().getText();
            DataType t = DataType.ofSpelling(w);
            if (t != null && type == null) {
                type = t;
            } else if (w.equals(".v2") || w.equals(".v4") || w.equals(".v8")) {
                vector = w.charAt(2) - '0';
            } else {
                diagnostics.error(pos(a.first()), "syntax.decl", "unexpected '" + w + "' in variable declaration");
            }
        }
        if (type == null) {
            diagnostics.error(pos, "syntax.decl", "variable declaration has no type");
            type = DataType.B32;
        }
        return new DeclType(StateSpace.ofSpelling(space.getText()), align, vector, type);
    }

    /**
     * One declarator of a declaration (range -1 when it is no `%r<N>`); a register's name is in
     * scope from here on, its initializer (made before) not included.
     */
    VarDecl.Declarator declarator(DeclType declType, SourcePos pos, String name, int range, List<Long> dims,
                                  Initializer init) {
        if (declType.space() == StateSpace.REG && !scopes.isEmpty()) {
            if (range >= 0) {
                scopes.peek().ranges.merge(name, range, Math::max);
            } else {
                scopes.peek().names.add(name);
            }
            registers.clear();
        }
        return new VarDecl.Declarator(pos, name, range, dims, init);
    }

    private Initializer initializer(InitializerContext ctx) {
        if (ctx.expr() != null) {
            return new Initializer.Value(valueOperand(ctx.expr()));
        }
        List<Initializer> elements = new ArrayList<>();
        for (InitializerContext e : ctx.initializer()) {
            elements.add(initializer(e));
        }
        return new Initializer.Braced(elements);
    }

    // ------------------------------------------------------------------------------------------
    // Statements

    private Block block(BlockContext ctx, boolean newScope) {
        if (newScope) {
            enterScope();
        }
        List<Statement> out = new ArrayList<>(ctx.stmts.size());
        for (StatementContext s : ctx.stmts) {
            statement(s, out);
        }
        if (newScope) {
            exitScope();
        }
        return new Block(pos(ctx), out);
    }

    private void statement(StatementContext ctx, List<Statement> out) {
        SourcePos pos = pos(ctx);
        if (ctx instanceof LabelStatementContext l) {
            String name = l.label.getText();
            LabelDirectiveContext d = l.labelDir;
            if (d == null) {
                out.add(new Statement.Label(pos, name));
            } else if (d instanceof CallPrototypeContext c) {
                out.add(new Statement.CallPrototype(pos, name,
                        c.protoReturn == null ? List.of() : params(c.protoReturn),
                        c.protoParams == null ? List.of() : params(c.protoParams)));
            } else if (d instanceof TargetListContext t) {
                out.add(new Statement.TargetList(pos, name, t.kind.getType() == PTXParser.BRANCHTARGETS,
                        t.IDENT().stream().map(TerminalNode::getText).toList()));
            }
        } else if (ctx instanceof DeclStatementContext d) {
            out.add(varDecl(d.decl, linkage(d.links)));
        } else if (ctx instanceof InstructionStatementContext i) {
            Instruction ins = instruction(i, pos);
            if (ins != null) {
                out.add(ins);
            }
        } else if (ctx instanceof BlockStatementContext b) {
            out.add(block(b.b, true));
        } else if (ctx instanceof PragmaStatementContext p) {
            out.add(pragma(p.p));
        } else if (ctx instanceof LocStatementContext l) {
            List<String> attrs = new ArrayList<>();
            for (LocAttributeContext a : l.attrs) {
                List<Token> words = new ArrayList<>(a.getChildCount());
                for (int k = 0; k < a.getChildCount(); k++) {
                    words.add(((TerminalNode) a.getChild(k)).getSymbol());
                }
                attrs.add(locAttribute(words));
            }
            out.add(loc(pos, l.fileIndex, l.line, l.column, attrs));
        }
    }

    Statement.Loc loc(SourcePos pos, Token file, Token line, Token column, List<String> attributes) {
        return new Statement.Loc(pos, countLiteral(file), countLiteral(line), countLiteral(column), attributes);
    }

    /** A `.loc` attribute as written, one space between words: `inlined_at 1 12 5`, `function_name $L__info_string0+5`. */
    static String locAttribute(List<Token> words) {
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < words.size(); k++) {
            String w = words.get(k).getText();
            if (k > 0 && !w.equals("+") && !words.get(k - 1).getText().equals("+")) {
                sb.append(' ');
            }
            sb.append(w);
        }
        return sb.toString();
    }

    private Instruction instruction(InstructionStatementContext ctx, SourcePos pos) {
        List<Token> quals = ctx.quals;
        List<String> words = texts(quals);
        Opcode opcode = opcode(ctx.opcode, words);
        if (opcode == null) {
            return null;
        }
        List<Qual> qualifiers = qualifiers(opcode, quals, words);
        Guard guard = null;
        if (ctx.g != null) {
            GuardContext g = ctx.g;
            guard = new Guard(pos(g), name(g.name), g.negated != null);
        }
        List<Operand> operands = new ArrayList<>(ctx.ops.size());
        for (OperandContext o : ctx.ops) {
            operands.add(operand(o, opcode == Opcode.CALL));
        }
        return new Instruction(pos, guard, opcode, qualifiers, operands);
    }

    /**
     * Each token's text, made once: the opcode lookup and the qualifiers share the strings (and
     * so their cached hash codes).
     */
    static List<String> texts(List<Token> tokens) {
        List<String> words = new ArrayList<>(tokens.size());
        for (Token q : tokens) {
            words.add(q.getText());
        }
        return words;
    }

    /** The opcode of `head.q1.q2...`, words the qualifiers' texts; null after a diagnostic. */
    Opcode opcode(Token head, List<String> words) {
        // The opcode is the longest known dotted prefix of `word.q1.q2...` (see Opcode).
        String text = head.getText();
        Opcode opcode = Opcode.longestMatch(text, words);
        if (opcode == null) {
            diagnostics.error(pos(head), "syntax.opcode", "unknown instruction '" + text + "'");
        }
        return opcode;
    }

    /** The qualifiers after those the opcode takes. */
    List<Qual> qualifiers(Opcode opcode, List<Token> quals, List<String> words) {
        int used = opcode.words() - 1;
        List<Qual> qualifiers = new ArrayList<>(quals.size() - used);
        for (int k = used; k < quals.size(); k++) {
            qualifiers.add(Qual.of(pos(quals.get(k)), words.get(k)));
        }
        return qualifiers;
    }

    // ------------------------------------------------------------------------------------------
    // Operands

    private Operand operand(OperandContext ctx, boolean inCall) {
        SourcePos pos = pos(ctx);
        if (ctx instanceof VectorOperandContext v) {
            List<Operand> elements = new ArrayList<>();
            for (OperandContext e : v.elems) {
                elements.add(operand(e, false));
            }
            Operand vector = new Operand.Vector(pos, elements);
            return v.pred == null ? vector : new Operand.PredPair(pos, vector, name(v.pred));
        }
        if (ctx instanceof AddressOperandContext a) {
            String suffix = a.suffix == null ? "" : a.suffix.getText();
            List<OperandContext> inner = a.elems;
            if (inner.size() == 1) {
                Value v = scalar(inner.get(0));
                if (v != null) {
                    return address(v, pos, suffix);
                }
            }
            List<Operand> elements = new ArrayList<>();
            for (OperandContext e : a.elems) {
                elements.add(operand(e, false));
            }
            return new Operand.TensorRef(pos, elements);
        }
        if (ctx instanceof ListOperandContext l) {
            List<Operand> elements = new ArrayList<>();
            for (OperandContext e : l.elems) {
                elements.add(operand(e, false));
            }
            return list(pos, elements, inCall);
        }
        if (ctx instanceof ComponentOperandContext c) {
            return component(pos, c.name, c.component);
        }
        if (ctx instanceof NameOperandContext n) {
            return name(n.name);
        }
        if (ctx instanceof IntOperandContext i) {
            return new Operand.IntImm(pos, intLiteral(i.value));
        }
        if (ctx instanceof TermOperandContext t) {
            if (t.t instanceof UnaryTermContext u && u.inner instanceof NameTermContext n
                    && !u.op.getText().equals("~")) {
                return new Operand.Negated(pos, name(n.name), u.op.getText().equals("-"));
            }
            return operandOf(eval(t.t), pos);
        }
        ExprOperandContext e = (ExprOperandContext) ctx;
        List<TermContext> terms = e.terms;
        // `p|q` names two predicate destinations (setp, ...), not a constant OR.
        if (terms.size() == 2 && e.ops.get(0).op.getText().equals("|")
                && terms.get(0) instanceof NameTermContext a && terms.get(1) instanceof NameTermContext b) {
            return new Operand.PredPair(pos, name(a.name), name(b.name));
        }
        return operandOf(fold(terms, e.ops, e), pos);
    }

    /** `(a, b)`: call arguments; outside `call`, `(x)` is a parenthesised operand, not a list. */
    static Operand list(SourcePos pos, List<Operand> elements, boolean inCall) {
        if (!inCall && elements.size() == 1) {
            return elements.get(0);
        }
        return new Operand.ArgList(pos, elements);
    }

    /** `name.word`: a special register's component (`%tid.x`) or a selector (`r.b0`). */
    Operand component(SourcePos pos, Token name, Token word) {
        Operand base = name(name);
        String component = word.getText();
        if (base instanceof Operand.SpecialReg s && s.register().isVector && component.length() == 2 && "xyz".indexOf(component.charAt(1)) >= 0) {
            return new Operand.SpecialReg(pos, s.register(), s.index(), component.charAt(1));
        }
        return new Operand.Selected(pos, base, component);
    }

    /** The constant value of a name, integer or expression operand; null for other forms. */
    private Value scalar(OperandContext ctx) {
        if (ctx instanceof NameOperandContext n) {
            Token t = n.name;
            return new Value.Sym(t, pos(t), t.getText(), 0, false);
        }
        if (ctx instanceof IntOperandContext i) {
            return new Value.Int(intLiteral(i.value));
        }
        if (ctx instanceof TermOperandContext t) {
            return eval(t.t);
        }
        if (ctx instanceof ExprOperandContext e) {
            return fold(e.terms, e.ops, e);
        }
        return null;
    }

    /** A register, special register, sink or symbol, by what the name denotes in scope. */
    Operand name(Token t) {
        String name = t.getText();
        SourcePos pos = pos(t);
        if (name.equals("_")) {
            return new Operand.Sink(pos);
        }
        if (isRegister(name)) {
            return new Operand.Register(pos, name);
        }
        SpecialRegister s = SpecialRegister.lookup(name);
        if (s != null) {
            return new Operand.SpecialReg(pos, s, s.isNumbered() ? SpecialRegister.indexOf(name) : -1, (char) 0);
        }
        return new Operand.Symbol(pos, name, 0, false);
    }

    private boolean isRegister(String name) {
        Boolean known = registers.get(name);
        if (known == null) {
            known = isDeclaredRegister(name);
            registers.put(name, known);
        }
        return known;
    }

    private boolean isDeclaredRegister(String name) {
        // `%r12` is declared either by name or by a range `%r<N>` (prefix `%r`, index below N).
        int split = name.length();
        while (split > 0 && name.charAt(split - 1) >= '0' && name.charAt(split - 1) <= '9') {
            split--;
        }
        int digits = name.length() - split;
        boolean canonical = digits > 0 && digits <= 9 && (digits == 1 || name.charAt(split) != '0');
        String prefix = canonical ? name.substring(0, split) : null;
        int index = canonical ? Integer.parseInt(name, split, name.length(), 10) : 0;
        for (Scope s : scopes) {
            if (canonical) {
                Integer n = s.ranges.get(prefix);
                if (n != null && index < n) {
                    return true;
                }
            }
            if (s.names.contains(name)) {
                return true;
            }
        }
        return false;
    }

    Operand address(Value v, SourcePos pos, String suffix) {
        if (v instanceof Value.Int i) {
            return new Operand.Address(pos, null, i.v, suffix);
        }
        if (v instanceof Value.Sym s) {
            Operand base = s.generic ? new Operand.Symbol(s.pos, s.name, 0, true) : name(s.token);
            return new Operand.Address(pos, base, s.offset, suffix);
        }
        diagnostics.error(pos, "syntax.address", "an address must be a register or symbol plus a constant offset");
        return new Operand.Address(pos, null, 0, suffix);
    }

    /** An operand that is a constant expression: immediate, name, or `sym+imm`. */
    private Operand valueOperand(ExprContext ctx) {
        return operandOf(eval(ctx), pos(ctx));
    }

    Operand operandOf(Value v, SourcePos pos) {
        if (v instanceof Value.Int i) {
            return new Operand.IntImm(pos, i.v);
        }
        if (v instanceof Value.Flt f) {
            return new Operand.FloatImm(pos, f.bits, f.single);
        }
        if (v instanceof Value.Idx x) {
            return new Operand.Indexed(pos, name(x.sym.token), x.index);
        }
        Value.Sym s = (Value.Sym) v;
        if (s.generic) {
            return new Operand.Symbol(pos, s.name, s.offset, true);
        }
        Operand n = name(s.token);
        if (s.offset == 0) {
            return n;
        }
        if (n instanceof Operand.Symbol) {
            return new Operand.Symbol(pos, s.name, s.offset, false);
        }
        diagnostics.error(pos, "syntax.operand", "only a symbol can have a constant offset outside an address");
        return n;
    }

    // ------------------------------------------------------------------------------------------
    // Constant expressions (4.6.2): integers are 64-bit; a symbol may carry a constant offset.

    sealed interface Value permits Value.Int, Value.Flt, Value.Sym, Value.Idx {
        record Int(long v) implements Value {}

        record Flt(long bits, boolean single) implements Value {}

        record Sym(Token token, SourcePos pos, String name, long offset, boolean generic) implements Value {}

        record Idx(Sym sym, long index) implements Value {}
    }

    /** Folds `t0 op t1 op ...` with C precedence (precedence climbing over the flat chain). */
    private Value eval(ExprContext ctx) {
        if (ctx.terms.size() == 1) {
            return eval(ctx.terms.get(0));
        }
        return fold(ctx.terms, ctx.ops, ctx);
    }

    private Value fold(List<TermContext> terms, List<BinaryOpContext> ops, ParserRuleContext ctx) {
        int[] next = {1};
        return climb(terms, ops, eval(terms.get(0)), 0, next, ctx);
    }

    private static int precedence(String op) {
        return switch (op) {
            case "*", "/", "%" -> 6;
            case "+", "-" -> 5;
            case "<<", ">>" -> 4;
            case "&" -> 3;
            case "^" -> 2;
            default -> 1;
        };
    }

    private Value climb(List<TermContext> terms, List<BinaryOpContext> ops, Value lhs, int minPrec, int[] next,
                        ParserRuleContext ctx) {
        while (next[0] < terms.size()) {
            String op = ops.get(next[0] - 1).op.getText();
            int prec = precedence(op);
            if (prec < minPrec) {
                break;
            }
            Value rhs = eval(terms.get(next[0]));
            next[0]++;
            while (next[0] < terms.size() && precedence(ops.get(next[0] - 1).op.getText()) > prec) {
                rhs = climb(terms, ops, rhs, prec + 1, next, ctx);
            }
            lhs = apply(op, lhs, rhs, ctx.getStart());
        }
        return lhs;
    }

    private Value eval(TermContext ctx) {
        if (ctx instanceof IntTermContext i) {
            return new Value.Int(intLiteral(i.value));
        }
        if (ctx instanceof FloatTermContext f) {
            return floatLiteral(f.value);
        }
        if (ctx instanceof NameTermContext n) {
            Token t = n.name;
            return new Value.Sym(t, pos(t), t.getText(), 0, false);
        }
        if (ctx instanceof ParenTermContext p) {
            return eval(p.e);
        }
        if (ctx instanceof CallTermContext c) {
            if (!c.fn.getText().equals("generic")) {
                diagnostics.error(pos(c), "syntax.expr", "unknown operator '" + c.fn.getText()
                        + "(...)': only generic(var) is allowed");
            }
            Token t = c.arg;
            return new Value.Sym(t, pos(t), t.getText(), 0, true);
        }
        if (ctx instanceof IndexTermContext x) {
            Token t = x.name;
            return new Value.Idx(new Value.Sym(t, pos(t), t.getText(), 0, false), asInt(eval(x.index), x.getStart()));
        }
        UnaryTermContext u = (UnaryTermContext) ctx;
        return unary(u.op, eval(u.inner));
    }

    /** A name or integer as a term's value. */
    Value leaf(Token t) {
        return t.getType() == PTXParser.IDENT ? new Value.Sym(t, pos(t), t.getText(), 0, false)
                : new Value.Int(intLiteral(t));
    }

    /** `-v`, `~v` or `!v`. */
    Value unary(Token operator, Value v) {
        String op = operator.getText();
        if (v instanceof Value.Flt f && op.equals("-")) {
            return new Value.Flt(f.single ? (f.bits ^ 0x80000000L) : (f.bits ^ Long.MIN_VALUE), f.single);
        }
        long x = asInt(v, operator);
        return new Value.Int(switch (op) {
            case "-" -> -x;
            case "~" -> ~x;
            default -> x == 0 ? 1 : 0;
        });
    }

    Value apply(String op, Value l, Value r, Token where) {
        if (l instanceof Value.Sym s && (op.equals("+") || op.equals("-"))) {
            long k = asInt(r, where);
            return new Value.Sym(s.token, s.pos, s.name, op.equals("+") ? s.offset + k : s.offset - k, s.generic);
        }
        if (r instanceof Value.Sym s && op.equals("+")) {
            return new Value.Sym(s.token, s.pos, s.name, s.offset + asInt(l, where), s.generic);
        }
        long x = asInt(l, where);
        long y = asInt(r, where);
        return new Value.Int(switch (op) {
            case "+" -> x + y;
            case "-" -> x - y;
            case "*" -> x * y;
            case "/", "%" -> {
                if (y == 0) {
                    diagnostics.error(pos(where), "syntax.expr", "division by zero in constant expression");
                    yield 0;
                }
                yield op.equals("/") ? x / y : x % y;
            }
            case "<<" -> x << y;
            case ">>" -> x >> y;
            case "&" -> x & y;
            case "^" -> x ^ y;
            default -> x | y;
        });
    }

    private long asInt(Value v, Token where) {
        if (v instanceof Value.Int i) {
            return i.v;
        }
        diagnostics.error(pos(where), "syntax.expr", "expected an integer constant here");
        return 0;
    }

    /**
     * An integer literal that counts or sizes something the AST holds as an {@code int} (address
     * size, alignment, register range, file and line numbers): beyond 2^31-1 it is an error, not a
     * value wrapped to a different one.
     */
    int countLiteral(Token t) {
        long v = intLiteral(t);
        if (v < 0 || v > Integer.MAX_VALUE) {
            diagnostics.error(pos(t), "syntax.literal", "'" + t.getText() + "' is too large here (at most "
                    + Integer.MAX_VALUE + ")");
            return Integer.MAX_VALUE;
        }
        return (int) v;
    }

    /** Integer literals (4.5.1): hex, octal, binary, decimal; 64-bit, U suffix allowed. */
    long intLiteral(Token t) {
        String s = t.getText();
        if (s.endsWith("U")) {
            s = s.substring(0, s.length() - 1);
        }
        int radix = 10;
        if (s.length() > 1 && (s.charAt(1) == 'x' || s.charAt(1) == 'X')) {
            radix = 16;
            s = s.substring(2);
        } else if (s.length() > 1 && (s.charAt(1) == 'b' || s.charAt(1) == 'B')) {
            radix = 2;
            s = s.substring(2);
        } else if (s.length() > 1 && s.charAt(0) == '0') {
            radix = 8;
            s = s.substring(1);
        }
        try {
            return Long.parseUnsignedLong(s, radix);
        } catch (NumberFormatException e) {
            diagnostics.error(pos(t), "syntax.literal", "integer literal '" + t.getText() + "' does not fit in 64 bits");
            return 0;
        }
    }

    Value floatLiteral(Token t) {
        String s = t.getText();
        if (t.getType() == PTXParser.HEX_FLOAT) {
            boolean single = s.charAt(1) == 'f' || s.charAt(1) == 'F';
            return new Value.Flt(Long.parseUnsignedLong(s.substring(2), 16), single);
        }
        return new Value.Flt(Double.doubleToRawLongBits(Double.parseDouble(s)), false);
    }

    // ------------------------------------------------------------------------------------------

    private static String unquote(String s) {
        return s.substring(1, s.length() - 1);
    }

    private SourcePos pos(ParserRuleContext ctx) {
        return pos(ctx.getStart());
    }

    SourcePos pos(Token t) {
        return new SourcePos(file, t.getLine(), t.getCharPositionInLine() + 1);
    }
}
