package io.ptxrun.syntax;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ptxrun.syntax.generated.PTXParser;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** TokenTypes names the grammar's punctuation as the generated vocabulary does. */
class TokenTypesTest {

    @Test
    void namesTheGrammarsLiterals() {
        Map<String, Integer> expected = Map.ofEntries(
                Map.entry("','", TokenTypes.COMMA), Map.entry("'{'", TokenTypes.OPEN_BRACE),
                Map.entry("'}'", TokenTypes.CLOSE_BRACE), Map.entry("';'", TokenTypes.SEMICOLON),
                Map.entry("':'", TokenTypes.COLON), Map.entry("'+'", TokenTypes.PLUS), Map.entry("'-'", TokenTypes.MINUS),
                Map.entry("'('", TokenTypes.OPEN_PAREN), Map.entry("')'", TokenTypes.CLOSE_PAREN),
                Map.entry("'<'", TokenTypes.LESS), Map.entry("'>'", TokenTypes.GREATER),
                Map.entry("'='", TokenTypes.EQUALS), Map.entry("'['", TokenTypes.OPEN_BRACKET),
                Map.entry("']'", TokenTypes.CLOSE_BRACKET), Map.entry("'@'", TokenTypes.AT),
                Map.entry("'!'", TokenTypes.BANG), Map.entry("'|'", TokenTypes.BAR), Map.entry("'*'", TokenTypes.STAR),
                Map.entry("'/'", TokenTypes.SLASH), Map.entry("'%'", TokenTypes.PERCENT),
                Map.entry("'<<'", TokenTypes.SHIFT_LEFT), Map.entry("'>>'", TokenTypes.SHIFT_RIGHT),
                Map.entry("'&'", TokenTypes.AMPERSAND), Map.entry("'^'", TokenTypes.CARET),
                Map.entry("'~'", TokenTypes.TILDE));
        for (Map.Entry<String, Integer> e : expected.entrySet()) {
            assertEquals(e.getKey(), PTXParser.VOCABULARY.getLiteralName(e.getValue()), "token type " + e.getValue());
        }
        for (char c : TokenTypes.CHARACTERS.toCharArray()) {
            assertEquals("'" + c + "'", PTXParser.VOCABULARY.getLiteralName(TokenTypes.ofCharacter(c)));
        }
        assertEquals(0, TokenTypes.ofCharacter('#'));
        // Every literal of the grammar is named above (the keywords have symbolic names).
        int literals = 0;
        for (int t = 1; t <= PTXParser.VOCABULARY.getMaxTokenType(); t++) {
            String literal = PTXParser.VOCABULARY.getLiteralName(t);
            if (literal != null && !literal.startsWith("'.")) {
                literals++;
            }
        }
        assertEquals(expected.size(), literals);
    }
}
