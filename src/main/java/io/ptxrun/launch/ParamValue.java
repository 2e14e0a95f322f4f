package io.ptxrun.launch;

import java.util.Set;

/**
 * One kernel argument, in {@code .param} declaration order: a buffer's global address, a scalar,
 * or a tensor map passed by value.
 */
public sealed interface ParamValue {

    /** Bytes the argument occupies in parameter space. */
    int byteSize();

    /** {@code "in"}: the 64-bit global address of the buffer named {@code name}. */
    record BufferAddress(String name) implements ParamValue {
        @Override
        public int byteSize() {
            return 8;
        }
    }

    /**
     * {@code {"u32": 1024}}: a scalar of type {@code u32}, {@code s32}, {@code u64}, {@code s64},
     * {@code f32} or {@code f64} (the ones the launch format allows), held as raw bits zero-extended
     * to 64 ({@code s32 -1} is {@code 0xFFFFFFFFL}, {@code f32 1.0} is {@code 0x3F800000L}); the
     * constructor keeps only the type's width of whatever it is given.
     */
    record Scalar(ElementType type, long bits) implements ParamValue {
        public static final Set<ElementType> TYPES =
                Set.of(
                        ElementType.U32, ElementType.S32, ElementType.U64, ElementType.S64,
                        ElementType.F32, ElementType.F64);

        public Scalar {
            if (!TYPES.contains(type)) {
                throw new LaunchException(
                        "a scalar parameter is u32, s32, u64, s64, f32 or f64, not " + type);
            }
            bits &= type.mask();
        }

        @Override
        public int byteSize() {
            return type.byteSize();
        }

        /** The argument's bytes as they sit in parameter space. */
        public byte[] littleEndianBytes() {
            byte[] bytes = new byte[type.byteSize()];
            type.store(bytes, 0, bits);
            return bytes;
        }

        @Override
        public String toString() {
            return type + " " + type.format(bits);
        }
    }

    /** {@code {"tensorMap": "tmA"}}: the 128-byte tensor map named {@code name}, by value. */
    record TensorMapParam(String name) implements ParamValue {
        @Override
        public int byteSize() {
            return TensorMap.SIZE;
        }
    }
}
