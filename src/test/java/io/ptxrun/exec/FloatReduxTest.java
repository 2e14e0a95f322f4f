package io.ptxrun.exec;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * redux.sync's .f32 forms (sm_100a): the minimum or maximum of the warp's values, of their
 * absolute values with .abs, a NaN making the result the canonical NaN with .NaN and left out
 * without it, +0.0 above -0.0 (PTX ISA, redux.sync). The member mask is a .b32 in every form.
 */
class FloatReduxTest {
    private static final String KERNEL = """
            .version 8.6
            .target sm_100a
            .address_size 64
            .visible .entry reduce(.param .u64 in, .param .u64 out)
            {
                .reg .pred %others;
                .reg .b32 %t, %mask;
                .reg .f32 %v, %r<6>;
                .reg .b64 %p, %q;
                ld.param.u64 %p, [in];
                mov.u32 %t, %tid.x;
                mul.wide.u32 %q, %t, 4;
                add.u64 %p, %p, %q;
                ld.global.f32 %v, [%p];
                mov.b32 %mask, -1;
                redux.sync.min.f32 %r0, %v, 0xffffffff;
                redux.sync.max.f32 %r1, %v, %mask;
                redux.sync.min.abs.f32 %r2, %v, 0xffffffff;
                redux.sync.max.abs.f32 %r3, %v, 0xffffffff;
                redux.sync.min.NaN.f32 %r4, %v, 0xffffffff;
                redux.sync.max.abs.NaN.f32 %r5, %v, 0xffffffff;
                setp.ne.u32 %others, %t, 0;
                @%others ret;
                ld.param.u64 %q, [out];
                st.global.v4.f32 [%q], {%r0, %r1, %r2, %r3};
                st.global.v2.f32 [%q+16], {%r4, %r5};
                ret;
            }
            """;

    /** The six reductions of the warp's 32 values, as the kernel stores them. */
    private static int[] reduce(float[] values) {
        Harness h = new Harness(KERNEL);
        long in = h.floats(values);
        long out = h.floats(new float[6]);
        ExecResult r = h.run(1, 32, in, out);
        assertEquals(ExecStatus.OK, r.status(), r.diagnostics()::toString);
        assertEquals(java.util.List.of(), r.diagnostics(), "no finding: every mask names the whole warp");
        return h.readInts(out, 6);
    }

    private static int bits(float f) {
        return Float.floatToRawIntBits(f);
    }

    @Test
    void negativeValuesAndSignedZeros() {
        float[] v = new float[32];
        for (int l = 0; l < 32; l++) {
            v[l] = -1.5f * l;   // lane 0 holds -0.0
        }
        v[9] = 0.0f;
        int[] r = reduce(v);
        assertEquals(bits(-1.5f * 31), r[0], "min");
        assertEquals(bits(0.0f), r[1], "max: +0.0 above -0.0");
        assertEquals(bits(0.0f), r[2], "min.abs: |-0.0| is +0.0");
        assertEquals(bits(1.5f * 31), r[3], "max.abs");
        assertEquals(bits(-1.5f * 31), r[4], "min.NaN without a NaN");
        assertEquals(bits(1.5f * 31), r[5], "max.abs.NaN without a NaN");
    }

    @Test
    void onlySignedZeros() {
        float[] v = new float[32];
        for (int l = 0; l < 32; l++) {
            v[l] = l % 2 == 0 ? -0.0f : 0.0f;
        }
        int[] r = reduce(v);
        assertEquals(bits(-0.0f), r[0], "min");
        assertEquals(bits(0.0f), r[1], "max");
    }

    @Test
    void aNaNIsLeftOutUnlessNaNIsNamed() {
        float[] v = new float[32];
        for (int l = 0; l < 32; l++) {
            v[l] = 2.0f * l - 20.0f;
        }
        v[7] = Float.intBitsToFloat(0xffc00001);   // a negative NaN with a payload
        int[] r = reduce(v);
        assertEquals(bits(-20.0f), r[0], "min leaves the NaN out");
        assertEquals(bits(42.0f), r[1], "max leaves the NaN out");
        assertEquals(bits(0.0f), r[2], "min.abs");
        assertEquals(bits(42.0f), r[3], "max.abs");
        assertEquals(0x7fffffff, r[4], "min.NaN: the canonical NaN");
        assertEquals(0x7fffffff, r[5], "max.abs.NaN: the canonical NaN");
    }

    @Test
    void everyValueANaN() {
        float[] v = new float[32];
        java.util.Arrays.fill(v, Float.NaN);
        int[] r = reduce(v);
        for (int k = 0; k < 6; k++) {
            assertEquals(0x7fffffff, r[k], "reduction " + k);
        }
    }
}
