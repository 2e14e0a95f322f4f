package io.ptxrun.syntax;

import io.ptxrun.ast.Block;
import io.ptxrun.ast.Module;
import io.ptxrun.ast.SourcePos;
import io.ptxrun.diag.Diagnostic;
import io.ptxrun.diag.Diagnostics;
import io.ptxrun.syntax.generated.PTXParser;
import io.ptxrun.ast.ModuleItem;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.FutureTask;
import org.antlr.v4.runtime.BailErrorStrategy;
import org.antlr.v4.runtime.BaseErrorListener;
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
            for (Diagnostic d : diagnostics) {
                if (d.isError()) {
                    return false;
                }
            }
            return true;
        }
    }

    public static Parsed<Module> parseModule(String file, String text) {
        Parsed<Module> pieces = parseInPieces(file, text);
        if (pieces != null) {
            return pieces;
        }
        CommonTokenStream tokens = lex(file, text);
        Parsed<Module> tooDeep = tooDeep(file, tokens);
        if (tooDeep != null) {
            return tooDeep;
        }
        Module direct = DirectParser.module(file, tokens.getTokens());
        return direct != null ? new Parsed<>(direct, List.of(), false)
                : parse(file, tokens, (p, b) -> b.module(p.module()));
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
    private static final int OPEN_BRACKET = TokenTypes.OPEN_BRACKET;
    private static final int CLOSE_BRACKET = TokenTypes.CLOSE_BRACKET;
    private static final int OPEN_PAREN = TokenTypes.OPEN_PAREN;
    private static final int CLOSE_PAREN = TokenTypes.CLOSE_PAREN;
    private static final int MINUS = TokenTypes.MINUS;
    private static final int TILDE = TokenTypes.TILDE;
    private static final int BANG = TokenTypes.BANG;

    /**
     * How deep the tokens seen so far nest: braces, brackets and parentheses, and runs of unary
     * operators (`- - 1` is a term inside a term). Both token loops below feed it.
     */
    private static final class Nesting {
        private int depth;
        private int unaryRun;

        /** Takes the next token's type; true when it goes past MAX_NESTING. */
        boolean tooDeepAfter(int type) {
            unaryRun = type == MINUS || type == TILDE || type == BANG ? unaryRun + 1 : 0;
            if (type == OPEN_BRACE || type == OPEN_BRACKET || type == OPEN_PAREN) {
                depth++;
            } else if (type == CLOSE_BRACE || type == CLOSE_BRACKET || type == CLOSE_PAREN) {
                depth = Math.max(0, depth - 1);
            }
            return depth > MAX_NESTING || unaryRun > MAX_NESTING;
        }

        boolean atTopLevel() {
            return depth == 0;
        }
    }

    /** A failed parse naming the first token nested deeper than MAX_NESTING, or null. */
    private static <T> Parsed<T> tooDeep(String file, CommonTokenStream stream) {
        Nesting nesting = new Nesting();
        for (Token t : stream.getTokens()) {
            if (nesting.tooDeepAfter(t.getType())) {
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
    private static final int OPEN_BRACE = TokenTypes.OPEN_BRACE;
    private static final int CLOSE_BRACE = TokenTypes.CLOSE_BRACE;
    private static final int SEMICOLON = TokenTypes.SEMICOLON;
    private static final int COMMA = TokenTypes.COMMA;


    /**
     * A large module is parsed in pieces on several cores while it is being lexed: each time a
     * `}` closes a top-level item (a function body, a debug section) past the piece size, the
     * tokens so far go to a parser of their own on another core, and lexing goes on. The items are
     * joined in source order, so the result is the same as parsing in one piece. Returns null when
     * the module is small or anything is amiss (nesting too deep, a syntax error in a piece): the
     * single-piece path then reports every problem precisely (lexing again, on that error path only).
     */
    private static Parsed<Module> parseInPieces(String file, String text) {
        return parseInPieces(file, text, Runtime.getRuntime().availableProcessors());
    }

    /** As above, for a machine with this many cores (tests take the piecewise path anywhere). */
    static Parsed<Module> parseInPieces(String file, String text, int cores) {
        // nvcc output has about one token per four characters.
        int expectedTokens = text.length() / 4;
        if (cores < 2 || expectedTokens < 2 * CHUNK_TOKENS) {
            return null;
        }
        int target = expectedTokens / Math.min(cores * 2, expectedTokens / CHUNK_TOKENS);
        Tokenizer lexer = new Tokenizer(text, file);
        List<FutureTask<Parsed<Module>>> parts = new ArrayList<>();
        List<Token> piece = new ArrayList<>(target + target / 4);
        Nesting nesting = new Nesting();
        boolean closedItem = false;
        for (Token t = lexer.nextToken(); t.getType() != Token.EOF; t = lexer.nextToken()) {
            int type = t.getType();
            // A top-level `}` ends a piece unless it ends a `= {...}` initializer (`;` or `,` follows).
            if (closedItem && type != SEMICOLON && type != COMMA) {
                List<Token> done = piece;
                FutureTask<Parsed<Module>> task = new FutureTask<>(() -> parseTokens(file, done));
                parts.add(task);
                ForkJoinPool.commonPool().execute(task);
                piece = new ArrayList<>(target + target / 4);
            }
            piece.add(t);
            if (nesting.tooDeepAfter(type)) {
                return null;
            }
            closedItem = type == CLOSE_BRACE && nesting.atTopLevel() && piece.size() >= target;
        }
        // A module that never reached a cut is one piece, parsed here from the tokens already made.
        List<Token> last = piece;
        parts.add(new FutureTask<>(() -> parseTokens(file, last)));
        // Lexing is done: this thread parses the pieces no other has started (run() does nothing
        // for a started one), then collects them in order.
        for (FutureTask<Parsed<Module>> part : parts) {
            part.run();
        }
        List<ModuleItem> items = new ArrayList<>();
        List<Diagnostic> diagnostics = new ArrayList<>();
        for (FutureTask<Parsed<Module>> part : parts) {
            Parsed<Module> parsed;
            try {
                parsed = part.get();
            } catch (ExecutionException syntaxError) {
                return null;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
            items.addAll(parsed.value().items());
            diagnostics.addAll(parsed.diagnostics());
        }
        return new Parsed<>(new Module(new SourcePos(file, 1, 1), items), diagnostics, false);
    }

    private static Parsed<Module> parseTokens(String file, List<Token> tokens) {
        Module direct = DirectParser.module(file, tokens);
        if (direct != null) {
            return new Parsed<>(direct, List.of(), false);
        }
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
        CommonTokenStream tokens = new CommonTokenStream(new Tokenizer(text, file)) {
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
                if (t.getType() == PTXParser.ERROR_CHAR) {
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
