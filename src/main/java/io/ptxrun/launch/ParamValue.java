package io.ptxrun.launch;

import java.util.List;
import java.util.Set;

/**
 * One kernel argument, in {@code .param} declaration order: a buffer's global address, a scalar,
 * a tensor map passed by value, or a C struct passed by value made of those.
 */
public sealed interface ParamValue {

    /** Bytes of parameter space a kernel's parameters may take in all (CUDA 12.1 and later). */
    int MAX_BYTES = 32764;

    /** Bytes the argument occupies in parameter space. */
    int byteSize();

    /** The alignment of the argument as a member of a struct: that of the C type it stands for. */
    int alignment();

    /** {@code "in"}: the 64-bit global address of the buffer named {@code name}. */
    record BufferAddress(String name) implements ParamValue {
        @Override
        public int byteSize() {
            return 8;
        }

        @Override
        public int alignment() {
            return 8;
        }
    }

    /**
     * {@code {"u32": 1024}}: a scalar of type {@code u32}, {@code s32}, {@code u64}, {@code s64},
     * {@code f32} or {@code f64} (the ones the launch format allows), held as raw bits zero-extended
     * to 64 ({@code s32 -1} is {@code 0xFFFFFFFFL}, {@code f32 1.0} is {@code 0x3F800000L}); the
     * constructor keeps only the type's width of whatever it is given. Struct members may also be
     * {@code u8}, {@code s8}, {@code u16} or {@code s16} (a {@code char}, a {@code short}, the bits
     * of a {@code half}).
     */
    record Scalar(ElementType type, long bits) implements ParamValue {
        public static final Set<ElementType> TYPES =
                Set.of(
                        ElementType.U32, ElementType.S32, ElementType.U64, ElementType.S64,
                        ElementType.F32, ElementType.F64);

        public static final Set<ElementType> MEMBER_TYPES =
                Set.of(
                        ElementType.U8, ElementType.S8, ElementType.U16, ElementType.S16,
                        ElementType.U32, ElementType.S32, ElementType.U64, ElementType.S64,
                        ElementType.F32, ElementType.F64);

        public Scalar {
            if (!MEMBER_TYPES.contains(type)) {
                throw new LaunchException(
                        "a scalar is u8, s8, u16, s16, u32, s32, u64, s64, f32 or f64, not " + type);
            }
            bits &= type.mask();
        }

        @Override
        public int byteSize() {
            return type.byteSize();
        }

        @Override
        public int alignment() {
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

        /** {@code CUtensorMap} is declared {@code alignas(64)}. */
        @Override
        public int alignment() {
            return 64;
        }
    }

    /** {@code {"zeros": 8}}: bytes of a struct that hold nothing the kernel reads (empty members, padding). */
    record Zeros(int count) implements ParamValue {
        @Override
        public int byteSize() {
            return count;
        }

        @Override
        public int alignment() {
            return 1;
        }
    }

    /**
     * {@code {"struct": [members...]}}: a C struct passed by value (a {@code __grid_constant__}
     * argument holding tensor maps, a CuTe tuple of sizes). Each member is placed at the next offset
     * that is a multiple of its own alignment, as C lays out a struct; the size is the end of the
     * last member, so tail padding is written as {@code {"zeros": n}}.
     */
    record Struct(List<ParamValue> members) implements ParamValue {
        public Struct {
            members = List.copyOf(members);
            long end = 0;
            for (ParamValue m : members) {
                long align = m.alignment();
                end = (end + align - 1) / align * align + m.byteSize();
                if (end > MAX_BYTES) {
                    throw new LaunchException("the struct is larger than the " + MAX_BYTES
                            + " bytes kernel parameters may take");
                }
            }
        }

        /** The offset of each member (the constructor made sure they fit parameter space). */
        public int[] offsets() {
            int[] offsets = new int[members.size()];
            int end = 0;
            for (int i = 0; i < members.size(); i++) {
                int align = members.get(i).alignment();
                offsets[i] = (end + align - 1) / align * align;
                end = offsets[i] + members.get(i).byteSize();
            }
            return offsets;
        }

        @Override
        public String toString() {
            return "a struct";
        }

        @Override
        public int byteSize() {
            return members.isEmpty() ? 0 : offsets()[members.size() - 1] + members.get(members.size() - 1).byteSize();
        }

        @Override
        public int alignment() {
            return members.stream().mapToInt(ParamValue::alignment).max().orElse(1);
        }
    }
}
