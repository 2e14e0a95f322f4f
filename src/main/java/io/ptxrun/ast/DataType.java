package io.ptxrun.ast;

/** Fundamental and packed types (PTX ISA 5.2.1, 5.2.3, 5.2.5) with their width in bits. */
public enum DataType {
    B8(8, Kind.BITS), B16(16, Kind.BITS), B32(32, Kind.BITS), B64(64, Kind.BITS), B128(128, Kind.BITS),
    U8(8, Kind.UNSIGNED), U16(16, Kind.UNSIGNED), U32(32, Kind.UNSIGNED), U64(64, Kind.UNSIGNED),
    S8(8, Kind.SIGNED), S16(16, Kind.SIGNED), S32(32, Kind.SIGNED), S64(64, Kind.SIGNED),
    F16(16, Kind.FLOAT), F16X2(32, Kind.FLOAT), BF16(16, Kind.FLOAT), BF16X2(32, Kind.FLOAT),
    F32(32, Kind.FLOAT), F64(64, Kind.FLOAT), TF32(32, Kind.FLOAT), F32X2(64, Kind.FLOAT),
    E4M3(8, Kind.FLOAT), E5M2(8, Kind.FLOAT), E4M3X2(16, Kind.FLOAT), E5M2X2(16, Kind.FLOAT),
    E2M1X2(8, Kind.FLOAT), E2M3X2(16, Kind.FLOAT), E3M2X2(16, Kind.FLOAT), UE8M0X2(16, Kind.FLOAT),
    S16X2(32, Kind.SIGNED), U16X2(32, Kind.UNSIGNED),
    PRED(1, Kind.PRED),
    /** Opaque handle types (5.3). */
    TEXREF(64, Kind.OPAQUE), SAMPLERREF(64, Kind.OPAQUE), SURFREF(64, Kind.OPAQUE);

    public enum Kind { BITS, UNSIGNED, SIGNED, FLOAT, PRED, OPAQUE }

    public final int bits;
    public final Kind kind;
    public final String spelling;

    DataType(int bits, Kind kind) {
        this.bits = bits;
        this.kind = kind;
        this.spelling = "." + name().toLowerCase();
    }

    /** Size in memory (a predicate register has no memory size; 1 byte is used for params). */
    public int bytes() {
        return Math.max(1, bits / 8);
    }

    public boolean isFloat() {
        return kind == Kind.FLOAT;
    }

    public boolean isSigned() {
        return kind == Kind.SIGNED;
    }

    public boolean isInteger() {
        return kind == Kind.BITS || kind == Kind.UNSIGNED || kind == Kind.SIGNED;
    }

    public static DataType ofSpelling(String s) {
        if (s.length() < 2 || s.charAt(0) != '.') {
            return null;
        }
        return BY_SPELLING.get(s);
    }

    private static final java.util.Map<String, DataType> BY_SPELLING = new java.util.HashMap<>();

    static {
        for (DataType t : values()) {
            BY_SPELLING.put(t.spelling, t);
        }
    }
}
