package io.ptxrun.exec.copy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ptxrun.launch.TensorMap;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Replays the copy instructions of recorded H100 cases ({@code testdata/run}) with the
 * engine-independent classes and compares the buffers with the recording.
 */
class HardwareCasesTest {

    @Test
    void tma2dLoadOutOfBoundsZeroFills() {
        HardwareCase hw = HardwareCase.of("tma-2d-load-oob");
        TensorMap map = hw.map("tmA");
        byte[] global = hw.initial("A");
        byte[] shared = HardwareCase.filled(2560, 0x77);
        int[][] coords = {{0, 0}, {32, 20}, {-4, -3}, {-20, 0}, {8, 22}};
        for (int i = 0; i < coords.length; i++) {
            TensorCopy copy = TensorCopy.tile(map, coords[i]);
            assertEquals(512, copy.txBytes());
            copy.load(global, HardwareCase.BASE, shared, 512 * i);
        }
        hw.assertBuffer("out", shared);
    }

    @Test
    void tmaSwizzle128bNarrowRowsLoadAndStore() {
        HardwareCase hw = HardwareCase.of("tma-swizzle-128b-narrow");
        byte[] shared = HardwareCase.filled(4096, 0x77);
        TensorCopy load = TensorCopy.tile(hw.map("tmA"), 16, 0);
        assertEquals(1024, load.txBytes());
        load.load(hw.initial("A"), HardwareCase.BASE, shared, 0);
        hw.assertBuffer("out", shared);

        byte[] sbuf = new byte[4096];
        for (int i = 0; i < 1024; i++) {
            BulkReduction.write(sbuf, 4 * i, 4, 5000 + i);
        }
        byte[] b = hw.initial("B");
        TensorCopy.tile(hw.map("tmB"), 0, 0).store(sbuf, 0, b, HardwareCase.BASE);
        hw.assertBuffer("B", b);
    }

    /** tma-reduce-add has no recording yet: the kernel's reductions, checked by hand at the corners. */
    @Test
    void tmaReduceAddClipsAtTheEdges() {
        HardwareCase hw = HardwareCase.of("tma-reduce-add", false);
        byte[] sbuf = new byte[512];
        byte[] fbuf = new byte[512];
        for (int i = 0; i < 128; i++) {
            BulkReduction.write(sbuf, 4 * i, 4, 1000 + i);
            BulkReduction.write(fbuf, 4 * i, 4, Float.floatToRawIntBits(0.25f * i));
        }
        byte[] c = hw.initial("C");
        byte[] d = hw.initial("D");
        TensorMap tmC = hw.map("tmC");
        TensorCopy.tile(tmC, 0, 0).reduce(ReductionOp.ADD, sbuf, 0, c, HardwareCase.BASE);
        TensorCopy.tile(tmC, 8, 4).reduce(ReductionOp.ADD, sbuf, 0, c, HardwareCase.BASE);
        TensorCopy.tile(tmC, 32, 20).reduce(ReductionOp.ADD, sbuf, 0, c, HardwareCase.BASE);
        TensorCopy.tile(hw.map("tmD"), 30, 18).reduce(ReductionOp.ADD, fbuf, 0, d, HardwareCase.BASE);
        assertEquals(1000, BulkReduction.read(c, 0, 4));
        assertEquals(168 + 1072 + 1000, BulkReduction.read(c, 4 * 168, 4)); // (8,4): both boxes
        assertEquals(959 + 1000 + 3 * 16 + 7, BulkReduction.read(c, 4 * 959, 4)); // (39,23)
        assertEquals(40 * 20 + 31, BulkReduction.read(c, 4 * (40 * 20 + 31), 4)); // untouched
        assertEquals(750f, Float.intBitsToFloat((int) BulkReduction.read(d, 4 * 750, 4)));
        assertEquals(959 + 0.25f * (5 * 16 + 9), Float.intBitsToFloat((int) BulkReduction.read(d, 4 * 959, 4)));
    }

    @Test
    void bulkReduceGlobalIntegers() {
        HardwareCase hw = HardwareCase.of("bulk-reduce-global-int");
        byte[] s32 = hw.initial("s32");
        byte[] s64 = hw.initial("s64");
        byte[] sbuf = new byte[416 + s64.length];
        System.arraycopy(s32, 0, sbuf, 0, Math.min(416, s32.length));
        System.arraycopy(s64, 0, sbuf, 416, s64.length);
        byte[] g32 = hw.initial("g32");
        byte[] g64 = hw.initial("g64");
        Object[][] g32Chunks = {
            {ReductionOp.ADD, ReductionType.U32}, {ReductionOp.ADD, ReductionType.S32},
            {ReductionOp.MIN, ReductionType.U32}, {ReductionOp.MAX, ReductionType.U32},
            {ReductionOp.MIN, ReductionType.S32}, {ReductionOp.MAX, ReductionType.S32},
            {ReductionOp.INC, ReductionType.U32}, {ReductionOp.DEC, ReductionType.U32},
            {ReductionOp.AND, ReductionType.B32}, {ReductionOp.OR, ReductionType.B32},
            {ReductionOp.XOR, ReductionType.B32},
        };
        for (int k = 0; k < g32Chunks.length; k++) {
            BulkReduction.apply(
                    (ReductionOp) g32Chunks[k][0], (ReductionType) g32Chunks[k][1], g32, 32 * k, sbuf, 32 * k, 32);
        }
        BulkReduction.apply(ReductionOp.ADD, ReductionType.U32, g32, 0, sbuf, 352, 32);
        BulkReduction.apply(ReductionOp.ADD, ReductionType.U32, g32, 384, sbuf, 384, 32);
        Object[][] g64Chunks = {
            {ReductionOp.ADD, ReductionType.U64}, {ReductionOp.MIN, ReductionType.U64},
            {ReductionOp.MAX, ReductionType.U64}, {ReductionOp.MIN, ReductionType.S64},
            {ReductionOp.MAX, ReductionType.S64}, {ReductionOp.AND, ReductionType.B64},
            {ReductionOp.OR, ReductionType.B64}, {ReductionOp.XOR, ReductionType.B64},
        };
        for (int k = 0; k < g64Chunks.length; k++) {
            BulkReduction.apply(
                    (ReductionOp) g64Chunks[k][0], (ReductionType) g64Chunks[k][1], g64, 32 * k, sbuf, 416 + 32 * k, 32);
        }
        hw.assertBuffer("g32", g32);
        hw.assertBuffer("g64", g64);
    }

    @Test
    void bulkReduceGlobalFloats() {
        HardwareCase hw = HardwareCase.of("bulk-reduce-global-float");
        byte[] sbuf = new byte[320];
        byte[] sf32 = hw.initial("sf32");
        byte[] sf64 = hw.initial("sf64");
        byte[] s16 = hw.initial("s16");
        System.arraycopy(sf32, 0, sbuf, 0, 64);
        System.arraycopy(sf64, 0, sbuf, 64, sf64.length);
        System.arraycopy(s16, 0, sbuf, 192, s16.length);
        byte[] gf32 = hw.initial("gf32");
        byte[] gf64 = hw.initial("gf64");
        byte[] g16 = hw.initial("g16");
        BulkReduction.apply(ReductionOp.ADD, ReductionType.F32, gf32, 0, sbuf, 0, 64);
        BulkReduction.apply(ReductionOp.ADD, ReductionType.F64, gf64, 0, sbuf, 64, 64);
        BulkReduction.apply(ReductionOp.ADD, ReductionType.F16, g16, 0, sbuf, 192, 32);
        BulkReduction.apply(ReductionOp.ADD, ReductionType.BF16, g16, 32, sbuf, 224, 32);
        BulkReduction.apply(ReductionOp.MIN, ReductionType.F16, g16, 64, sbuf, 256, 16);
        BulkReduction.apply(ReductionOp.MAX, ReductionType.F16, g16, 80, sbuf, 272, 16);
        BulkReduction.apply(ReductionOp.MIN, ReductionType.BF16, g16, 96, sbuf, 288, 16);
        BulkReduction.apply(ReductionOp.MAX, ReductionType.BF16, g16, 112, sbuf, 304, 16);
        hw.assertBuffer("gf32", gf32);
        hw.assertBuffer("gf64", gf64);
        hw.assertBuffer("g16", g16);
    }

    @Test
    void bulkReduceIntoThePeerCtaOfACluster() {
        HardwareCase hw = HardwareCase.of("bulk-reduce-cluster");
        byte[] init = hw.initial("init");
        byte[] src = hw.initial("src");
        // out[96 c ..] is CTA c's dst: its init words reduced with the peer's (rank 1 - c) sources.
        byte[] out = Arrays.copyOf(init, 192 * 4);
        Object[][] chunks = {
            {ReductionOp.ADD, ReductionType.U32}, {ReductionOp.ADD, ReductionType.S32},
            {ReductionOp.MIN, ReductionType.U32}, {ReductionOp.MAX, ReductionType.U32},
            {ReductionOp.MIN, ReductionType.S32}, {ReductionOp.MAX, ReductionType.S32},
            {ReductionOp.INC, ReductionType.U32}, {ReductionOp.DEC, ReductionType.U32},
            {ReductionOp.AND, ReductionType.B32}, {ReductionOp.OR, ReductionType.B32},
            {ReductionOp.XOR, ReductionType.B32}, {ReductionOp.ADD, ReductionType.U64},
        };
        for (int cta = 0; cta < 2; cta++) {
            int peer = 1 - cta;
            for (int k = 0; k < chunks.length; k++) {
                ReductionOp op = (ReductionOp) chunks[k][0];
                ReductionType type = (ReductionType) chunks[k][1];
                assertEquals(true, ReductionRules.allowed(ReductionRules.Destination.SHARED_CLUSTER, op, type));
                BulkReduction.apply(op, type, out, 384 * peer + 32 * k, src, 384 * cta + 32 * k, 32);
            }
        }
        hw.assertBuffer("out", out);
    }
}
