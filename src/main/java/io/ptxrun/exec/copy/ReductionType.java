package io.ptxrun.exec.copy;

/**
 * The element {@code .type} of a bulk reduction. The bit-size types ({@code .b32}, {@code .b64})
 * only take the bitwise operations; the spec tables keep them apart from {@code .u32} etc.
 */
public enum ReductionType {
    B32("b32", 4, Kind.BITS),
    B64("b64", 8, Kind.BITS),
    U32("u32", 4, Kind.UNSIGNED),
    S32("s32", 4, Kind.SIGNED),
    U64("u64", 8, Kind.UNSIGNED),
    S64("s64", 8, Kind.SIGNED),
    F16("f16", 2, Kind.HALF),
    BF16("bf16", 2, Kind.BFLOAT),
    F32("f32", 4, Kind.FLOAT),
    F64("f64", 8, Kind.FLOAT);

    /** How the bits of an element are interpreted. */
    public enum Kind {
        BITS,
        UNSIGNED,
        SIGNED,
        HALF,
        BFLOAT,
        FLOAT
    }

    private final String ptxName;
    private final int byteSize;
    private final Kind kind;

    ReductionType(String ptxName, int byteSize, Kind kind) {
        this.ptxName = ptxName;
        this.byteSize = byteSize;
        this.kind = kind;
    }

    public String ptxName() {
        return ptxName;
    }

    public int byteSize() {
        return byteSize;
    }

    public Kind kind() {
        return kind;
    }

    /** The type spelt {@code name} (with or without the leading dot), or null. */
    public static ReductionType fromPtx(String name) {
        String bare = name.startsWith(".") ? name.substring(1) : name;
        for (ReductionType type : values()) {
            if (type.ptxName.equals(bare)) {
                return type;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return ptxName;
    }
}
