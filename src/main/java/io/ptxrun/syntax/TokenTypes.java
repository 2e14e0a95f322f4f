package io.ptxrun.syntax;

import io.ptxrun.syntax.generated.PTXParser;

/**
 * The token types of the grammar's punctuation, which ANTLR numbers T__0, T__1, ... in the order
 * they first appear in grammar/PTX.g4 (`','` first). They are named here as compile-time
 * constants so that lexing and the DirectParser never initialise the generated parser: its
 * static set-up deserialises the grammar's ATN, a few milliseconds of a short check that the
 * generated parser does not otherwise take part in. TokenTypesTest checks each name against the
 * grammar's vocabulary.
 */
final class TokenTypes {
    private TokenTypes() {}

    static final int COMMA = PTXParser.T__0;
    static final int OPEN_BRACE = PTXParser.T__1;
    static final int CLOSE_BRACE = PTXParser.T__2;
    static final int SEMICOLON = PTXParser.T__3;
    static final int COLON = PTXParser.T__4;
    static final int PLUS = PTXParser.T__5;
    static final int MINUS = PTXParser.T__6;
    static final int OPEN_PAREN = PTXParser.T__7;
    static final int CLOSE_PAREN = PTXParser.T__8;
    static final int LESS = PTXParser.T__9;
    static final int GREATER = PTXParser.T__10;
    static final int EQUALS = PTXParser.T__11;
    static final int OPEN_BRACKET = PTXParser.T__12;
    static final int CLOSE_BRACKET = PTXParser.T__13;
    static final int AT = PTXParser.T__14;
    static final int BANG = PTXParser.T__15;
    static final int BAR = PTXParser.T__16;
    static final int STAR = PTXParser.T__17;
    static final int SLASH = PTXParser.T__18;
    static final int PERCENT = PTXParser.T__19;
    static final int SHIFT_LEFT = PTXParser.T__20;
    static final int SHIFT_RIGHT = PTXParser.T__21;
    static final int AMPERSAND = PTXParser.T__22;
    static final int CARET = PTXParser.T__23;
    static final int TILDE = PTXParser.T__24;

    /** The one-character literals, in the order of CHARACTER_TYPES. */
    static final String CHARACTERS = ",{};:+-()<>=[]@!|*/%&^~";
    private static final int[] CHARACTER_TYPES = {COMMA, OPEN_BRACE, CLOSE_BRACE, SEMICOLON, COLON, PLUS, MINUS,
        OPEN_PAREN, CLOSE_PAREN, LESS, GREATER, EQUALS, OPEN_BRACKET, CLOSE_BRACKET, AT, BANG, BAR, STAR, SLASH,
        PERCENT, AMPERSAND, CARET, TILDE};

    /** The type of the one-character literal c, 0 for none. */
    static int ofCharacter(char c) {
        int i = CHARACTERS.indexOf(c);
        return i < 0 ? 0 : CHARACTER_TYPES[i];
    }
}
