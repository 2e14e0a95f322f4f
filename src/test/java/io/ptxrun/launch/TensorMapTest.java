package io.ptxrun.launch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ptxrun.launch.TensorMap.Interleave;
import io.ptxrun.launch.TensorMap.L2Promotion;
import io.ptxrun.launch.TensorMap.OobFill;
import io.ptxrun.launch.TensorMap.Swizzle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class TensorMapTest {

    private static TensorMapSpec spec(
            ElementType type, List<Long> dims, List<Long> strides, List<Integer> box, List<Integer> elementStrides,
            Interleave interleave, Swizzle swizzle, OobFill oobFill) {
        return new TensorMapSpec("A", type, dims, strides, box, elementStrides, interleave, swizzle, L2Promotion.NONE, oobFill);
    }

    private static TensorMapSpec simple2d() {
        return new TensorMapSpec(
                "A", ElementType.F32, List.of(64L, 32L), List.of(256L), List.of(16, 8), List.of(1, 1),
                Interleave.NONE, Swizzle.B64, L2Promotion.B128, OobFill.NAN);
    }

    @Test
    void encodesTheDocumentedLayout() {
        byte[] bytes = simple2d().encode(0x7000_0100L);
        assertEquals(TensorMap.SIZE, bytes.length);
        ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        assertArrayEquals(new byte[] {'T', 'M', 'A', 'P'}, java.util.Arrays.copyOf(bytes, 4));
        assertEquals(1, in.get(4), "version");
        assertEquals(2, in.get(5), "rank");
        assertEquals(7, in.get(6), "CU_TENSOR_MAP_DATA_TYPE_FLOAT32");
        assertEquals(0, in.get(7), "interleave none");
        assertEquals(2, in.get(8), "swizzle 64B");
        assertEquals(2, in.get(9), "L2 128B");
        assertEquals(1, in.get(10), "NaN fill");
        assertEquals(0x7000_0100L, in.getLong(16));
        assertEquals(64, in.getLong(24));
        assertEquals(32, in.getLong(32));
        assertEquals(0, in.getLong(40), "unused dims are 0");
        assertEquals(256, in.getLong(64));
        assertEquals(0, in.getLong(72));
        assertEquals(16, in.getInt(96));
        assertEquals(8, in.getInt(100));
        assertEquals(1, in.get(116));
        assertEquals(1, in.get(117));
        assertEquals(0, in.get(118));
        for (int i = 121; i < 128; i++) {
            assertEquals(0, bytes[i], "reserved byte " + i);
        }
    }

    @Test
    void decodesWhatItEncodes() {
        TensorMap map = simple2d().toTensorMap(0x1000);
        assertEquals(map, TensorMap.decode(map.encode()));
        ByteBuffer param = ByteBuffer.allocate(200);
        param.position(40);
        param.put(map.encode());
        param.position(40);
        assertEquals(map, TensorMap.decode(param));
        assertEquals(40, param.position(), "decoding leaves the position alone");
    }

    @Provide
    Arbitrary<TensorMapSpec> validSpecs() {
        Arbitrary<ElementType> types = Arbitraries.of(TensorMap.supportedTypes());
        Arbitrary<Integer> ranks = Arbitraries.integers().between(1, 5);
        return Combinators.combine(types, ranks, Arbitraries.longs().between(1, 1L << 32), Arbitraries.integers().between(1, 8),
                        Arbitraries.of(L2Promotion.values()), Arbitraries.integers().between(1, 16))
                .as(
                        (type, rank, dim, elementStride, l2, boxUnits) -> {
                            List<Long> dims = new ArrayList<>();
                            List<Long> strides = new ArrayList<>();
                            List<Integer> box = new ArrayList<>();
                            List<Integer> elementStrides = new ArrayList<>();
                            // Inner box: a whole number of 16-byte units, at most 256 elements.
                            int inner = Math.min(256, boxUnits * 16 / type.byteSize());
                            for (int i = 0; i < rank; i++) {
                                dims.add(i == 0 ? dim : 1 + (dim % 1000) + i);
                                box.add(i == 0 ? inner : 1 + (int) (dim % 256));
                                elementStrides.add(i == 0 ? 1 : elementStride);
                                if (i > 0) {
                                    strides.add(16L * (dim % 4096 + i));
                                }
                            }
                            OobFill fill = type.isFloat() && dim % 2 == 0 ? OobFill.NAN : OobFill.NONE;
                            return new TensorMapSpec("A", type, dims, strides, box, elementStrides, Interleave.NONE, Swizzle.NONE, l2, fill);
                        });
    }

    @Property(tries = 300)
    void roundTripsThroughItsBytes(@ForAll("validSpecs") TensorMapSpec spec, @ForAll long address) {
        long aligned = address & ~15L;
        TensorMap map = spec.toTensorMap(aligned);
        TensorMap decoded = TensorMap.decode(spec.encode(aligned));
        assertEquals(map, decoded);
        assertEquals(spec.rank(), decoded.rank());
        assertArrayEquals(map.encode(), decoded.encode());
    }

    @Test
    void rejectsBytesThatAreNotATensorMap() {
        byte[] bytes = simple2d().encode(0);
        assertEquals(
                "a tensor map is 128 bytes, got 64",
                assertThrows(LaunchException.class, () -> TensorMap.decode(new byte[64])).getMessage());
        byte[] zeros = new byte[128];
        assertEquals(
                "not a ptxrun tensor map: magic 0x00000000, expected 0x50414d54",
                assertThrows(LaunchException.class, () -> TensorMap.decode(zeros)).getMessage());
        byte[] version = bytes.clone();
        version[TensorMap.OFFSET_VERSION] = 9;
        assertEquals(
                "unsupported tensor map layout version 9 (expected 1)",
                assertThrows(LaunchException.class, () -> TensorMap.decode(version)).getMessage());
        byte[] rank = bytes.clone();
        rank[TensorMap.OFFSET_RANK] = 6;
        assertEquals("rank: expected 1 to 5, got 6", assertThrows(LaunchException.class, () -> TensorMap.decode(rank)).getMessage());
        byte[] type = bytes.clone();
        type[TensorMap.OFFSET_TYPE] = 6;
        assertEquals(
                "type: unknown element type code 6",
                assertThrows(LaunchException.class, () -> TensorMap.decode(type)).getMessage());
        byte[] swizzle = bytes.clone();
        swizzle[TensorMap.OFFSET_SWIZZLE] = 4;
        assertEquals(
                "swizzle: unknown code 4 (expected 0 to 3)",
                assertThrows(LaunchException.class, () -> TensorMap.decode(swizzle)).getMessage());
        byte[] box = bytes.clone();
        box[TensorMap.OFFSET_BOX + 4] = 0;
        box[TensorMap.OFFSET_BOX + 5] = 2;
        assertEquals(
                "box[1]: must be between 1 and 256, got 512",
                assertThrows(LaunchException.class, () -> TensorMap.decode(box)).getMessage());
    }

    @Test
    void checksTheDriversRules() {
        List<Long> d2 = List.of(64L, 64L);
        List<Long> s2 = List.of(256L);
        List<Integer> b2 = List.of(16, 16);
        List<Integer> e2 = List.of(1, 1);
        assertRejected(
                "dims: expected 1 to 5 dimensions, got 6",
                () -> spec(ElementType.F32, List.of(1L, 1L, 1L, 1L, 1L, 1L), List.of(16L, 16L, 16L, 16L, 16L), List.of(4, 1, 1, 1, 1, 1), List.of(1, 1, 1, 1, 1, 1), Interleave.NONE, Swizzle.NONE, OobFill.NONE));
        assertRejected(
                "dims: expected 1 to 5 dimensions, got 0",
                () -> spec(ElementType.F32, List.of(), List.of(), List.of(), List.of(), Interleave.NONE, Swizzle.NONE, OobFill.NONE));
        assertRejected(
                "dims[1]: must be between 1 and 2^32, got 0",
                () -> spec(ElementType.F32, List.of(64L, 0L), s2, b2, e2, Interleave.NONE, Swizzle.NONE, OobFill.NONE));
        assertRejected(
                "dims[0]: must be between 1 and 2^32, got 4294967297",
                () -> spec(ElementType.F32, List.of((1L << 32) + 1, 4L), s2, b2, e2, Interleave.NONE, Swizzle.NONE, OobFill.NONE));
        assertRejected(
                "strides[0]: 100 is not a multiple of 16",
                () -> spec(ElementType.F32, d2, List.of(100L), b2, e2, Interleave.NONE, Swizzle.NONE, OobFill.NONE));
        assertRejected(
                "strides[0]: must be less than 2^40, got 1099511627776",
                () -> spec(ElementType.F32, d2, List.of(1L << 40), b2, e2, Interleave.NONE, Swizzle.NONE, OobFill.NONE));
        assertRejected(
                "strides: expected 1 byte strides (one for each dimension after the first) for rank 2, got 2",
                () -> spec(ElementType.F32, d2, List.of(256L, 256L), b2, e2, Interleave.NONE, Swizzle.NONE, OobFill.NONE));
        assertRejected(
                "box[1]: must be between 1 and 256, got 257",
                () -> spec(ElementType.F32, d2, s2, List.of(16, 257), e2, Interleave.NONE, Swizzle.NONE, OobFill.NONE));
        assertRejected(
                "box[0]: must be between 1 and 256, got 0",
                () -> spec(ElementType.F32, d2, s2, List.of(0, 16), e2, Interleave.NONE, Swizzle.NONE, OobFill.NONE));
        assertRejected(
                "box: expected 2 entries (one per dimension), got 1",
                () -> spec(ElementType.F32, d2, s2, List.of(16), e2, Interleave.NONE, Swizzle.NONE, OobFill.NONE));
        assertRejected(
                "box[0]: 3 elements of f32 are 12 bytes, not a multiple of 16",
                () -> spec(ElementType.F32, d2, s2, List.of(3, 16), e2, Interleave.NONE, Swizzle.NONE, OobFill.NONE));
        assertRejected(
                "box[0]: 64 elements of f32 are 256 bytes, more than the 128-byte span of swizzle 128B",
                () -> spec(ElementType.F32, d2, s2, List.of(64, 16), e2, Interleave.NONE, Swizzle.B128, OobFill.NONE));
        assertRejected(
                "box[0]: 16 elements of f32 are 64 bytes, more than the 32-byte span of swizzle 32B",
                () -> spec(ElementType.F32, d2, s2, b2, e2, Interleave.NONE, Swizzle.B32, OobFill.NONE));
        assertRejected(
                "elementStrides[1]: must be between 1 and 8, got 9",
                () -> spec(ElementType.F32, d2, s2, b2, List.of(1, 9), Interleave.NONE, Swizzle.NONE, OobFill.NONE));
        assertRejected(
                "elementStrides: expected 2 entries (one per dimension), got 3",
                () -> spec(ElementType.F32, d2, s2, b2, List.of(1, 1, 1), Interleave.NONE, Swizzle.NONE, OobFill.NONE));
        assertRejected(
                "interleave: interleave 16B needs a rank of 3 or more, got 2",
                () -> spec(ElementType.F32, d2, s2, b2, e2, Interleave.B16, Swizzle.NONE, OobFill.NONE));
        List<Long> d3 = List.of(8L, 8L, 8L);
        List<Long> s3 = List.of(64L, 512L);
        List<Integer> b3 = List.of(8, 8, 8);
        List<Integer> e3 = List.of(1, 1, 1);
        assertRejected(
                "strides[0]: 48 is not a multiple of 32 (required with interleave 32B)",
                () -> spec(ElementType.F32, d3, List.of(48L, 512L), b3, e3, Interleave.B32, Swizzle.B32, OobFill.NONE));
        assertRejected(
                "oobFill: nan fill needs a floating-point element type, not s32",
                () -> spec(ElementType.S32, d2, s2, b2, e2, Interleave.NONE, Swizzle.NONE, OobFill.NAN));
        assertRejected(
                "type: a tensor map element type is one of u8, u16, u32, s32, u64, s64, f32, f64, not b32",
                () -> spec(ElementType.B32, d2, s2, b2, e2, Interleave.NONE, Swizzle.NONE, OobFill.NONE));
        assertRejected(
                "box[0]: 3 elements of f32 are 12 bytes, not a multiple of 16",
                () -> spec(ElementType.F32, d3, s3, List.of(3, 8, 8), e3, Interleave.B16, Swizzle.NONE, OobFill.NONE));
        // The swizzle span limits the inner box only without interleave.
        spec(ElementType.F32, d3, s3, List.of(64, 8, 8), e3, Interleave.B16, Swizzle.B32, OobFill.NONE);
        spec(ElementType.F32, d3, s3, b3, e3, Interleave.B32, Swizzle.NONE, OobFill.NONE);

        assertRejected("globalAddress: 0x1008 is not 16-byte aligned", () -> simple2d().encode(0x1008));
        assertRejected(
                "globalAddress: 0x1010 is not 32-byte aligned",
                () -> spec(ElementType.F32, d3, s3, b3, e3, Interleave.B32, Swizzle.B32, OobFill.NONE).encode(0x1010));
    }

    @Test
    void extentCoversTheLastElement() {
        assertEquals(64 * 4 + 31 * 256, simple2d().extentBytes());
        assertEquals(
                Long.MAX_VALUE,
                spec(ElementType.F64, List.of(1L << 32, 1L << 32), List.of((1L << 40) - 16), List.of(2, 1), List.of(1, 1),
                                Interleave.NONE, Swizzle.NONE, OobFill.NONE)
                        .extentBytes());
    }

    private static void assertRejected(String message, Runnable build) {
        assertEquals(message, assertThrows(LaunchException.class, build::run).getMessage());
    }
}
