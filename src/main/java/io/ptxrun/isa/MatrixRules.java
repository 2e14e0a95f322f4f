package io.ptxrun.isa;

import static io.ptxrun.ast.Opcode.LDMATRIX;
import static io.ptxrun.ast.Opcode.MMA;
import static io.ptxrun.ast.Opcode.MOVMATRIX;
import static io.ptxrun.ast.Opcode.STMATRIX;
import static io.ptxrun.ast.Opcode.MMA_SP;
import static io.ptxrun.ast.Opcode.WGMMA_COMMIT_GROUP;
import static io.ptxrun.ast.Opcode.WGMMA_FENCE;
import static io.ptxrun.ast.Opcode.WGMMA_MMA_ASYNC;
import static io.ptxrun.ast.Opcode.WGMMA_WAIT_GROUP;
import static io.ptxrun.ast.Opcode.WMMA_LOAD;
import static io.ptxrun.ast.Opcode.WMMA_MMA;
import static io.ptxrun.ast.Opcode.WMMA_STORE;
import static io.ptxrun.isa.TargetRequirement.atLeast;

import io.ptxrun.ast.Opcode;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Warp-level matrix instructions (PTX ISA 9.7.14 wmma, spec/isa/wmma.md) and warpgroup-level ones
 * (9.7.15 wgmma, spec/isa/wgmma.md). A fragment operand is a brace vector whose length follows
 * from the shape and element type: wmma from the fragment tables of 9.7.14.5, wgmma.mma_async's
 * accumulator N/2 registers (N/4 for .f16, packed in pairs). Packed and integer elements live in
 * 32-bit integer registers, .f32 accumulators in .f32 ones (ptxas: "Arguments mismatch" for a
 * wrong kind, "Argument vector size mismatch" or "Illegal vector size" for a wrong count).
 * Boundaries from testdata/check/wmma.jsonl.gz and wgmma.jsonl.gz.
 */
public final class MatrixRules implements RuleTable {
    private static final String WMMA = "9.7.14 wmma (spec/isa/wmma.md)";
    private static final String WGMMA = "9.7.15 wgmma (spec/isa/wgmma.md)";
    private static final String MMA_SYNC = "9.7.14.5.14 mma (spec/isa/mma.md)";
    private static final String SPACE = "[.global|.shared|.shared::cta]";
    private static final String LAYOUT = "(.row|.col)";

    /** One A/B element type of wmma on one shape: the registers of its a and b fragments. */
    private record Operands(String shape, String type, int a, int b) {}

    /** 9.7.14.5: fragment sizes per shape and element type. */
    private static final List<Operands> AB = List.of(
            new Operands(".m16n16k16", ".f16", 8, 8), new Operands(".m8n32k16", ".f16", 8, 8),
            new Operands(".m32n8k16", ".f16", 8, 8),
            new Operands(".m16n16k16", "(.s8|.u8)", 2, 2), new Operands(".m8n32k16", "(.s8|.u8)", 1, 4),
            new Operands(".m32n8k16", "(.s8|.u8)", 4, 1),
            new Operands(".m16n16k16", ".bf16", 4, 4), new Operands(".m8n32k16", ".bf16", 2, 8),
            new Operands(".m32n8k16", ".bf16", 8, 2),
            new Operands(".m16n16k8", ".tf32", 4, 4), new Operands(".m8n8k4", ".f64", 1, 1),
            new Operands(".m8n8k32", "(.s4|.u4)", 1, 1), new Operands(".m8n8k128", ".b1", 1, 1));

    /** Accumulator fragments (c and d): shape, type, operand slot. */
    private static final String[][] ACCUMULATORS = {
        {"(.m16n16k16|.m8n32k16|.m32n8k16)", ".f16", "vecu32=4"},
        {"(.m16n16k16|.m8n32k16|.m32n8k16)", ".f32", "vecf32=8"},
        {"(.m16n16k16|.m8n32k16|.m32n8k16)", ".s32", "vecu32=8"},
        {".m16n16k8", ".f32", "vecf32=8"},
        {".m8n8k4", ".f64", "vecf64=2"},
        {"(.m8n8k32|.m8n8k128)", ".s32", "vecu32=2"}};

    /**
     * The a or b fragment of a load: .f64 registers for .f64, else 32-bit integer registers,
     * except that ptxas takes any 32-bit register for the one-register sub-byte and single-bit
     * fragments (`wmma.load.a...m8n8k32.s4 {%f0}` is accepted).
     */
    private static String fragment(String type, int n) {
        return (type.equals(".f64") ? "vecf64=" : subByte(type) ? "vecb32=" : "vecu32=") + n;
    }

    /** Sub-byte and single-bit a fragments are row-major, their b fragments column-major only. */
    private static boolean subByte(String type) {
        return type.contains(".s4") || type.equals(".b1");
    }

    @Override
    public Set<Opcode> opcodes() {
        return EnumSet.of(Opcode.MMA, Opcode.MMA_SP, Opcode.LDMATRIX, Opcode.STMATRIX, Opcode.MOVMATRIX,
                Opcode.WGMMA_FENCE, Opcode.WGMMA_COMMIT_GROUP, Opcode.WGMMA_WAIT_GROUP,
                Opcode.WGMMA_MMA_ASYNC, Opcode.WMMA_LOAD, Opcode.WMMA_STORE, Opcode.WMMA_MMA);
    }

    @Override
    public List<Form> forms() {
        List<Form> f = new ArrayList<>();
        String head = ".sync .aligned ";
        for (Operands o : AB) {
            f.add(Form.of(WMMA_LOAD, ".a " + head + (subByte(o.type()) ? ".row" : LAYOUT) + " " + o.shape() + " "
                    + SPACE + " " + o.type(), "r:" + fragment(o.type(), o.a()) + ", p:addr, stride?:b32|imm", WMMA));
            f.add(Form.of(WMMA_LOAD, ".b " + head + (subByte(o.type()) ? ".col" : LAYOUT) + " " + o.shape() + " "
                    + SPACE + " " + o.type(), "r:" + fragment(o.type(), o.b()) + ", p:addr, stride?:b32|imm", WMMA));
        }
        for (String[] c : ACCUMULATORS) {
            f.add(Form.of(WMMA_LOAD, ".c " + head + LAYOUT + " " + c[0] + " " + SPACE + " " + c[1],
                    "r:" + c[2] + ", p:addr, stride?:b32|imm", WMMA));
            f.add(Form.of(WMMA_STORE, ".d " + head + LAYOUT + " " + c[0] + " " + SPACE + " " + c[1],
                    "p:addr, r:" + c[2] + ", stride?:b32|imm", WMMA));
        }
        // wmma.mma: a layout and a b layout; .satfinite on integer types only (for floating
        // point ptxas: "'.satfinite' is not supported").
        String layouts = head + LAYOUT + " " + LAYOUT + " ";
        String fp = "(.m16n16k16|.m8n32k16|.m32n8k16)";
        for (String d : List.of(".f16", ".f32")) {
            for (String c : List.of(".f16", ".f32")) {
                f.add(Form.of(WMMA_MMA, layouts + fp + " " + d + " " + c, "d:" + accumulator(d) + ", a:vecu32=8, b:vecu32=8, c:"
                        + accumulator(c), WMMA));
            }
        }
        for (Operands o : AB) {
            String s = o.shape();
            switch (o.type()) {
                case "(.s8|.u8)" -> {
                    // Both the same: ptxas rejects s8 with u8 ("Unexpected instruction types").
                    for (String t : List.of(".s8", ".u8")) {
                        f.add(Form.of(WMMA_MMA, layouts + s + " .s32 " + t + " " + t + " .s32 [.satfinite]",
                                "d:vecu32=8, a:vecu32=" + o.a() + ", b:vecu32=" + o.b() + ", c:vecu32=8", WMMA));
                    }
                }
                case ".bf16", ".tf32" -> f.add(Form.of(WMMA_MMA, layouts + s + " .f32 " + o.type() + " " + o.type()
                        + " .f32", "d:vecf32=8, a:vecu32=" + o.a() + ", b:vecu32=" + o.b() + ", c:vecf32=8", WMMA));
                case ".f64" -> f.add(Form.of(WMMA_MMA, layouts + s + " [.rn|.rz|.rm|.rp] .f64 .f64 .f64 .f64",
                        "d:vecf64=2, a:vecf64=1, b:vecf64=1, c:vecf64=2", WMMA));
                case "(.s4|.u4)" -> {
                    for (String t : List.of(".s4", ".u4")) {
                        f.add(Form.of(WMMA_MMA, head + ".row .col " + s + " .s32 " + t + " " + t + " .s32 [.satfinite]",
                                "d:vecu32=2, a:vecu32=1, b:vecu32=1, c:vecu32=2", WMMA));
                    }
                }
                case ".b1" -> f.add(Form.of(WMMA_MMA, head + "(.xor|.and) .popc .row .col " + s + " .s32 .b1 .b1 .s32",
                        "d:vecu32=2, a:vecu32=1, b:vecu32=1, c:vecu32=2", WMMA));
                default -> { }
            }
        }
        wgmmaForms(f);
        mmaForms(f);
        sparseMmaForms(f);
        matrixMoveForms(f);
        return f;
    }

    private static String accumulator(String type) {
        return type.equals(".f16") ? "vecu32=4" : "vecf32=8";
    }

    /**
     * wgmma: fence, commit_group, wait_group with .sync (ptxas also takes them without .aligned),
     * and mma_async per shape: N in steps of 8 up to 256 for floating-point types; 8, 16, 24 and
     * then steps of 16 for the integer and single-bit ones ("Illegal matrix shape" otherwise).
     * The A operand is a descriptor (.b64) or, for the row-major A of 9.7.15.5.1, four 32-bit
     * registers, which drops imm-trans-a. scale-d is a predicate or constant, imm-scale-a/b are
     * 1 or -1, the transpositions 0 or 1.
     */
    private static void wgmmaForms(List<Form> f) {
        f.add(Form.of(WGMMA_FENCE, ".sync [.aligned]", "", WGMMA));
        f.add(Form.of(WGMMA_COMMIT_GROUP, ".sync [.aligned]", "", WGMMA));
        f.add(Form.of(WGMMA_WAIT_GROUP, ".sync [.aligned]", "n:imm=0..2147483647", WGMMA));
        String head = ".sync [.aligned] ";
        String scale = ", imm-scale-a:imm=-1/1, imm-scale-b:imm=-1/1";
        String trans = ", imm-trans-b:imm=0..1";
        for (int n = 8; n <= 256; n += 8) {
            boolean integerShape = n <= 24 || n % 16 == 0;
            String d16 = "d:vecu32=" + n / 4;
            String d32 = "d:vecf32=" + n / 2;
            String dInt = "d:vecu32=" + n / 2;
            // .f16 and .bf16: both transpositions with descriptors, imm-trans-b with registers.
            for (String[] t : new String[][] {{".f16", ".f16 .f16", d16}, {".f32", ".f16 .f16", d32},
                    {".f32", ".bf16 .bf16", d32}}) {
                String q = head + ".m64n" + n + "k16 " + t[0] + " " + t[1];
                f.add(Form.of(WGMMA_MMA_ASYNC, q, t[2] + ", a-desc:b64, b-desc:b64, scale-d:pred|imm" + scale
                        + ", imm-trans-a:imm=0..1" + trans, WGMMA));
                f.add(Form.of(WGMMA_MMA_ASYNC, q, t[2] + ", a:vecu32=4, b-desc:b64, scale-d:pred|imm" + scale + trans,
                        WGMMA));
            }
            for (String[] t : new String[][] {{".m64n" + n + "k8", ".f32 .tf32 .tf32", d32},
                    {".m64n" + n + "k32", ".f32 (.e4m3|.e5m2) (.e4m3|.e5m2)", d32},
                    {".m64n" + n + "k32", ".f16 (.e4m3|.e5m2) (.e4m3|.e5m2)", d16}}) {
                String q = head + t[0] + " " + t[1];
                f.add(Form.of(WGMMA_MMA_ASYNC, q, t[2] + ", a-desc:b64, b-desc:b64, scale-d:pred|imm" + scale, WGMMA));
                f.add(Form.of(WGMMA_MMA_ASYNC, q, t[2] + ", a:vecu32=4, b-desc:b64, scale-d:pred|imm" + scale, WGMMA));
            }
            if (integerShape) {
                for (String q : List.of(head + ".m64n" + n + "k32 [.satfinite] .s32 (.s8|.u8) (.s8|.u8)",
                        head + ".m64n" + n + "k256 .s32 .b1 .b1 .and .popc")) {
                    f.add(Form.of(WGMMA_MMA_ASYNC, q, dInt + ", a-desc:b64, b-desc:b64, scale-d:pred|imm", WGMMA));
                    f.add(Form.of(WGMMA_MMA_ASYNC, q, dInt + ", a:vecu32=4, b-desc:b64, scale-d:pred|imm", WGMMA));
                }
            }
        }
    }


    /** One mma.sync shape of one input type: its a and b fragments (9.7.14.5.14, fragment tables). */
    private record MmaShape(String shape, int a, int b) {}

    /** The input types of mma.sync and the shapes each takes (the Syntax block of spec/isa/mma.md). */
    static final java.util.Map<String, List<MmaShape>> MMA_SHAPES = java.util.Map.of(
            ".f16", List.of(new MmaShape(".m8n8k4", 2, 2), new MmaShape(".m16n8k8", 2, 1),
                    new MmaShape(".m16n8k16", 4, 2)),
            ".tf32", List.of(new MmaShape(".m16n8k4", 2, 1), new MmaShape(".m16n8k8", 4, 2)),
            ".bf16", List.of(new MmaShape(".m16n8k8", 2, 1), new MmaShape(".m16n8k16", 4, 2)),
            ".e4m3", List.of(new MmaShape(".m16n8k16", 2, 1), new MmaShape(".m16n8k32", 4, 2)),
            ".f64", List.of(new MmaShape(".m8n8k4", 1, 1), new MmaShape(".m16n8k4", 2, 1),
                    new MmaShape(".m16n8k8", 4, 2), new MmaShape(".m16n8k16", 8, 4)),
            ".s8", List.of(new MmaShape(".m8n8k16", 1, 1), new MmaShape(".m16n8k16", 2, 1),
                    new MmaShape(".m16n8k32", 4, 2)),
            ".s4", List.of(new MmaShape(".m8n8k32", 1, 1), new MmaShape(".m16n8k32", 2, 1),
                    new MmaShape(".m16n8k64", 4, 2)),
            ".b1", List.of(new MmaShape(".m8n8k128", 1, 1), new MmaShape(".m16n8k128", 2, 1),
                    new MmaShape(".m16n8k256", 4, 2)));

    /** The shapes mma.sync takes for an input type as written (.e5m2 as .e4m3, .u8 as .s8, .u4 as .s4). */
    public static List<String> mmaShapesOf(String inputType) {
        String key = switch (inputType) {
            case ".e5m2" -> ".e4m3";
            case ".u8" -> ".s8";
            case ".u4" -> ".s4";
            default -> inputType;
        };
        List<MmaShape> shapes = MMA_SHAPES.get(key);
        return shapes == null ? null : shapes.stream().map(MmaShape::shape).toList();
    }

    /** The accumulator (c and d) fragment of an mma.sync shape for one type. */
    private static String mmaAccumulator(String shape, String type) {
        boolean m8 = shape.startsWith(".m8n8");
        return switch (type) {
            case ".f16" -> "vecf16x2=" + (m8 ? 4 : 2);
            case ".f32" -> "vecf32b=" + (m8 ? 8 : 4);
            case ".f64" -> "vec64=" + (m8 ? 2 : 4);
            default -> "vecu32=" + (m8 ? 2 : 4);
        };
    }

    private static String mmaOperands(String shape, String d, String c, String ab, int a, int b) {
        return "d:" + mmaAccumulator(shape, d) + ", a:" + ab + "=" + a + ", b:" + ab + "=" + b + ", c:"
                + mmaAccumulator(shape, c);
    }

    /**
     * mma.sync (9.7.14.5.14): the forms of its Syntax block, with the fragments of each shape and
     * type and the register types ptxas takes for them (testdata/check/mma.jsonl.gz). ptxas also
     * takes, beyond the Syntax block, `.rn/.rz/.rm/.rp` on the .f64 forms and a b fragment of two
     * registers for m16n8k16 with 8-bit floating-point inputs; it takes .f16 accumulators only
     * with a D of the same type, except that m8n8k4 has .f32 D with .f16 C (".dtype must be
     * '.f32' when .ctype is '.f32'").
     */
    private static void mmaForms(List<Form> f) {
        String head = ".sync .aligned ";
        // .f16: m8n8k4 in any layouts; the others .row.col, D and C of one type.
        for (String[] dc : new String[][] {{".f16", ".f16"}, {".f32", ".f16"}, {".f32", ".f32"}}) {
            f.add(Form.of(MMA, head + ".m8n8k4 " + LAYOUT + " " + LAYOUT + " " + dc[0] + " .f16 .f16 " + dc[1],
                    mmaOperands(".m8n8k4", dc[0], dc[1], "vecf16x2", 2, 2), MMA_SYNC));
        }
        for (String t : List.of(".f16", ".f32")) {
            for (MmaShape s : MMA_SHAPES.get(".f16").subList(1, 3)) {
                f.add(Form.of(MMA, head + s.shape() + " .row .col " + t + " .f16 .f16 " + t,
                        mmaOperands(s.shape(), t, t, "vecf16x2", s.a(), s.b()), MMA_SYNC));
            }
            String fp8 = "(.e4m3|.e5m2) (.e4m3|.e5m2) ";
            for (MmaShape s : MMA_SHAPES.get(".e4m3")) {
                f.add(Form.of(MMA, head + s.shape() + " .row .col " + t + " " + fp8 + t,
                        mmaOperands(s.shape(), t, t, "vecb32", s.a(), s.b()), MMA_SYNC));
            }
            // ptxas also takes the b fragment of m16n8k32 for m16n8k16.
            f.add(Form.of(MMA, head + ".m16n8k16 .row .col " + t + " " + fp8 + t,
                    mmaOperands(".m16n8k16", t, t, "vecb32", 2, 2), MMA_SYNC));
            // .kind::f8f6f4: 8-, 6- and 4-bit inputs, each in a byte.
            String f8f6f4 = "(.e4m3|.e5m2|.e3m2|.e2m3|.e2m1) ";
            f.add(Form.of(MMA, head + ".m16n8k32 .row .col .kind::f8f6f4 " + t + " " + f8f6f4 + f8f6f4 + t,
                    mmaOperands(".m16n8k32", t, t, "vecb32", 4, 2), MMA_SYNC));
        }
        for (String in : List.of(".tf32", ".bf16")) {
            for (MmaShape s : MMA_SHAPES.get(in)) {
                f.add(Form.of(MMA, head + s.shape() + " .row .col .f32 " + in + " " + in + " .f32",
                        mmaOperands(s.shape(), ".f32", ".f32", "vecbits32", s.a(), s.b()), MMA_SYNC));
            }
        }
        for (MmaShape s : MMA_SHAPES.get(".f64")) {
            f.add(Form.of(MMA, head + s.shape() + " .row .col [.rn|.rz|.rm|.rp] .f64 .f64 .f64 .f64",
                    mmaOperands(s.shape(), ".f64", ".f64", "vec64", s.a(), s.b()), MMA_SYNC));
        }
        // Integers: .s8/.u8 fragments of m8n8k16 in integer registers, the others in any 32-bit ones.
        for (String[] in : new String[][] {{".s8", "(.s8|.u8)"}, {".s4", "(.s4|.u4)"}}) {
            for (MmaShape s : MMA_SHAPES.get(in[0])) {
                String kind = s.shape().equals(".m8n8k16") ? "vecu32" : "vecb32";
                f.add(Form.of(MMA, head + s.shape() + " .row .col [.satfinite] .s32 " + in[1] + " " + in[1] + " .s32",
                        mmaOperands(s.shape(), ".s32", ".s32", kind, s.a(), s.b()), MMA_SYNC));
            }
        }
        for (MmaShape s : MMA_SHAPES.get(".b1")) {
            f.add(Form.of(MMA, head + s.shape() + " .row .col .s32 .b1 .b1 .s32 (.xor.popc|.and.popc)",
                    mmaOperands(s.shape(), ".s32", ".s32", "vecb32", s.a(), s.b()), MMA_SYNC));
        }
        // Block scaling: scale data in a 32-bit register, each selector {byte-id, thread-id}: the
        // byte of scale data (0..3 for .scale_vec::1X, 0 or 2 for 2X, 0 for 4X) and the thread
        // that holds it (0..1 for A, 0..3 for B); ptxas: "unexpected value '1', expected to be 0 or 2".
        String k64 = mmaOperands(".m16n8k64", ".f32", ".f32", "vecb32", 4, 2);
        String x2 = ", scale-a:r32, selector-a:sel=0/2:0..1, scale-b:r32, selector-b:sel=0/2:0..3";
        String x4 = ", scale-a:r32, selector-a:sel=0:0..1, scale-b:r32, selector-b:sel=0:0..3";
        String x1 = ", scale-a:r32, selector-a:sel=0/1/2/3:0..1, scale-b:r32, selector-b:sel=0/1/2/3:0..3";
        f.add(Form.of(MMA, head + ".m16n8k64 .row .col .kind::mxf4 .block_scale [.scale_vec::2X] .f32 .e2m1 .e2m1 .f32"
                + " .ue8m0", k64 + x2, MMA_SYNC));
        f.add(Form.of(MMA, head + ".m16n8k64 .row .col .kind::mxf4nvf4 .block_scale .scale_vec::2X .f32 .e2m1 .e2m1 .f32"
                + " .ue8m0", k64 + x2, MMA_SYNC));
        f.add(Form.of(MMA, head + ".m16n8k64 .row .col .kind::mxf4nvf4 .block_scale .scale_vec::4X .f32 .e2m1 .e2m1 .f32"
                + " .ue4m3", k64 + x4, MMA_SYNC));
        String f8f6f4 = "(.e4m3|.e5m2|.e3m2|.e2m3|.e2m1) ";
        f.add(Form.of(MMA, head + ".m16n8k32 .row .col .kind::mxf8f6f4 .block_scale [.scale_vec::1X] .f32 " + f8f6f4
                + f8f6f4 + ".f32 .ue8m0", mmaOperands(".m16n8k32", ".f32", ".f32", "vecb32", 4, 2) + x1, MMA_SYNC));
    }


    private static final String MMA_SP_CITE = "9.7.14.6 mma.sp (spec/isa/mma.md)";

    /** One sparse shape: the registers of a and of b (A holds half its K elements), the selector range. */
    private record SparseShape(String shape, int ab, String selector) {}

    /** The input types of mma.sp and their shapes, with the sparsity selectors ptxas takes (mma-sp.jsonl.gz). */
    static final java.util.Map<String, List<SparseShape>> SPARSE_SHAPES = java.util.Map.of(
            ".f16", List.of(new SparseShape(".m16n8k16", 2, "0..3"), new SparseShape(".m16n8k32", 4, "0..1")),
            ".bf16", List.of(new SparseShape(".m16n8k16", 2, "0..3"), new SparseShape(".m16n8k32", 4, "0..1")),
            ".tf32", List.of(new SparseShape(".m16n8k8", 2, "0..3"), new SparseShape(".m16n8k16", 4, "0..1")),
            ".s8", List.of(new SparseShape(".m16n8k32", 2, "0..1"), new SparseShape(".m16n8k64", 4, "0")),
            ".s4", List.of(new SparseShape(".m16n8k64", 2, "0..1"), new SparseShape(".m16n8k128", 4, "0")),
            ".e4m3", List.of(new SparseShape(".m16n8k64", 4, "0")));

    /** The shapes mma.sp takes for an input type as written, or null for a type it does not take. */
    public static List<String> sparseMmaShapesOf(String inputType) {
        String key = switch (inputType) {
            case ".e5m2" -> ".e4m3";
            case ".u8" -> ".s8";
            case ".u4" -> ".s4";
            default -> inputType;
        };
        List<SparseShape> shapes = SPARSE_SHAPES.get(key);
        return shapes == null ? null : shapes.stream().map(SparseShape::shape).toList();
    }

    /**
     * mma.sp (9.7.14.6): `mma.sp` and `mma.sp::ordered_metadata` (ptxas takes the sparsity
     * qualifier among the others too, `mma.sync.aligned.sp::ordered_metadata`), with the metadata
     * e and the sparsity selector f after d, a, b, c. D and C of one type. ptxas takes any 32-bit
     * registers for most fragments here, also where the dense form wants .b32 ones; .f16 elements
     * stay in .b32 or .f16x2 registers, and the 8-bit floating-point forms keep f32 accumulators in
     * .f32 or .b32 ones and the metadata in an integer register. The f16 accumulators of 8-bit
     * floating-point inputs, and .kind::f8f6f4, exist only with .sp::ordered_metadata. The selector
     * ranges are ptxas's ("value '4' out of range, expected to be in range [0..3]"); f16 inputs
     * with f32 accumulators take 0..3 on m16n8k32 as on m16n8k16.
     */
    private static void sparseMmaForms(List<Form> f) {
        String head = ".sync .aligned ";
        for (boolean ordered : new boolean[] {false, true}) {
            Opcode op = ordered ? MMA : MMA_SP;
            // On mma, the sparsity qualifier: .sp (mma.sync.aligned.sp) or .sp::ordered_metadata.
            String sp = ordered ? "(.sp|.sp::ordered_metadata) " : "";
            String spOrdered = ordered ? ".sp::ordered_metadata " : null;
            for (String t : List.of(".f16", ".f32")) {
                String acc = t.equals(".f16") ? "vecf16x2=2" : "vecb32=4";
                for (SparseShape s : SPARSE_SHAPES.get(".f16")) {
                    String sel = t.equals(".f32") ? "0..3" : s.selector();
                    f.add(Form.of(op, sp + head + s.shape() + " .row .col " + t + " .f16 .f16 " + t, "d:" + acc
                            + ", a:vecf16x2=" + s.ab() + ", b:vecf16x2=" + s.ab() + ", c:" + acc + ", e:r32, f:imm=" + sel,
                            MMA_SP_CITE));
                }
            }
            for (String in : List.of(".bf16", ".tf32")) {
                for (SparseShape s : SPARSE_SHAPES.get(in)) {
                    f.add(Form.of(op, sp + head + s.shape() + " .row .col .f32 " + in + " " + in + " .f32", "d:vecb32=4"
                            + ", a:vecb32=" + s.ab() + ", b:vecb32=" + s.ab() + ", c:vecb32=4, e:r32, f:imm="
                            + s.selector(), MMA_SP_CITE));
                }
            }
            for (String[] in : new String[][] {{".s8", "(.s8|.u8)"}, {".s4", "(.s4|.u4)"}}) {
                for (SparseShape s : SPARSE_SHAPES.get(in[0])) {
                    f.add(Form.of(op, sp + head + s.shape() + " .row .col [.satfinite] .s32 " + in[1] + " " + in[1]
                            + " .s32", "d:vecu32=4, a:vecb32=" + s.ab() + ", b:vecb32=" + s.ab() + ", c:vecu32=4, e:r32,"
                            + " f:imm=" + s.selector(), MMA_SP_CITE));
                }
            }
            String fp8 = " (.e4m3|.e5m2) (.e4m3|.e5m2) ";
            f.add(Form.of(op, sp + head + ".m16n8k64 .row .col .f32" + fp8 + ".f32",
                    "d:vecf32b=4, a:vecb32=4, b:vecb32=4, c:vecf32b=4, e:b32, f:imm=0", MMA_SP_CITE));
            if (ordered) {
                f.add(Form.of(op, spOrdered + head + ".m16n8k64 .row .col .f16" + fp8 + ".f16",
                        "d:vecf16x2=2, a:vecb32=4, b:vecb32=4, c:vecf16x2=2, e:b32, f:imm=0", MMA_SP_CITE));
                String f8f6f4 = " (.e4m3|.e5m2|.e3m2|.e2m3|.e2m1) (.e4m3|.e5m2|.e3m2|.e2m3|.e2m1) ";
                f.add(Form.of(op, spOrdered + head + ".m16n8k64 .row .col .kind::f8f6f4 .f32" + f8f6f4 + ".f32",
                        "d:vecf32b=4, a:vecb32=4, b:vecb32=4, c:vecf32b=4, e:r32, f:imm=0", MMA_SP_CITE));
                f.add(Form.of(op, spOrdered + head + ".m16n8k64 .row .col .kind::f8f6f4 .f16" + f8f6f4 + ".f16",
                        "d:vecf16x2=2, a:vecb32=4, b:vecb32=4, c:vecf16x2=2, e:r32, f:imm=0", MMA_SP_CITE));
            }
        }
    }

    private static List<FeatureRule> sparseMmaFeatures() {
        List<FeatureRule> r = new ArrayList<>();
        r.add(FeatureRule.of(MMA_SP, "", "7.1", atLeast(80), "mma.sp", MMA_SP_CITE));
        r.add(FeatureRule.of(MMA, ".sp", "7.1", atLeast(80), "mma.sp", MMA_SP_CITE));
        r.add(FeatureRule.of(MMA, ".sp::ordered_metadata", "8.5", atLeast(80), "mma.sp::ordered_metadata",
                MMA_SP_CITE));
        for (String t : List.of(".e4m3", ".e5m2")) {
            r.add(FeatureRule.of(MMA_SP, t, "8.4", atLeast(89), "mma.sp with 8-bit floating-point inputs", MMA_SP_CITE));
            // ptxas: "Instruction 'mma with with F16 accumulator and F8 floating point type' not supported on .target 'sm_90a'"
            r.add(FeatureRule.of(MMA, ".sp::ordered_metadata .f16 " + t, "8.7", SM_120A,
                    "mma.sp with 8-bit floating-point inputs and .f16 accumulators", MMA_SP_CITE));
        }
        return r;
    }


    private static final String LDMATRIX_CITE = "9.7.14.5.15 ldmatrix (spec/isa/ldmatrix.md)";
    private static final String STMATRIX_CITE = "9.7.14.5.16 stmatrix (spec/isa/stmatrix.md)";
    private static final String MOVMATRIX_CITE = "9.7.14.5.17 movmatrix (spec/isa/movmatrix.md)";

    /**
     * ldmatrix, stmatrix (shared memory, generic or .shared{::cta}) and movmatrix: one 32-bit
     * register of any type per 8x8 matrix of .b16 elements, two per 16x16 matrix of bytes
     * (testdata/check/matrix-move.jsonl.gz). The byte forms exist transposed only (ptxas: "Modifier
     * '.trans' require for instruction stmatrix with shape '.m16n8'"), .m8n16 untransposed only,
     * .m16n16 as .x1 and .x2.
     */
    private static void matrixMoveForms(List<Form> f) {
        String head = ".sync .aligned ";
        String space = " [.shared|.shared::cta] ";
        for (String[] n : new String[][] {{".x1", "1"}, {".x2", "2"}, {".x4", "4"}}) {
            int k = Integer.parseInt(n[1]);
            f.add(Form.of(LDMATRIX, head + ".m8n8 " + n[0] + " [.trans]" + space + ".b16", "r:vecb32=" + k + ", p:addr",
                    LDMATRIX_CITE));
            f.add(Form.of(LDMATRIX, head + ".m8n16 " + n[0] + space + ".b8x16 (.b6x16_p32|.b4x16_p64)",
                    "r:vecb32=" + k + ", p:addr", LDMATRIX_CITE));
            if (k < 4) {
                f.add(Form.of(LDMATRIX, head + ".m16n16 " + n[0] + " .trans" + space + ".b8", "r:vecb32=" + 2 * k
                        + ", p:addr", LDMATRIX_CITE));
                f.add(Form.of(LDMATRIX, head + ".m16n16 " + n[0] + " .trans" + space + ".b8x16 (.b6x16_p32|.b4x16_p64)",
                        "r:vecb32=" + 2 * k + ", p:addr", LDMATRIX_CITE));
            }
            f.add(Form.of(STMATRIX, head + ".m8n8 " + n[0] + " [.trans]" + space + ".b16", "p:addr, r:vecb32=" + k,
                    STMATRIX_CITE));
            f.add(Form.of(STMATRIX, head + ".m16n8 " + n[0] + " .trans" + space + ".b8", "p:addr, r:vecb32=" + k,
                    STMATRIX_CITE));
        }
        f.add(Form.of(MOVMATRIX, head + ".m8n8 .trans .b16", "d:r32, a:r32", MOVMATRIX_CITE));
    }

    /** The 8-bit shapes of ldmatrix and stmatrix: sm_100a, sm_103a, sm_110a, sm_120a, sm_121a and their families. */
    private static final TargetRequirement MATRIX_BYTES = new TargetRequirement.ArchSpecific(
            java.util.Set.of(100, 103, 110, 120, 121), java.util.Set.of(100, 110, 120), PtxVersion.of("8.8"));

    private static List<FeatureRule> matrixMoveFeatures() {
        return List.of(
                FeatureRule.of(LDMATRIX, "", "6.5", atLeast(75), "ldmatrix", LDMATRIX_CITE),
                FeatureRule.of(LDMATRIX, ".shared::cta", "7.8", atLeast(75), "ldmatrix on .shared::cta", LDMATRIX_CITE),
                FeatureRule.of(LDMATRIX, ".m16n16", "8.6", MATRIX_BYTES, "ldmatrix with .m16n16", LDMATRIX_CITE),
                FeatureRule.of(LDMATRIX, ".m8n16", "8.6", MATRIX_BYTES, "ldmatrix with .m8n16", LDMATRIX_CITE),
                FeatureRule.of(STMATRIX, "", "7.8", atLeast(90), "stmatrix", STMATRIX_CITE),
                FeatureRule.of(STMATRIX, ".m16n8", "8.6", MATRIX_BYTES, "stmatrix with .m16n8", STMATRIX_CITE),
                FeatureRule.of(MOVMATRIX, "", "7.8", atLeast(75), "movmatrix", MOVMATRIX_CITE));
    }

    /** .kind::f8f6f4 on 8-bit inputs: the sm_100 and sm_120 chips and families. */
    private static final TargetRequirement KIND_TARGETS = new TargetRequirement.ArchSpecific(
            java.util.Set.of(100, 103, 110, 120, 121), java.util.Set.of(100, 110, 120), PtxVersion.of("8.8"));
    /** 6- and 4-bit inputs and block scaling: sm_120a and sm_121a, and the sm_120f family. */
    private static final TargetRequirement SM_120A = new TargetRequirement.ArchSpecific(
            java.util.Set.of(120, 121), java.util.Set.of(120), PtxVersion.of("8.8"));

    /**
     * mma.sync's PTX ISA versions and targets, from ptxas (e.g. "Feature '.m16n8k4 with double
     * types' requires .target sm_90 or higher", "Feature 'mma with FP8 floating point type and
     * .m16n8k16 shape' requires PTX ISA .version 8.7 or later").
     */
    private static List<FeatureRule> mmaFeatures() {
        List<FeatureRule> r = new ArrayList<>();
        r.add(FeatureRule.of(MMA, "", "6.4", atLeast(70), "mma", MMA_SYNC));
        r.add(FeatureRule.of(MMA, ".m16n8k8", "6.5", atLeast(75), "mma with .m16n8k8", MMA_SYNC));
        r.add(FeatureRule.of(MMA, ".m8n8k16", "6.5", atLeast(75), "mma with .m8n8k16", MMA_SYNC));
        r.add(FeatureRule.of(MMA, ".m8n8k32", "6.5", atLeast(75), "mma with .m8n8k32", MMA_SYNC));
        r.add(FeatureRule.of(MMA, ".m8n8k128", "7.0", atLeast(75), "mma with .m8n8k128", MMA_SYNC));
        for (String shape : List.of(".m16n8k4", ".m16n8k16", ".m16n8k32", ".m16n8k64", ".m16n8k128", ".m16n8k256")) {
            r.add(FeatureRule.of(MMA, shape, "7.0", atLeast(80), "mma with " + shape, MMA_SYNC));
        }
        r.add(FeatureRule.of(MMA, ".bf16", "7.0", atLeast(80), "mma with .bf16", MMA_SYNC));
        r.add(FeatureRule.of(MMA, ".tf32", "7.0", atLeast(80), "mma with .tf32", MMA_SYNC));
        r.add(FeatureRule.of(MMA, ".f64", "7.0", atLeast(80), "mma with .f64", MMA_SYNC));
        for (String shape : List.of(".m16n8k4", ".m16n8k8", ".m16n8k16")) {
            r.add(FeatureRule.of(MMA, shape + " .f64", "7.8", atLeast(90), "mma with " + shape + " .f64", MMA_SYNC));
        }
        r.add(FeatureRule.of(MMA, ".and", "7.1", atLeast(80), "mma with .and.popc", MMA_SYNC));
        for (String t : List.of(".e4m3", ".e5m2")) {
            r.add(FeatureRule.of(MMA, t, "8.4", atLeast(89), "mma with 8-bit floating-point inputs", MMA_SYNC));
            r.add(FeatureRule.of(MMA, ".m16n8k16 " + t, "8.7", atLeast(89),
                    "mma with 8-bit floating-point inputs and .m16n8k16", MMA_SYNC));
        }
        r.add(FeatureRule.of(MMA, ".kind::f8f6f4", "8.6", KIND_TARGETS, "mma with .kind::f8f6f4", MMA_SYNC));
        for (String t : List.of(".e3m2", ".e2m3", ".e2m1")) {
            r.add(FeatureRule.of(MMA, t, "8.7", SM_120A, "mma with 6- and 4-bit floating-point inputs", MMA_SYNC));
        }
        r.add(FeatureRule.of(MMA, ".block_scale", "8.7", SM_120A, "mma with .block_scale", MMA_SYNC));
        return r;
    }

    /** wgmma: sm_90a only (ptxas: "Instruction 'wgmma.fence' not supported on .target 'sm_100a'"). */
    private static final TargetRequirement SM_90A = new TargetRequirement.ArchSpecific(
            java.util.Set.of(90), java.util.Set.of(), PtxVersion.of("8.0"));

    @Override
    public List<FeatureRule> features() {
        List<FeatureRule> all = new ArrayList<>(mmaFeatures());
        all.addAll(sparseMmaFeatures());
        all.addAll(matrixMoveFeatures());
        all.addAll(List.of(
                FeatureRule.of(WMMA_LOAD, "", "6.0", atLeast(70), "wmma", WMMA),
                FeatureRule.of(WMMA_STORE, "", "6.0", atLeast(70), "wmma", WMMA),
                FeatureRule.of(WMMA_MMA, "", "6.0", atLeast(70), "wmma", WMMA),
                FeatureRule.of(WMMA_LOAD, ".aligned", "6.3", atLeast(70), ".aligned on wmma", WMMA),
                FeatureRule.of(WMMA_STORE, ".aligned", "6.3", atLeast(70), ".aligned on wmma", WMMA),
                FeatureRule.of(WMMA_MMA, ".aligned", "6.3", atLeast(70), ".aligned on wmma", WMMA),
                FeatureRule.of(WMMA_LOAD, ".s8", "6.3", atLeast(72), "wmma with integer types", WMMA),
                FeatureRule.of(WMMA_LOAD, ".u8", "6.3", atLeast(72), "wmma with integer types", WMMA),
                FeatureRule.of(WMMA_MMA, ".s8", "6.3", atLeast(72), "wmma with integer types", WMMA),
                FeatureRule.of(WMMA_MMA, ".u8", "6.3", atLeast(72), "wmma with integer types", WMMA),
                // The integer accumulator of load.c and store.d (ptxas: "Feature 'WMMA with integer
                // types' requires .target sm_72"); the tf32 shape ("Modifier '.m16n16k8' requires .target sm_80").
                // ptxas: "Feature '::cta' requires PTX ISA .version 7.8 or later".
                FeatureRule.of(WMMA_LOAD, ".shared::cta", "7.8", atLeast(70), "wmma on .shared::cta", WMMA),
                FeatureRule.of(WMMA_STORE, ".shared::cta", "7.8", atLeast(70), "wmma on .shared::cta", WMMA),
                FeatureRule.of(WMMA_LOAD, ".s32", "6.3", atLeast(72), "wmma with integer types", WMMA),
                FeatureRule.of(WMMA_STORE, ".s32", "6.3", atLeast(72), "wmma with integer types", WMMA),
                FeatureRule.of(WMMA_LOAD, ".m16n16k8", "7.0", atLeast(80), "wmma with .m16n16k8", WMMA),
                FeatureRule.of(WMMA_STORE, ".m16n16k8", "7.0", atLeast(80), "wmma with .m16n16k8", WMMA),
                FeatureRule.of(WMMA_LOAD, ".s4", "6.3", atLeast(75), "wmma with .s4", WMMA),
                FeatureRule.of(WMMA_LOAD, ".u4", "6.3", atLeast(75), "wmma with .u4", WMMA),
                FeatureRule.of(WMMA_LOAD, ".b1", "6.3", atLeast(75), "wmma with .b1", WMMA),
                FeatureRule.of(WMMA_MMA, ".s4", "6.3", atLeast(75), "wmma with .s4", WMMA),
                FeatureRule.of(WMMA_MMA, ".u4", "6.3", atLeast(75), "wmma with .u4", WMMA),
                FeatureRule.of(WMMA_MMA, ".b1", "6.3", atLeast(75), "wmma with .b1", WMMA),
                // ptxas: "Modifier '.and' on 'wmma.mma' requires PTX ISA .version 7.1".
                FeatureRule.of(WMMA_MMA, ".and", "7.1", atLeast(80), "wmma.mma with .and", WMMA),
                FeatureRule.of(WMMA_LOAD, ".bf16", "7.0", atLeast(80), "wmma with .bf16", WMMA),
                FeatureRule.of(WMMA_MMA, ".bf16", "7.0", atLeast(80), "wmma with .bf16", WMMA),
                FeatureRule.of(WMMA_LOAD, ".tf32", "7.0", atLeast(80), "wmma with .tf32", WMMA),
                FeatureRule.of(WMMA_MMA, ".tf32", "7.0", atLeast(80), "wmma with .tf32", WMMA),
                FeatureRule.of(WMMA_LOAD, ".f64", "7.0", atLeast(80), "wmma with .f64", WMMA),
                FeatureRule.of(WMMA_STORE, ".f64", "7.0", atLeast(80), "wmma with .f64", WMMA),
                FeatureRule.of(WMMA_MMA, ".f64", "7.0", atLeast(80), "wmma with .f64", WMMA),
                FeatureRule.of(WGMMA_FENCE, "", "8.0", SM_90A, "wgmma.fence", WGMMA),
                FeatureRule.of(WGMMA_COMMIT_GROUP, "", "8.0", SM_90A, "wgmma.commit_group", WGMMA),
                FeatureRule.of(WGMMA_WAIT_GROUP, "", "8.0", SM_90A, "wgmma.wait_group", WGMMA),
                FeatureRule.of(WGMMA_MMA_ASYNC, "", "8.0", SM_90A, "wgmma.mma_async", WGMMA),
                // ptxas: "Feature 'WGMMA with mixed integer types' requires PTX ISA .version 8.4".
                FeatureRule.of(WGMMA_MMA_ASYNC, ".u8 .s8", "8.4", SM_90A, "wgmma.mma_async with mixed integer types",
                        WGMMA)));
        return all;
    }
}
