package io.ptxrun.exec.copy;

import java.util.List;

/**
 * The im2col fields of a tensor map ({@code cuTensorMapEncodeIm2col} /
 * {@code cuTensorMapEncodeIm2colWide}), which ptxrun's tiled {@code TensorMap} encoding does not
 * carry yet: the pixel bounding box, relative to the tensor's edges, for dimensions W, H, D (in
 * that order, {@code rank - 2} entries; {@code im2col::w} uses only W), the channels loaded per
 * pixel and the pixels per column.
 *
 * <p>A base pixel may range along spatial dimension i over
 * {@code [lowerCorner[i], dims[i+1] - 1 + upperCorner[i]]}; the element read is the base pixel
 * plus the instruction's im2col offsets, so a negative lower corner (padding) reads zeros.
 */
public record Im2colShape(
        List<Integer> lowerCorner, List<Integer> upperCorner, int channelsPerPixel, int pixelsPerColumn) {

    public Im2colShape {
        lowerCorner = List.copyOf(lowerCorner);
        upperCorner = List.copyOf(upperCorner);
        if (lowerCorner.size() != upperCorner.size() || lowerCorner.isEmpty() || lowerCorner.size() > 3) {
            throw new IllegalArgumentException(
                    "pixel box corners need 1 to 3 entries each (W, H, D), got "
                            + lowerCorner.size() + " and " + upperCorner.size());
        }
        if (channelsPerPixel < 1 || channelsPerPixel > 256) {
            throw new IllegalArgumentException("channelsPerPixel must be 1 to 256, got " + channelsPerPixel);
        }
        if (pixelsPerColumn < 1 || pixelsPerColumn > 1024) {
            throw new IllegalArgumentException("pixelsPerColumn must be 1 to 1024, got " + pixelsPerColumn);
        }
    }
}
