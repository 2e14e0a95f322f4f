package io.ptxrun.exec;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class WarpAndMemoryTest {

    private static void ok(ExecResult r) {
        assertEquals(ExecStatus.OK, r.status(), () -> r.diagnostics().toString());
    }

    @Test
    void shuffleDownTreeReductionAndBallot() {
        // Each warp sums its lane ids with shfl.down (0+..+31 = 496) and ballots odd lanes.
        Harness h = new Harness(Harness.HEADER + """
                .visible .entry red(.param .u64 out)
                {
                    .reg .pred %p;
                    .reg .b32 %v, %o, %k, %b, %w;
                    .reg .b64 %a, %x;
                    mov.u32 %v, %laneid;
                    mov.u32 %k, 16;
                LOOP:
                    shfl.sync.down.b32 %o, %v, %k, 0x1f, 0xffffffff;
                    add.u32 %v, %v, %o;
                    shr.u32 %k, %k, 1;
                    setp.ne.u32 %p, %k, 0;
                    @%p bra LOOP;
                    and.b32 %b, %laneid, 1;
                    setp.eq.u32 %p, %b, 1;
                    vote.sync.ballot.b32 %b, %p, 0xffffffff;
                    setp.ne.u32 %p, %laneid, 0;
                    @%p bra DONE;
                    mov.u32 %w, %warpid;
                    ld.param.u64 %a, [out];
                    mul.wide.u32 %x, %w, 8;
                    add.s64 %a, %a, %x;
                    st.global.v2.u32 [%a], {%v, %b};
                DONE:
                    ret;
                }
                """);
        long out = h.buffer(16);
        ok(h.run(1, 64, out));
        assertArrayEquals(new int[] {496, 0xaaaaaaaa, 496, 0xaaaaaaaa}, h.readInts(out, 4));
    }

    @Test
    void atomicsOnGlobalAndSharedMemory() {
        Harness h = new Harness(Harness.HEADER + """
                .shared .align 4 .u32 cnt;
                .visible .entry at(.param .u64 out)
                {
                    .reg .pred %p;
                    .reg .b32 %t, %r, %m;
                    .reg .b64 %a;
                    mov.u32 %t, %tid.x;
                    setp.ne.u32 %p, %t, 0;
                    @%p bra GO;
                    st.shared.u32 [cnt], 0;
                GO:
                    bar.sync 0;
                    atom.shared.add.u32 %r, [cnt], 2;
                    ld.param.u64 %a, [out];
                    atom.global.add.u32 %r, [%a], %t;
                    atom.global.max.s32 %r, [%a+4], %t;
                    atom.global.inc.u32 %r, [%a+8], 9;
                    atom.global.cas.b32 %r, [%a+12], 0, 77;
                    red.global.add.f32 [%a+16], 0f3F000000;
                    bar.sync 0;
                    @%p bra END;
                    ld.shared.u32 %m, [cnt];
                    st.global.u32 [%a+20], %m;
                END:
                    ret;
                }
                """);
        long out = h.buffer(24);
        ok(h.run(1, 100, out));
        int[] got = h.readInts(out, 6);
        assertEquals(4950, got[0]);
        assertEquals(99, got[1]);
        assertEquals(100 % 10, got[2]);
        assertEquals(77, got[3]);
        assertEquals(50.0f, Float.intBitsToFloat(got[4]));
        assertEquals(200, got[5]);
    }

    @Test
    void moduleVariablesVectorsAndPacking() {
        Harness h = new Harness(Harness.HEADER + """
                .const .align 4 .u32 tbl[4] = {10, 20, 30, 40};
                .global .align 8 .u64 big = 0x1122334455667788;
                .visible .entry mv(.param .u64 out)
                {
                    .reg .b32 %a, %b, %c, %d, %lo, %hi;
                    .reg .b64 %o, %g, %v;
                    ld.param.u64 %o, [out];
                    ld.const.v4.u32 {%a, %b, %c, %d}, [tbl];
                    add.u32 %a, %a, %d;
                    mov.u64 %g, big;
                    ld.global.u64 %v, [%g];
                    mov.b64 {%lo, %hi}, %v;
                    mov.b64 %v, {%hi, %lo};
                    st.global.v4.u32 [%o], {%a, %b, %lo, %hi};
                    st.global.u64 [%o+16], %v;
                    ld.global.s8 %c, [%g];
                    st.global.u32 [%o+24], %c;
                    ret;
                }
                """);
        long out = h.buffer(32);
        ok(h.run(1, 1, out));
        int[] got = h.readInts(out, 7);
        assertArrayEquals(new int[] {50, 20, 0x55667788, 0x11223344, 0x11223344, 0x55667788, 0xffffff88}, got);
    }

    @Test
    void localArrayIndexedPerThread() {
        Harness h = new Harness(Harness.HEADER + """
                .visible .entry loc(.param .u64 out)
                {
                    .local .align 4 .b32 arr[8];
                    .reg .pred %p;
                    .reg .b32 %t, %i, %v, %s;
                    .reg .b64 %a, %w, %o;
                    mov.u32 %t, %tid.x;
                    mov.u32 %i, 0;
                FILL:
                    mul.wide.u32 %w, %i, 4;
                    mov.u64 %a, arr;
                    add.u64 %a, %a, %w;
                    mad.lo.u32 %v, %t, %i, 1;
                    st.local.u32 [%a], %v;
                    add.u32 %i, %i, 1;
                    setp.lt.u32 %p, %i, 8;
                    @%p bra FILL;
                    mov.u64 %a, arr;
                    cvta.local.u64 %a, %a;
                    ld.u32 %s, [%a+28];
                    ld.param.u64 %o, [out];
                    mul.wide.u32 %w, %t, 4;
                    add.s64 %o, %o, %w;
                    st.global.u32 [%o], %s;
                    ret;
                }
                """);
        long out = h.buffer(40 * 4);
        ok(h.run(1, 40, out));
        int[] got = h.readInts(out, 40);
        for (int t = 0; t < 40; t++) {
            assertEquals(7 * t + 1, got[t]);
        }
    }

    @Test
    void directedRoundingAndConversions() {
        // 1 + 2^-30 is not an f32: rz/rm give 1.0, rp gives the next float; cvt.rni ties to even.
        Harness h = new Harness(Harness.HEADER + """
                .visible .entry rnd(.param .u64 out)
                {
                    .reg .f32 %x, %y, %r;
                    .reg .f64 %d;
                    .reg .b32 %i;
                    .reg .b64 %o;
                    ld.param.u64 %o, [out];
                    mov.f32 %x, 0f3F800000;
                    mov.f32 %y, 0f30800000;
                    add.rz.f32 %r, %x, %y;  st.global.f32 [%o], %r;
                    add.rp.f32 %r, %x, %y;  st.global.f32 [%o+4], %r;
                    add.rm.f32 %r, %x, %y;  st.global.f32 [%o+8], %r;
                    mov.f64 %d, 0d4004000000000000;
                    cvt.rni.s32.f64 %i, %d; st.global.s32 [%o+12], %i;
                    mov.f32 %x, 0fC0600000;
                    cvt.rmi.s32.f32 %i, %x; st.global.s32 [%o+16], %i;
                    mov.f32 %x, 0f4F800000;
                    cvt.rzi.u32.f32 %i, %x; st.global.u32 [%o+20], %i;
                    mov.b32 %i, -7;
                    cvt.rn.f32.s32 %r, %i;  st.global.f32 [%o+24], %r;
                    ret;
                }
                """);
        long out = h.buffer(28);
        ok(h.run(1, 1, out));
        int[] got = h.readInts(out, 7);
        assertEquals(0x3f800000, got[0]);
        assertEquals(0x3f800001, got[1]);
        assertEquals(0x3f800000, got[2]);
        assertEquals(2, got[3]);
        assertEquals(-4, got[4]);
        assertEquals(0xffffffff, got[5]); // 2^32 saturates
        assertEquals(-7.0f, Float.intBitsToFloat(got[6]));
    }
}
