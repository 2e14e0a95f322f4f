package io.ptxrun.launch;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The element type of a buffer, a scalar parameter or a tensor map, as named in launch and result
 * files.
 *
 * <p>{@code b8 .. b64} are separate constants, not just alternative spellings, because the result
 * file repeats the type exactly as the launch file wrote it (the hardware harness prints the
 * launch file's {@code type} string). Everything that depends on the bits treats them as the
 * unsigned type of the same width: see {@link #canonical()}.
 */
public enum ElementType {
    U8("u8", 1, false, false),
    S8("s8", 1, true, false),
    U16("u16", 2, false, false),
    S16("s16", 2, true, false),
    U32("u32", 4, false, false),
    S32("s32", 4, true, false),
    U64("u64", 8, false, false),
    S64("s64", 8, true, false),
    F32("f32", 4, true, true),
    F64("f64", 8, true, true),
    B8("b8", 1, false, false),
    B16("b16", 2, false, false),
    B32("b32", 4, false, false),
    B64("b64", 8, false, false);

    private static final List<String> NAMES =
            Arrays.stream(values()).map(ElementType::typeName).collect(Collectors.toUnmodifiableList());

    private final String typeName;
    private final int byteSize;
    private final boolean signed;
    private final boolean floating;

    ElementType(String typeName, int byteSize, boolean signed, boolean floating) {
        this.typeName = typeName;
        this.byteSize = byteSize;
        this.signed = signed;
        this.floating = floating;
    }

    /** The name used in launch and result files: {@code u8}, {@code s32}, {@code b64}, ... */
    public String typeName() {
        return typeName;
    }

    public int byteSize() {
        return byteSize;
    }

    public int bits() {
        return byteSize * 8;
    }

    /** True for signed integers and floats. */
    public boolean isSigned() {
        return signed;
    }

    public boolean isFloat() {
        return floating;
    }

    public boolean isInteger() {
        return !floating;
    }

    /** The unsigned type for a {@code bN} alias, the type itself otherwise. */
    public ElementType canonical() {
        return switch (this) {
            case B8 -> U8;
            case B16 -> U16;
            case B32 -> U32;
            case B64 -> U64;
            default -> this;
        };
    }

    /** All bits of an element set: {@code 0xFF} for 8-bit types, {@code -1L} for 64-bit ones. */
    public long mask() {
        return byteSize == 8 ? -1L : (1L << bits()) - 1;
    }

    /** The type named {@code name} (exact spelling, as in the launch format). */
    public static Optional<ElementType> fromName(String name) {
        for (ElementType type : values()) {
            if (type.typeName.equals(name)) {
                return Optional.of(type);
            }
        }
        return Optional.empty();
    }

    /** Like {@link #fromName} but failing with a message that lists the valid names. */
    public static ElementType parse(String name) {
        return fromName(name)
                .orElseThrow(
                        () ->
                                new LaunchException(
                                        "unknown element type '"
                                                + name
                                                + "' (expected one of "
                                                + String.join(", ", NAMES)
                                                + ")"
                                                + Suggestions.didYouMean(name, NAMES)));
    }

    /** Names of all types, in declaration order. */
    public static List<String> names() {
        return NAMES;
    }

    /** Element {@code index} of little-endian {@code data}, as raw bits zero-extended to 64. */
    public long load(byte[] data, int index) {
        int offset = index * byteSize;
        long bits = 0;
        for (int i = byteSize - 1; i >= 0; i--) {
            bits = (bits << 8) | (data[offset + i] & 0xFF);
        }
        return bits;
    }

    /** Writes the low {@link #bits()} of {@code bits} as element {@code index}, little-endian. */
    public void store(byte[] data, int index, long bits) {
        int offset = index * byteSize;
        for (int i = 0; i < byteSize; i++) {
            data[offset + i] = (byte) (bits >>> (8 * i));
        }
    }

    /** Raw bits (as {@link #load} returns them) sign-extended for signed integer types. */
    public long signExtend(long bits) {
        if (!signed || floating || byteSize == 8) {
            return bits & mask();
        }
        int shift = 64 - bits();
        return (bits << shift) >> shift;
    }

    /**
     * The raw bits of {@code value} as an element of this float type: rounded to nearest-even for
     * {@code f32} (as numpy and C casts do), zero-extended to 64 bits.
     */
    public long bitsOf(double value) {
        return switch (this) {
            case F32 -> Float.floatToRawIntBits((float) value) & 0xFFFFFFFFL;
            case F64 -> Double.doubleToRawLongBits(value);
            default -> throw new IllegalStateException(typeName + " is not a float type");
        };
    }

    /** The value of float bits as a double (exact: every {@code f32} is a {@code double}). */
    public double doubleOf(long bits) {
        return switch (this) {
            case F32 -> Float.intBitsToFloat((int) bits);
            case F64 -> Double.longBitsToDouble(bits);
            default -> throw new IllegalStateException(typeName + " is not a float type");
        };
    }

    /**
     * The element as it is written in result files and messages: a decimal integer (unsigned for
     * {@code u}/{@code b} types), the shortest round-tripping decimal for floats, or {@code NaN},
     * {@code Infinity}, {@code -Infinity}.
     */
    public String format(long bits) {
        return switch (this) {
            case F32 -> ShortestDecimal.of(Float.intBitsToFloat((int) bits));
            case F64 -> ShortestDecimal.of(Double.longBitsToDouble(bits));
            case U64, B64 -> Long.toUnsignedString(bits);
            default -> Long.toString(signExtend(bits));
        };
    }

    @Override
    public String toString() {
        return typeName;
    }
}
