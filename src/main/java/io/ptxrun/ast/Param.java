package io.ptxrun.ast;

import java.util.List;
import java.util.Optional;

/**
 * A kernel or function parameter: `.param .align 64 .b8 tmap[128]`,
 * `.param .u64 .ptr.shared.align 8 p`, or an old-style `.reg .b32 x` (also a vector register,
 * `.reg .v4 .u32 x`: vectorWidth is 1 for a scalar).
 */
public record Param(SourcePos pos, StateSpace space, int align, int vectorWidth, DataType type,
                    Optional<PointerAttribute> pointer, String name, List<Long> dims) implements Node {
    public Param {
        dims = List.copyOf(dims);
    }

    /** Size in bytes of the parameter as passed. */
    /** The parameter's bytes; {@code Long.MAX_VALUE} when that overflows. */
    public long sizeBytes() {
        long n = (long) type.bytes() * vectorWidth;
        for (long d : dims) {
            if (d < 0 || (d > 0 && n > Long.MAX_VALUE / d)) {
                return Long.MAX_VALUE;
            }
            n *= d;
        }
        return n;
    }

    /** Alignment in bytes: the explicit `.align` or the natural alignment of the type. */
    public int effectiveAlign() {
        return align > 0 ? align : Math.max(1, type.bytes());
    }

    /** `.ptr.space.align N` on a kernel pointer parameter (5.1.6.1). */
    public record PointerAttribute(StateSpace space, int align) {}
}
