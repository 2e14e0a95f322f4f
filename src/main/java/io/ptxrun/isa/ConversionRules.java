package io.ptxrun.isa;

import static io.ptxrun.ast.Opcode.CVT;
import static io.ptxrun.ast.Opcode.CVT_PACK;
import static io.ptxrun.isa.TargetRequirement.ANY;
import static io.ptxrun.isa.TargetRequirement.atLeast;

import io.ptxrun.ast.Opcode;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * cvt (PTX ISA 9.7.9.21, spec/isa/cvt.md): `cvt{.rnd}{.ftz}{.sat}.dtype.atype d, a`, the
 * destination type written first. The rounding a conversion takes depends on the pair of types,
 * as ptxas enforces it ("Rounding modifier required", "Illegal rounding modifier"):
 * <ul>
 * <li>integer to integer: no rounding;</li>
 * <li>floating point to integer: an integer rounding .rni/.rzi/.rmi/.rpi, required;</li>
 * <li>integer to floating point, and a narrowing floating-point conversion: a floating-point
 * rounding .rn/.rz/.rm/.rp, required;</li>
 * <li>a widening floating-point conversion: none (bf16 sources also take .rn/.rz);</li>
 * <li>a floating-point type to itself: an optional integer rounding (round to integral).</li>
 * </ul>
 * .ftz only where an .f32 is involved ("Modifier '.ftz' does not apply to this type of convert
 * operation"); .sat everywhere except with .bf16. The destination and source registers may be
 * wider than their types (6.4.1). Version and target rows are the boundaries ptxas reports
 * (testdata/check/core-isa-arith.jsonl.gz).
 */
public final class ConversionRules implements RuleTable {
    private static final String INT = "(.u8|.u16|.u32|.u64|.s8|.s16|.s32|.s64)";
    /** bf16 converts to and from the integers of 16 bits and more only (ptxas rejects .s8/.u8). */
    private static final String INT_16_UP = "(.u16|.u32|.u64|.s16|.s32|.s64)";
    private static final String IRND = "(.rni|.rzi|.rmi|.rpi)";
    private static final String FRND = "(.rn|.rz|.rm|.rp)";
    private static final String FRND2 = "(.rn|.rz)";
    private static final String D_A = "d:t1+, a:t+";
    private static final String D_A_B = "d:t1, a:t, b:t";
    private static final String S = "9.7.9.21 cvt (spec/isa/cvt.md)";
    private static final String CVT_PACK_PAGE = "9.7.9.22 cvt.pack";

    /** Qualifiers, then operands, of each form; the type pair last, destination first. */
    private static final String[][] FORMS = {
        // ptxas takes a special register here (`cvt.u32.u16 %r1, %tid.x`), not in float conversions.
        {"[.sat] " + INT + " " + INT, D_A + "|sreg"},
        // floating point -> integer
        {IRND + " [.ftz] [.sat] " + INT + " .f32", D_A},
        {IRND + " [.sat] " + INT + " (.f16|.f64)", D_A},
        {IRND + " " + INT_16_UP + " .bf16", D_A},
        // integer -> floating point
        {FRND + " [.ftz] [.sat] .f32 " + INT, D_A},
        {FRND + " [.sat] (.f16|.f64) " + INT, D_A},
        {FRND + " .bf16 " + INT_16_UP, D_A},
        // floating point to itself: round to integral
        {"[" + IRND.substring(1, IRND.length() - 1) + "] [.ftz] [.sat] .f32 .f32", D_A},
        {"[" + IRND.substring(1, IRND.length() - 1) + "] [.sat] .f16 .f16", D_A},
        {"[" + IRND.substring(1, IRND.length() - 1) + "] [.sat] .f64 .f64", D_A},
        {"[" + IRND.substring(1, IRND.length() - 1) + "] .bf16 .bf16", D_A},
        // widening
        {"[.ftz] [.sat] .f32 .f16", D_A},
        {"[.sat] .f64 .f16", D_A},
        {"[.ftz] [.sat] .f64 .f32", D_A},
        {"[.rn|.rz] .f32 .bf16", D_A},
        {"[.rn|.rz] .f64 .bf16", D_A},
        {"[.rn|.rz] .f16 .bf16", D_A},
        {"[.rn|.rz] .bf16 .f16", D_A},
        // narrowing
        {FRND + " [.ftz] [.sat] .f32 .f64", D_A},
        {FRND + " [.ftz] [.sat] .f16 .f32", D_A},
        {FRND2 + " .relu [.satfinite] .f16 .f32", D_A},
        {FRND2 + " .satfinite .f16 .f32", D_A},
        {FRND + " [.sat] .f16 .f64", D_A},
        {FRND2 + " [.ftz] [.relu] [.satfinite] .bf16 .f32", D_A},
        // .rm and .rp too without .relu or .satfinite (cvt.md lists .frnd2; ptxas takes the four
        // roundings of the general form from PTX ISA 7.0 on sm_80, "Illegal rounding modifier" with .relu)
        {"(.rm|.rp) [.ftz] .bf16 .f32", D_A},
        {FRND + " .bf16 .f64", D_A},
        // two f32 values packed into one register
        {FRND2 + " [.relu] [.satfinite] (.f16x2|.bf16x2) .f32", D_A_B},
        {".rs [.relu] [.satfinite] (.f16x2|.bf16x2) .f32", D_A_B + ", rbits:b32"},
        // tf32 and the 8-, 6- and 4-bit floating-point formats of the tensor cores
        {".rna [.satfinite] .tf32 .f32", "d:b32, a:t"},
        {FRND2 + " [.satfinite] [.relu] .tf32 .f32", "d:b32, a:t"},
        {".rn .satfinite [.relu] (.e4m3x2|.e5m2x2|.e2m3x2|.e3m2x2) .f32", "d:b16, a:t, b:t"},
        // Two e2m1 values fill one byte: d (to .e2m1x2) and a (from it) are .b8 (9.7.9.21).
        {".rn .satfinite [.relu] .e2m1x2 .f32", "d:b8, a:t, b:t"},
        {".rn .satfinite [.relu] (.e4m3x2|.e5m2x2) .f16x2", "d:b16, a:t"},
        {".rn [.relu] .f16x2 (.e4m3x2|.e5m2x2|.e2m3x2|.e3m2x2)", "d:t1, a:b16"},
        {".rn [.relu] .f16x2 .e2m1x2", "d:t1, a:b8"},
        {"(.rz|.rp) [.satfinite] .ue8m0x2 (.f32)", "d:b16, a:t, b:t"},
        {"(.rz|.rp) [.satfinite] .ue8m0x2 .bf16x2", "d:b16, a:t"},
        {".rn .bf16x2 .ue8m0x2", "d:t1, a:b16"},
    };

    @Override
    public Set<Opcode> opcodes() {
        return EnumSet.of(Opcode.CVT, Opcode.CVT_PACK);
    }

    @Override
    public List<Form> forms() {
        List<Form> f = new ArrayList<>();
        for (String[] row : FORMS) {
            f.add(Form.of(CVT, row[0], row[1], S));
        }
        // .ftz on bf16 -> f32 only from sm_90 (ptxas: "Feature 'cvt with .f32.bf16.ftz' requires
        // .target sm_90 or higher"); a form of its own, as a rule on .ftz would also catch f32 -> bf16.
        f.add(Form.of(CVT, "[.rn|.rz] .ftz .f32 .bf16", D_A, S).onlyWhere(atLeast(90)));
        // cvt.pack (9.7.9.22): .sat is required (".sat modifier required for instruction
        // 'cvt.pack'"). ptxas takes 64-bit registers for the 32-bit sources and destination and
        // any 32-bit or wider register for c, so the slots are by size, not by type.
        f.add(Form.of(CVT_PACK, ".sat (.u16|.s16) .s32", "d:b32|b64, a:b32|b64|imm, b:b32|b64|imm", CVT_PACK_PAGE));
        f.add(Form.of(CVT_PACK, ".sat (.u8|.s8|.u4|.s4|.u2|.s2) .s32 .b32",
                "d:b32|b64, a:b32|b64|imm, b:b32|b64|imm, c:t+", CVT_PACK_PAGE));
        return f;
    }

    /**
     * The 6- and 4-bit formats, ue8m0 and stochastic rounding: sm_100a-class targets, and from PTX
     * ISA 8.8 their families (ptxas: "Instruction 'cvt with .ue8m0x2' not supported on .target 'sm_90a'").
     */
    private static final TargetRequirement BLACKWELL_SPECIFIC = new TargetRequirement.ArchSpecific(
            java.util.Set.of(100, 103, 110, 120, 121), java.util.Set.of(100, 110, 120), PtxVersion.of("8.8"));

    /**
     * Stochastic rounding exists on sm_100a and sm_103a only: ptxas 13.0 rejects it for every family
     * target and the other Blackwell chips ("Feature '.rs' not supported on .target 'sm_100f'").
     */
    private static final TargetRequirement STOCHASTIC_ROUNDING = new TargetRequirement.ArchSpecific(
            java.util.Set.of(100, 103), java.util.Set.of(), PtxVersion.LATEST);

    /** The 8-bit formats: sm_90 from PTX ISA 7.8, sm_89 from 8.1. */
    private static final TargetRequirement FP8 = new TargetRequirement.OrEarlierChipFrom(atLeast(90), 89,
            PtxVersion.of("8.1"));

    @Override
    public List<FeatureRule> features() {
        return List.of(
                FeatureRule.of(CVT_PACK, "", "6.5", atLeast(72), "cvt.pack", CVT_PACK_PAGE),
                FeatureRule.of(CVT, ".f16x2 .f32", "7.0", atLeast(80), "cvt.f16x2.f32", S),
                FeatureRule.of(CVT, ".bf16x2 .f32", "7.0", atLeast(80), "cvt.bf16x2.f32", S),
                FeatureRule.of(CVT, ".relu", "7.0", atLeast(80), ".relu", S),
                FeatureRule.of(CVT, ".bf16 .f32", "7.0", atLeast(80), ".bf16", S),
                // bf16 with any partner but f32: "Feature 'cvt with .bf16.s32' requires .target sm_90".
                FeatureRule.of(CVT, ".bf16 !.f32", "7.8", atLeast(90), "cvt with .bf16 and a type other than .f32", S),
                // .satfinite on the 16-bit results: from sm_70 ("Feature '.satfinite' requires .target sm_70").
                FeatureRule.of(CVT, ".satfinite .f16", "8.1", atLeast(70), ".satfinite", S),
                FeatureRule.of(CVT, ".satfinite .f16x2 .f32", "8.1", ANY, ".satfinite", S),
                FeatureRule.of(CVT, ".satfinite .bf16", "8.1", ANY, ".satfinite", S),
                FeatureRule.of(CVT, ".satfinite .bf16x2 .f32", "8.1", ANY, ".satfinite", S),
                FeatureRule.of(CVT, ".tf32 .rna", "7.0", atLeast(80), "cvt.rna.tf32.f32", S),
                FeatureRule.of(CVT, ".satfinite .tf32", "8.1", ANY, ".satfinite on cvt.tf32.f32", S),
                FeatureRule.of(CVT, ".tf32 .rn", "7.8", atLeast(90), "cvt.rn.tf32.f32", S),
                FeatureRule.of(CVT, ".tf32 .rz", "7.8", atLeast(90), "cvt.rz.tf32.f32", S),
                FeatureRule.of(CVT, ".e4m3x2", "7.8", FP8, "cvt with .e4m3x2", S),
                FeatureRule.of(CVT, ".e5m2x2", "7.8", FP8, "cvt with .e5m2x2", S),
                FeatureRule.of(CVT, ".e2m3x2", "8.6", BLACKWELL_SPECIFIC, "cvt with .e2m3x2", S),
                FeatureRule.of(CVT, ".e3m2x2", "8.6", BLACKWELL_SPECIFIC, "cvt with .e3m2x2", S),
                FeatureRule.of(CVT, ".e2m1x2", "8.6", BLACKWELL_SPECIFIC, "cvt with .e2m1x2", S),
                FeatureRule.of(CVT, ".ue8m0x2", "8.6", BLACKWELL_SPECIFIC, "cvt with .ue8m0x2", S),
                FeatureRule.of(CVT, ".rs", "8.7", STOCHASTIC_ROUNDING, "cvt.rs", S));
    }
}
