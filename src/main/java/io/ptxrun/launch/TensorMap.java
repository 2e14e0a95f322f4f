package io.ptxrun.launch;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A tiled TMA tensor map as a kernel receives it: the 128 bytes passed by value for a
 * {@code {"tensorMap": name}} parameter, decoded. On hardware the 128 bytes are an opaque driver
 * format; ptxrun uses its own, documented here so that the interpreter (and
 * {@code tensormap.replace}) can read and patch individual fields.
 *
 * <h2>Binary layout (little-endian, 128 bytes)</h2>
 *
 * <table>
 *   <caption>ptxrun tensor map, version 1</caption>
 *   <tr><th>offset</th><th>size</th><th>field</th></tr>
 *   <tr><td>0</td><td>4</td><td>magic {@code 0x50414D54}: the bytes {@code "TMAP"}</td></tr>
 *   <tr><td>4</td><td>1</td><td>layout version, 1</td></tr>
 *   <tr><td>5</td><td>1</td><td>rank, 1 to 5</td></tr>
 *   <tr><td>6</td><td>1</td><td>element type, numbered as {@code CUtensorMapDataType}: u8 0, u16 1,
 *       u32 2, s32 3, u64 4, s64 5, f32 7, f64 8</td></tr>
 *   <tr><td>7</td><td>1</td><td>interleave: none 0, 16B 1, 32B 2</td></tr>
 *   <tr><td>8</td><td>1</td><td>swizzle: none 0, 32B 1, 64B 2, 128B 3</td></tr>
 *   <tr><td>9</td><td>1</td><td>L2 promotion: none 0, 64B 1, 128B 2, 256B 3</td></tr>
 *   <tr><td>10</td><td>1</td><td>out-of-bounds fill: none (zeros) 0, nan 1</td></tr>
 *   <tr><td>11</td><td>1</td><td>mode: tiled 0, im2col 1, im2col wide W 2, im2col wide W128 3</td></tr>
 *   <tr><td>12</td><td>1</td><td>swizzle atomicity ({@code tensormap.replace} numbering): 16B 0, the
 *       only one ptxrun executes</td></tr>
 *   <tr><td>13</td><td>3</td><td>reserved, 0</td></tr>
 *   <tr><td>16</td><td>8</td><td>global address of element (0, ..., 0)</td></tr>
 *   <tr><td>24</td><td>5 &times; 8</td><td>dims, innermost first (u64; unused entries 0)</td></tr>
 *   <tr><td>64</td><td>4 &times; 8</td><td>byte strides of dimensions 1 .. rank-1 (u64)</td></tr>
 *   <tr><td>96</td><td>5 &times; 4</td><td>tiled: box size per dimension (u32); im2col: channels per
 *       pixel (u16), pixels per column (u16), pixel box lower corner W, H, D (s16 each), upper
 *       corner W, H, D (s16 each), 0</td></tr>
 *   <tr><td>116</td><td>5 &times; 1</td><td>element strides (u8)</td></tr>
 *   <tr><td>121</td><td>7</td><td>reserved, 0</td></tr>
 * </table>
 *
 * <p>Fields sit at fixed offsets so that {@code tensormap.replace} rewrites one field in place and
 * a copy that then uses the map sees the new value.
 *
 * <p>The enum codes are the CUDA driver's, so a map reads the same way in both worlds. Every map
 * obeys the rules {@code cuTensorMapEncodeTiled} enforces (see {@link #TensorMap}); decoding
 * checks them again, because a kernel may have rewritten fields.
 */
public record TensorMap(
        long globalAddress,
        ElementType type,
        List<Long> dims,
        List<Long> strides,
        List<Integer> box,
        List<Integer> elementStrides,
        Interleave interleave,
        Swizzle swizzle,
        L2Promotion l2Promotion,
        OobFill oobFill,
        TensorMapIm2col im2col) {

    public static final int SIZE = 128;
    public static final int MAGIC = 0x50414D54;
    public static final int VERSION = 1;
    public static final int MAX_RANK = 5;

    public static final int OFFSET_MAGIC = 0;
    public static final int OFFSET_VERSION = 4;
    public static final int OFFSET_RANK = 5;
    public static final int OFFSET_TYPE = 6;
    public static final int OFFSET_INTERLEAVE = 7;
    public static final int OFFSET_SWIZZLE = 8;
    public static final int OFFSET_L2_PROMOTION = 9;
    public static final int OFFSET_OOB_FILL = 10;
    public static final int OFFSET_MODE = 11;
    public static final int OFFSET_SWIZZLE_ATOMICITY = 12;
    public static final int OFFSET_GLOBAL_ADDRESS = 16;
    public static final int OFFSET_DIMS = 24;
    public static final int OFFSET_STRIDES = 64;
    public static final int OFFSET_BOX = 96;
    public static final int OFFSET_ELEMENT_STRIDES = 116;
    public static final int OFFSET_CHANNELS_PER_PIXEL = 96;
    public static final int OFFSET_PIXELS_PER_COLUMN = 98;
    public static final int OFFSET_LOWER_CORNER = 100;
    public static final int OFFSET_UPPER_CORNER = 106;

    /** Element types a tensor map can have, with their {@code CUtensorMapDataType} numbers. */
    private static final Map<ElementType, Integer> TYPE_CODES =
            Map.of(
                    ElementType.U8, 0,
                    ElementType.U16, 1,
                    ElementType.U32, 2,
                    ElementType.S32, 3,
                    ElementType.U64, 4,
                    ElementType.S64, 5,
                    ElementType.F32, 7,
                    ElementType.F64, 8);

    /** {@code CUtensorMapInterleave}. */
    public enum Interleave {
        NONE("none"),
        B16("16B"),
        B32("32B");

        private final String jsonName;

        Interleave(String jsonName) {
            this.jsonName = jsonName;
        }

        public String jsonName() {
            return jsonName;
        }

        @Override
        public String toString() {
            return jsonName;
        }
    }

    /** {@code CUtensorMapSwizzle}: 16-byte chunks permuted within a span of this many bytes. */
    public enum Swizzle {
        NONE("none", 0),
        B32("32B", 32),
        B64("64B", 64),
        B128("128B", 128);

        private final String jsonName;
        private final int spanBytes;

        Swizzle(String jsonName, int spanBytes) {
            this.jsonName = jsonName;
            this.spanBytes = spanBytes;
        }

        public String jsonName() {
            return jsonName;
        }

        /** The swizzle span in bytes, 0 for {@link #NONE}. */
        public int spanBytes() {
            return spanBytes;
        }

        @Override
        public String toString() {
            return jsonName;
        }
    }

    /** {@code CUtensorMapL2promotion}. */
    public enum L2Promotion {
        NONE("none"),
        B64("64B"),
        B128("128B"),
        B256("256B");

        private final String jsonName;

        L2Promotion(String jsonName) {
            this.jsonName = jsonName;
        }

        public String jsonName() {
            return jsonName;
        }

        @Override
        public String toString() {
            return jsonName;
        }
    }

    /**
     * {@code CUtensorMapFloatOOBfill}: out-of-bounds elements read as zero, or (for float types)
     * as a NaN that makes a following FMA produce zero.
     */
    public enum OobFill {
        NONE("none"),
        NAN("nan");

        private final String jsonName;

        OobFill(String jsonName) {
            this.jsonName = jsonName;
        }

        public String jsonName() {
            return jsonName;
        }

        @Override
        public String toString() {
            return jsonName;
        }
    }

    /**
     * Checks every rule of {@code cuTensorMapEncodeTiled} for tiled maps of the types above, each
     * failure a {@link LaunchException} naming the field ({@code box[0]}, {@code strides[1]}, ...).
     * Where the driver's documentation and the driver itself disagree, this follows the driver
     * (recorded in {@code tensor-map-driver.json} of the tests): the inner box must be a multiple
     * of 16 bytes with interleave too, and interleave 32B does not require swizzle 32B.
     */
    public TensorMap {
        dims = List.copyOf(dims);
        strides = List.copyOf(strides);
        box = List.copyOf(box);
        elementStrides = List.copyOf(elementStrides);
        checkLayout(type, dims, strides, box, elementStrides, interleave, swizzle, oobFill, im2col);
        int alignment = interleave == Interleave.B32 ? 32 : 16;
        if ((globalAddress & (alignment - 1)) != 0) {
            throw new LaunchException(
                    "globalAddress",
                    String.format("0x%x is not %d-byte aligned", globalAddress, alignment));
        }
    }

    /** A tiled map ({@code cuTensorMapEncodeTiled}). */
    public TensorMap(
            long globalAddress,
            ElementType type,
            List<Long> dims,
            List<Long> strides,
            List<Integer> box,
            List<Integer> elementStrides,
            Interleave interleave,
            Swizzle swizzle,
            L2Promotion l2Promotion,
            OobFill oobFill) {
        this(globalAddress, type, dims, strides, box, elementStrides, interleave, swizzle, l2Promotion, oobFill, null);
    }

    public int rank() {
        return dims.size();
    }

    /** Whether this is an im2col map (plain or wide); a tiled map has a box instead. */
    public boolean isIm2col() {
        return im2col != null;
    }

    /** The element types a tensor map supports (those of the harness and the CUDA driver). */
    public static List<ElementType> supportedTypes() {
        return TYPE_CODES.keySet().stream().sorted().collect(Collectors.toUnmodifiableList());
    }

    /** The rules shared by {@link TensorMapSpec} (which has no address yet) and this record. */
    static void checkLayout(
            ElementType type,
            List<Long> dims,
            List<Long> strides,
            List<Integer> box,
            List<Integer> elementStrides,
            Interleave interleave,
            Swizzle swizzle,
            OobFill oobFill,
            TensorMapIm2col im2col) {
        if (!TYPE_CODES.containsKey(type)) {
            throw new LaunchException(
                    "type",
                    "a tensor map element type is one of "
                            + supportedTypes().stream()
                                    .map(ElementType::typeName)
                                    .collect(Collectors.joining(", "))
                            + ", not "
                            + type);
        }
        int rank = dims.size();
        if (rank < 1 || rank > MAX_RANK) {
            throw new LaunchException("dims", "expected 1 to " + MAX_RANK + " dimensions, got " + rank);
        }
        for (int i = 0; i < rank; i++) {
            long dim = dims.get(i);
            if (dim < 1 || dim > 1L << 32) {
                throw new LaunchException(
                        JsonPaths.index("dims", i), "must be between 1 and 2^32, got " + dim);
            }
        }
        if (strides.size() != rank - 1) {
            throw new LaunchException(
                    "strides",
                    "expected "
                            + (rank - 1)
                            + " byte strides (one for each dimension after the first) for rank "
                            + rank
                            + ", got "
                            + strides.size());
        }
        int strideAlignment = interleave == Interleave.B32 ? 32 : 16;
        for (int i = 0; i < strides.size(); i++) {
            long stride = strides.get(i);
            String path = JsonPaths.index("strides", i);
            if (stride < 0 || stride >= 1L << 40) {
                throw new LaunchException(path, "must be less than 2^40, got " + stride);
            }
            if (stride % strideAlignment != 0) {
                throw new LaunchException(
                        path,
                        stride
                                + " is not a multiple of "
                                + strideAlignment
                                + (interleave == Interleave.B32 ? " (required with interleave 32B)" : ""));
            }
        }
        if (im2col != null) {
            im2col.check(dims, type);
            if (!box.isEmpty()) {
                throw new LaunchException("box", "an im2col tensor map has no box (channelsPerPixel and"
                        + " pixelsPerColumn take its place)");
            }
            checkElementStrides(elementStrides, rank);
            if (interleave != Interleave.NONE) {
                throw new LaunchException("interleave", "ptxrun executes im2col maps without interleave only");
            }
            int rowBytes = im2col.channelsPerPixel() * type.byteSize();
            if (swizzle != Swizzle.NONE && rowBytes > swizzle.spanBytes()) {
                throw new LaunchException((im2col.kind().wide() ? "im2colWide" : "im2col") + ".channelsPerPixel", im2col.channelsPerPixel() + " channels of "
                        + type + " are " + rowBytes + " bytes, more than the " + swizzle.spanBytes()
                        + "-byte span of swizzle " + swizzle);
            }
            // 5.5.5: the wide modes need a swizzle mode (no swizzle is not valid).
            if (im2col.kind().wide() && swizzle == Swizzle.NONE) {
                throw new LaunchException("swizzle", "an im2col wide map needs swizzle 32B, 64B or 128B"
                        + " (PTX ISA 5.5.5)");
            }
            if (oobFill == OobFill.NAN && !type.isFloat()) {
                throw new LaunchException(
                        "oobFill", "nan fill needs a floating-point element type, not " + type);
            }
            return;
        }
        checkCount("box", box, rank);
        for (int i = 0; i < rank; i++) {
            int size = box.get(i);
            if (size < 1 || size > 256) {
                throw new LaunchException(
                        JsonPaths.index("box", i), "must be between 1 and 256, got " + size);
            }
        }
        // The driver documentation asks for this only without interleave; the driver asks always.
        int innerBoxBytes = box.get(0) * type.byteSize();
        if (innerBoxBytes % 16 != 0) {
            throw new LaunchException(
                    "box[0]",
                    box.get(0) + " elements of " + type + " are " + innerBoxBytes
                            + " bytes, not a multiple of 16");
        }
        checkElementStrides(elementStrides, rank);
        if (interleave != Interleave.NONE && rank < 3) {
            throw new LaunchException(
                    "interleave", "interleave " + interleave + " needs a rank of 3 or more, got " + rank);
        }
        if (interleave == Interleave.NONE
                && swizzle != Swizzle.NONE
                && innerBoxBytes > swizzle.spanBytes()) {
            throw new LaunchException(
                    "box[0]",
                    box.get(0)
                            + " elements of "
                            + type
                            + " are "
                            + innerBoxBytes
                            + " bytes, more than the "
                            + swizzle.spanBytes()
                            + "-byte span of swizzle "
                            + swizzle);
        }
        if (oobFill == OobFill.NAN && !type.isFloat()) {
            throw new LaunchException(
                    "oobFill", "nan fill needs a floating-point element type, not " + type);
        }
    }

    private static void checkElementStrides(List<Integer> elementStrides, int rank) {
        checkCount("elementStrides", elementStrides, rank);
        for (int i = 0; i < rank; i++) {
            int stride = elementStrides.get(i);
            if (stride < 1 || stride > 8) {
                throw new LaunchException(
                        JsonPaths.index("elementStrides", i), "must be between 1 and 8, got " + stride);
            }
        }
    }

    private static void checkCount(String field, List<?> values, int rank) {
        if (values.size() != rank) {
            throw new LaunchException(
                    field, "expected " + rank + " entries (one per dimension), got " + values.size());
        }
    }

    /** The 128-byte form described in the class comment. */
    public byte[] encode() {
        ByteBuffer out = ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN);
        out.putInt(OFFSET_MAGIC, MAGIC);
        out.put(OFFSET_VERSION, (byte) VERSION);
        out.put(OFFSET_RANK, (byte) rank());
        out.put(OFFSET_TYPE, (byte) (int) TYPE_CODES.get(type));
        out.put(OFFSET_INTERLEAVE, (byte) interleave.ordinal());
        out.put(OFFSET_SWIZZLE, (byte) swizzle.ordinal());
        out.put(OFFSET_L2_PROMOTION, (byte) l2Promotion.ordinal());
        out.put(OFFSET_OOB_FILL, (byte) oobFill.ordinal());
        out.putLong(OFFSET_GLOBAL_ADDRESS, globalAddress);
        out.put(OFFSET_MODE, (byte) (im2col == null ? 0 : im2col.kind().code()));
        for (int i = 0; i < rank(); i++) {
            out.putLong(OFFSET_DIMS + 8 * i, dims.get(i));
            if (im2col == null) {
                out.putInt(OFFSET_BOX + 4 * i, box.get(i));
            }
            out.put(OFFSET_ELEMENT_STRIDES + i, (byte) (int) elementStrides.get(i));
        }
        if (im2col != null) {
            out.putShort(OFFSET_CHANNELS_PER_PIXEL, (short) im2col.channelsPerPixel());
            out.putShort(OFFSET_PIXELS_PER_COLUMN, (short) im2col.pixelsPerColumn());
            for (int i = 0; i < im2col.lowerCorner().size(); i++) {
                out.putShort(OFFSET_LOWER_CORNER + 2 * i, (short) (int) im2col.lowerCorner().get(i));
                out.putShort(OFFSET_UPPER_CORNER + 2 * i, (short) (int) im2col.upperCorner().get(i));
            }
        }
        for (int i = 0; i < strides.size(); i++) {
            out.putLong(OFFSET_STRIDES + 8 * i, strides.get(i));
        }
        return out.array();
    }

    /** Decodes the first 128 bytes of {@code bytes}. */
    public static TensorMap decode(byte[] bytes) {
        if (bytes.length < SIZE) {
            throw new LaunchException(
                    "a tensor map is " + SIZE + " bytes, got " + bytes.length);
        }
        return decode(ByteBuffer.wrap(bytes));
    }

    /**
     * Decodes the 128 bytes at the buffer's position (little-endian whatever the buffer's byte
     * order), leaving the position where it was.
     */
    public static TensorMap decode(ByteBuffer buffer) {
        if (buffer.remaining() < SIZE) {
            throw new LaunchException(
                    "a tensor map is " + SIZE + " bytes, got " + buffer.remaining());
        }
        ByteBuffer in = buffer.slice().order(ByteOrder.LITTLE_ENDIAN);
        int magic = in.getInt(OFFSET_MAGIC);
        if (magic != MAGIC) {
            throw new LaunchException(
                    String.format(
                            "not a ptxrun tensor map: magic 0x%08x, expected 0x%08x", magic, MAGIC));
        }
        int version = in.get(OFFSET_VERSION) & 0xFF;
        if (version != VERSION) {
            throw new LaunchException(
                    "unsupported tensor map layout version " + version + " (expected " + VERSION + ")");
        }
        int rank = in.get(OFFSET_RANK) & 0xFF;
        if (rank < 1 || rank > MAX_RANK) {
            throw new LaunchException("rank", "expected 1 to " + MAX_RANK + ", got " + rank);
        }
        int typeCode = in.get(OFFSET_TYPE) & 0xFF;
        ElementType type =
                TYPE_CODES.entrySet().stream()
                        .filter(e -> e.getValue() == typeCode)
                        .map(Map.Entry::getKey)
                        .findFirst()
                        .orElseThrow(
                                () -> new LaunchException("type", "unknown element type code " + typeCode));
        int mode = in.get(OFFSET_MODE) & 0xFF;
        TensorMapIm2col im2col = null;
        if (mode != 0) {
            TensorMapIm2col.Kind kind =
                    Arrays.stream(TensorMapIm2col.Kind.values())
                            .filter(k -> k.code() == mode)
                            .findFirst()
                            .orElseThrow(() -> new LaunchException("mode", "unknown tensor map mode " + mode));
            int corners = kind.wide() ? 1 : Math.max(rank - 2, 0);
            List<Integer> lower = new ArrayList<>();
            List<Integer> upper = new ArrayList<>();
            for (int i = 0; i < corners; i++) {
                lower.add((int) in.getShort(OFFSET_LOWER_CORNER + 2 * i));
                upper.add((int) in.getShort(OFFSET_UPPER_CORNER + 2 * i));
            }
            im2col = new TensorMapIm2col(kind, lower, upper,
                    in.getShort(OFFSET_CHANNELS_PER_PIXEL) & 0xFFFF, in.getShort(OFFSET_PIXELS_PER_COLUMN) & 0xFFFF);
        }
        int atomicity = in.get(OFFSET_SWIZZLE_ATOMICITY) & 0xFF;
        if (atomicity != 0) {
            throw new LaunchException("swizzleAtomicity", "swizzle atomicity code " + atomicity
                    + " is not executed (16B atomicity, code 0, only)");
        }
        List<Long> dims = new ArrayList<>();
        List<Integer> box = new ArrayList<>();
        List<Integer> elementStrides = new ArrayList<>();
        for (int i = 0; i < rank; i++) {
            dims.add(in.getLong(OFFSET_DIMS + 8 * i));
            if (im2col == null) {
                long boxSize = Integer.toUnsignedLong(in.getInt(OFFSET_BOX + 4 * i));
                box.add((int) Math.min(boxSize, Integer.MAX_VALUE));
            }
            elementStrides.add(in.get(OFFSET_ELEMENT_STRIDES + i) & 0xFF);
        }
        List<Long> strides = new ArrayList<>();
        for (int i = 0; i < rank - 1; i++) {
            strides.add(in.getLong(OFFSET_STRIDES + 8 * i));
        }
        return new TensorMap(
                in.getLong(OFFSET_GLOBAL_ADDRESS),
                type,
                dims,
                strides,
                box,
                elementStrides,
                code(Interleave.values(), in.get(OFFSET_INTERLEAVE), "interleave"),
                code(Swizzle.values(), in.get(OFFSET_SWIZZLE), "swizzle"),
                code(L2Promotion.values(), in.get(OFFSET_L2_PROMOTION), "l2Promotion"),
                code(OobFill.values(), in.get(OFFSET_OOB_FILL), "oobFill"),
                im2col);
    }

    private static <E extends Enum<E>> E code(E[] values, byte code, String field) {
        int index = code & 0xFF;
        if (index >= values.length) {
            throw new LaunchException(
                    field, "unknown code " + index + " (expected 0 to " + (values.length - 1) + ")");
        }
        return values[index];
    }

    @Override
    public String toString() {
        return "TensorMap["
                + String.format("globalAddress=0x%x", globalAddress)
                + ", type=" + type
                + ", dims=" + dims
                + ", strides=" + strides
                + ", box=" + box
                + ", elementStrides=" + elementStrides
                + ", interleave=" + interleave
                + ", swizzle=" + swizzle
                + ", l2Promotion=" + l2Promotion
                + ", oobFill=" + oobFill
                + (im2col == null ? "" : ", im2col=" + im2col)
                + "]";
    }

    /** The constant of an option enum whose launch-file spelling ({@code toString}) is {@code name}. */
    static <E extends Enum<E>> Optional<E> byJsonName(E[] values, String name) {
        return Arrays.stream(values).filter(v -> v.toString().equals(name)).findFirst();
    }

    /** The launch-file spellings of an option enum, for messages. */
    static List<String> jsonNames(Enum<?>[] values) {
        return Arrays.stream(values).map(Object::toString).collect(Collectors.toUnmodifiableList());
    }
}
