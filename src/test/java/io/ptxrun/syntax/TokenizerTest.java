package io.ptxrun.syntax;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ptxrun.TestData;
import io.ptxrun.syntax.generated.PTXLexer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.TokenSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The hand-written Tokenizer against the lexer that ANTLR generates from the lexer rules of
 * grammar/PTX.g4, the definition of PTX's tokens: the same tokens (type, text, line, column,
 * character range) on every module of testdata, every case of the conformance corpus, and random
 * text made of the pieces where the rules meet (number forms, keywords, comments, strings, stray
 * and non-ASCII characters).
 */
class TokenizerTest {

    /** Every token up to and including EOF, one line each. */
    private static List<String> tokens(TokenSource source) {
        List<String> out = new ArrayList<>();
        Token t;
        do {
            t = source.nextToken();
            out.add(t.getType() + " " + t.getLine() + ":" + t.getCharPositionInLine() + " [" + t.getStartIndex() + ","
                    + t.getStopIndex() + "] channel " + t.getChannel() + " " + t.getText());
        } while (t.getType() != Token.EOF);
        return out;
    }

    private static void sameTokens(String name, String text) {
        PTXLexer generated = new PTXLexer(CharStreams.fromString(text, name));
        generated.removeErrorListeners();
        List<String> expected = tokens(generated);
        List<String> actual = tokens(new Tokenizer(text, name));
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
            int at = i;
            assertEquals(expected.get(i), actual.get(i), () -> name + ": token " + at + " differs");
        }
        assertEquals(expected.size(), actual.size(), name + ": token count");
    }

    static Stream<Path> ptxFiles() {
        // Large modules are stored gzipped (testdata/wild).
        return Stream.concat(TestData.files("", ".ptx").stream(), TestData.files("", ".ptx.gz").stream());
    }

    @Test
    void corpusIsPresent() {
        assertTrue(ptxFiles().count() >= 1000, "testdata holds the PTX modules");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ptxFiles")
    void sameTokensAsTheGeneratedLexer(Path file) throws IOException {
        // Decoded as ptxrun reads its input: undecodable bytes become U+FFFD.
        byte[] bytes = Files.readAllBytes(file);
        if (file.toString().endsWith(".gz")) {
            try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
                bytes = in.readAllBytes();
            }
        }
        sameTokens(file.toString(), new String(bytes, StandardCharsets.UTF_8));
    }

    @Test
    void sameTokensOnTheConformanceCorpus() throws IOException {
        ObjectMapper json = new ObjectMapper();
        int cases = 0;
        for (Path file : TestData.jsonlFiles("conformance")) {
            for (String line : TestData.lines(file)) {
                JsonNode c = json.readTree(line);
                sameTokens(file + ": " + c.path("id").asText(), c.path("ptx").asText());
                cases++;
            }
        }
        assertTrue(cases >= 1000, "the conformance corpus has its cases: " + cases);
    }

    @Property(tries = 3000)
    void sameTokensOnRandomText(@ForAll("pieces") List<String> pieces) {
        sameTokens("<random>", String.join("", pieces));
    }

    @Provide
    Arbitrary<List<String>> pieces() {
        return Arbitraries.of(
                // Number forms and their neighbours.
                "0", "1", "7", "8", "9", "00", "012", "019", "0x", "0X", "0x1F", "0xg", "0b", "0B", "0b101", "0b2", "U",
                "u", "0U", "12U", "0f", "0F", "0d", "0D", "3F800000", "3f80", "0000000000000000", "e", "E", "e5",
                "E-3", "e+", "+", "-", ".", "..", "1.", ".5", "1.5", "1e", "1e5", "abc", "xyz",
                // Words, keywords, qualifiers and identifiers.
                ".version", ".target", ".address_size", ".reg", ".sreg", ".regx", ".global", ".shared", "::",
                "::cluster", ":", "_", "$", "%", "%r1", "$L__BB0_1", "@", "@@", "@@DWARF", "@@DWAR", " .b8 1",
                "!", "<", "<<", ">", ">>", "<<<", "=", "[", "]", "{", "}", "(", ")", ",", ";", "|", "&", "^", "~", "*",
                // Comments, strings and space.
                "/", "//", "/*", "*/", "/**/", "/*/", "\"", "\"a b\"", "\"\\\"", "\\", "\\\"", " ", "\t", "\n", "\r",
                "\r\n", "\f",
                // Characters of no token, and beyond ASCII (a pair of surrogates, a lone one).
                "#", "?", "`", "'", "\u0000", "\u007f", "é", "\ufffd", "\uffff", "\ud83d\ude00", "\ud83d", "\ude00")
                .list().ofMaxSize(40);
    }
}
