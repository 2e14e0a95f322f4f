package io.ptxrun.ast;

/** Where a node starts in its source: 1-based line, 1-based column. */
public record SourcePos(String file, int line, int column) {
    public static final SourcePos NONE = new SourcePos("<none>", 0, 0);

    @Override
    public String toString() {
        return file + ":" + line + ":" + column;
    }

    // Written out, with the values the generated ones give: those are linked at their first call
    // (method handles made at run time, which no start-up cache holds), and a module with line
    // information puts positions in a map early in every check.
    @Override
    public boolean equals(Object o) {
        return o instanceof SourcePos p && p.line == line && p.column == column && java.util.Objects.equals(p.file, file);
    }

    @Override
    public int hashCode() {
        return (31 * java.util.Objects.hashCode(file) + line) * 31 + column;
    }
}
