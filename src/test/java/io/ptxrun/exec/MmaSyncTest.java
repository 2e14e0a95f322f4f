package io.ptxrun.exec;

import io.ptxrun.diag.Diagnostic;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * mma.sync: a product worked out by hand through the fragment layouts, registers shared between D
 * and C, misuse, and the forms that are not run (the run cases mma-sync-* hold the H100's results).
 */
class MmaSyncTest {

    /**
     * m16n8k8 .f32.f16.f16.f32 with A(i, k) = i + k, B(k, j) = 1 for k == j (the first 8 rows of an
     * identity) and C = 0.5: D(i, j) = A(i, j) + 0.5 = i + j + 0.5. Each lane builds its own fragment
     * from the layout (A register r, half h: row g + 8r, column 2q + h; B half h: row 2q + h,
     * column g), and D is C's registers.
     */
    @Test
    void fragmentsFollowTheLayoutOfTheSpec() {
        Harness h = new Harness(Harness.HEADER + """
                .visible .entry mm(.param .u64 pd)
                {
                    .reg .b32 %l, %g, %q, %k0, %k1, %row, %v, %lo, %hi, %a<2>, %b0, %off;
                    .reg .f32 %c<4>, %f;
                    .reg .pred %p;
                    .reg .b16 %h<2>;
                    .reg .b64 %rd, %o;
                    ld.param.u64 %rd, [pd];
                    mov.u32 %l, %laneid;
                    shr.u32 %g, %l, 2;
                    and.b32 %q, %l, 3;
                    shl.b32 %k0, %q, 1;
                    add.u32 %k1, %k0, 1;
                    // A register 0: row g; register 1: row g + 8; halves: columns k0, k1
                    add.u32 %v, %g, %k0;
                    cvt.rn.f32.u32 %f, %v;
                    cvt.rn.f16.f32 %h0, %f;
                    add.u32 %v, %g, %k1;
                    cvt.rn.f32.u32 %f, %v;
                    cvt.rn.f16.f32 %h1, %f;
                    mov.b32 %a0, {%h0, %h1};
                    add.u32 %row, %g, 8;
                    add.u32 %v, %row, %k0;
                    cvt.rn.f32.u32 %f, %v;
                    cvt.rn.f16.f32 %h0, %f;
                    add.u32 %v, %row, %k1;
                    cvt.rn.f32.u32 %f, %v;
                    cvt.rn.f16.f32 %h1, %f;
                    mov.b32 %a1, {%h0, %h1};
                    // B: rows k0, k1 of column g are 1 where the row is g
                    setp.eq.u32 %p, %k0, %g;
                    selp.b32 %lo, 0x3c00, 0, %p;
                    setp.eq.u32 %p, %k1, %g;
                    selp.b32 %hi, 0x3c000000, 0, %p;
                    or.b32 %b0, %lo, %hi;
                    mov.f32 %c0, 0f3F000000;
                    mov.f32 %c1, %c0;
                    mov.f32 %c2, %c0;
                    mov.f32 %c3, %c0;
                    mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%c0, %c1, %c2, %c3}, {%a0, %a1}, {%b0}, {%c0, %c1, %c2, %c3};
                    mul.lo.u32 %off, %l, 16;
                    cvt.u64.u32 %o, %off;
                    add.s64 %rd, %rd, %o;
                    st.global.v4.f32 [%rd], {%c0, %c1, %c2, %c3};
                    ret;
                }
                """);
        long d = h.buffer(32 * 16);
        ExecResult r = h.run(1, 32, d);
        assertEquals(ExecStatus.OK, r.status(), () -> r.diagnostics().toString());
        int[] out = h.readInts(d, 128);
        for (int l = 0; l < 32; l++) {
            for (int e = 0; e < 4; e++) {
                int i = l / 4 + 8 * (e / 2), j = 2 * (l % 4) + e % 2;
                assertEquals(i + j + 0.5f, Float.intBitsToFloat(out[4 * l + e]), "lane " + l + " element " + e);
            }
        }
    }

    /**
     * .e4m3/.e5m2 inputs run as two f16 MMAs, the k with k % 4 of 0 or 1 first, those with 2 or 3 on
     * top, and C added last rounded to nearest. Lanes with q = 0 hold k 0..3 of every row of A and
     * column of B (A registers 0 and 1, B register 0), all other bytes are zero, so all 128 elements of
     * each D are the same:
     * <ul>
     * <li>m16n8k32 .f32, e4m3: 256 * 256 + 2^-4 * 2^-4 (k 0, 1) is 2^16 truncated to f32, and
     *     - 256 * 256 (k 2) then leaves 0 (one sum of all k, or of k 0..15, gives 2^-8);
     * <li>m16n8k16 .f32, e4m3: 3 * 2^-9 * 2^-8 (k 0) added to C = 256 is three quarters of its ulp,
     *     rounded up to 256 + 2^-15 (a sum with C in it, truncated, keeps 256);
     * <li>m16n8k32 .f16, e4m3 x e5m2: 448 * 448 (k 0) overflows the first MMA's f16 D to +inf, which
     *     448 * -448 (k 2) cannot bring back, where the exact sum is 0.
     * </ul>
     */
    @Test
    void float8InputsRunAsTwoF16MmasWithCAddedLast() {
        Harness h = new Harness(".version 8.7\n.target sm_90\n.address_size 64\n" + """
                .visible .entry f8(.param .u64 pd)
                {
                    .reg .b32 %l, %z, %a<3>, %b<3>, %h<2>;
                    .reg .f32 %c<4>, %d<4>, %e<4>;
                    .reg .pred %p;
                    .reg .b64 %rd, %o;
                    ld.param.u64 %rd, [pd];
                    mov.u32 %l, %laneid;
                    and.b32 %z, %l, 3;
                    setp.eq.u32 %p, %z, 0;
                    mov.b32 %z, 0;
                    selp.b32 %a0, 0x00F81878, 0, %p;
                    selp.b32 %b0, 0x00781878, 0, %p;
                    selp.b32 %a1, 0x00000003, 0, %p;
                    selp.b32 %b1, 0x00000002, 0, %p;
                    selp.b32 %a2, 0x007E007E, 0, %p;
                    selp.b32 %b2, 0x00DF005F, 0, %p;
                    mov.f32 %c0, 0f00000000;
                    mov.f32 %c1, %c0;
                    mov.f32 %c2, %c0;
                    mov.f32 %c3, %c0;
                    mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%d0, %d1, %d2, %d3}, {%a0, %a0, %z, %z}, {%b0, %z}, {%c0, %c1, %c2, %c3};
                    mov.f32 %c0, 0f43800000;
                    mov.f32 %c1, %c0;
                    mov.f32 %c2, %c0;
                    mov.f32 %c3, %c0;
                    mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e4m3.f32 {%e0, %e1, %e2, %e3}, {%a1, %a1}, {%b1}, {%c0, %c1, %c2, %c3};
                    mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e5m2.f16 {%h0, %h1}, {%a2, %a2, %z, %z}, {%b2, %z}, {%z, %z};
                    mul.wide.u32 %o, %l, 48;
                    add.s64 %rd, %rd, %o;
                    st.global.v4.f32 [%rd], {%d0, %d1, %d2, %d3};
                    st.global.v4.f32 [%rd+16], {%e0, %e1, %e2, %e3};
                    st.global.v2.b32 [%rd+32], {%h0, %h1};
                    ret;
                }
                """);
        long d = h.buffer(32 * 48);
        ExecResult r = h.run(1, 32, d);
        assertEquals(ExecStatus.OK, r.status(), () -> r.diagnostics().toString());
        int[] out = h.readInts(d, 32 * 12);
        for (int l = 0; l < 32; l++) {
            for (int e = 0; e < 4; e++) {
                String at = "lane " + l + " element " + e;
                assertEquals(0, out[12 * l + e], at);
                assertEquals(0x43800001, out[12 * l + 4 + e], at);
                assertEquals(0x7c00, out[12 * l + 8 + e / 2] >>> 16 * (e % 2) & 0xffff, at);
            }
        }
    }

    @Test
    void divergentWarpIsAnErrorAtTheLine() {
        Harness h = new Harness(Harness.HEADER + """
                .visible .entry div()
                {
                    .reg .pred %p;
                    .reg .b32 %a<4>, %b<2>, %lane;
                    .reg .f32 %c<4>;
                    mov.u32 %lane, %laneid;
                    setp.lt.u32 %p, %lane, 16;
                    @%p mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%c0, %c1, %c2, %c3}, {%a0, %a1, %a2, %a3}, {%b0, %b1}, {%c0, %c1, %c2, %c3};
                    ret;
                }
                """);
        ExecResult r = h.run(1, 32);
        assertEquals(ExecStatus.ERROR, r.status());
        Diagnostic diag = r.diagnostics().get(0);
        assertEquals(11, diag.pos().line(), diag::toString);
        assertTrue(diag.message().contains("converged") && diag.message().contains("0x0000ffff"), diag::toString);
    }

    /** Forms ptxas accepts that are not run stop the run as not supported, at their line, never with a result. */
    @Test
    void formsNotRunAreReportedAsNotSupported() {
        String[][] forms = {
            {"mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7}, {%a0, %a1}, {%a2, %a3}, "
                    + "{%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7};", "m8n8k4"},
            {"mma.sync.aligned.m16n8k32.row.col.s32.s4.s4.s32 {%a0, %a1, %a2, %a3}, {%a4, %a5}, {%a6}, "
                    + "{%a0, %a1, %a2, %a3};", "s4"},
            {"mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.xor.popc {%a0, %a1, %a2, %a3}, {%a4, %a5}, {%a6}, "
                    + "{%a0, %a1, %a2, %a3};", "m16n8k128"},
        };
        for (String[] f : forms) {
            // (ptxas accepts each of these.)
            Harness h = new Harness(".version 8.4\n.target sm_90\n.address_size 64\n" + """
                    .visible .entry un()
                    {
                        .reg .b32 %a<8>;
                        .reg .f32 %f<8>;
                        """ + f[0] + """

                        ret;
                    }
                    """);
            ExecResult r = h.run(1, 32);
            assertEquals(ExecStatus.ERROR, r.status(), f[1]);
            Diagnostic diag = r.diagnostics().get(0);
            assertTrue(diag.message().startsWith("instruction 'mma.sync.aligned.") && diag.message().contains(f[1])
                    && diag.message().contains("is not supported"),
                    diag::toString);
            assertEquals(8, diag.pos().line(), diag::toString);
        }
    }
}
