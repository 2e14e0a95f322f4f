package io.ptxrun.syntax;

import io.ptxrun.ast.Block;
import io.ptxrun.ast.Function;
import io.ptxrun.ast.FunctionDirective;
import io.ptxrun.ast.Guard;
import io.ptxrun.ast.Initializer;
import io.ptxrun.ast.Linkage;
import io.ptxrun.ast.Module;
import io.ptxrun.ast.ModuleItem;
import io.ptxrun.ast.Opcode;
import io.ptxrun.ast.Operand;
import io.ptxrun.ast.Param;
import io.ptxrun.ast.SourcePos;
import io.ptxrun.ast.Statement;
import io.ptxrun.ast.VarDecl;
import io.ptxrun.diag.Diagnostics;
import io.ptxrun.syntax.AstBuilder.Value;
import io.ptxrun.syntax.generated.PTXParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.antlr.v4.runtime.Token;

/**
 * Parses the forms of PTX that compilers write straight from its tokens to the AST, without a
 * parse tree: the module directives, debug sections, functions and their parameters,
 * declarations, labels and label directives, blocks, `.loc`, `.pragma` and instructions with
 * their operands (registers, immediates, `sym+imm`, `[addr+off]`, vectors, predicate pairs, call
 * argument lists). The generated parser's adaptive prediction and parse tree were most of the
 * time a short check spent on its module.
 *
 * <p>The grammar (grammar/PTX.g4, with AstBuilder) stays the definition of PTX: this parser
 * follows its rules, builds through the same AstBuilder, and gives up (returns null) on anything
 * else: a form it does not take (expressions with parentheses or operators other than `+` and
 * `-`, `generic(x)`, `a[i]`, a function declaration without `;`), input that is not
 * well-formed, and input on which the builder reports anything. The generated parser then
 * parses the module and reports what there is to report. DirectParserTest demands the same AST
 * from both on every module of testdata.
 */
final class DirectParser {
    private static final int COMMA = TokenTypes.COMMA;
    private static final int SEMICOLON = TokenTypes.SEMICOLON;
    private static final int COLON = TokenTypes.COLON;
    private static final int OPEN_BRACE = TokenTypes.OPEN_BRACE;
    private static final int CLOSE_BRACE = TokenTypes.CLOSE_BRACE;
    private static final int OPEN_BRACKET = TokenTypes.OPEN_BRACKET;
    private static final int CLOSE_BRACKET = TokenTypes.CLOSE_BRACKET;
    private static final int OPEN_PAREN = TokenTypes.OPEN_PAREN;
    private static final int CLOSE_PAREN = TokenTypes.CLOSE_PAREN;
    private static final int LESS = TokenTypes.LESS;
    private static final int GREATER = TokenTypes.GREATER;
    private static final int EQUALS = TokenTypes.EQUALS;
    private static final int AT = TokenTypes.AT;
    private static final int BANG = TokenTypes.BANG;
    private static final int TILDE = TokenTypes.TILDE;
    private static final int PLUS = TokenTypes.PLUS;
    private static final int MINUS = TokenTypes.MINUS;
    private static final int BAR = TokenTypes.BAR;
    /** Binary operators other than `+`, `-` and `|`: an expression with one is left to the grammar. */
    private static final int[] OTHER_OPERATORS = {TokenTypes.STAR, TokenTypes.SLASH, TokenTypes.PERCENT,
        TokenTypes.SHIFT_LEFT, TokenTypes.SHIFT_RIGHT, TokenTypes.AMPERSAND, TokenTypes.CARET};

    /** Thrown to stop at a form this parser leaves to the grammar; it carries nothing. */
    private static final class GiveUp extends RuntimeException {
        GiveUp() {
            super(null, null, false, false);
        }
    }

    private static final GiveUp GIVE_UP = new GiveUp();

    private final List<? extends Token> tokens;
    /** The tokens' types, read once: the parser looks at each several times. */
    private final int[] types;
    private final int end;
    private final AstBuilder builder;
    private int at;

    private DirectParser(List<? extends Token> tokens, AstBuilder builder) {
        this.tokens = tokens;
        int n = tokens.size();
        this.end = n > 0 && tokens.get(n - 1).getType() == Token.EOF ? n - 1 : n;
        this.types = new int[end + 1];
        for (int i = 0; i < end; i++) {
            types[i] = tokens.get(i).getType();
        }
        types[end] = Token.EOF;
        this.builder = builder;
    }

    /**
     * The module of these tokens (the Tokenizer's, with or without the final EOF), or null when
     * the generated parser is to parse them.
     */
    static Module module(String file, List<? extends Token> tokens) {
        Diagnostics diagnostics = new Diagnostics();
        DirectParser parser = new DirectParser(tokens, new AstBuilder(file, diagnostics));
        Module module;
        try {
            List<ModuleItem> items = new ArrayList<>();
            while (parser.at < parser.end) {
                parser.moduleItem(items);
            }
            module = new Module(new SourcePos(file, 1, 1), items);
        } catch (GiveUp e) {
            return null;
        }
        return diagnostics.list().isEmpty() ? module : null;
    }

    // ------------------------------------------------------------------------------------------
    // Tokens

    private int type() {
        return types[at];
    }

    private int typeAfter() {
        return at < end ? types[at + 1] : Token.EOF;
    }

    /** The next token, which must be of this type. */
    private Token take(int type) {
        if (type() != type) {
            throw GIVE_UP;
        }
        return tokens.get(at++);
    }

    private Token take() {
        return tokens.get(at++);
    }

    private boolean skip(int type) {
        if (type() == type) {
            at++;
            return true;
        }
        return false;
    }

    /** Words of dotWord in the grammar: `.u32`, and the keywords that are also qualifiers (`.global`). */
    private static boolean isDotWord(int type) {
        return switch (type) {
            case PTXParser.DOT_WORD, PTXParser.REG, PTXParser.SREG, PTXParser.LOCAL, PTXParser.SHARED,
                 PTXParser.GLOBAL, PTXParser.CONST, PTXParser.PARAM, PTXParser.TEX, PTXParser.ALIGN,
                 PTXParser.VERSION, PTXParser.TARGET, PTXParser.ADDRESS_SIZE, PTXParser.FILE, PTXParser.LOC,
                 PTXParser.SECTION, PTXParser.PRAGMA, PTXParser.ALIAS, PTXParser.ENTRY, PTXParser.FUNC,
                 PTXParser.VISIBLE, PTXParser.EXTERN, PTXParser.WEAK, PTXParser.COMMON,
                 PTXParser.CALLPROTOTYPE, PTXParser.CALLTARGETS, PTXParser.BRANCHTARGETS -> true;
            default -> false;
        };
    }

    private static boolean isLinkage(int type) {
        return type == PTXParser.VISIBLE || type == PTXParser.EXTERN || type == PTXParser.WEAK
                || type == PTXParser.COMMON;
    }

    private static boolean isStateSpace(int type) {
        return switch (type) {
            case PTXParser.REG, PTXParser.SREG, PTXParser.LOCAL, PTXParser.SHARED, PTXParser.GLOBAL,
                 PTXParser.CONST, PTXParser.PARAM, PTXParser.TEX -> true;
            default -> false;
        };
    }

    private SourcePos pos() {
        return builder.pos(tokens.get(at));
    }

    // ------------------------------------------------------------------------------------------
    // Module level: moduleItem : directive | linkage* varDecl | linkage* function | pragma

    private void moduleItem(List<ModuleItem> out) {
        SourcePos pos = pos();
        switch (type()) {
            case PTXParser.VERSION -> {
                at++;
                builder.version(pos, take(PTXParser.DEC_FLOAT), out);
            }
            case PTXParser.TARGET -> {
                at++;
                List<String> names = new ArrayList<>();
                names.add(take(PTXParser.IDENT).getText());
                while (skip(COMMA)) {
                    names.add(take(PTXParser.IDENT).getText());
                }
                out.add(new ModuleItem.Target(pos, names));
            }
            case PTXParser.ADDRESS_SIZE -> {
                at++;
                out.add(new ModuleItem.AddressSize(pos, builder.countLiteral(take(PTXParser.INT))));
            }
            case PTXParser.FILE -> {
                at++;
                List<Token> ints = new ArrayList<>();
                ints.add(take(PTXParser.INT));
                Token path = take(PTXParser.STRING);
                while (skip(COMMA)) {
                    ints.add(take(PTXParser.INT));
                }
                out.add(builder.fileDecl(pos, ints, path));
            }
            case PTXParser.PRAGMA -> out.add(pragma());
            case PTXParser.SECTION -> out.add(section(pos));
            default -> {
                Set<Linkage> linkage = linkage();
                if (type() == PTXParser.ENTRY || type() == PTXParser.FUNC) {
                    out.add(function(pos, linkage));
                } else if (isStateSpace(type())) {
                    out.add(varDecl(linkage));
                } else {
                    throw GIVE_UP;
                }
            }
        }
    }

    /**
     * section : SECTION dotWord '{' sectionItem* '}' where sectionItem : dotWord sectionValue
     * (',' sectionValue)* | IDENT ':' | DWARF_LINE
     */
    private ModuleItem.Section section(SourcePos pos) {
        at++;
        String name = dotWord().getText();
        take(OPEN_BRACE);
        List<ModuleItem.SectionEntry> entries = new ArrayList<>();
        while (!skip(CLOSE_BRACE)) {
            int type = type();
            if (type == PTXParser.DWARF_LINE) {
                entries.add(new ModuleItem.DwarfLine(take().getText()));
            } else if (type == PTXParser.IDENT) {
                String label = take().getText();
                take(COLON);
                entries.add(new ModuleItem.SectionLabel(label));
            } else {
                String width = dotWord().getText();
                List<Object> values = new ArrayList<>();
                values.add(sectionValue());
                while (skip(COMMA)) {
                    values.add(sectionValue());
                }
                entries.add(new ModuleItem.SectionData(width, values));
            }
        }
        return new ModuleItem.Section(pos, name, entries);
    }

    /** sectionValue : dotWord (('+' | '-') INT)? | expr; a word (with its offset) as written. */
    private Object sectionValue() {
        if (isDotWord(type())) {
            String word = take().getText();
            if (type() == PLUS || type() == MINUS) {
                word += take().getText() + take(PTXParser.INT).getText();
            }
            return word;
        }
        SourcePos pos = pos();
        return builder.operandOf(expr().value(), pos);
    }

    private Token dotWord() {
        if (!isDotWord(type())) {
            throw GIVE_UP;
        }
        return take();
    }

    private Set<Linkage> linkage() {
        List<Token> words = new ArrayList<>(1);
        while (isLinkage(type())) {
            words.add(take());
        }
        return AstBuilder.linkageOf(words);
    }

    /** pragma : PRAGMA STRING (',' STRING)* ';' */
    private io.ptxrun.ast.Pragma pragma() {
        SourcePos pos = pos();
        at++;
        List<Token> strings = new ArrayList<>();
        strings.add(take(PTXParser.STRING));
        while (skip(COMMA)) {
            strings.add(take(PTXParser.STRING));
        }
        take(SEMICOLON);
        return builder.pragma(pos, strings);
    }

    // ------------------------------------------------------------------------------------------
    // Functions

    /**
     * function : (ENTRY | FUNC) paramList? IDENT paramList? funcDirective* (block | ';'); a
     * declaration without `;` is left to the grammar.
     */
    private Function function(SourcePos pos, Set<Linkage> linkage) {
        boolean entry = take().getType() == PTXParser.ENTRY;
        List<Param> results = type() == OPEN_PAREN ? paramList() : List.of();
        String name = take(PTXParser.IDENT).getText();
        List<Param> params = type() == OPEN_PAREN ? paramList() : List.of();
        List<FunctionDirective> directives = new ArrayList<>();
        while (type() == PTXParser.DOT_WORD) {
            Token word = take();
            List<Token> ints = new ArrayList<>();
            if (type() == PTXParser.INT) {
                ints.add(take());
                while (skip(COMMA)) {
                    ints.add(take(PTXParser.INT));
                }
            }
            directives.add(builder.funcDirective(word, ints));
        }
        Optional<Block> body = Optional.empty();
        if (type() == OPEN_BRACE) {
            builder.enterFunctionBody(results, params);
            body = Optional.of(block());
            builder.exitScope();
        } else {
            take(SEMICOLON);
        }
        return new Function(pos, linkage, entry, results, name, params, directives, body);
    }

    /** paramList : '(' (param (',' param)*)? ')' */
    private List<Param> paramList() {
        take(OPEN_PAREN);
        List<Param> out = new ArrayList<>();
        if (!skip(CLOSE_PAREN)) {
            out.add(param());
            while (skip(COMMA)) {
                out.add(param());
            }
            take(CLOSE_PAREN);
        }
        return out;
    }

    /** param : (PARAM | REG) declAttr* IDENT arrayDim* */
    private Param param() {
        SourcePos pos = pos();
        if (type() != PTXParser.PARAM && type() != PTXParser.REG) {
            throw GIVE_UP;
        }
        Token space = take();
        List<AstBuilder.DeclAttr> attrs = declAttrs();
        Token name = take(PTXParser.IDENT);
        AstBuilder.ParamType type = builder.paramType(pos, space, attrs, name);
        return type.param(pos, name.getText(), arrayDims());
    }

    /** declAttr* where declAttr : ALIGN INT | dotWord (`.align` without a number is left to the grammar). */
    private List<AstBuilder.DeclAttr> declAttrs() {
        List<AstBuilder.DeclAttr> attrs = new ArrayList<>(2);
        while (isDotWord(type())) {
            Token first = take();
            attrs.add(new AstBuilder.DeclAttr(first, first.getType() == PTXParser.ALIGN ? take(PTXParser.INT) : null));
        }
        return attrs;
    }

    /** arrayDim* where arrayDim : '[' expr? ']' */
    private List<Long> arrayDims() {
        if (type() != OPEN_BRACKET) {
            return List.of();
        }
        List<Long> out = new ArrayList<>(1);
        while (type() == OPEN_BRACKET) {
            Token open = take();
            if (skip(CLOSE_BRACKET)) {
                out.add(0L);
            } else {
                out.add(builder.arraySize(expr().value(), open));
                take(CLOSE_BRACKET);
            }
        }
        return out;
    }

    // ------------------------------------------------------------------------------------------
    // Declarations

    /** varDecl : stateSpace declAttr* declarator (',' declarator)* ';' */
    private VarDecl varDecl(Set<Linkage> linkage) {
        SourcePos pos = pos();
        Token space = take();
        AstBuilder.DeclType declType = builder.declType(pos, space, declAttrs());
        List<VarDecl.Declarator> declarators = new ArrayList<>(1);
        declarators.add(declarator(declType));
        while (skip(COMMA)) {
            declarators.add(declarator(declType));
        }
        take(SEMICOLON);
        return declType.varDecl(pos, linkage, declarators);
    }

    /** declarator : IDENT ('<' INT '>')? arrayDim* ('=' initializer)? */
    private VarDecl.Declarator declarator(AstBuilder.DeclType declType) {
        SourcePos pos = pos();
        String name = take(PTXParser.IDENT).getText();
        int range = -1;
        if (skip(LESS)) {
            range = builder.countLiteral(take(PTXParser.INT));
            take(GREATER);
        }
        List<Long> dims = arrayDims();
        Initializer init = skip(EQUALS) ? initializer() : null;
        return builder.declarator(declType, pos, name, range, dims, init);
    }

    /** initializer : '{' (initializer (',' initializer)*)? '}' | expr */
    private Initializer initializer() {
        if (!skip(OPEN_BRACE)) {
            SourcePos pos = pos();
            return new Initializer.Value(builder.operandOf(expr().value(), pos));
        }
        List<Initializer> elements = new ArrayList<>();
        if (!skip(CLOSE_BRACE)) {
            elements.add(initializer());
            while (skip(COMMA)) {
                elements.add(initializer());
            }
            take(CLOSE_BRACE);
        }
        return new Initializer.Braced(elements);
    }

    // ------------------------------------------------------------------------------------------
    // Statements

    /** block : '{' statement* '}' (the caller opens and closes its scope). */
    private Block block() {
        SourcePos pos = pos();
        take(OPEN_BRACE);
        List<Statement> out = new ArrayList<>();
        while (!skip(CLOSE_BRACE)) {
            statement(out);
        }
        return new Block(pos, out);
    }

    /**
     * statement : IDENT ':' labelDirective? | linkage* varDecl | guard? IDENT qualifiers operands ';'
     * | block | pragma | LOC INT INT INT (',' locAttribute)*
     */
    private void statement(List<Statement> out) {
        int type = type();
        if (type == PTXParser.IDENT && typeAfter() == COLON) {
            SourcePos pos = pos();
            String name = take().getText();
            at++;
            out.add(labelDirective(pos, name));
        } else if (type == PTXParser.IDENT || type == AT) {
            out.add(instruction());
        } else if (isLinkage(type) || isStateSpace(type)) {
            Set<Linkage> linkage = linkage();
            if (!isStateSpace(type())) {
                throw GIVE_UP;
            }
            out.add(varDecl(linkage));
        } else if (type == OPEN_BRACE) {
            builder.enterScope();
            out.add(block());
            builder.exitScope();
        } else if (type == PTXParser.PRAGMA) {
            out.add(pragma());
        } else if (type == PTXParser.LOC) {
            out.add(loc());
        } else {
            throw GIVE_UP;
        }
    }

    /**
     * What follows a label: labelDirective : CALLPROTOTYPE paramList? IDENT paramList? funcDirective* ';'
     * | (CALLTARGETS | BRANCHTARGETS) IDENT (',' IDENT)* ';' (or nothing: a plain label).
     */
    private Statement labelDirective(SourcePos pos, String name) {
        int type = type();
        if (type == PTXParser.CALLPROTOTYPE) {
            at++;
            List<Param> results = type() == OPEN_PAREN ? paramList() : List.of();
            take(PTXParser.IDENT);
            List<Param> params = type() == OPEN_PAREN ? paramList() : List.of();
            // Performance directives of a prototype are syntax only: the AST does not keep them.
            while (skip(PTXParser.DOT_WORD)) {
                if (skip(PTXParser.INT)) {
                    while (skip(COMMA)) {
                        take(PTXParser.INT);
                    }
                }
            }
            take(SEMICOLON);
            return new Statement.CallPrototype(pos, name, results, params);
        }
        if (type == PTXParser.CALLTARGETS || type == PTXParser.BRANCHTARGETS) {
            at++;
            List<String> targets = new ArrayList<>();
            targets.add(take(PTXParser.IDENT).getText());
            while (skip(COMMA)) {
                targets.add(take(PTXParser.IDENT).getText());
            }
            take(SEMICOLON);
            return new Statement.TargetList(pos, name, type == PTXParser.BRANCHTARGETS, targets);
        }
        return new Statement.Label(pos, name);
    }

    /** LOC INT INT INT (',' locAttribute)* where locAttribute : IDENT (INT INT INT | IDENT ('+' INT)?) */
    private Statement.Loc loc() {
        SourcePos pos = pos();
        at++;
        Token file = take(PTXParser.INT);
        Token line = take(PTXParser.INT);
        Token column = take(PTXParser.INT);
        List<String> attrs = new ArrayList<>(0);
        while (skip(COMMA)) {
            List<Token> words = new ArrayList<>(4);
            words.add(take(PTXParser.IDENT));
            if (type() == PTXParser.INT) {
                words.add(take());
                words.add(take(PTXParser.INT));
                words.add(take(PTXParser.INT));
            } else {
                words.add(take(PTXParser.IDENT));
                if (type() == PLUS) {
                    words.add(take());
                    words.add(take(PTXParser.INT));
                }
            }
            attrs.add(AstBuilder.locAttribute(words));
        }
        return builder.loc(pos, file, line, column, attrs);
    }

    /** guard? IDENT (dotWord)* (operand (',' operand)*)? ';' where guard : '@' '!'? IDENT */
    private io.ptxrun.ast.Instruction instruction() {
        SourcePos pos = pos();
        Guard guard = null;
        if (type() == AT) {
            SourcePos guardPos = pos();
            at++;
            boolean negated = skip(BANG);
            guard = new Guard(guardPos, builder.name(take(PTXParser.IDENT)), negated);
        }
        Token head = take(PTXParser.IDENT);
        List<Token> quals = new ArrayList<>(4);
        while (isDotWord(type())) {
            quals.add(take());
        }
        List<String> words = AstBuilder.texts(quals);
        Opcode opcode = builder.opcode(head, words);
        if (opcode == null) {
            throw GIVE_UP;
        }
        List<io.ptxrun.ast.Qual> qualifiers = builder.qualifiers(opcode, quals, words);
        List<Operand> operands = new ArrayList<>(4);
        if (!skip(SEMICOLON)) {
            boolean inCall = opcode == Opcode.CALL;
            operands.add(operand(inCall));
            while (skip(COMMA)) {
                operands.add(operand(inCall));
            }
            take(SEMICOLON);
        }
        return new io.ptxrun.ast.Instruction(pos, guard, opcode, qualifiers, operands);
    }

    // ------------------------------------------------------------------------------------------
    // Operands

    /** One operand, as AstBuilder makes it of the grammar's operand alternatives. */
    private Operand operand(boolean inCall) {
        SourcePos pos = pos();
        int type = type();
        if (type == OPEN_BRACE) {
            at++;
            List<Operand> elements = elements(CLOSE_BRACE);
            Operand vector = new Operand.Vector(pos, elements);
            return skip(BAR) ? new Operand.PredPair(pos, vector, builder.name(take(PTXParser.IDENT))) : vector;
        }
        if (type == OPEN_BRACKET) {
            at++;
            Operand address = null;
            List<Operand> elements = null;
            if (startsChain()) {
                Chain chain = chain();
                if (type() == CLOSE_BRACKET) {
                    at++;
                    String suffix = type() == PTXParser.DOT_WORD ? take().getText() : "";
                    return builder.address(chain.value(), pos, suffix);
                }
                elements = new ArrayList<>();
                elements.add(chain.operand());
                take(COMMA);
                elements.addAll(elements(CLOSE_BRACKET));
            } else {
                elements = elements(CLOSE_BRACKET);
            }
            if (type() == PTXParser.DOT_WORD) {
                at++;
            }
            return new Operand.TensorRef(pos, elements);
        }
        if (type == OPEN_PAREN) {
            at++;
            List<Operand> elements = skip(CLOSE_PAREN) ? new ArrayList<>() : elements(CLOSE_PAREN);
            // `(x) + 1` is an expression over a parenthesised term: left to the grammar.
            if (isBinaryOperator(type())) {
                throw GIVE_UP;
            }
            return AstBuilder.list(pos, elements, inCall);
        }
        if (type == PTXParser.IDENT && typeAfter() == PTXParser.DOT_WORD) {
            Token name = take();
            return builder.component(pos, name, take());
        }
        if (!startsChain()) {
            throw GIVE_UP;
        }
        return chain().operand();
    }

    /** operand (',' operand)* and the closing token. */
    private List<Operand> elements(int close) {
        List<Operand> out = new ArrayList<>();
        out.add(operand(false));
        while (skip(COMMA)) {
            out.add(operand(false));
        }
        take(close);
        return out;
    }

    private boolean startsChain() {
        int type = type();
        return type == PTXParser.IDENT && typeAfter() != PTXParser.DOT_WORD || type == PTXParser.INT
                || type == PTXParser.HEX_FLOAT || type == PTXParser.DEC_FLOAT || type == MINUS || type == BANG
                || type == TILDE;
    }

    private static boolean isBinaryOperator(int type) {
        if (type == PLUS || type == MINUS || type == BAR) {
            return true;
        }
        for (int t : OTHER_OPERATORS) {
            if (t == type) {
                return true;
            }
        }
        return false;
    }

    /**
     * A term: a name, a number, or a unary operator on a term (leaf is then null). A name
     * followed by `(` or `[` (`generic(x)`, `a[2]`) and a parenthesised expression are left to
     * the grammar.
     */
    private record Term(Token first, Token leaf, Term inner) {}

    private Term term() {
        int type = type();
        if (type == Token.EOF) {
            throw GIVE_UP;
        }
        Token first = tokens.get(at);
        if (type == MINUS || type == BANG || type == TILDE) {
            at++;
            return new Term(first, null, term());
        }
        if (type == PTXParser.IDENT) {
            int next = typeAfter();
            if (next == OPEN_PAREN || next == OPEN_BRACKET) {
                throw GIVE_UP;
            }
        } else if (type != PTXParser.INT && type != PTXParser.HEX_FLOAT && type != PTXParser.DEC_FLOAT) {
            throw GIVE_UP;
        }
        at++;
        return new Term(first, first, null);
    }

    private Value value(Term t) {
        if (t.leaf() == null) {
            return builder.unary(t.first(), value(t.inner()));
        }
        int type = t.leaf().getType();
        return type == PTXParser.HEX_FLOAT || type == PTXParser.DEC_FLOAT ? builder.floatLiteral(t.leaf())
                : builder.leaf(t.leaf());
    }

    /** term (binaryOp term)*: the grammar's expr, and the name, integer, term and expression operands. */
    private final class Chain {
        final SourcePos pos;
        final Token first;
        final List<Term> terms = new ArrayList<>(2);
        final List<Token> ops = new ArrayList<>(1);

        Chain() {
            first = tokens.get(at);
            pos = builder.pos(first);
        }

        /** The value, folded left to right: only `+` and `-` are taken (one precedence). */
        Value value() {
            Value v = DirectParser.this.value(terms.get(0));
            for (int k = 0; k < ops.size(); k++) {
                Token op = ops.get(k);
                if (op.getType() != PLUS && op.getType() != MINUS) {
                    throw GIVE_UP;
                }
                v = builder.apply(op.getText(), v, DirectParser.this.value(terms.get(k + 1)), first);
            }
            return v;
        }

        /** The operand AstBuilder makes of the nameOperand, intOperand, termOperand and exprOperand forms. */
        Operand operand() {
            Term t = terms.get(0);
            if (terms.size() == 1) {
                if (t.leaf() != null && t.leaf().getType() == PTXParser.IDENT) {
                    return builder.name(t.leaf());
                }
                if (t.leaf() == null && t.inner().leaf() != null && t.inner().leaf().getType() == PTXParser.IDENT
                        && t.first().getType() != TILDE) {
                    return new Operand.Negated(pos, builder.name(t.inner().leaf()), t.first().getType() == MINUS);
                }
                return builder.operandOf(value(), pos);
            }
            // `p|q` names two predicate destinations (setp, ...), not a constant OR.
            if (terms.size() == 2 && ops.get(0).getType() == BAR && isName(t) && isName(terms.get(1))) {
                return new Operand.PredPair(pos, builder.name(t.leaf()), builder.name(terms.get(1).leaf()));
            }
            return builder.operandOf(value(), pos);
        }

        private static boolean isName(Term t) {
            return t.leaf() != null && t.leaf().getType() == PTXParser.IDENT;
        }
    }

    private Chain chain() {
        Chain chain = new Chain();
        chain.terms.add(term());
        while (isBinaryOperator(type())) {
            chain.ops.add(take());
            chain.terms.add(term());
        }
        return chain;
    }

    /** expr : term (binaryOp term)* */
    private Chain expr() {
        if (type() == Token.EOF) {
            throw GIVE_UP;
        }
        return chain();
    }
}
