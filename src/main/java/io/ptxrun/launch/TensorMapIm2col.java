package io.ptxrun.launch;

import java.util.List;

/**
 * The im2col part of a tensor map: the arguments {@code cuTensorMapEncodeIm2col} and
 * {@code cuTensorMapEncodeIm2colWide} take in place of a box (PTX ISA 5.5.4 im2col mode, 5.5.5
 * im2col::w and im2col::w::128 modes). Hardware runs encode tiled maps only, so this is ptxrun's
 * own extension of the launch format.
 *
 * <p>The pixel bounding box is given relative to the tensor's spatial edges, W first: a base
 * pixel ranges along spatial dimension i over {@code [lowerCorner[i], dims[i+1] - 1 +
 * upperCorner[i]]}. An im2col map has {@code rank - 2} corner entries (W, H, D), a wide map one
 * (W).
 */
public record TensorMapIm2col(
        Kind kind, List<Integer> lowerCorner, List<Integer> upperCorner, int channelsPerPixel, int pixelsPerColumn) {

    /** The encoding, stored in the map's mode byte. */
    public enum Kind {
        /** {@code cuTensorMapEncodeIm2col}: for {@code .im2col} copies. */
        IM2COL("im2col", 1),
        /** {@code cuTensorMapEncodeIm2colWide}, {@code CU_TENSOR_MAP_IM2COL_WIDE_MODE_W}: for {@code .im2col::w}. */
        WIDE_W("w", 2),
        /** {@code CU_TENSOR_MAP_IM2COL_WIDE_MODE_W128}: for {@code .im2col::w::128}, 128 pixels per column. */
        WIDE_W128("w128", 3);

        private final String jsonName;
        private final int code;

        Kind(String jsonName, int code) {
            this.jsonName = jsonName;
            this.code = code;
        }

        /** The value of the map's mode byte (0 is a tiled map). */
        public int code() {
            return code;
        }

        public boolean wide() {
            return this != IM2COL;
        }

        @Override
        public String toString() {
            return jsonName;
        }
    }

    /** Pixels of an {@code .im2col::w::128} copy, whatever the map's pixelsPerColumn (5.5.5.1). */
    public static final int W128_PIXELS = 128;

    public TensorMapIm2col {
        lowerCorner = List.copyOf(lowerCorner);
        upperCorner = List.copyOf(upperCorner);
    }

    /**
     * Checks the driver's rules for a map of {@code rank} dimensions of {@code type}; failures name
     * the launch-file field ({@code im2col.lowerCorner[0]}, ...).
     */
    void check(List<Long> dims, ElementType type) {
        int rank = dims.size();
        String field = kind.wide() ? "im2colWide" : "im2col";
        if (rank < 3) {
            throw new LaunchException(
                    "dims", "an im2col tensor map needs 3 to 5 dimensions (NWC, NHWC, NDHWC), got " + rank);
        }
        int corners = kind.wide() ? 1 : rank - 2;
        String cornerNote = kind.wide() ? " (W only, for a wide map)" : " (W, H, D: rank - 2)";
        for (String name : List.of("lowerCorner", "upperCorner")) {
            List<Integer> corner = name.equals("lowerCorner") ? lowerCorner : upperCorner;
            String cornerField = field + "." + name + (kind.wide() ? "W" : "");
            if (corner.size() != corners) {
                throw new LaunchException(
                        cornerField, "expected " + corners + " entries" + cornerNote + ", got " + corner.size());
            }
            // cuTensorMapEncodeIm2col: the corners' range narrows with the rank (16, 8, 5 signed bits).
            int bits = kind.wide() || rank == 3 ? 16 : rank == 4 ? 8 : 5;
            int limit = 1 << (bits - 1);
            for (int i = 0; i < corner.size(); i++) {
                int value = corner.get(i);
                if (value < -limit || value >= limit) {
                    throw new LaunchException(
                            kind.wide() ? cornerField : JsonPaths.index(cornerField, i),
                            "must be in [" + -limit + ", " + (limit - 1) + "] for rank " + rank + ", got " + value);
                }
            }
        }
        // The pixel box must hold at least one base pixel along each spatial dimension:
        // lowerCorner <= dims - 1 + upperCorner (cuTensorMapEncodeIm2col refuses others; probed on an H100).
        for (int i = 0; i < corners; i++) {
            long extent = dims.get(i + 1);
            if (lowerCorner.get(i) > extent - 1 + upperCorner.get(i)) {
                throw new LaunchException(kind.wide() ? field + ".lowerCornerW" : JsonPaths.index(field + ".lowerCorner", i),
                        "the pixel box is empty along " + "WHD".charAt(i) + ": lower corner " + lowerCorner.get(i)
                                + " is past " + (extent - 1) + " + upper corner " + upperCorner.get(i)
                                + " (dimension " + (i + 1) + " has " + extent + " pixels)");
            }
        }
        if (channelsPerPixel < 1 || channelsPerPixel > 256) {
            throw new LaunchException(field + ".channelsPerPixel", "must be 1 to 256, got " + channelsPerPixel);
        }
        int rowBytes = channelsPerPixel * type.byteSize();
        if (rowBytes % 16 != 0) {
            throw new LaunchException(
                    field + ".channelsPerPixel",
                    channelsPerPixel + " channels of " + type + " are " + rowBytes + " bytes, not a multiple of 16");
        }
        if (pixelsPerColumn < 1 || pixelsPerColumn > 1024) {
            throw new LaunchException(field + ".pixelsPerColumn", "must be 1 to 1024, got " + pixelsPerColumn);
        }
    }

    /** The pixels one copy loads (before any wHalo): pixelsPerColumn, or 128 for a W128 map. */
    public int pixels() {
        return kind == Kind.WIDE_W128 ? W128_PIXELS : pixelsPerColumn;
    }
}
