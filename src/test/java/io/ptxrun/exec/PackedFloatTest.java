package io.ptxrun.exec;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * add, sub, mul and fma .f32x2 (sm_100a): the f32 operation on the low halves of the 64-bit
 * operands and on the high halves, each rounded as named, into its half of the result (PTX ISA,
 * fma: "operated in parallel").
 */
class PackedFloatTest {
    private static final String KERNEL = """
            .version 8.6
            .target sm_100a
            .address_size 64
            .visible .entry packed(.param .u64 in, .param .u64 out)
            {
                .reg .b64 %a, %b, %c, %r<8>, %p, %q;
                ld.param.u64 %p, [in];
                ld.param.u64 %q, [out];
                ld.global.v2.b64 {%a, %b}, [%p];
                ld.global.b64 %c, [%p+16];
                add.rn.f32x2 %r0, %a, %b;
                sub.rn.f32x2 %r1, %a, %b;
                mul.rn.f32x2 %r2, %a, %b;
                fma.rn.f32x2 %r3, %a, %b, %c;
                add.rz.f32x2 %r4, %a, %b;
                add.rp.f32x2 %r5, %a, %b;
                add.rm.f32x2 %r6, %a, %b;
                mul.rn.ftz.f32x2 %r7, %a, %b;
                st.global.v2.b64 [%q], {%r0, %r1};
                st.global.v2.b64 [%q+16], {%r2, %r3};
                st.global.v2.b64 [%q+32], {%r4, %r5};
                st.global.v2.b64 [%q+48], {%r6, %r7};
                ret;
            }
            """;

    /** The eight results as pairs of floats (low half first), for a, b and c given as pairs. */
    private static float[] run(float a0, float a1, float b0, float b1, float c0, float c1) {
        Harness h = new Harness(KERNEL);
        long in = h.floats(a0, a1, b0, b1, c0, c1);
        long out = h.floats(new float[16]);
        ExecResult r = h.run(1, 1, in, out);
        assertEquals(ExecStatus.OK, r.status(), r.diagnostics()::toString);
        return h.readFloats(out, 16);
    }

    @Test
    void eachHalfIsItsOwnF32Operation() {
        float[] r = run(1.5f, -2.5f, 3.0f, 0.5f, 0.25f, -8.0f);
        assertEquals(4.5f, r[0]);
        assertEquals(-2.0f, r[1]);
        assertEquals(-1.5f, r[2]);
        assertEquals(-3.0f, r[3]);
        assertEquals(4.5f, r[4]);
        assertEquals(-1.25f, r[5]);
        assertEquals(4.75f, r[6], "fma, low half");
        assertEquals(-9.25f, r[7], "fma, high half");
    }

    @Test
    void eachHalfRoundsAsNamed() {
        // 1 + 0.75 ulp(1) and -(1 + 0.75 ulp(1)): to nearest both go one ulp out, toward zero
        // both stay at 1, toward +inf only the positive one goes out, toward -inf the negative.
        float quarterUlps = 0x1.8p-24f;
        float[] r = run(1.0f, -1.0f, quarterUlps, -quarterUlps, 0f, 0f);
        float up = Math.nextUp(1.0f);
        assertEquals(up, r[0], "rn, low");
        assertEquals(-up, r[1], "rn, high");
        assertEquals(1.0f, r[8], "rz, low");
        assertEquals(-1.0f, r[9], "rz, high");
        assertEquals(up, r[10], "rp, low");
        assertEquals(-1.0f, r[11], "rp, high");
        assertEquals(1.0f, r[12], "rm, low");
        assertEquals(-up, r[13], "rm, high");
    }

    @Test
    void ftzFlushesEachHalfAndNaNsAreCanonical() {
        float tiny = 0x1p-130f;   // subnormal
        float[] r = run(tiny, Float.NaN, 2.0f, 1.0f, 0f, 0f);
        assertEquals(2 * tiny, r[4], "mul.rn without .ftz keeps the subnormal product");
        assertEquals(0x7fffffff, Float.floatToRawIntBits(r[5]), "a NaN becomes the canonical NaN");
        assertEquals(0.0f, r[14], "mul.rn.ftz flushes the subnormal input");
        assertEquals(0x7fffffff, Float.floatToRawIntBits(r[15]), "and the NaN in the other half is canonical");
    }
}
