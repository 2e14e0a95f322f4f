package io.ptxrun.exec;

import io.ptxrun.ast.DataType;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * wgmma matrix descriptors, shared-memory layouts and register fragments, against values worked out
 * by hand from PTX ISA 9.7.15.5.1 (descriptor bits, fragment figures) and 9.7.15.5 (canonical
 * layouts, swizzle modes).
 */
class WarpgroupMatrixTest {

    @Test
    void descriptorFields() {
        // What nvcc builds for a no-swizzle operand: LBO 128 (8 << 16), SBO 256 (16 << 32), start 0x400.
        MatrixDescriptor d = MatrixDescriptor.decode(68720001024L | (0x400 >> 4));
        assertEquals(0x400, d.startAddress());
        assertEquals(128, d.leadingByteOffset());
        assertEquals(256, d.strideByteOffset());
        assertEquals(0, d.baseOffset());
        assertEquals(MatrixDescriptor.Swizzle.NONE, d.swizzle());
        // 128B swizzle (1 in bits 62-63), LBO field 1 (16 B), SBO field 64 (1024 B), base offset 3.
        long bits = (1L << 62) | (3L << 49) | (64L << 32) | (1L << 16) | 0x3fff;
        d = MatrixDescriptor.decode(bits);
        assertEquals(0x3fff << 4, d.startAddress());
        assertEquals(16, d.leadingByteOffset());
        assertEquals(1024, d.strideByteOffset());
        assertEquals(3, d.baseOffset());
        assertEquals(MatrixDescriptor.Swizzle.B128, d.swizzle());
        assertEquals(MatrixDescriptor.Swizzle.B64, MatrixDescriptor.decode(2L << 62).swizzle());
        assertEquals(MatrixDescriptor.Swizzle.B32, MatrixDescriptor.decode(3L << 62).swizzle());
        // Bits 14-15, 30-31, 46-48 and 52-61 are not fields.
        d = MatrixDescriptor.decode((3L << 14) | (3L << 30) | (7L << 46) | (0x3ffL << 52));
        assertEquals(new MatrixDescriptor(0, 0, 0, 0, MatrixDescriptor.Swizzle.NONE), d);
    }

    @Test
    void swizzlePermutesSixteenByteChunksByRow() {
        // 128B: bits 4-6 ^= bits 7-9. Row 1, chunk 0 -> chunk 1; row 7, chunk 7 -> chunk 0.
        assertEquals(0x90, MatrixDescriptor.Swizzle.B128.apply(0x80));
        assertEquals(0x380, MatrixDescriptor.Swizzle.B128.apply(0x3f0));
        assertEquals(0x400 + 0x10, MatrixDescriptor.Swizzle.B128.apply(0x400 + 0x10), "row 8 starts the pattern again");
        // 64B: bits 4-5 ^= bits 7-8. 0x1a0: row 3, chunk 2 -> chunk 1.
        assertEquals(0x190, MatrixDescriptor.Swizzle.B64.apply(0x1a0));
        // 32B: bit 4 ^= bit 7.
        assertEquals(0x80 + 0x10, MatrixDescriptor.Swizzle.B32.apply(0x80));
        assertEquals(0x123, MatrixDescriptor.Swizzle.NONE.apply(0x123));
    }

    @Test
    void kMajorLayouts() {
        // No swizzle, f16: core matrices of 8 rows x 16 B; (m 9, k 10) is row 1 of core matrix
        // (m-group 1, k-group 1), element 2 of that row: 1*16 + 1*SBO + 1*LBO + 2*2.
        MatrixDescriptor none = new MatrixDescriptor(0, 128, 256, 0, MatrixDescriptor.Swizzle.NONE);
        assertEquals(16 + 256 + 128 + 4, none.address(9, 10, 2, true));
        // tf32 (4 bytes, T = 4): (m 3, k 5) -> row 3, k-group 1, element 1.
        assertEquals(3 * 16 + 128 + 4, none.address(3, 5, 4, true));
        // 128B swizzle, f16: rows of 128 B; (m 9, k 10) at 1*128 + 1*1024 + 20 = 0x494, row 1 of the
        // pattern, so chunk 1 becomes chunk 0: 0x484.
        MatrixDescriptor sw128 = new MatrixDescriptor(0, 16, 1024, 0, MatrixDescriptor.Swizzle.B128);
        assertEquals(0x484, sw128.address(9, 10, 2, true));
        // Start advanced by 32 B (the next k-step): row 2 of the pattern, chunk 2 -> chunk 0.
        MatrixDescriptor next = new MatrixDescriptor(32, 16, 1024, 0, MatrixDescriptor.Swizzle.B128);
        assertEquals(2 * 128, next.address(2, 0, 2, true));
        // 64B swizzle, 8-bit elements: rows of 64 B; (m 3, k 20) at 3*64 + 20 = 0xd4, row bits 7-8 = 1:
        // chunk 1 -> chunk 0.
        MatrixDescriptor sw64 = new MatrixDescriptor(0, 16, 512, 0, MatrixDescriptor.Swizzle.B64);
        assertEquals(0xc4, sw64.address(3, 20, 1, true));
    }

    @Test
    void mnMajorLayouts() {
        // No swizzle, f16: 8 consecutive M (or N) elements per 16-byte row, 8 K rows per core matrix;
        // SBO between 8-element M groups, LBO between 8-deep K groups. (mn 9, k 10): 1*2 + 1*SBO + 2*16 + 1*LBO.
        MatrixDescriptor none = new MatrixDescriptor(0, 1024, 128, 0, MatrixDescriptor.Swizzle.NONE);
        assertEquals(2 + 128 + 32 + 1024, none.address(9, 10, 2, false));
        // 128B swizzle, f16: 64 consecutive N per 128-byte row, LBO between 64-wide atoms, SBO between
        // 8-deep K groups. (mn 70, k 10): 6*2 + 1*2048 + 2*128 + 1*1024 = 0xd0c, pattern row 2: chunk 0 -> 2.
        MatrixDescriptor sw128 = new MatrixDescriptor(0, 2048, 1024, 0, MatrixDescriptor.Swizzle.B128);
        assertEquals(0xd2c, sw128.address(70, 10, 2, false));
    }

    @Test
    void accumulatorFragment() {
        // Thread 37: warp 1 (rows 16-31), lane 5: group 1, thread-in-group 1.
        assertEquals(25, WgmmaFragments.accumulatorRow(37, 6));
        assertEquals(10, WgmmaFragments.accumulatorColumn(37, 6));
        assertEquals(25, WgmmaFragments.accumulatorRow(37, 3));
        assertEquals(3, WgmmaFragments.accumulatorColumn(37, 3));
        assertEquals(17, WgmmaFragments.accumulatorRow(37, 0));
        assertEquals(2, WgmmaFragments.accumulatorColumn(37, 0));
        // Last element of N = 256 (element 127) of thread 127: row 63, column 255.
        assertEquals(63, WgmmaFragments.accumulatorRow(127, 127));
        assertEquals(255, WgmmaFragments.accumulatorColumn(127, 127));
        // Every (row, column) of m64n16 is held exactly once.
        boolean[] seen = new boolean[64 * 16];
        for (int t = 0; t < 128; t++) {
            for (int e = 0; e < 8; e++) {
                int idx = WgmmaFragments.accumulatorRow(t, e) * 16 + WgmmaFragments.accumulatorColumn(t, e);
                assertTrue(!seen[idx], "twice: " + idx);
                seen[idx] = true;
            }
        }
    }

    @Test
    void aRegisterFragments() {
        // Thread 37 (warp 1, group 1, thread-in-group 1).
        assertEquals(25, WgmmaFragments.aRow(37, 3));
        assertEquals(17, WgmmaFragments.aRow(37, 2));
        assertEquals(11, WgmmaFragments.aColumn(37, 3, 1, 16)); // 2*1 + 1 + 8
        assertEquals(5, WgmmaFragments.aColumn(37, 2, 0, 32)); // tf32: 1 + 4
        assertEquals(6, WgmmaFragments.aColumn(37, 1, 2, 8)); // 8-bit: 4*1 + 2
        assertEquals(23, WgmmaFragments.aColumn(37, 3, 3, 8)); // 4 + 3 + 16
    }

    @Test
    void e4m3Values() {
        assertEquals(448.0, TensorCore.input(0x7e, DataType.E4M3));
        assertEquals(-0x1p-9, TensorCore.input(0x81, DataType.E4M3));
        assertEquals(1.0, TensorCore.input(0x38, DataType.E4M3));
        assertTrue(Double.isNaN(TensorCore.input(0xff, DataType.E4M3)));
    }

    @Test
    void malformedMmaIsReportedAtItsLine() {
        Harness h = new Harness(".version 8.0\n.target sm_90a\n.address_size 64\n" + """
                .visible .entry k()
                {
                	.reg .pred %p<2>;
                	.reg .f32 %f<4>;
                	.reg .b64 %rd<2>;
                	mov.b64 %rd0, 0;
                	setp.eq.u32 %p0, 1, 1;
                	wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f0, %f1, %f2}, %rd0, %rd0, %p0, 1, 1, 0, 0;
                	ret;
                }
                """);
        ExecResult r = h.run(1, 128);
        assertEquals(ExecStatus.ERROR, r.status());
        assertEquals(11, r.diagnostics().get(0).pos().line(), () -> r.diagnostics().toString());
        assertTrue(r.diagnostics().get(0).message().contains("4 registers, not 3"), () -> r.diagnostics().toString());
    }
}
