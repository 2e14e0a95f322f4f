package io.ptxrun.exec;

import io.ptxrun.ast.DataType;
import io.ptxrun.ast.Instruction;
import io.ptxrun.ast.Operand;
import io.ptxrun.ast.Qual;
import io.ptxrun.ast.Qualifier;
import io.ptxrun.exec.Decoder.DecodeError;

import java.util.ArrayList;
import java.util.List;

import static io.ptxrun.exec.Bits.sx;
import static io.ptxrun.exec.Bits.zx;

/**
 * mma.sync.aligned (PTX ISA 9.7.14.5.14), the warp-level tensor-core multiply-accumulate D = A * B + C,
 * in the forms:
 * <ul>
 * <li>m16n8k16 .f16 inputs with .f32 or .f16 C and D; .bf16 inputs with .f32 C and D;
 * <li>m16n8k8 the same types, and .tf32 inputs with .f32; m16n8k4 .tf32 with .f32;
 * <li>m16n8k32 and m16n8k16 .s8/.u8 inputs with .s32 C and D (.satfinite clamps, else the sum wraps);
 * <li>m16n8k32 and m16n8k16 .e4m3/.e5m2 inputs (either type for A and for B) with .f32 or .f16 C and D;
 * <li>m8n8k4, m16n8k4, m16n8k8 and m16n8k16 .f64.
 * </ul>
 * Any other shape or type stops the run as not supported.
 *
 * <p><b>Fragments</b> (9.7.14.5.x "Matrix Fragments for mma.m16n8k*", "mma.m8n8k4" .f64). Lane
 * {@code l} has group {@code g = l / 4} and thread-in-group {@code q = l % 4}; a .b32 register packs
 * {@code P = 32 / bits} elements, lowest bits first (P = 1 for .tf32 and .f64). For an m16n8kK shape,
 * where the four lanes of a group hold 4P consecutive k of a row of A or a column of B per register
 * (pair):
 * <ul>
 * <li>A (16 x K), register j, part p: row {@code g + 8 (j % 2)}, column {@code P q + p + 4P (j / 2)};
 * <li>B (K x 8), register j, part p: row {@code P q + p + 4P j}, column {@code g};
 * <li>C and D (16 x 8), element e = 0..3 (register e, or half e % 2 of register e / 2 for .f16):
 *     row {@code g + 8 (e / 2)}, column {@code 2 q + e % 2}.
 * </ul>
 * m8n8k4 .f64 is the same with one register of A and of B (row g, column q; row q, column g) and two
 * elements of C and D (row g, column 2q + e). These are one warp's share of wgmma's fragments
 * ({@link WgmmaFragments}); the run cases mma-sync-* check every form against the H100.
 *
 * <p><b>Arithmetic.</b> Floating-point inputs go through the tensor core's fixed-point sum ({@link
 * TensorCore}), with an .f16 D rounded from it to nearest, as wgmma's (run cases mma-sync-m16n8k16-*,
 * mma-sync-m16n8k8, mma-sync-nvcc-ldmatrix-gemm); .e4m3/.e5m2 inputs as two f16 MMAs over alternate
 * pairs of k with C added last ({@link TensorCore#float8Sync}, run case mma-sync-fp8). .f64 is a
 * chain of fused multiply-adds in increasing k, each rounded to nearest: d = fma(a3, b3, fma(a2, b2,
 * fma(a1, b1, fma(a0, b0, c)))) for k4 (run cases mma-sync-f64, mma-sync-f64-m16n8). Integer products are exact.
 *
 * <p>The instruction is warp-collective ({@link WarpMatrixOps#run} stops a run where not all 32 lanes
 * execute it converged); it touches no memory, only each lane's own registers. All lanes' sources are
 * read before any destination is written, since D may name registers of A, B or C.
 */
final class MmaSync {
    enum Shape {
        M16N8K16(16, 8, 16), M16N8K8(16, 8, 8), M16N8K4(16, 8, 4), M16N8K32(16, 8, 32), M8N8K4(8, 8, 4);

        final int m, n, k;

        Shape(int m, int n, int k) {
            this.m = m;
            this.n = n;
            this.k = k;
        }
    }

    /** A decoded mma.sync: its shape, the types of D, A, B and C, and .satfinite. */
    record Form(Shape shape, DataType dType, DataType aType, DataType bType, DataType cType, boolean satFinite)
            implements OpForm {

        /** Registers of A: M x K elements over 32 lanes, packed 32 / bits a register (one .f64 each). */
        int aRegisters() {
            return registers(shape.m * shape.k, aType);
        }

        int bRegisters() {
            return registers(shape.k * shape.n, bType);
        }

        int cRegisters() {
            return registers(shape.m * shape.n, cType);
        }

        int dRegisters() {
            return registers(shape.m * shape.n, dType);
        }

        /** Elements of one register of type t. */
        static int perRegister(DataType t) {
            return t.bits >= 32 ? 1 : 32 / t.bits;
        }

        private static int registers(int elements, DataType t) {
            return elements / 32 / perRegister(t);
        }
    }

    private final Engine engine;
    /** One mma's operands: a[row * K + k], b[column * K + k] (values, or integers), c and d per lane. */
    private final double[] a = new double[16 * 32], b = new double[8 * 32];
    /** The exponents of a's and b's elements ({@link TensorCore#exponents}), and which of their rows are finite. */
    private final int[] ea = new int[16 * 32], eb = new int[8 * 32];
    private final boolean[] finiteA = new boolean[16], finiteB = new boolean[8];
    private final long[] ia = new long[16 * 32], ib = new long[8 * 32];
    private final long[][] out = new long[32][4];

    MmaSync(Engine engine) {
        this.engine = engine;
    }

    // ---------------------------------------------------------------- decoding

    /** The op of an mma instruction: the form, destinations D, sources A, B and C one after another. */
    static Decoder.Draft decode(Instruction i, Decoder.FunctionDecoder d) {
        Form f = form(i);
        List<Operand> os = i.operands();
        if (os.size() != 4) {
            throw new DecodeError(i.pos(), "mma.sync takes four operands (d, a, b, c), not " + os.size());
        }
        Decoder.Draft op = new Decoder.Draft(OpCode.MMA_SYNC, i);
        op.form = f;
        op.type = f.dType();
        d.dsts(op, fragment(os.get(0), f.dRegisters(), "D").toArray(new Operand[0]));
        List<Operand> sources = new ArrayList<>(fragment(os.get(1), f.aRegisters(), "A"));
        sources.addAll(fragment(os.get(2), f.bRegisters(), "B"));
        sources.addAll(fragment(os.get(3), f.cRegisters(), "C"));
        d.srcs(op, DataType.B32, sources);
        return op;
    }

    private static List<Operand> fragment(Operand o, int registers, String name) {
        List<Operand> regs = o instanceof Operand.Vector v ? v.elements() : List.of(o);
        if (regs.size() != registers) {
            throw new DecodeError(o.pos(), "the " + name + " fragment of this mma.sync is " + registers
                    + " registers, not " + regs.size());
        }
        return regs;
    }

    private static Form form(Instruction i) {
        Shape shape = null;
        boolean row = false, col = false;
        for (Qual q : i.qualifiers()) {
            String t = q.text();
            switch (t) {
                case ".sync", ".aligned", ".satfinite" -> { }
                case ".row" -> {
                    if (col) {
                        throw notSupported(i, "layouts other than .row.col");
                    }
                    row = true;
                }
                case ".col" -> col = true;
                default -> {
                    Shape s = shapeOf(t);
                    if (s != null) {
                        shape = s;
                    } else if (DataType.ofSpelling(t) == null) {
                        throw notSupported(i, "the qualifier " + t);
                    }
                }
            }
        }
        List<DataType> ts = i.types();
        if (!i.has(Qualifier.SYNC) || !i.has(Qualifier.ALIGNED) || shape == null || !row || !col || ts.size() != 4) {
            throw notSupported(i, "this form");
        }
        DataType dt = ts.get(0), at = ts.get(1), bt = ts.get(2), ct = ts.get(3);
        boolean sat = i.has(Qualifier.SATFINITE);
        boolean ok = switch (shape) {
            case M16N8K16 -> !sat && (halfInputs(at, bt, dt, ct) || double64(at, bt, dt, ct)
                    || float8Inputs(at, bt, dt, ct)) || integerInputs(at, bt, dt, ct);
            case M16N8K8 -> !sat && (halfInputs(at, bt, dt, ct) || at == DataType.TF32 && single(at, bt, dt, ct)
                    || double64(at, bt, dt, ct));
            case M16N8K4 -> !sat && (at == DataType.TF32 && single(at, bt, dt, ct) || double64(at, bt, dt, ct));
            case M16N8K32 -> integerInputs(at, bt, dt, ct) || !sat && float8Inputs(at, bt, dt, ct);
            case M8N8K4 -> !sat && double64(at, bt, dt, ct);
        };
        if (!ok) {
            throw notSupported(i, "these types");
        }
        return new Form(shape, dt, at, bt, ct, sat);
    }

    /** .f16 inputs with .f16 or .f32 C and D of the same type, or .bf16 inputs with .f32. */
    private static boolean halfInputs(DataType at, DataType bt, DataType dt, DataType ct) {
        return bt == at && dt == ct && (at == DataType.F16 && (dt == DataType.F16 || dt == DataType.F32)
                || at == DataType.BF16 && dt == DataType.F32);
    }

    /** .e4m3 or .e5m2 inputs, each, with .f16 or .f32 C and D of the same type. */
    private static boolean float8Inputs(DataType at, DataType bt, DataType dt, DataType ct) {
        return float8(at) && float8(bt) && dt == ct && (dt == DataType.F16 || dt == DataType.F32);
    }

    private static boolean float8(DataType t) {
        return t == DataType.E4M3 || t == DataType.E5M2;
    }

    private static boolean double64(DataType at, DataType bt, DataType dt, DataType ct) {
        return at == DataType.F64 && bt == at && dt == at && ct == at;
    }

    private static boolean single(DataType at, DataType bt, DataType dt, DataType ct) {
        return bt == at && dt == DataType.F32 && ct == DataType.F32;
    }

    private static boolean integerInputs(DataType at, DataType bt, DataType dt, DataType ct) {
        return (at == DataType.S8 || at == DataType.U8) && (bt == DataType.S8 || bt == DataType.U8)
                && dt == DataType.S32 && ct == DataType.S32;
    }

    private static Shape shapeOf(String q) {
        for (Shape s : Shape.values()) {
            if (q.equals("." + s.name().toLowerCase())) {
                return s;
            }
        }
        return null;
    }

    private static DecodeError notSupported(Instruction i, String what) {
        return new DecodeError(i.pos(), "instruction '" + i.mnemonic() + "' is not supported (" + what + "; mma.sync"
                + " runs m16n8k16 and m16n8k8 .f16/.bf16, m16n8k8 and m16n8k4 .tf32, m16n8k32 and m16n8k16 .s8/.u8"
                + " and .e4m3/.e5m2,"
                + " m8n8k4 and m16n8k4/8/16 .f64, all .row.col)");
    }

    // ---------------------------------------------------------------- execution

    /** Runs one mma.sync for the whole (full, converged) warp. */
    void run(Warp w, Op op) {
        Form f = (Form) op.form;
        Shape s = f.shape();
        int kk = s.k;
        boolean integer = f.dType() == DataType.S32;
        int ra = f.aRegisters(), rb = f.bRegisters();
        int pa = Form.perRegister(f.aType()), pb = Form.perRegister(f.bType());
        int aBits = f.aType().bits, bBits = f.bType().bits;
        for (int l = 0; l < 32; l++) {
            int g = l / 4, q = l % 4;
            for (int j = 0; j < ra; j++) {
                long reg = engine.operands.read(w, op, j, l);
                for (int p = 0; p < pa; p++) {
                    int e = (g + 8 * (j % 2)) * kk + pa * q + p + 4 * pa * (j / 2);
                    element(zx(reg >>> (p * aBits), aBits), f.aType(), a, ia, e);
                }
            }
            for (int j = 0; j < rb; j++) {
                long reg = engine.operands.read(w, op, ra + j, l);
                for (int p = 0; p < pb; p++) {
                    element(zx(reg >>> (p * bBits), bBits), f.bType(), b, ib, g * kk + pb * q + p + 4 * pb * j);
                }
            }
        }
        int elements = s.m * s.n / 32;
        if (!integer && f.dType() != DataType.F64 && !float8(f.aType())) {
            TensorCore.exponents(a, ea, finiteA, s.m, kk, f.aType());
            TensorCore.exponents(b, eb, finiteB, s.n, kk, f.bType());
        }
        boolean half = f.cType() == DataType.F16;
        for (int l = 0; l < 32; l++) {
            int g = l / 4, q = l % 4;
            long[] d = out[l];
            for (int e = 0; e < elements; e++) {
                int i = g + 8 * (e / 2), j = 2 * q + e % 2;
                long c = half ? engine.operands.read(w, op, ra + rb + e / 2, l) >>> (16 * (e % 2)) & 0xffff
                        : engine.operands.read(w, op, ra + rb + e, l);
                d[e] = integer ? integerSum(c, i, j, kk, f.satFinite())
                        : f.dType() == DataType.F64 ? fusedChain(c, i, j, kk)
                        : half ? FloatOps.floatToHalf(floatSum(FloatOps.halfToFloat((int) c), i, j, kk, f, false))
                        : f32Bits(floatSum(Float.intBitsToFloat((int) c), i, j, kk, f, true), f);
            }
        }
        for (int l = 0; l < 32; l++) {
            for (int r = 0; r < f.dRegisters(); r++) {
                long v = half ? out[l][2 * r] | out[l][2 * r + 1] << 16 : out[l][r];
                engine.operands.write(w, op, r, l, v);
            }
        }
    }

    /** C plus the K products of element (i, j), as the tensor core adds them. */
    private float floatSum(float c, int i, int j, int kk, Form f, boolean f32D) {
        return float8(f.aType()) ? TensorCore.float8Sync(c, a, i * kk, b, j * kk, kk, !f32D)
                : TensorCore.dot(c, a, ea, i * kk, b, eb, j * kk, kk, 1, finiteA[i] && finiteB[j], f.aType(), f32D);
    }

    /**
     * The bits of an .f32 D element. The fp8 forms end in an f32 add, whose NaN is the canonical one
     * (run case mma-sync-fp8-edges); the others keep the sum's bits.
     */
    private static long f32Bits(float d, Form f) {
        return float8(f.aType()) ? FloatOps.bits32(d) : Float.floatToRawIntBits(d) & 0xffffffffL;
    }

    private static void element(long raw, DataType t, double[] values, long[] ints, int at) {
        switch (t) {
            case S8 -> ints[at] = sx(raw, 8);
            case U8 -> ints[at] = raw;
            case F64 -> values[at] = Double.longBitsToDouble(raw);
            default -> values[at] = TensorCore.input(raw, t);
        }
    }

    private long integerSum(long c, int i, int j, int kk, boolean satFinite) {
        long acc = sx(c, 32);
        for (int k = 0; k < kk; k++) {
            acc += ia[i * kk + k] * ib[j * kk + k];
        }
        if (satFinite) {
            acc = Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, acc));
        }
        return zx(acc, 32);
    }

    private long fusedChain(long c, int i, int j, int kk) {
        double acc = Double.longBitsToDouble(c);
        for (int k = 0; k < kk; k++) {
            acc = Math.fma(a[i * kk + k], b[j * kk + k], acc);
        }
        return Double.doubleToRawLongBits(acc);
    }
}
