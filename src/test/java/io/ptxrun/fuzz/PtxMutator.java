package io.ptxrun.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Grammar-aware edits of PTX text: it is cut into tokens (names, directives, registers, numbers,
 * punctuation, white space), and each edit deletes, repeats, swaps or replaces tokens or whole
 * lines with tokens and lines of the corpus or with boundary numbers. Most results stay close to
 * PTX, so they get past the lexer into the parser, the AST builder, the checks and the engine.
 */
final class PtxMutator {
    static final Pattern TOKEN = Pattern.compile(
            "[.%$A-Za-z_][\\w$.:]*|0[fFdD][0-9a-fA-F]+|0[xX][0-9a-fA-F]+[Uu]?|\\d+(\\.\\d*)?([eE][-+]?\\d+)?[Uu]?"
                    + "|//[^\\n]*|\\s+|.",
            Pattern.DOTALL);

    /** Numbers at the edges of the types and limits a PTX module names. */
    static final List<String> NUMBERS = List.of("0", "1", "-1", "2", "3", "7", "8", "31", "32", "33", "63", "64",
            "127", "128", "255", "256", "1023", "1024", "1025", "4096", "65535", "65536", "232448", "2147483647",
            "2147483648", "-2147483648", "4294967295", "4294967296", "9223372036854775807", "9223372036854775808",
            "18446744073709551615", "18446744073709551616", "99999999999999999999999", "0x7fffffff", "0xffffffff",
            "0xffffffffffffffff", "0x10000000000000000", "0f7FC00000", "0f7F800000", "0fFF800000", "0f00000001",
            "0d7FF8000000000000", "0dFFF0000000000000", "1e308", "1e400", "0.0", "-0.0", "1.5");

    private PtxMutator() {}

    static List<String> tokens(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = TOKEN.matcher(text);
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }

    /** The text after 1 to {@code maxEdits} edits chosen by {@code c}. */
    static String mutate(String text, Choices c, int maxEdits) {
        List<String> t = tokens(text);
        int edits = 1 + c.below(maxEdits);
        for (int e = 0; e < edits && !t.isEmpty(); e++) {
            int at = c.below(t.size());
            switch (c.below(10)) {
                case 0 -> t.subList(at, Math.min(t.size(), at + 1 + c.below(4))).clear();
                case 1 -> t.add(at, t.get(c.below(t.size())));
                case 2 -> {
                    int other = c.below(t.size());
                    String s = t.get(at);
                    t.set(at, t.get(other));
                    t.set(other, s);
                }
                case 3, 4 -> t.set(at, c.pick(Seeds.TOKENS));
                case 5 -> t.add(at, c.pick(Seeds.TOKENS));
                case 6 -> t.set(at, c.pick(NUMBERS));
                case 7 -> {
                    // A line of another module, inserted at a line start.
                    List<String> lines = c.pick(Seeds.MODULES).lines().toList();
                    t.add(lineStart(t, at), lines.get(c.below(lines.size())) + "\n");
                }
                case 8 -> {
                    int start = lineStart(t, at);
                    int end = start;
                    while (end < t.size() && !t.get(end).contains("\n")) {
                        end++;
                    }
                    t.subList(start, Math.min(t.size(), end + 1)).clear();
                }
                default -> t.add(at, c.rest(1 + c.below(8)));
            }
        }
        return String.join("", t);
    }

    private static int lineStart(List<String> t, int at) {
        int i = Math.min(at, t.size());
        while (i > 0 && !t.get(i - 1).contains("\n")) {
            i--;
        }
        return i;
    }
}
