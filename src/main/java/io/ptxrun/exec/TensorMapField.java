package io.ptxrun.exec;

import io.ptxrun.launch.TensorMap;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;

/**
 * The fields {@code tensormap.replace} can rewrite (PTX ISA 9.7.9.26 tensormap.replace, .field1 to
 * .field3), each as the place it occupies in ptxrun's 128-byte tensor map ({@link TensorMap}) and
 * how the instruction's new value becomes the bytes stored there.
 */
enum TensorMapField {
    GLOBAL_ADDRESS(".global_address", false, TensorMap.OFFSET_GLOBAL_ADDRESS, 0, 8),
    /** new_val is the rank minus one (zero-based). */
    RANK(".rank", false, TensorMap.OFFSET_RANK, 0, 1),
    BOX_DIM(".box_dim", true, TensorMap.OFFSET_BOX, 4, 4),
    GLOBAL_DIM(".global_dim", true, TensorMap.OFFSET_DIMS, 8, 8),
    /** ord indexes the byte strides of dimensions 1 .. rank-1, as cuTensorMapEncodeTiled's globalStrides. */
    GLOBAL_STRIDE(".global_stride", true, TensorMap.OFFSET_STRIDES, 8, 8),
    ELEMENT_STRIDE(".element_stride", true, TensorMap.OFFSET_ELEMENT_STRIDES, 1, 1),
    ELEMTYPE(".elemtype", false, TensorMap.OFFSET_TYPE, 0, 1),
    INTERLEAVE_LAYOUT(".interleave_layout", false, TensorMap.OFFSET_INTERLEAVE, 0, 1),
    SWIZZLE_MODE(".swizzle_mode", false, TensorMap.OFFSET_SWIZZLE, 0, 1),
    SWIZZLE_ATOMICITY(".swizzle_atomicity", false, TensorMap.OFFSET_SWIZZLE_ATOMICITY, 0, 1),
    FILL_MODE(".fill_mode", false, TensorMap.OFFSET_OOB_FILL, 0, 1);

    /** The most dimensions a map has, so the bound of {@code ord}. */
    static final int MAX_ORDINAL = TensorMap.MAX_RANK;

    /**
     * .elemtype values of tensormap.replace (Table 33) that ptxrun's maps support, to the
     * CUtensorMapDataType codes the map stores: the two numberings part at f32.ftz and f64.
     */
    private static final Map<Long, Integer> ELEMTYPE_CODES =
            Map.of(0L, 0, 1L, 1, 2L, 2, 3L, 3, 4L, 4, 5L, 5, 7L, 7, 9L, 8);

    final String spelling;
    /** Whether the instruction names an ordinal (.field2). */
    final boolean ordinal;
    final int offset;
    /** Bytes between the fields of consecutive ordinals. */
    final int pitch;
    final int bytes;

    TensorMapField(String spelling, boolean ordinal, int offset, int pitch, int bytes) {
        this.spelling = spelling;
        this.ordinal = ordinal;
        this.offset = offset;
        this.pitch = pitch;
        this.bytes = bytes;
    }

    static Optional<TensorMapField> of(String spelling) {
        return Arrays.stream(values()).filter(f -> f.spelling.equals(spelling)).findFirst();
    }

    /** Byte offset of the field for ordinal {@code ord} in the 128-byte map. */
    int offset(int ord) {
        return offset + pitch * ord;
    }

    /**
     * The bits stored for {@code newValue}, or empty when ptxrun's maps cannot represent the value
     * (an element type it does not execute).
     */
    Optional<Long> encode(long newValue) {
        return switch (this) {
            case RANK -> Optional.of((newValue & 0xffffffffL) + 1);
            case ELEMTYPE -> Optional.ofNullable(ELEMTYPE_CODES.get(newValue & 0xffffffffL)).map(Integer::longValue);
            case GLOBAL_ADDRESS, GLOBAL_STRIDE -> Optional.of(newValue);
            default -> Optional.of(newValue & 0xffffffffL);
        };
    }
}
