package io.ptxrun.ast;

/**
 * One qualifier as written on an instruction: its classification and its spelling (kept for
 * qualifiers this front-end does not classify, which are {@link Qualifier#OTHER}).
 */
public record Qual(SourcePos pos, Qualifier kind, String text) implements Node {
    public static Qual of(SourcePos pos, String text) {
        return new Qual(pos, Qualifier.of(text), text);
    }
}
