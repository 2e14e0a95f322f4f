package io.ptxrun.syntax;

import io.ptxrun.syntax.generated.PTXParser;
import java.nio.IntBuffer;
import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.CodePointBuffer;
import org.antlr.v4.runtime.CodePointCharStream;
import org.antlr.v4.runtime.CommonTokenFactory;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.TokenFactory;
import org.antlr.v4.runtime.TokenSource;
import org.antlr.v4.runtime.misc.Pair;

/**
 * The tokens of PTX text, exactly as the lexer generated from the lexer rules of grammar/PTX.g4
 * makes them (the same types, text, lines and columns, comments and white space skipped), written
 * out by hand. The generated lexer builds its DFA one state at a time while it lexes, and in a
 * short check that building was a visible share of the run; this is a plain loop over the
 * characters. The grammar stays the definition of the tokens: TokenizerTest compares the two on
 * every module of testdata and on random text.
 *
 * <p>The rules, as in the grammar: the longest match wins, and of two matches of the same length
 * the rule written first (the literals of the parser rules, then the keywords, DOT_WORD, IDENT,
 * HEX_FLOAT, DEC_FLOAT, INT, ...). Anything else is one ERROR_CHAR.
 */
final class Tokenizer implements TokenSource {
    private static final String[] KEYWORDS = {".version", ".target", ".address_size", ".file", ".loc", ".section",
        ".pragma", ".alias", ".entry", ".func", ".visible", ".extern", ".weak", ".common", ".callprototype",
        ".calltargets", ".branchtargets", ".reg", ".sreg", ".local", ".shared", ".global", ".const", ".param", ".tex",
        ".align"};
    private static final int[] KEYWORD_TYPES = {PTXParser.VERSION, PTXParser.TARGET, PTXParser.ADDRESS_SIZE,
        PTXParser.FILE, PTXParser.LOC, PTXParser.SECTION, PTXParser.PRAGMA, PTXParser.ALIAS, PTXParser.ENTRY,
        PTXParser.FUNC, PTXParser.VISIBLE, PTXParser.EXTERN, PTXParser.WEAK, PTXParser.COMMON,
        PTXParser.CALLPROTOTYPE, PTXParser.CALLTARGETS, PTXParser.BRANCHTARGETS, PTXParser.REG, PTXParser.SREG,
        PTXParser.LOCAL, PTXParser.SHARED, PTXParser.GLOBAL, PTXParser.CONST, PTXParser.PARAM, PTXParser.TEX,
        PTXParser.ALIGN};

    /** By ASCII character: the type of the one-character literal token it is, 0 for none. */
    private static final int[] LITERAL = new int[128];
    private static final int SHIFT_LEFT = TokenTypes.SHIFT_LEFT;
    private static final int SHIFT_RIGHT = TokenTypes.SHIFT_RIGHT;

    static {
        for (char c : TokenTypes.CHARACTERS.toCharArray()) {
            LITERAL[c] = TokenTypes.ofCharacter(c);
        }
    }

    private final CharStream input;
    private final Pair<TokenSource, CharStream> source;
    /** The text's code points (token positions count code points, as ANTLR's character streams do). */
    private final int[] text;
    private final int length;
    private TokenFactory<?> factory = CommonTokenFactory.DEFAULT;
    private int pos;
    private int line = 1;
    private int column;

    Tokenizer(String text, String sourceName) {
        int chars = text.length();
        int[] codePoints = new int[chars];
        int n = 0;
        if (text.codePointCount(0, chars) == chars) {
            // No surrogate pairs (PTX is ASCII; for such text the count takes no pass over it):
            // each char is a code point, copied without a call per character.
            char[] copy = text.toCharArray();
            for (; n < chars; n++) {
                codePoints[n] = copy[n];
            }
        } else {
            for (int i = 0; i < chars; n++) {
                int c = text.codePointAt(i);
                codePoints[n] = c;
                i += Character.charCount(c);
            }
        }
        this.text = codePoints;
        this.length = n;
        // The tokens' text comes from a character stream over the same code points.
        this.input = CodePointCharStream.fromBuffer(CodePointBuffer.withInts(IntBuffer.wrap(codePoints, 0, n)),
                sourceName);
        this.source = new Pair<>(this, input);
    }

    @Override
    public Token nextToken() {
        while (pos < length) {
            int start = pos;
            int startLine = line;
            int startColumn = column;
            int c = text[pos];
            int type;
            int end;
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f') {
                end = pos + 1;
                while (end < length && isSpace(text[end])) {
                    end++;
                }
                type = Token.INVALID_TYPE;
            } else if (c == '/' && at(pos + 1) == '/') {
                end = lineEnd(pos + 2);
                type = Token.INVALID_TYPE;
            } else if (c == '/' && at(pos + 1) == '*' && commentEnd(pos + 2) > 0) {
                end = commentEnd(pos + 2);
                type = Token.INVALID_TYPE;
            } else if (c == '.' && isWordChar(at(pos + 1))) {
                end = dotWordEnd(pos + 1);
                type = keyword(start, end);
            } else if (isIdentStart(c)) {
                end = pos + 1;
                while (end < length && isIdentChar(text[end])) {
                    end++;
                }
                // A lone `%` is also the literal, which the grammar names first.
                type = c == '%' && end == pos + 1 ? LITERAL['%'] : PTXParser.IDENT;
            } else if (c >= '0' && c <= '9') {
                end = number(pos);
                type = numberType;
            } else if (c == '"' && stringEnd(pos + 1) > 0) {
                end = stringEnd(pos + 1);
                type = PTXParser.STRING;
            } else if (c == '@' && startsWith(pos, "@@DWARF")) {
                end = lineEnd(pos + 7);
                type = PTXParser.DWARF_LINE;
            } else if (c == '<' && at(pos + 1) == '<') {
                end = pos + 2;
                type = SHIFT_LEFT;
            } else if (c == '>' && at(pos + 1) == '>') {
                end = pos + 2;
                type = SHIFT_RIGHT;
            } else {
                end = pos + 1;
                type = c < 128 && LITERAL[c] != 0 ? LITERAL[c] : PTXParser.ERROR_CHAR;
            }
            advanceTo(end);
            if (type != Token.INVALID_TYPE) {
                return factory.create(source, type, null, Token.DEFAULT_CHANNEL, start, end - 1, startLine, startColumn);
            }
        }
        return factory.create(source, Token.EOF, null, Token.DEFAULT_CHANNEL, pos, pos - 1, line, column);
    }

    /** Moves to end, counting lines and columns as ANTLR does: a line ends at '\n'. */
    private void advanceTo(int end) {
        for (; pos < end; pos++) {
            if (text[pos] == '\n') {
                line++;
                column = 0;
            } else {
                column++;
            }
        }
    }

    /** The code point at i, or -1 past the end. */
    private int at(int i) {
        return i < length ? text[i] : -1;
    }

    private boolean startsWith(int i, String s) {
        if (i + s.length() > length) {
            return false;
        }
        for (int k = 0; k < s.length(); k++) {
            if (text[i + k] != s.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isSpace(int c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f';
    }

    /** [a-zA-Z0-9_] */
    private static boolean isWordChar(int c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_';
    }

    /** [a-zA-Z_$%] */
    private static boolean isIdentStart(int c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$' || c == '%';
    }

    /** [a-zA-Z0-9_$] */
    private static boolean isIdentChar(int c) {
        return isWordChar(c) || c == '$';
    }

    private static boolean isDigit(int c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isHexDigit(int c) {
        return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
    }

    /** The end of `~[\r\n]*` from i. */
    private int lineEnd(int i) {
        while (i < length && text[i] != '\r' && text[i] != '\n') {
            i++;
        }
        return i;
    }

    /** The end of a block comment whose text starts at i (just past its closing star and slash), or -1 when it never closes. */
    private int commentEnd(int i) {
        for (; i + 1 < length; i++) {
            if (text[i] == '*' && text[i + 1] == '/') {
                return i + 2;
            }
        }
        return -1;
    }

    /** The end of a string whose text starts at i (after the closing quote), or -1 when it does not close. */
    private int stringEnd(int i) {
        while (i < length) {
            int c = text[i];
            if (c == '"') {
                return i + 1;
            } else if (c == '\\') {
                if (i + 1 >= length) {
                    return -1;
                }
                i += 2;
            } else if (c == '\r' || c == '\n') {
                return -1;
            } else {
                i++;
            }
        }
        return -1;
    }

    /** The end of DOT_WORD from i, its first word character: `word ('::' word)*`. */
    private int dotWordEnd(int i) {
        while (i < length && isWordChar(text[i])) {
            i++;
        }
        while (at(i) == ':' && at(i + 1) == ':' && isWordChar(at(i + 2))) {
            i += 3;
            while (i < length && isWordChar(text[i])) {
                i++;
            }
        }
        return i;
    }

    /** A keyword's type when the DOT_WORD from start to end is one (the keywords come first), else DOT_WORD. */
    private int keyword(int start, int end) {
        for (int k = 0; k < KEYWORDS.length; k++) {
            String word = KEYWORDS[k];
            if (word.length() == end - start && startsWith(start, word)) {
                return KEYWORD_TYPES[k];
            }
        }
        return PTXParser.DOT_WORD;
    }

    /** The type of the token that number() measured. */
    private int numberType;

    /**
     * The end of the longest of HEX_FLOAT, DEC_FLOAT and INT from i (a digit), preferring them in
     * that order on equal lengths; its type goes to numberType.
     */
    private int number(int i) {
        int c = text[i];
        int next = at(i + 1);
        int digitsEnd = i;
        while (digitsEnd < length && isDigit(text[digitsEnd])) {
            digitsEnd++;
        }
        // HEX_FLOAT: 0f and 8 hex digits, 0d and 16.
        int hexFloat = -1;
        if (c == '0' && (next == 'f' || next == 'F' || next == 'd' || next == 'D')) {
            int digits = next == 'f' || next == 'F' ? 8 : 16;
            int k = i + 2;
            while (k < i + 2 + digits && isHexDigit(at(k))) {
                k++;
            }
            if (k == i + 2 + digits) {
                hexFloat = k;
            }
        }
        // DEC_FLOAT: digits '.' digits? exponent?, or digits exponent.
        int decFloat = -1;
        if (at(digitsEnd) == '.') {
            int k = digitsEnd + 1;
            while (k < length && isDigit(text[k])) {
                k++;
            }
            int e = exponentEnd(k);
            decFloat = e > 0 ? e : k;
        } else {
            decFloat = exponentEnd(digitsEnd);
        }
        // INT: 0x hex+, 0b [01]+, 0 [0-7]+, [1-9] [0-9]*, or 0; then an optional U.
        int integer;
        if (c != '0') {
            integer = digitsEnd;
        } else if ((next == 'x' || next == 'X') && isHexDigit(at(i + 2))) {
            integer = i + 3;
            while (integer < length && isHexDigit(text[integer])) {
                integer++;
            }
        } else if ((next == 'b' || next == 'B') && (at(i + 2) == '0' || at(i + 2) == '1')) {
            integer = i + 3;
            while (at(integer) == '0' || at(integer) == '1') {
                integer++;
            }
        } else {
            integer = i + 1;
            while (integer < length && text[integer] >= '0' && text[integer] <= '7') {
                integer++;
            }
        }
        if (at(integer) == 'U') {
            integer++;
        }
        numberType = PTXParser.HEX_FLOAT;
        int end = hexFloat;
        if (decFloat > end) {
            numberType = PTXParser.DEC_FLOAT;
            end = decFloat;
        }
        if (integer > end) {
            numberType = PTXParser.INT;
            end = integer;
        }
        return end;
    }

    /** The end of an exponent `[eE] [+-]? [0-9]+` from i, or -1 when there is none. */
    private int exponentEnd(int i) {
        if (at(i) != 'e' && at(i) != 'E') {
            return -1;
        }
        int k = i + 1;
        if (at(k) == '+' || at(k) == '-') {
            k++;
        }
        if (!isDigit(at(k))) {
            return -1;
        }
        while (k < length && isDigit(text[k])) {
            k++;
        }
        return k;
    }

    @Override
    public int getLine() {
        return line;
    }

    @Override
    public int getCharPositionInLine() {
        return column;
    }

    @Override
    public CharStream getInputStream() {
        return input;
    }

    @Override
    public String getSourceName() {
        return input.getSourceName();
    }

    @Override
    public void setTokenFactory(TokenFactory<?> factory) {
        this.factory = factory;
    }

    @Override
    public TokenFactory<?> getTokenFactory() {
        return factory;
    }
}
