package io.ptxrun.exec.copy;

/**
 * The {@code .load_mode} of {@code cp.async.bulk.tensor} (PTX ISA 9.7.9.25.5.2): how the box of
 * elements is chosen in the global tensor. The shared-memory side is always a dense run of rows.
 */
public enum LoadMode {
    /** {@code .tile} (the default): a box of the tensor's own rank. */
    TILE("tile"),
    /**
     * {@code .tile::gather4} (loads) / {@code .tile::scatter4} (stores), sm_100: four rows of a 2D
     * tensor, coordinates {@code {col, row0, row1, row2, row3}}.
     */
    TILE_GATHER4("tile::gather4"),
    /** {@code .im2col}: pixels of an NWC / NHWC / NDHWC tensor unrolled into one column. */
    IM2COL("im2col"),
    /** {@code .im2col::w} (sm_100): pixels taken along W only, with {@code wHalo} and {@code wOffset}. */
    IM2COL_W("im2col::w"),
    /** {@code .im2col::w::128} (sm_100): as {@link #IM2COL_W} with a halo below 32, 128 pixels. */
    IM2COL_W_128("im2col::w::128"),
    /**
     * {@code .im2col_no_offs} (stores and reductions): the im2col pixel walk with all im2col
     * offsets zero.
     */
    IM2COL_NO_OFFS("im2col_no_offs");

    private final String ptxName;

    LoadMode(String ptxName) {
        this.ptxName = ptxName;
    }

    /** Whether loads and prefetches of this mode take the im2colInfo vector operand. */
    public boolean hasIm2colInfo() {
        return this == IM2COL || this == IM2COL_W || this == IM2COL_W_128;
    }

    /** Whether the map must be an im2col map (tile modes use a tiled map). */
    public boolean im2colMap() {
        return this != TILE && this != TILE_GATHER4;
    }

    public String ptxName() {
        return ptxName;
    }

    @Override
    public String toString() {
        return ptxName;
    }
}
