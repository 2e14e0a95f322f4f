package io.ptxrun.syntax;

import io.ptxrun.ast.Block;
import io.ptxrun.ast.Module;
import io.ptxrun.ast.SourcePos;
import io.ptxrun.diag.Diagnostic;
import io.ptxrun.diag.Diagnostics;
import io.ptxrun.syntax.generated.PTXLexer;
import io.ptxrun.syntax.generated.PTXParser;
import java.util.List;
import java.util.function.Function;
import org.antlr.v4.runtime.BailErrorStrategy;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.DefaultErrorStrategy;
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

    public static Parsed<Module> parseModule(String file, String text) {
        return parse(file, text, (p, b) -> b.module(p.module()));
    }

    /** Parses a bare statement list, as in the ISA's code examples. */
    public static Parsed<Block> parseStatements(String file, String text) {
        return parse(file, text, (p, b) -> b.statementList(p.statementList()));
    }

    private interface Rule<T> {
        T build(PTXParser parser, AstBuilder builder);
    }

    private static <T> Parsed<T> parse(String file, String text, Rule<T> rule) {
        Diagnostics diagnostics = new Diagnostics();
        ErrorCollector errors = new ErrorCollector(file, diagnostics);
        PTXLexer lexer = new PTXLexer(CharStreams.fromString(text, file));
        lexer.removeErrorListeners();
        CommonTokenStream tokens = new CommonTokenStream(lexer) {
            {
                // nvcc output has about one token per four characters; growing the list by
                // copying it is otherwise the costliest step of reading a large module.
                this.tokens = new java.util.ArrayList<>(text.length() / 4 + 16);
            }
        };
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
