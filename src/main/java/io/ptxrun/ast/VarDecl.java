package io.ptxrun.ast;

import java.util.List;
import java.util.Set;

/**
 * A variable declaration (5.4): `.reg .b32 %r<40>;`, `.shared .align 16 .b8 smem[1024];`,
 * `.extern .shared .align 16 .b8 dyn[];`, `.global .u32 tbl[3] = {1, 2, 3};`.
 * vectorWidth is 1 for scalars, else 2, 4 or 8.
 */
public record VarDecl(SourcePos pos, Set<Linkage> linkage, StateSpace space, int align, int vectorWidth,
                      DataType type, List<Declarator> declarators) implements ModuleItem, Statement {
    public VarDecl {
        linkage = Set.copyOf(linkage);
        declarators = List.copyOf(declarators);
    }

    /** Bytes of one element (a vector counts whole). */
    public int elementBytes() {
        return type.bytes() * vectorWidth;
    }

    public int effectiveAlign() {
        return align > 0 ? align : elementBytes();
    }

    /**
     * One declared name. rangeCount >= 0 for `%r<40>` (declares %r0..%r39); dims holds array
     * sizes, with 0 for `[]` (size from the initializer or, for .extern .shared, at launch).
     */
    public record Declarator(SourcePos pos, String name, int rangeCount, List<Long> dims,
                             Initializer init) implements Node {
        public Declarator {
            dims = List.copyOf(dims);
        }

        public boolean isRange() {
            return rangeCount >= 0;
        }
    }
}
