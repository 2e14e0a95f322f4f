package io.ptxrun.exec;

/**
 * Register fragments of wgmma.mma_async (PTX ISA 9.7.15.5.1, "Register Fragments"): which matrix
 * element each register of each of the 128 threads of a warpgroup holds. Warp {@code w = t / 32}
 * of the warpgroup owns rows 16w..16w+15; within the warp, lane {@code l} has group {@code g = l / 4}
 * and thread-in-group {@code q = l % 4}.
 *
 * <ul>
 * <li>Accumulator D (m64nNk*): element i (0 .. N/2-1) is row {@code 16w + g + 8*((i/2)%2)}, column
 *     {@code 8*(i/4) + 2q + i%2}. A 32-bit accumulator (.f32, .s32) holds element i in register i;
 *     an .f16 accumulator holds elements 2j (low half) and 2j+1 (high half) in register j.
 * <li>A in registers, 16-bit types (k16): register j, half h: row {@code 16w + g + 8*(j%2)}, column
 *     {@code 2q + h + 8*(j/2)}.
 * <li>A in registers, .tf32 (k8): register j: row {@code 16w + g + 8*(j%2)}, column {@code q + 4*(j/2)}.
 * <li>A in registers, 8-bit types (k32): register j, byte b: row {@code 16w + g + 8*(j%2)}, column
 *     {@code 4q + b + 16*(j/2)}.
 * </ul>
 */
final class WgmmaFragments {
    private WgmmaFragments() {
    }

    static int accumulatorRow(int thread, int element) {
        int lane = thread % 32;
        return 16 * (thread / 32) + lane / 4 + 8 * ((element / 2) % 2);
    }

    static int accumulatorColumn(int thread, int element) {
        return 8 * (element / 4) + 2 * (thread % 4) + element % 2;
    }

    static int aRow(int thread, int register) {
        return 16 * (thread / 32) + (thread % 32) / 4 + 8 * (register % 2);
    }

    /** The K index of the {@code part}-th element packed in A register {@code register} ({@code bits}-bit elements). */
    static int aColumn(int thread, int register, int part, int bits) {
        int q = thread % 4;
        return switch (bits) {
            case 32 -> q + 4 * (register / 2);
            case 16 -> 2 * q + part + 8 * (register / 2);
            default -> 4 * q + part + 16 * (register / 2);
        };
    }
}
