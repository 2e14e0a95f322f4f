package io.ptxrun.exec;

/**
 * The 64-bit shared-memory matrix descriptor of wgmma.mma_async (PTX ISA 9.7.15.5.1, "Matrix
 * Descriptor Format"), decoded once per use, and the canonical layouts it describes (9.7.15.5,
 * "Shared Memory Matrix Layout").
 *
 * <p>Fields: bits 0-13 the start address, 16-29 the leading-dimension byte offset (LBO), 32-45 the
 * stride-dimension byte offset (SBO), each encoded as the byte value shifted right by 4; bits 49-51
 * the matrix base offset; bits 62-63 the swizzle mode (0 none, 1 128-byte, 2 64-byte, 3 32-byte).
 *
 * <p>Layouts, in bytes, for an operand element at (mn, k) (mn is M for A and N for B) of
 * {@code s}-byte elements, T = 16 / s elements per 16-byte row of a core matrix (8 rows):
 * <ul>
 * <li>K-major, no swizzle: {@code (mn%8)*16 + (mn/8)*SBO + (k/T)*LBO + (k%T)*s};
 * <li>K-major, swizzle of width W (32, 64, 128): rows of W bytes, {@code (mn%8)*W + (mn/8)*SBO + k*s}
 *     (LBO is not used: one instruction's K is 32 bytes, within one swizzle row);
 * <li>MN-major, no swizzle: {@code (mn%8)*s + (mn/8)*SBO + (k%8)*16 + (k/8)*LBO};
 * <li>MN-major, swizzle of width W: W/s consecutive mn elements a row, {@code (mn%(W/s))*s +
 *     (mn/(W/s))*LBO + (k%8)*W + (k/8)*SBO}.
 * </ul>
 * The swizzle then permutes 16-byte chunks within each W-byte row by the row's position in its
 * 8-row (1024, 512 or 256 byte) pattern: address bits [4, 4+b) are XORed with bits [7, 7+b),
 * b = 3, 2, 1 for 128, 64, 32 bytes. It is applied to the shared address itself, so a pattern
 * starting at an address aligned to its repeat size (the usual case, and the one the base offset 0
 * means) lines up with the address bits. The base offset is kept for reports; the hardware's use of
 * a nonzero one with an unaligned start is not modelled beyond this.
 */
record MatrixDescriptor(int startAddress, int leadingByteOffset, int strideByteOffset, int baseOffset,
                        Swizzle swizzle) {

    /** Swizzle modes as encoded in bits 62-63. */
    enum Swizzle {
        NONE(0, 0), B128(128, 7), B64(64, 3), B32(32, 1);

        /** The width of one swizzled row in bytes (0: no swizzle). */
        final int rowBytes;
        /** Mask applied to address bits 7.. before XORing them into bits 4.. */
        final int mask;

        Swizzle(int rowBytes, int mask) {
            this.rowBytes = rowBytes;
            this.mask = mask;
        }

        static Swizzle ofCode(int code) {
            return switch (code & 3) {
                case 1 -> B128;
                case 2 -> B64;
                case 3 -> B32;
                default -> NONE;
            };
        }

        long apply(long address) {
            return address ^ (((address >>> 7) & mask) << 4);
        }
    }

    static MatrixDescriptor decode(long d) {
        return new MatrixDescriptor((int) (d & 0x3fff) << 4, (int) ((d >>> 16) & 0x3fff) << 4,
                (int) ((d >>> 32) & 0x3fff) << 4, (int) ((d >>> 49) & 7), Swizzle.ofCode((int) (d >>> 62)));
    }

    /** The shared-memory byte address of element (mn, k) of {@code elementBytes}-byte elements. */
    long address(int mn, int k, int elementBytes, boolean kMajor) {
        int w = swizzle.rowBytes;
        long offset;
        if (kMajor) {
            if (w == 0) {
                int t = 16 / elementBytes;
                offset = (mn % 8) * 16L + (long) (mn / 8) * strideByteOffset + (long) (k / t) * leadingByteOffset
                        + (long) (k % t) * elementBytes;
            } else {
                offset = (long) (mn % 8) * w + (long) (mn / 8) * strideByteOffset + (long) k * elementBytes;
            }
        } else if (w == 0) {
            offset = (long) (mn % 8) * elementBytes + (long) (mn / 8) * strideByteOffset + (k % 8) * 16L
                    + (long) (k / 8) * leadingByteOffset;
        } else {
            int perRow = w / elementBytes;
            offset = (long) (mn % perRow) * elementBytes + (long) (mn / perRow) * leadingByteOffset
                    + (long) (k % 8) * w + (long) (k / 8) * strideByteOffset;
        }
        return swizzle.apply(startAddress + offset);
    }
}
