package io.ptxrun.exec;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * cvt to and from the pairs of 8-, 6- and 4-bit floats (PTX ISA 9.7.9.21). The e4m3x2 and e5m2x2
 * forms are matched value for value against an H100 by the run case cvt-fp8; the sm_100a-class
 * forms, which no H100 runs, are checked here on values worked out from the formats: e2m1 (bias 1:
 * 0, 0.5, 1, 1.5, 2, 3, 4, 6), e2m3 (bias 1, steps of 1/8 up to 7.5), e3m2 (bias 3, 2^-4 up to 28),
 * ue8m0 (2^(code-127)), a's value in the upper field, b's in the lower.
 */
class NarrowFloatConversionTest {
    private static final String KERNEL = """
            .version 8.8
            .target sm_100a
            .address_size 64
            .visible .entry k(.param .u64 in, .param .u64 out)
            {
                .reg .b64 %p, %q;
                .reg .f32 %a, %b;
                .reg .b32 %x, %r;
                .reg .b16 %h, %d;
                .reg .b8 %c, %e;
                ld.param.u64 %p, [in];
                ld.param.u64 %q, [out];
                ld.global.f32 %a, [%p];
                ld.global.f32 %b, [%p+4];
                ld.global.b32 %x, [%p+8];
                ld.global.b16 %h, [%p+8];
                ld.global.b8 %c, [%p+8];
                INSN
                st.global.b32 [%q], %r;
                st.global.b16 [%q+4], %d;
                st.global.b8 [%q+8], %e;
                ret;
            }
            """;

    /** Runs one cvt on f32 a and b (%a, %b) and the packed word x (%x, %h, %c); returns %r, %d and %e. */
    private static int[] run(String insn, float a, float b, int x) {
        return run(insn, Float.floatToRawIntBits(a), Float.floatToRawIntBits(b), x);
    }

    private static int[] run(String insn, int a, int b, int x) {
        Harness h = new Harness(KERNEL.replace("INSN", insn));
        long in = h.ints(a, b, x);
        long out = h.ints(0, 0, 0);
        ExecResult r = h.run(1, 1, in, out);
        assertEquals(ExecStatus.OK, r.status(), r.diagnostics()::toString);
        int[] v = h.readInts(out, 3);
        return new int[] {v[0], v[1] & 0xffff, v[2] & 0xff};
    }

    /** The .b16 result of a cvt to a pair from %a and %b. */
    private static int pair16(String type, float a, float b) {
        return run("cvt." + type + " %d, %a, %b;", a, b, 0)[1];
    }

    /** The .b8 result of cvt.rn.satfinite{.relu}.e2m1x2.f32 of a and b. */
    private static int e2m1(String mod, float a, float b) {
        return run("cvt.rn.satfinite" + mod + ".e2m1x2.f32 %e, %a, %b;", a, b, 0)[2];
    }

    /** The f16x2 (or bf16x2) result of unpacking: from the byte %c for e2m1x2, else the half %h. */
    private static int unpack(String insn, int x) {
        return run(insn, 0, 0, x)[0];
    }

    @Test
    void e4m3AndE5m2PairsFromF32() {
        // 1.5 = e4m3 0 0111 100, -3 = 1 1000 100; e5m2: 0 01111 10, 1 10000 10.
        assertEquals(0x3cc4, pair16("rn.satfinite.e4m3x2.f32", 1.5f, -3.0f));
        assertEquals(0x3ec2, pair16("rn.satfinite.e5m2x2.f32", 1.5f, -3.0f));
        assertEquals(0x3c00, pair16("rn.satfinite.relu.e4m3x2.f32", 1.5f, -3.0f));
        // Beyond the largest finite value (448, 57344) and infinities saturate; NaN is 0x7F.
        assertEquals(0x7efe, pair16("rn.satfinite.e4m3x2.f32", 1e6f, Float.NEGATIVE_INFINITY));
        assertEquals(0x7b7f, pair16("rn.satfinite.e5m2x2.f32", Float.POSITIVE_INFINITY, -Float.NaN));
        assertEquals(0x7f00, pair16("rn.satfinite.relu.e5m2x2.f32", Float.NaN, -0.0f));
        // Ties to even: 2^-10 (half the smallest e4m3 subnormal) to 0, 3 * 2^-10 to 2 * 2^-9; a
        // negative value too small for the format keeps its sign.
        assertEquals(0x0002, pair16("rn.satfinite.e4m3x2.f32", 0x1p-10f, 0x3p-10f));
        assertEquals(0x8080, pair16("rn.satfinite.e5m2x2.f32", -0x1p-17f, -0x1p-149f));
    }

    @Test
    void e4m3AndE5m2PairsFromF16x2AndBack() {
        // f16x2 0x3e00 (1.5) upper, 0xc200 (-3) lower.
        assertEquals(0x3cc4, run("cvt.rn.satfinite.e4m3x2.f16x2 %d, %x;", 0, 0, 0x3e00c200)[1]);
        assertEquals(0x3e00, run("cvt.rn.satfinite.relu.e5m2x2.f16x2 %d, %x;", 0, 0, 0x3e00c200)[1]);
        assertEquals(0x3e00c200, unpack("cvt.rn.f16x2.e4m3x2 %r, %h;", 0x3cc4));
        assertEquals(0x3e000000, unpack("cvt.rn.relu.f16x2.e5m2x2 %r, %h;", 0x3ec2));
        // e4m3 NaN and the e5m2 infinities and NaN.
        assertEquals(0x7fff5f00, unpack("cvt.rn.f16x2.e4m3x2 %r, %h;", 0xff7e));
        assertEquals(0xfc007fff, unpack("cvt.rn.f16x2.e5m2x2 %r, %h;", 0xfcfd));
    }

    @Test
    void e2m1PairsRoundToNearestEvenAndSaturate() {
        assertEquals(0x3f, e2m1("", 1.5f, -6.0f));
        // Ties: 0.25 to 0, 0.75 to 1 (code 2), 2.5 to 2 (4), 5 to 4 (6); 3.5 lies between 3 and 4: 4.
        assertEquals(0x02, e2m1("", 0.25f, 0.75f));
        assertEquals(0x46, e2m1("", 2.5f, 5.0f));
        assertEquals(0x06, e2m1("", 0.0f, 3.5f));
        // Beyond 6 and infinities: the largest value of the sign; NaN, with no NaN in the format: +6.
        assertEquals(0x7f, e2m1("", 7.0f, Float.NEGATIVE_INFINITY));
        assertEquals(0x77, e2m1("", Float.NaN, -Float.NaN));
        // -0 and values below 0.25 keep their sign; .relu makes negatives +0.
        assertEquals(0x88, e2m1("", -0.0f, -0.2f));
        assertEquals(0x00, e2m1(".relu", -0.0f, -1.0f));
        assertEquals(0x70, e2m1(".relu", Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY));
    }

    @Test
    void e2m3AndE3m2PairsLeaveTheTopTwoBitsOfEachByteZero() {
        // e2m3: -3.3 is nearest 3.25 = 1.101 * 2^1 (1 10 101), 7.75 lies beyond 7.5 (0 11 111);
        // 2^-4 ties 0 and 1/8: 0; 3/16 ties 1/8 and 2/8: 2/8 (0 00 010).
        assertEquals(0x351f, pair16("rn.satfinite.e2m3x2.f32", -3.3f, 7.75f));
        assertEquals(0x0002, pair16("rn.satfinite.e2m3x2.f32", 0x1p-4f, 0x3p-4f));
        // e3m2: 5 = 1.01 * 2^2 (0 101 01), 30 beyond 28 (0 111 11); 2^-5 ties 0 and 2^-4: 0;
        // 3 * 2^-5 ties 2^-4 and 2^-3: 2^-3 (0 000 10); NaN: +28.
        assertEquals(0x151f, pair16("rn.satfinite.e3m2x2.f32", 5.0f, 30.0f));
        assertEquals(0x0002, pair16("rn.satfinite.e3m2x2.f32", 0x1p-5f, 0x3p-5f));
        assertEquals(0x1f3f, pair16("rn.satfinite.e3m2x2.f32", Float.NaN, -1e9f));
        assertEquals(0x1500, pair16("rn.satfinite.relu.e3m2x2.f32", 5.0f, -5.0f));
    }

    @Test
    void sixAndFourBitPairsToF16x2AreExact() {
        // e2m1 0x3f: 1.5 (f16 0x3e00) upper, -6 (0xc600) lower; -0 stays -0 unless .relu.
        assertEquals(0x3e00c600, unpack("cvt.rn.f16x2.e2m1x2 %r, %c;", 0x3f));
        assertEquals(0x3e000000, unpack("cvt.rn.relu.f16x2.e2m1x2 %r, %c;", 0x3f));
        assertEquals(0x80003800, unpack("cvt.rn.f16x2.e2m1x2 %r, %c;", 0x81));
        // e2m3: 0x1f is 7.5 (0x4780), 0x35 is -3.25 (0xc280), 0x01 the subnormal 1/8 (0x3000).
        assertEquals(0x4780c280, unpack("cvt.rn.f16x2.e2m3x2 %r, %h;", 0x1f35));
        assertEquals(0x30000000, unpack("cvt.rn.relu.f16x2.e2m3x2 %r, %h;", 0x0135));
        // e3m2: 0x15 is 5 (0x4500), 0x3f is -28 (0xcf00), 0x01 the subnormal 2^-4 (0x2c00).
        assertEquals(0x4500cf00, unpack("cvt.rn.f16x2.e3m2x2 %r, %h;", 0x153f));
        assertEquals(0x2c000000, unpack("cvt.rn.relu.f16x2.e3m2x2 %r, %h;", 0x013f));
    }

    @Test
    void ue8m0TakesThePowerOfTwoTowardZeroOrUp() {
        // 3 and -3: 2^1 (128) toward zero, 2^2 (129) up; 0.75: 2^-1 (126) and 2^0 (127).
        assertEquals(0x807e, pair16("rz.ue8m0x2.f32", 3.0f, 0.75f));
        assertEquals(0x817f, pair16("rp.ue8m0x2.f32", -3.0f, 0.75f));
        // Powers of two are exact; zero and values at or below 2^-127 give 0 (2^-127); just above
        // 2^-127 rounds up to 2^-126 (1).
        assertEquals(0x7f00, pair16("rp.ue8m0x2.f32", 1.0f, 0.0f));
        assertEquals(0x0001, pair16("rp.ue8m0x2.f32", 0x1p-127f, 0x1.8p-127f));
        assertEquals(0x0000, pair16("rz.ue8m0x2.f32", 0x1.8p-127f, 0x1p-140f));
        // NaN is 0xff; infinities and values up beyond 2^127 too, or 0xfe with .satfinite.
        assertEquals(0xfffe, pair16("rz.ue8m0x2.f32", Float.NaN, Float.MAX_VALUE));
        assertEquals(0xffff, pair16("rp.ue8m0x2.f32", Float.MAX_VALUE, Float.NEGATIVE_INFINITY));
        assertEquals(0xfefe, pair16("rp.satfinite.ue8m0x2.f32", Float.MAX_VALUE, Float.POSITIVE_INFINITY));
        assertEquals(0xfffe, pair16("rz.satfinite.ue8m0x2.f32", Float.NaN, Float.POSITIVE_INFINITY));
    }

    @Test
    void ue8m0FromBf16x2AndToBf16x2() {
        // bf16x2: 3 (0x4040) upper, 0.75 (0x3f40) lower.
        assertEquals(0x807e, run("cvt.rz.ue8m0x2.bf16x2 %d, %x;", 0, 0, 0x40403f40)[1]);
        assertEquals(0x817f, run("cvt.rp.satfinite.ue8m0x2.bf16x2 %d, %x;", 0, 0, 0x40403f40)[1]);
        // 127 is 1.0 (0x3f80); 0 the subnormal 2^-127 (0x0040); 0xff the NaN; 1 is 2^-126 (0x0080).
        assertEquals(0x3f800040, unpack("cvt.rn.bf16x2.ue8m0x2 %r, %h;", 0x7f00));
        assertEquals(0x7fff0080, unpack("cvt.rn.bf16x2.ue8m0x2 %r, %h;", 0xff01));
    }
}
