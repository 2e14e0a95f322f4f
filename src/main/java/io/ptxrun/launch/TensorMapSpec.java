package io.ptxrun.launch;

import io.ptxrun.launch.TensorMap.Interleave;
import io.ptxrun.launch.TensorMap.L2Promotion;
import io.ptxrun.launch.TensorMap.OobFill;
import io.ptxrun.launch.TensorMap.Swizzle;
import java.util.List;

/**
 * A tensor map as a launch file declares it: over the buffer named {@code buffer}, with the
 * arguments of {@code cuTensorMapEncodeTiled} (or, with ptxrun's {@code im2col} / {@code im2colWide}
 * extension, of {@code cuTensorMapEncodeIm2col} / {@code cuTensorMapEncodeIm2colWide}, whose
 * channels and pixels replace the box) (dims innermost first, byte strides of dimensions
 * 1 .. rank-1, box, element strides and the four options). The global address is only known once
 * buffers are placed, so {@link #encode(long)} takes it.
 *
 * <p>The constructor checks the driver's rules (the same as {@link TensorMap}'s, but for the
 * address); failures name the field relative to the tensor map ({@code box[0]: ...}).
 */
public record TensorMapSpec(
        String buffer,
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

    public TensorMapSpec {
        dims = List.copyOf(dims);
        strides = List.copyOf(strides);
        box = List.copyOf(box);
        elementStrides = List.copyOf(elementStrides);
        TensorMap.checkLayout(type, dims, strides, box, elementStrides, interleave, swizzle, oobFill, im2col);
    }

    /** A tiled map. */
    public TensorMapSpec(
            String buffer,
            ElementType type,
            List<Long> dims,
            List<Long> strides,
            List<Integer> box,
            List<Integer> elementStrides,
            Interleave interleave,
            Swizzle swizzle,
            L2Promotion l2Promotion,
            OobFill oobFill) {
        this(buffer, type, dims, strides, box, elementStrides, interleave, swizzle, l2Promotion, oobFill, null);
    }

    public int rank() {
        return dims.size();
    }

    /** The map for the buffer placed at {@code globalAddress}, which must be 16-byte aligned. */
    public TensorMap toTensorMap(long globalAddress) {
        return new TensorMap(
                globalAddress, type, dims, strides, box, elementStrides,
                interleave, swizzle, l2Promotion, oobFill, im2col);
    }

    /** The 128 bytes passed to the kernel (layout in {@link TensorMap}). */
    public byte[] encode(long globalAddress) {
        return toTensorMap(globalAddress).encode();
    }

    /**
     * Bytes from the first element to just past the last one: {@code dims[0]} elements plus
     * {@code (dims[i] - 1) * strides[i-1]} for the outer dimensions. Saturates at
     * {@code Long.MAX_VALUE}, which no buffer reaches.
     */
    public long extentBytes() {
        try {
            long extent = Math.multiplyExact(dims.get(0), (long) type.byteSize());
            for (int i = 1; i < rank(); i++) {
                extent = Math.addExact(extent, Math.multiplyExact(dims.get(i) - 1, strides.get(i - 1)));
            }
            return extent;
        } catch (ArithmeticException overflow) {
            return Long.MAX_VALUE;
        }
    }
}
