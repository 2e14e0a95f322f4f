package io.ptxrun.exec;

import io.ptxrun.diag.Diagnostic;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** wmma.load / wmma.mma / wmma.store: small products worked out by hand, layout, and misuse. */
class WarpMatrixTest {

    private static void ok(ExecResult r) {
        assertEquals(ExecStatus.OK, r.status(), () -> r.diagnostics().toString());
    }

    private static long halves(Harness h, float... values) {
        ByteBuffer b = ByteBuffer.allocate(values.length * 2).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : values) {
            b.putShort((short) FloatOps.floatToHalf(v));
        }
        long a = h.buffer(values.length * 2);
        h.memory.write(a, b.array());
        return a;
    }

    private static long bytes(Harness h, int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = (byte) values[i];
        }
        long a = h.buffer(b.length);
        h.memory.write(a, b);
        return a;
    }

    private static final String F16_KERNEL = Harness.HEADER + """
            .visible .entry mm(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)
            {
                .reg .b32 %a<8>, %b<8>;
                .reg .f32 %c<8>, %d<8>;
                .reg .b64 %ra, %rb, %rc, %rd;
                ld.param.u64 %ra, [pa];
                ld.param.u64 %rb, [pb];
                ld.param.u64 %rc, [pc];
                ld.param.u64 %rd, [pd];
                wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7}, [%ra];
                wmma.load.b.sync.aligned.col.m16n16k16.global.f16 {%b0, %b1, %b2, %b3, %b4, %b5, %b6, %b7}, [%rb];
                wmma.load.c.sync.aligned.row.m16n16k16.global.f32 {%c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7}, [%rc];
                wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%d0, %d1, %d2, %d3, %d4, %d5, %d6, %d7},
                        {%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7}, {%b0, %b1, %b2, %b3, %b4, %b5, %b6, %b7},
                        {%c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7};
                wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd], {%d0, %d1, %d2, %d3, %d4, %d5, %d6, %d7}, 20;
                ret;
            }
            """;

    @Test
    void halfProductWithFloatAccumulatorAndStride() {
        // A is the identity with a 2 at (0, 1); B[k][j] = k + j, stored column-major; C is all 1.
        // So D[i][j] = B[i][j] + 1, except row 0: B[0][j] + 2 * B[1][j] + 1 = j + 2 (j + 1) + 1 = 3j + 3.
        Harness h = new Harness(F16_KERNEL);
        float[] a = new float[256];
        for (int i = 0; i < 16; i++) {
            a[i * 16 + i] = 1;
        }
        a[1] = 2;
        float[] bColMajor = new float[256];
        for (int k = 0; k < 16; k++) {
            for (int j = 0; j < 16; j++) {
                bColMajor[j * 16 + k] = k + j;
            }
        }
        float[] c = new float[256];
        java.util.Arrays.fill(c, 1);
        float[] pad = new float[16 * 20];
        java.util.Arrays.fill(pad, -7);
        long d = h.floats(pad);
        ok(h.run(1, 32, halves(h, a), halves(h, bColMajor), h.floats(c), d));
        float[] out = h.readFloats(d, 16 * 20);
        for (int i = 0; i < 16; i++) {
            for (int j = 0; j < 20; j++) {
                float want = j >= 16 ? -7 : i == 0 ? 3 * j + 3 : i + j + 1;
                assertEquals(want, out[i * 20 + j], "D[" + i + "][" + j + "] (stride 20)");
            }
        }
    }

    @Test
    void floatAccumulationIsTheHardwaresFixedPointSum() {
        // Row 0 of A times column 0 of B: 2048 * 8192 = 2^24, then -2^24. Summed in f32 from
        // C = 1 in k order, 1 + 2^24 would round to 2^24 and give 0; the H100 adds the terms in
        // fixed point (2^(24-25) quanta here), so C survives and the result is 1, as recorded in
        // run case wmma-f32-accumulation.
        Harness h = new Harness(F16_KERNEL);
        float[] a = new float[256];
        a[0] = 2048;
        a[1] = -2048;
        float[] b = new float[256];
        b[0] = 8192;
        b[1] = 8192;
        float[] c = new float[256];
        c[0] = 1;
        c[1] = 1;
        long d = h.buffer(16 * 20 * 4);
        ok(h.run(1, 32, halves(h, a), halves(h, b), h.floats(c), d));
        float[] out = h.readFloats(d, 2);
        assertEquals(1f, out[0]);
        assertEquals(1f, out[1]);
    }

    @Test
    void fragmentLayoutIsLogicalRowMajorRepeatedOverTheWarp() {
        // Lane l's first register holds A elements 16l and 16l + 1 (mod 256), low half first.
        Harness h = new Harness(Harness.HEADER + """
                .visible .entry frag(.param .u64 pa, .param .u64 pout)
                {
                    .reg .b32 %a<8>, %lane;
                    .reg .b64 %ra, %ro, %x;
                    ld.param.u64 %ra, [pa];
                    ld.param.u64 %ro, [pout];
                    wmma.load.a.sync.aligned.col.m16n16k16.f16 {%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7}, [%ra];
                    mov.u32 %lane, %laneid;
                    mul.wide.u32 %x, %lane, 4;
                    add.s64 %ro, %ro, %x;
                    st.global.b32 [%ro], %a0;
                    ret;
                }
                """);
        float[] colMajor = new float[256];
        for (int r = 0; r < 16; r++) {
            for (int c = 0; c < 16; c++) {
                colMajor[c * 16 + r] = r * 16 + c;
            }
        }
        long out = h.buffer(32 * 4);
        ok(h.run(1, 32, halves(h, colMajor), out));
        int[] regs = h.readInts(out, 32);
        for (int l = 0; l < 32; l++) {
            int first = (16 * l) % 256;
            int want = FloatOps.floatToHalf(first) | FloatOps.floatToHalf(first + 1) << 16;
            assertEquals(want, regs[l], "lane " + l);
        }
    }

    @Test
    void byteInputsWithIntegerAccumulatorM32n8k16() {
        // A (32 x 16, s8) is -1 at (i, i mod 16); B (16 x 8, u8) is k * 8 + j + 100; C (col-major) is
        // i * 8 + j. So D[i][j] = i * 8 + j - ((i mod 16) * 8 + j + 100).
        Harness h = new Harness(Harness.HEADER + """
                .visible .entry imm(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)
                {
                    .reg .b32 %a<4>, %b, %c<8>, %d<8>;
                    .reg .b64 %ra, %rb, %rc, %rd;
                    ld.param.u64 %ra, [pa];
                    ld.param.u64 %rb, [pb];
                    ld.param.u64 %rc, [pc];
                    ld.param.u64 %rd, [pd];
                    wmma.load.a.sync.aligned.row.m32n8k16.global.s8 {%a0, %a1, %a2, %a3}, [%ra];
                    wmma.load.b.sync.aligned.row.m32n8k16.global.u8 {%b}, [%rb];
                    wmma.load.c.sync.aligned.col.m32n8k16.global.s32 {%c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7}, [%rc];
                    wmma.mma.sync.aligned.row.row.m32n8k16.s32.s8.u8.s32 {%d0, %d1, %d2, %d3, %d4, %d5, %d6, %d7},
                            {%a0, %a1, %a2, %a3}, {%b}, {%c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7};
                    wmma.store.d.sync.aligned.row.m32n8k16.global.s32 [%rd], {%d0, %d1, %d2, %d3, %d4, %d5, %d6, %d7};
                    ret;
                }
                """);
        int[] a = new int[32 * 16];
        for (int i = 0; i < 32; i++) {
            a[i * 16 + i % 16] = -1;
        }
        int[] b = new int[16 * 8];
        for (int k = 0; k < 16; k++) {
            for (int j = 0; j < 8; j++) {
                b[k * 8 + j] = k * 8 + j + 100;
            }
        }
        int[] cColMajor = new int[32 * 8];
        for (int i = 0; i < 32; i++) {
            for (int j = 0; j < 8; j++) {
                cColMajor[j * 32 + i] = i * 8 + j;
            }
        }
        long d = h.buffer(32 * 8 * 4);
        ok(h.run(1, 32, bytes(h, a), bytes(h, b), h.ints(cColMajor), d));
        int[] out = h.readInts(d, 32 * 8);
        int[] want = new int[32 * 8];
        for (int i = 0; i < 32; i++) {
            for (int j = 0; j < 8; j++) {
                want[i * 8 + j] = i * 8 + j - ((i % 16) * 8 + j + 100);
            }
        }
        assertArrayEquals(want, out);
    }

    @Test
    void satfiniteClampsIntegerAndHalfResults() {
        // m8n32k16: A row 0 is all 1, B all 127 (s8), so D[0][j] = C + 16 * 127 = INT_MAX - 1000 + 2032
        // saturates to INT_MAX; row 1 of A is 0 and keeps C.
        Harness h = new Harness(Harness.HEADER + """
                .visible .entry sat(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)
                {
                    .reg .b32 %a, %b<4>, %c<8>, %d<8>, %x;
                    .reg .b64 %ra, %rb, %rc, %rd;
                    ld.param.u64 %ra, [pa];
                    ld.param.u64 %rb, [pb];
                    ld.param.u64 %rc, [pc];
                    ld.param.u64 %rd, [pd];
                    wmma.load.a.sync.aligned.row.m8n32k16.global.s8 {%a}, [%ra];
                    wmma.load.b.sync.aligned.col.m8n32k16.global.s8 {%b0, %b1, %b2, %b3}, [%rb];
                    mov.b32 %x, 2147482647;
                    wmma.mma.sync.aligned.row.col.m8n32k16.s32.s8.s8.s32.satfinite {%d0, %d1, %d2, %d3, %d4, %d5, %d6, %d7},
                            {%a}, {%b0, %b1, %b2, %b3}, {%x, %x, %x, %x, %x, %x, %x, %x};
                    wmma.store.d.sync.aligned.row.m8n32k16.global.s32 [%rd], {%d0, %d1, %d2, %d3, %d4, %d5, %d6, %d7};
                    ret;
                }
                """);
        int[] a = new int[8 * 16];
        for (int k = 0; k < 16; k++) {
            a[k] = 1;
        }
        int[] b = new int[16 * 32];
        java.util.Arrays.fill(b, 127);
        long d = h.buffer(8 * 32 * 4);
        ok(h.run(1, 32, bytes(h, a), bytes(h, b), 0L, d));
        int[] out = h.readInts(d, 8 * 32);
        assertEquals(Integer.MAX_VALUE, out[0]);
        assertEquals(2147482647, out[32]);
    }

    @Test
    void halfAccumulatorSaturatesWithSatfinite() {
        String kernel = Harness.HEADER + """
                .visible .entry hsat(.param .u64 pa, .param .u64 pc, .param .u64 pd)
                {
                    .reg .b32 %a<8>, %c<4>, %d<4>;
                    .reg .b64 %ra, %rc, %rd;
                    ld.param.u64 %ra, [pa];
                    ld.param.u64 %rc, [pc];
                    ld.param.u64 %rd, [pd];
                    wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7}, [%ra];
                    wmma.load.c.sync.aligned.row.m16n16k16.global.f16 {%c0, %c1, %c2, %c3}, [%rc];
                    wmma.mma.sync.aligned.row.row.m16n16k16.f16.f16SAT {%d0, %d1, %d2, %d3},
                            {%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7}, {%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7},
                            {%c0, %c1, %c2, %c3};
                    wmma.store.d.sync.aligned.row.m16n16k16.global.f16 [%rd], {%d0, %d1, %d2, %d3};
                    ret;
                }
                """;
        // A = B = 8 everywhere: each product sum is 16 * 64 = 1024; C = 65000 pushes it past 65504.
        for (boolean sat : new boolean[] {true, false}) {
            Harness h = new Harness(kernel.replace("SAT", sat ? ".satfinite" : ""));
            float[] a = new float[256];
            java.util.Arrays.fill(a, 8);
            float[] c = new float[256];
            java.util.Arrays.fill(c, 65000);
            long d = h.buffer(512);
            ok(h.run(1, 32, halves(h, a), halves(h, c), d));
            int first = h.readInts(d, 1)[0] & 0xffff;
            assertEquals(sat ? 0x7bff : 0x7c00, first, sat ? "satfinite" : "plain");
        }
    }

    @Test
    void divergentWarpIsAnErrorAtTheLine() {
        Harness h = new Harness(Harness.HEADER + """
                .visible .entry div(.param .u64 pa)
                {
                    .reg .pred %p;
                    .reg .b32 %a<8>, %lane;
                    .reg .b64 %ra;
                    ld.param.u64 %ra, [pa];
                    mov.u32 %lane, %laneid;
                    setp.lt.u32 %p, %lane, 16;
                    @%p wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7}, [%ra];
                    ret;
                }
                """);
        ExecResult r = h.run(1, 32, h.buffer(512));
        assertEquals(ExecStatus.ERROR, r.status());
        Diagnostic diag = r.diagnostics().get(0);
        assertEquals(12, diag.pos().line(), diag::toString);
        assertTrue(diag.message().contains("converged") && diag.message().contains("0x0000ffff"), diag::toString);
    }

    @Test
    void partialWarpIsAnError() {
        Harness h = new Harness(F16_KERNEL);
        ExecResult r = h.run(1, 16, h.buffer(512), h.buffer(512), h.buffer(1024), h.buffer(16 * 20 * 4));
        assertEquals(ExecStatus.ERROR, r.status());
        assertTrue(r.diagnostics().get(0).message().contains("all 32 lanes"), () -> r.diagnostics().toString());
    }

    @Test
    void stmatrixAndLdmatrixMoveEightByEightTilesOfTheFragment() {
        // Lane l's register i holds 2(32i + l) and 2(32i + l) + 1: in fragment order that is element
        // (l / 4, 2 (l % 4)) and its neighbour, so stmatrix.x2 writes matrix i as 64i + 8r + c, rows
        // 16 bytes apart at the addresses lanes 8i..8i+7 give. ldmatrix.x2.trans reads it back
        // transposed; ldmatrix.x1 reads matrix 0 as it lies.
        Harness h = new Harness(Harness.HEADER + """
                .visible .entry mv(.param .u64 pout)
                {
                    .reg .b32 %l, %v<2>, %t<2>, %n, %row, %base, %m, %r, %x<2>;
                    .reg .b64 %out, %o, %w;
                    .shared .align 16 .b8 tile[256];
                    ld.param.u64 %out, [pout];
                    mov.u32 %l, %laneid;
                    shl.b32 %x0, %l, 1;
                    add.u32 %x1, %x0, 1;
                    shl.b32 %x1, %x1, 16;
                    or.b32 %v0, %x0, %x1;
                    add.u32 %v1, %v0, 0x00400040;
                    shr.u32 %m, %l, 3;
                    and.b32 %r, %l, 7;
                    mov.u32 %base, tile;
                    mad.lo.u32 %row, %m, 128, %base;
                    mad.lo.u32 %row, %r, 16, %row;
                    stmatrix.sync.aligned.m8n8.x2.shared.b16 [%row], {%v0, %v1};
                    bar.warp.sync -1;
                    ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%t0, %t1}, [%row];
                    ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%n}, [%row];
                    mul.wide.u32 %o, %l, 4;
                    add.s64 %w, %out, %o;
                    mad.lo.u32 %x1, %l, 4, %base;
                    ld.shared.u32 %x0, [%x1];
                    st.global.u32 [%w], %x0;
                    ld.shared.u32 %x0, [%x1 + 128];
                    st.global.u32 [%w + 128], %x0;
                    st.global.u32 [%w + 256], %t0;
                    st.global.u32 [%w + 384], %t1;
                    st.global.u32 [%w + 512], %n;
                    ret;
                }
                """);
        long out = h.buffer(5 * 128);
        ok(h.run(1, 32, out));
        int[] got = h.readInts(out, 160);
        for (int l = 0; l < 32; l++) {
            // shared memory holds 0, 1, 2, ... as b16: word l of each matrix is 2l | (2l + 1) << 16
            assertEquals(2 * l | (2 * l + 1) << 16, got[l], "matrix 0 word " + l);
            assertEquals(64 + 2 * l | (64 + 2 * l + 1) << 16, got[32 + l], "matrix 1 word " + l);
            for (int i = 0; i < 2; i++) {
                int lo = 64 * i + 8 * (2 * (l % 4)) + l / 4, hi = lo + 8;
                assertEquals(lo | hi << 16, got[64 + 32 * i + l], ".trans register " + i + " of lane " + l);
            }
            assertEquals(2 * l | (2 * l + 1) << 16, got[128 + l], "x1 register of lane " + l);
        }
    }
}
