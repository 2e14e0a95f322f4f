package io.ptxrun.exec.copy;

import io.ptxrun.launch.ElementType;
import io.ptxrun.launch.TensorMap;
import io.ptxrun.launch.TensorMap.Interleave;
import io.ptxrun.launch.TensorMap.OobFill;
import java.util.Arrays;

/**
 * The data movement of one {@code cp.async.bulk.tensor} / {@code cp.reduce.async.bulk.tensor}
 * (PTX ISA 9.7.9.25.5): which global element goes to (or comes from) which shared-memory byte,
 * independent of any engine. A plan is built from a decoded {@link TensorMap}, the coordinates and
 * the load mode; {@link #forEachElement} then reports every element move in shared-memory order.
 *
 * <p>Every mode is a run of <em>rows</em>, each a line of elements along dimension 0 (the
 * contiguous one), laid out in shared memory one after the other:
 *
 * <ul>
 *   <li>{@code .tile}: {@code ceil(box[i] / elementStrides[i])} elements per dimension, element k
 *       of dimension i at coordinate {@code coords[i] + k * elementStrides[i]}; without interleave
 *       dimension 0 ignores its element stride (all {@code box[0]} elements, as on an H100).
 *   <li>{@code .tile::gather4} / {@code .tile::scatter4}: four rows {@code (col .. col + box[0]-1,
 *       row_r)} of a 2D tensor.
 *   <li>{@code .im2col}: one row of {@code channelsPerPixel} channels per pixel, pixels walking W
 *       fastest through the bounding box from the pixel the coordinates name, each read at pixel +
 *       im2col offsets.
 *   <li>{@code .im2col::w} / {@code ::128}: pixels along W only, from {@code w + wOffset},
 *       {@code pixelsPerColumn + wHalo} of them (no wrapping into H).
 * </ul>
 *
 * <p>Layout rules recorded on an H100: rows are packed without swizzle; with swizzle each row
 * starts a new span ({@code 32, 64, 128} bytes), so rows narrower than the span leave gaps (a
 * 16x16 u32 box with 128B swizzle occupies 2048 bytes), and byte {@code a} of the 1024-aligned
 * shared window is stored at {@code a ^ (((a >> 7) & m) << 4)} ({@code m} 1, 3, 7). With
 * interleave, rows are padded to the interleave size (16 or 32 bytes) and swizzled the same way
 * (the CUDA encoding; no hardware case yet). The transaction count is always the full box,
 * {@link #txBytes()}, whatever part of it lies out of bounds.
 */
public final class TensorCopy {

    /** Receives the element moves of a plan, in shared-memory order of the unswizzled layout. */
    @FunctionalInterface
    public interface ElementMove {
        /**
         * One element of {@code bytes} bytes between {@code globalAddress} and shared byte
         * {@code sharedOffset} (relative to the instruction's shared address, swizzle applied).
         * When {@code inBounds} is false the tensor has no such element: a load writes the fill
         * value there, a store or reduction skips it, and {@code globalAddress} is where the
         * element would be, for messages only.
         */
        void move(long globalAddress, int sharedOffset, int bytes, boolean inBounds);
    }

    /** The f32 out-of-bounds NaN of {@code oobFill: nan}, recorded on an H100. */
    public static final int OOB_NAN_F32 = 0x7ff77ff7;
    /** The f64 NaN fill: the f32 pattern repeated, by analogy (no hardware case yet). */
    public static final long OOB_NAN_F64 = 0x7ff77ff77ff77ff7L;

    private final TensorMap map;
    private final LoadMode mode;
    private final int rank;
    private final int elementBytes;
    private final long[] dims;
    /** Byte stride of every dimension, dimension 0 included (the element size). */
    private final long[] byteStrides;
    private final int[] coords;
    private final int[] im2colOffsets;
    private final Im2colShape im2col;
    private final int wHalo;
    private final int wOffset;
    private final int rowElements;
    private final int rowStep;
    private final int rows;
    private final int pitch;
    private final int swizzleMask;
    private final int sharedBase;

    private TensorCopy(
            TensorMap map,
            LoadMode mode,
            int[] coords,
            int[] im2colOffsets,
            Im2colShape im2col,
            int wHalo,
            int wOffset,
            int sharedBase) {
        this.map = map;
        this.mode = mode;
        this.rank = map.rank();
        this.elementBytes = map.type().byteSize();
        this.dims = new long[rank];
        this.byteStrides = new long[rank];
        for (int i = 0; i < rank; i++) {
            dims[i] = map.dims().get(i);
            byteStrides[i] = i == 0 ? elementBytes : map.strides().get(i - 1);
        }
        this.coords = coords.clone();
        this.im2colOffsets = im2colOffsets.clone();
        this.im2col = im2col;
        this.wHalo = wHalo;
        this.wOffset = wOffset;
        this.sharedBase = sharedBase;
        switch (mode) {
            case TILE -> {
                // Without interleave the hardware reads dimension 0 contiguously whatever its
                // element stride (an H100 loads all 8 u32 of an 8-wide box with elementStrides
                // (2, 2), and signals 4 x 8 elements): only the outer dimensions are strided.
                int innerStride = map.interleave() == Interleave.NONE ? 1 : map.elementStrides().get(0);
                rowElements = ceilDiv(map.box().get(0), innerStride);
                rowStep = innerStride;
                int count = 1;
                for (int i = 1; i < rank; i++) {
                    count *= ceilDiv(map.box().get(i), map.elementStrides().get(i));
                }
                rows = count;
            }
            case TILE_GATHER4 -> {
                rowElements = map.box().get(0);
                rowStep = 1;
                rows = 4;
            }
            case IM2COL -> {
                rowElements = im2col.channelsPerPixel();
                rowStep = 1;
                rows = im2col.pixelsPerColumn();
            }
            default -> {
                rowElements = im2col.channelsPerPixel();
                rowStep = 1;
                rows = im2col.pixelsPerColumn() + wHalo;
            }
        }
        int rowBytes = rowElements * elementBytes;
        int span = map.swizzle().spanBytes();
        if (map.interleave() != Interleave.NONE) {
            int chunk = map.interleave() == Interleave.B16 ? 16 : 32;
            pitch = ceilDiv(rowBytes, chunk) * chunk;
        } else {
            pitch = span == 0 ? rowBytes : ceilDiv(rowBytes, span) * span;
        }
        swizzleMask = span == 0 ? 0 : span / 16 - 1;
    }

    private static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }

    /** {@code .tile}: coordinates {@code {d0, .., dn}}, one per dimension of the map. */
    public static TensorCopy tile(TensorMap map, int... coords) {
        requireCount("tile coordinates", coords, map.rank());
        return new TensorCopy(map, LoadMode.TILE, coords, new int[0], null, 0, 0, 0);
    }

    /** {@code .tile::gather4} / {@code .tile::scatter4}: a 2D map, {@code {col, row0 .. row3}}. */
    public static TensorCopy gather4(TensorMap map, int column, int row0, int row1, int row2, int row3) {
        if (map.rank() != 2) {
            throw new IllegalArgumentException("tile::gather4 needs a 2D tensor map, not rank " + map.rank());
        }
        return new TensorCopy(
                map, LoadMode.TILE_GATHER4, new int[] {column, row0, row1, row2, row3}, new int[0], null, 0, 0, 0);
    }

    /**
     * {@code .im2col}: coordinates {@code {c, w, (h, (d,)) n}} and the {@code rank - 2} im2col
     * offsets {@code {offW, (offH, (offD))}} (16-bit unsigned).
     */
    public static TensorCopy im2col(TensorMap map, Im2colShape shape, int[] coords, int[] offsets) {
        if (map.rank() < 3) {
            throw new IllegalArgumentException("im2col needs a tensor of rank 3 or more, not " + map.rank());
        }
        requireCount("im2col coordinates", coords, map.rank());
        requireCount("im2col offsets", offsets, map.rank() - 2);
        requireCount("pixel box corners", shape.lowerCorner().stream().mapToInt(Integer::intValue).toArray(), map.rank() - 2);
        return new TensorCopy(map, LoadMode.IM2COL, coords, offsets, shape, 0, 0, 0);
    }

    /**
     * {@code .im2col::w} ({@code wHalo} below 512) or {@code .im2col::w::128} (below 32), with
     * {@code wOffset} below 32; the shape's corners have the single W entry.
     */
    public static TensorCopy im2colW(
            TensorMap map, Im2colShape shape, int[] coords, int wHalo, int wOffset, boolean w128) {
        if (map.rank() < 3) {
            throw new IllegalArgumentException("im2col::w needs a tensor of rank 3 or more, not " + map.rank());
        }
        requireCount("im2col::w coordinates", coords, map.rank());
        int haloLimit = w128 ? 32 : 512;
        if (wHalo < 0 || wHalo >= haloLimit) {
            throw new IllegalArgumentException("wHalo must be in [0, " + haloLimit + "), got " + wHalo);
        }
        if (wOffset < 0 || wOffset >= 32) {
            throw new IllegalArgumentException("wOffset must be in [0, 32), got " + wOffset);
        }
        return new TensorCopy(
                map, w128 ? LoadMode.IM2COL_W_128 : LoadMode.IM2COL_W, coords, new int[0], shape, wHalo, wOffset, 0);
    }

    private static void requireCount(String what, int[] values, int expected) {
        if (values.length != expected) {
            throw new IllegalArgumentException(
                    "expected " + expected + " " + what + ", got " + values.length);
        }
    }

    /**
     * Why a {@code .tile} copy starting at innermost coordinate {@code coord0} cannot run, or null.
     * Without interleave the first element of every row must lie on a 16-byte boundary of
     * dimension 0, i.e. {@code coord0 * elementSize} a multiple of 16 (negative coordinates
     * included): an H100 stops such a copy with CUDA_ERROR_ILLEGAL_INSTRUCTION (loads, stores,
     * reductions and prefetches, u8 to f32 alike), although the PTX ISA does not state the rule.
     */
    public static String innerCoordinateProblem(TensorMap map, int coord0) {
        if (map.interleave() != Interleave.NONE) {
            return null;
        }
        long offset = (long) coord0 * map.type().byteSize();
        if (offset % 16 == 0) {
            return null;
        }
        return String.format("innermost tensor coordinate %d of a %s tensor map starts %d bytes into dimension 0,"
                + " not a multiple of 16 (the tensor unit faults: illegal instruction on sm_90)",
                coord0, map.type().typeName(), offset);
    }

    /**
     * The same copy with its shared-memory side at address {@code sharedAddress}: the swizzle
     * pattern is a function of the address, so only a 1024-aligned address (the default, 0) gives
     * the textbook pattern.
     */
    public TensorCopy atSharedAddress(int sharedAddress) {
        return new TensorCopy(map, mode, coords, im2colOffsets, im2col, wHalo, wOffset, sharedAddress);
    }

    public TensorMap map() {
        return map;
    }

    public LoadMode mode() {
        return mode;
    }

    /** The mbarrier transaction count: every element of the box, in bounds or not. */
    public int txBytes() {
        return rows * rowElements * elementBytes;
    }

    /** Shared-memory bytes the copy spans, from its address: larger than {@link #txBytes()} when rows are padded. */
    public int sharedFootprint() {
        return (rows - 1) * pitch + rowElements * elementBytes;
    }

    /**
     * The bits a load writes for an out-of-bounds element: 0, or for {@code oobFill: nan} the
     * float NaN pattern.
     */
    public long oobFillBits() {
        if (map.oobFill() != OobFill.NAN) {
            return 0;
        }
        return map.type() == ElementType.F64 ? OOB_NAN_F64 : Integer.toUnsignedLong(OOB_NAN_F32);
    }

    /** Reports every element move, row by row, each row along dimension 0. */
    public void forEachElement(ElementMove visitor) {
        // The current row's start coordinates; for im2col the base pixel, offsets added per row.
        int[] position = new int[rank];
        startRow(position);
        for (int row = 0; row < rows; row++) {
            long rowAddress = map.globalAddress();
            boolean rowInBounds = true;
            for (int i = 1; i < rank; i++) {
                long c = (long) position[i] + rowOffset(i);
                rowAddress += c * byteStrides[i];
                rowInBounds &= c >= 0 && c < dims[i];
            }
            int rowStart = row * pitch;
            for (int k = 0; k < rowElements; k++) {
                long c0 = (long) position[0] + (long) k * rowStep;
                boolean inBounds = rowInBounds && c0 >= 0 && c0 < dims[0];
                int unswizzled = rowStart + k * elementBytes;
                visitor.move(rowAddress + c0 * elementBytes, swizzle(unswizzled), elementBytes, inBounds);
            }
            nextRow(position, row + 1);
        }
    }

    /** The offset the im2col modes add to the base pixel along dimension {@code i}. */
    private int rowOffset(int i) {
        return mode == LoadMode.IM2COL && i <= im2colOffsets.length ? im2colOffsets[i - 1] : 0;
    }

    private void startRow(int[] position) {
        switch (mode) {
            case TILE, IM2COL -> System.arraycopy(coords, 0, position, 0, rank);
            case TILE_GATHER4 -> {
                position[0] = coords[0];
                position[1] = coords[1];
            }
            default -> {
                System.arraycopy(coords, 0, position, 0, rank);
                position[1] += wOffset;
            }
        }
    }

    /** Moves {@code position} to row {@code next}. */
    private void nextRow(int[] position, int next) {
        switch (mode) {
            case TILE -> {
                // Mixed-radix increment over dimensions 1.., each in steps of its element stride.
                for (int i = 1; i < rank; i++) {
                    int stride = map.elementStrides().get(i);
                    position[i] += stride;
                    if (position[i] < coords[i] + map.box().get(i)) {
                        return;
                    }
                    position[i] = coords[i];
                }
            }
            case TILE_GATHER4 -> {
                if (next < 4) {
                    position[1] = coords[1 + next];
                }
            }
            case IM2COL -> {
                // W fastest through the bounding box, wrapping to its lower corner; then N.
                for (int i = 1; i < rank - 1; i++) {
                    position[i] += map.elementStrides().get(i);
                    int upper = (int) (dims[i] - 1 + im2col.upperCorner().get(i - 1));
                    if (position[i] <= upper) {
                        return;
                    }
                    position[i] = im2col.lowerCorner().get(i - 1);
                }
                position[rank - 1] += 1;
            }
            // 5.5.5.2: the wide modes walk W only, in steps of its traversal stride.
            default -> position[1] += map.elementStrides().get(1);
        }
    }

    /** The swizzled place of unswizzled byte {@code offset}, by its absolute shared address. */
    private int swizzle(int offset) {
        if (swizzleMask == 0) {
            return offset;
        }
        int address = sharedBase + offset;
        return (address ^ (((address >>> 7) & swizzleMask) << 4)) - sharedBase;
    }

    // ---- Pure executions over byte arrays -------------------------------------------------

    /**
     * A load ({@code .shared::cluster.global} / {@code .shared::cta.global}): elements from
     * {@code global} (which holds the bytes from address {@code globalBase}) into {@code shared}
     * at {@code sharedOffset}; out-of-bounds elements get {@link #oobFillBits()}.
     */
    public void load(byte[] global, long globalBase, byte[] shared, int sharedOffset) {
        long fill = oobFillBits();
        forEachElement(
                (address, offset, bytes, inBounds) ->
                        BulkReduction.write(
                                shared,
                                sharedOffset + offset,
                                bytes,
                                inBounds ? BulkReduction.read(global, (int) (address - globalBase), bytes) : fill));
    }

    /** A store ({@code .global.shared::cta}): in-bounds elements only. */
    public void store(byte[] shared, int sharedOffset, byte[] global, long globalBase) {
        forEachElement(
                (address, offset, bytes, inBounds) -> {
                    if (inBounds) {
                        System.arraycopy(shared, sharedOffset + offset, global, (int) (address - globalBase), bytes);
                    }
                });
    }

    /**
     * {@code cp.reduce.async.bulk.tensor}: in-bounds elements of {@code global} combined with the
     * shared ones by {@code op} on the map's element type (bitwise ops as {@code .b32}/{@code .b64}).
     */
    public void reduce(ReductionOp op, byte[] shared, int sharedOffset, byte[] global, long globalBase) {
        ReductionType type = reductionType(op, map.type());
        forEachElement(
                (address, offset, bytes, inBounds) -> {
                    if (inBounds) {
                        int at = (int) (address - globalBase);
                        long old = BulkReduction.read(global, at, bytes);
                        long value = BulkReduction.read(shared, sharedOffset + offset, bytes);
                        BulkReduction.write(global, at, bytes, BulkReduction.combine(op, type, old, value));
                    }
                });
    }

    /** The reduction type of a tensor map element type; the spec writes bitwise ops on bit types. */
    public static ReductionType reductionType(ReductionOp op, ElementType type) {
        boolean bitwise = op == ReductionOp.AND || op == ReductionOp.OR || op == ReductionOp.XOR;
        return switch (type) {
            case U32, S32, B32 -> bitwise ? ReductionType.B32 : (type == ElementType.S32 ? ReductionType.S32 : ReductionType.U32);
            case U64, S64, B64 -> bitwise ? ReductionType.B64 : (type == ElementType.S64 ? ReductionType.S64 : ReductionType.U64);
            case F32 -> ReductionType.F32;
            case F64 -> ReductionType.F64;
            default -> throw new IllegalArgumentException("no bulk tensor reduction on ." + type);
        };
    }

    @Override
    public String toString() {
        return "TensorCopy[" + mode + " " + Arrays.toString(coords) + ", rows=" + rows + "x" + rowElements
                + ", pitch=" + pitch + ", tx=" + txBytes() + "]";
    }
}
