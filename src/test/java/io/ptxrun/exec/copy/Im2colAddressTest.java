package io.ptxrun.exec.copy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ptxrun.launch.ElementType;
import io.ptxrun.launch.LaunchException;
import io.ptxrun.launch.TensorMap;
import io.ptxrun.launch.TensorMap.Interleave;
import io.ptxrun.launch.TensorMap.L2Promotion;
import io.ptxrun.launch.TensorMap.OobFill;
import io.ptxrun.launch.TensorMap.Swizzle;
import io.ptxrun.launch.TensorMapIm2col;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * im2col address arithmetic (PTX ISA 5.5.4, 5.5.5) on small maps whose bounding boxes are worked
 * out by hand from the spec's rules: a base pixel ranges along spatial dimension i over
 * [lowerCorner[i], dims[i+1] - 1 + upperCorner[i]], W fastest, then H, D, then N; the pixel read
 * is the base plus the im2col offsets.
 */
class Im2colAddressTest {
    private static final long BASE = 0x20000;

    /** NHWC u32, C 4, W 4, H 3, N 2: byte strides 16 (W), 64 (H), 192 (N). */
    private static TensorMap nhwc(List<Integer> lower, List<Integer> upper, int channels, int pixels) {
        return new TensorMap(BASE, ElementType.U32, List.of(4L, 4L, 3L, 2L), List.of(16L, 64L, 192L), List.of(),
                List.of(1, 1, 1, 1), Interleave.NONE, Swizzle.NONE, L2Promotion.NONE, OobFill.NONE,
                new TensorMapIm2col(TensorMapIm2col.Kind.IM2COL, lower, upper, channels, pixels));
    }

    private static TensorCopy im2col(TensorMap map, int[] coords, int[] offsets) {
        var im = map.im2col();
        return TensorCopy.im2col(map,
                new Im2colShape(im.lowerCorner(), im.upperCorner(), im.channelsPerPixel(), im.pixels()),
                coords, offsets);
    }

    /** The (n, h, w) each pixel row reads, or null where it lies outside the tensor. */
    private static List<int[]> pixels(TensorCopy copy, int channels) {
        List<int[]> out = new ArrayList<>();
        copy.forEachElement((address, offset, bytes, inBounds) -> {
            if (offset % (channels * 4) == 0) {
                long e = (address - BASE) / 4;
                out.add(inBounds ? new int[] {(int) (e / 48), (int) (e / 16 % 3), (int) (e / 4 % 4)} : null);
            }
        });
        return out;
    }

    @Test
    void paddedBoxHasTwelveBasePixelsPerImage() {
        // Padding 1, 3x3 filter: corners (-1, -1) and (-1, -1); W box -1..2, H box -1..1.
        TensorMap map = nhwc(List.of(-1, -1), List.of(-1, -1), 4, 16);
        List<int[]> read = pixels(im2col(map, new int[] {0, -1, -1, 0}, new int[] {0, 0}), 4);
        assertEquals(16, read.size());
        // Pixel 0 is the padding corner (w -1, h -1): outside the tensor, zero-filled.
        assertEquals(null, read.get(0));
        // Pixel 5 is base (w 0, h 0) of image 0: the row wraps at w = W - 1 + upper = 2.
        assertEquals(List.of(0, 0, 0), List.of(read.get(5)[0], read.get(5)[1], read.get(5)[2]));
        assertEquals(List.of(0, 1, 2), List.of(read.get(11)[0], read.get(11)[1], read.get(11)[2]));
        // Pixel 12 starts image 1 at the box's lower corner again: its first row (h -1) is padding.
        for (int p = 12; p < 16; p++) {
            assertEquals(null, read.get(p));
        }
    }

    @Test
    void offsetsMoveThePixelReadNotTheWalk() {
        // Filter tap (offW 1, offH 2): base pixels as above, each read at (w + 1, h + 2).
        TensorMap map = nhwc(List.of(-1, -1), List.of(-1, -1), 4, 16);
        List<int[]> read = pixels(im2col(map, new int[] {0, -1, -1, 0}, new int[] {1, 2}), 4);
        // Base (w -1, h -1) reads (w 0, h 1).
        assertEquals(List.of(0, 1, 0), List.of(read.get(0)[0], read.get(0)[1], read.get(0)[2]));
        // Base (w 2, h 0) reads (w 3, h 2), the tensor's last pixel of image 0.
        assertEquals(List.of(0, 2, 3), List.of(read.get(7)[0], read.get(7)[1], read.get(7)[2]));
        // Base h 1 reads h 3 = H: outside, four zero-filled pixels.
        for (int p = 8; p < 12; p++) {
            assertEquals(null, read.get(p));
        }
    }

    @Test
    void boxWithoutPaddingStartsMidwayAndRunsIntoTheNextImage() {
        // Corners (0, 0) and (0, 0): the whole 4 x 3 image; start at (w 3, h 2) of image 0.
        TensorMap map = nhwc(List.of(0, 0), List.of(0, 0), 4, 3);
        List<int[]> read = pixels(im2col(map, new int[] {0, 3, 2, 0}, new int[] {0, 0}), 4);
        assertEquals(List.of(0, 2, 3), List.of(read.get(0)[0], read.get(0)[1], read.get(0)[2]));
        assertEquals(List.of(1, 0, 0), List.of(read.get(1)[0], read.get(1)[1], read.get(1)[2]));
        assertEquals(List.of(1, 0, 1), List.of(read.get(2)[0], read.get(2)[1], read.get(2)[2]));
    }

    @Test
    void channelsPerPixelPicksAChannelRangeFromTheCoordinate() {
        // 2 of the 4 channels per pixel (8 bytes: only a copy plan, the driver wants 16-byte rows).
        TensorMap map = nhwc(List.of(0, 0), List.of(0, 0), 4, 2);
        TensorCopy copy = im2col(map, new int[] {2, 1, 1, 1}, new int[] {0, 0});
        List<Long> addresses = new ArrayList<>();
        copy.forEachElement((address, offset, bytes, inBounds) -> addresses.add(address));
        // Pixel (n 1, h 1, w 1), channels 2, 3, 4 (4 is past C: outside); then (w 2).
        assertEquals(BASE + 4 * (48 + 16 + 4 + 2), addresses.get(0));
        assertEquals(BASE + 4 * (48 + 16 + 8 + 2), addresses.get(4));
        assertEquals(2 * 4 * 4, copy.txBytes());
    }

    @Test
    void im2colMapsRoundTripThroughTheEncoding() {
        TensorMap map = nhwc(List.of(-1, -2), List.of(-1, 0), 4, 16);
        TensorMap decoded = TensorMap.decode(map.encode());
        assertEquals(map, decoded);
        assertTrue(decoded.isIm2col());
    }

    @Test
    void driverRulesForIm2colMapsAreChecked() {
        // Rank 4: corners are 8-bit signed (cuTensorMapEncodeIm2col).
        LaunchException range = assertThrows(LaunchException.class,
                () -> nhwc(List.of(-200, 0), List.of(0, 0), 4, 16));
        assertTrue(range.getMessage().contains("im2col.lowerCorner[0]"), range.getMessage());
        // 3 u32 channels are 12 bytes, not a multiple of 16.
        assertThrows(LaunchException.class, () -> nhwc(List.of(0, 0), List.of(0, 0), 3, 16));
        // A wide map needs a swizzle (5.5.5).
        assertThrows(LaunchException.class, () -> new TensorMap(BASE, ElementType.U32, List.of(8L, 12L, 2L),
                List.of(32L, 384L), List.of(), List.of(1, 1, 1), Interleave.NONE, Swizzle.NONE, L2Promotion.NONE,
                OobFill.NONE, new TensorMapIm2col(TensorMapIm2col.Kind.WIDE_W, List.of(0), List.of(0), 8, 4)));
    }
}
