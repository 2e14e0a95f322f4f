package io.ptxrun.ast;

/** Where a node starts in its source: 1-based line, 1-based column. */
public record SourcePos(String file, int line, int column) {
    public static final SourcePos NONE = new SourcePos("<none>", 0, 0);

    @Override
    public String toString() {
        return file + ":" + line + ":" + column;
    }
}
