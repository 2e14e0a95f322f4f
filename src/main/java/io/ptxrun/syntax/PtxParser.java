package io.ptxrun.syntax;

import io.ptxrun.ast.Block;
import io.ptxrun.ast.Module;
import io.ptxrun.ast.SourcePos;
import io.ptxrun.diag.Diagnostic;
import io.ptxrun.diag.Diagnostics;
import io.ptxrun.syntax.generated.PTXLexer;
import io.ptxrun.syntax.generated.PTXParser;
import io.ptxrun.ast.ModuleItem;
import java.util.ArrayList;
import java.util.List;
import org.antlr.v4.runtime.BailErrorStrategy;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.DefaultErrorStrategy;
import org.antlr.v4.runtime.ListTokenSource;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.atn.PredictionMode;
import org.antlr.v4.runtime.misc.IntervalSet;
import org.antlr.v4.runtime.misc.ParseCancellationException;

/**
 * Text to AST. Parses in SLL mode first (fast, enough for all well-formed PTX); only input with
 * a syntax error is parsed again in full LL mode with error recovery, so that every error of the
 * file is reported with an accurate position.
 */
public final class PtxParser {
    private PtxParser() {}

    /** The outcome of parsing: a value (possibly partial when there are errors) and diagnostics. */
    public record Parsed<T>(T value, List<Diagnostic> diagnostics, boolean truncated) {
        public boolean ok() {
            return diagnostics.stream().noneMatch(Diagnostic::isError);
        }
    }

    /** Loads the generated lexer and parser (their tables are built when the classes initialize). */
    public static void prepare() {
        PTXParser.VOCABULARY.getMaxTokenType();
        PTXLexer.VOCABULARY.getMaxTokenType();
        new PTXParser(new CommonTokenStream(new ListTokenSource(List.of())));
    }

    public static Parsed<Module> parseModule(String file, String text) {
        CommonTokenStream tokens = lex(file, text);
        Parsed<Module> tooDeep = tooDeep(file, tokens);
        if (tooDeep != null) {
            return tooDeep;
        }
        Parsed<Module> parallel = parseInChunks(file, tokens);
        return parallel != null ? parallel : parse(file, tokens, (p, b) -> b.module(p.module()));
    }

    /** The single-piece path alone (tests compare it with the parallel one). */
    static Parsed<Module> parseModuleInOnePiece(String file, String text) {
        return parse(file, lex(file, text), (p, b) -> b.module(p.module()));
    }

    /**
     * Braces, brackets and parentheses nest at most this deep. Real PTX nests a few levels; the
     * limit keeps the recursive-descent parser and builder within their stacks, and keeps ANTLR's
     * prediction (which looks ahead to the matching parenthesis at each level) from going quadratic.
     */
    static final int MAX_NESTING = 200;
    private static final int OPEN_BRACKET = tokenType("'['");
    private static final int CLOSE_BRACKET = tokenType("']'");
    private static final int OPEN_PAREN = tokenType("'('");
    private static final int CLOSE_PAREN = tokenType("')'");
    private static final int MINUS = tokenType("'-'");
    private static final int TILDE = tokenType("'~'");
    private static final int BANG = tokenType("'!'");

    /**
     * A failed parse naming the first token nested deeper than MAX_NESTING (a run of unary
     * operators nests too: `- - 1` is a term inside a term), or null.
     */
    private static <T> Parsed<T> tooDeep(String file, CommonTokenStream stream) {
        int depth = 0;
        int unaryRun = 0;
        for (Token t : stream.getTokens()) {
            int type = t.getType();
            unaryRun = type == MINUS || type == TILDE || type == BANG ? unaryRun + 1 : 0;
            if (type == OPEN_BRACE || type == OPEN_BRACKET || type == OPEN_PAREN) {
                depth++;
            } else if (type == CLOSE_BRACE || type == CLOSE_BRACKET || type == CLOSE_PAREN) {
                depth = Math.max(0, depth - 1);
            }
            if (depth > MAX_NESTING || unaryRun > MAX_NESTING) {
                return new Parsed<>(null, List.of(Diagnostic.error(
                        new SourcePos(file, t.getLine(), t.getCharPositionInLine() + 1), "syntax.nesting",
                        "braces, brackets, parentheses or unary operators nest more than " + MAX_NESTING
                                + " levels deep here")), false);
            }
        }
        return null;
    }

    /** Modules with fewer tokens than this are parsed in one piece. */
    private static final int CHUNK_TOKENS = 60_000;
    private static final int OPEN_BRACE = tokenType("'{'");
    private static final int CLOSE_BRACE = tokenType("'}'");
    private static final int SEMICOLON = tokenType("';'");
    private static final int COMMA = tokenType("','");

    private static int tokenType(String literal) {
        for (int t = 1; t <= PTXLexer.VOCABULARY.getMaxTokenType(); t++) {
            if (literal.equals(PTXLexer.VOCABULARY.getLiteralName(t))) {
                return t;
            }
        }
        throw new IllegalStateException("no token " + literal);
    }

    /**
     * A large module is split, after lexing, at the `}` that close top-level items (function
     * bodies, debug sections), and the pieces are parsed on several cores, each by its own parser
     * over its slice of the tokens; the items are joined in source order, so the result is the
     * same as parsing in one piece. Returns null when the module is small, or when a piece has a
     * syntax error (the single-piece path then reports every error precisely).
     */
    private static Parsed<Module> parseInChunks(String file, CommonTokenStream stream) {
        List<Token> all = stream.getTokens();
        int cores = Runtime.getRuntime().availableProcessors();
        if (cores < 2 || all.size() < 2 * CHUNK_TOKENS) {
            return null;
        }
        int pieces = Math.min(cores * 2, all.size() / CHUNK_TOKENS);
        int target = all.size() / pieces;
        List<List<Token>> chunks = new ArrayList<>();
        int depth = 0;
        int start = 0;
        int end = all.size() - 1; // the EOF token is not part of any piece
        for (int i = 0; i < end; i++) {
            int type = all.get(i).getType();
            if (type == OPEN_BRACE) {
                depth++;
            } else if (type == CLOSE_BRACE && --depth == 0 && i + 1 - start >= target) {
                int next = all.get(i + 1).getType();
                if (next != SEMICOLON && next != COMMA) { // not the end of a `= {...}` initializer
                    chunks.add(all.subList(start, i + 1));
                    start = i + 1;
                }
            }
        }
        chunks.add(all.subList(start, end));
        if (chunks.size() < 2) {
            return null;
        }
        try {
            List<Parsed<Module>> parts = chunks.parallelStream().map(c -> parseTokens(file, c)).toList();
            List<ModuleItem> items = new ArrayList<>();
            List<Diagnostic> diagnostics = new ArrayList<>();
            for (Parsed<Module> part : parts) {
                items.addAll(part.value().items());
                diagnostics.addAll(part.diagnostics());
            }
            return new Parsed<>(new Module(new SourcePos(file, 1, 1), items), diagnostics, false);
        } catch (ParseCancellationException syntaxError) {
            return null;
        }
    }

    private static Parsed<Module> parseTokens(String file, List<Token> tokens) {
        PTXParser parser = new PTXParser(new CommonTokenStream(new ListTokenSource(tokens, file)));
        parser.removeErrorListeners();
        parser.getInterpreter().setPredictionMode(PredictionMode.SLL);
        parser.setErrorHandler(new BailErrorStrategy());
        Diagnostics diagnostics = new Diagnostics();
        Module module = new AstBuilder(file, diagnostics).module(parser.module());
        return new Parsed<>(module, diagnostics.list(), diagnostics.truncated());
    }

    /** Parses a bare statement list, as in the ISA's code examples. */
    public static Parsed<Block> parseStatements(String file, String text) {
        CommonTokenStream tokens = lex(file, text);
        Parsed<Block> tooDeep = tooDeep(file, tokens);
        return tooDeep != null ? tooDeep : parse(file, tokens, (p, b) -> b.statementList(p.statementList()));
    }

    private interface Rule<T> {
        T build(PTXParser parser, AstBuilder builder);
    }

    /** All tokens of a text; lexical errors become ERROR_CHAR tokens the parser rejects. */
    private static CommonTokenStream lex(String file, String text) {
        PTXLexer lexer = new PTXLexer(CharStreams.fromString(text, file));
        lexer.removeErrorListeners();
        CommonTokenStream tokens = new CommonTokenStream(lexer) {
            {
                // nvcc output has about one token per four characters (one per three leaves
                // room); growing the list by copying it is otherwise a large cost for big modules.
                this.tokens = new ArrayList<>(text.length() / 3 + 16);
            }
        };
        tokens.fill();
        return tokens;
    }

    private static <T> Parsed<T> parse(String file, CommonTokenStream tokens, Rule<T> rule) {
        Diagnostics diagnostics = new Diagnostics();
        ErrorCollector errors = new ErrorCollector(file, diagnostics);
        PTXParser parser = new PTXParser(tokens);
        parser.removeErrorListeners();
        parser.getInterpreter().setPredictionMode(PredictionMode.SLL);
        parser.setErrorHandler(new BailErrorStrategy());
        T value;
        try {
            value = rule.build(parser, new AstBuilder(file, diagnostics));
        } catch (ParseCancellationException slowPath) {
            tokens.seek(0);
            parser.reset();
            parser.addErrorListener(errors);
            parser.getInterpreter().setPredictionMode(PredictionMode.LL);
            parser.setErrorHandler(new DefaultErrorStrategy());
            try {
                // The builder runs on the recovered tree, but its diagnostics would only echo the
                // syntax errors, so they go to a scratch list.
                value = rule.build(parser, new AstBuilder(file, new Diagnostics()));
            } catch (RuntimeException incompleteTree) {
                // TooManyErrors, or a recovered tree with holes the builder cannot use.
                value = null;
            }
            if (!diagnostics.hasErrors()) {
                diagnostics.error(new SourcePos(file, 1, 1), "syntax", "syntax error");
            }
        }
        return new Parsed<>(value, diagnostics.list(), diagnostics.truncated());
    }

    /** Stops parsing once the diagnostic limit is reached (e.g. a file of random bytes). */
    private static final class TooManyErrors extends RuntimeException {
        TooManyErrors() {
            super(null, null, false, false);
        }
    }

    /** Turns ANTLR's reports into diagnostics worded for PTX authors. */
    private static final class ErrorCollector extends BaseErrorListener {
        private final String file;
        private final Diagnostics diagnostics;

        ErrorCollector(String file, Diagnostics diagnostics) {
            this.file = file;
            this.diagnostics = diagnostics;
        }

        @Override
        public void syntaxError(Recognizer<?, ?> recognizer, Object offending, int line, int col, String msg,
                                RecognitionException e) {
            if (diagnostics.isFull()) {
                diagnostics.error(new SourcePos(file, line, col + 1), "syntax", "too many errors");
                throw new TooManyErrors();
            }
            String message;
            if (offending instanceof Token t) {
                String what = t.getType() == Token.EOF ? "end of file" : "'" + printable(t.getText()) + "'";
                IntervalSet expected = recognizer instanceof PTXParser p ? p.getExpectedTokens() : null;
                message = "unexpected " + what;
                if (t.getType() == PTXLexer.ERROR_CHAR) {
                    message = "unexpected character " + what;
                } else if (expected != null && expected.size() > 0 && expected.size() <= 6) {
                    message += ", expected " + expected.toString(recognizer.getVocabulary());
                }
            } else {
                message = msg;
            }
            diagnostics.error(new SourcePos(file, line, col + 1), "syntax", message);
        }
    }

    private static String printable(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length() && i < 40; i++) {
            char c = s.charAt(i);
            sb.append(c >= 0x20 && c < 0x7f ? String.valueOf(c) : String.format("\\x%02x", (int) c & 0xff));
        }
        return sb.toString();
    }
}
