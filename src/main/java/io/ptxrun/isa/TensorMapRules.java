package io.ptxrun.isa;

import static io.ptxrun.ast.Opcode.TENSORMAP_CP_FENCEPROXY;
import static io.ptxrun.ast.Opcode.TENSORMAP_REPLACE;
import static io.ptxrun.isa.TargetRequirement.atLeast;

import io.ptxrun.ast.Opcode;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Tensor-map updates in memory (PTX ISA 9.7.9.27 tensormap.replace, 9.7.9.28
 * tensormap.cp_fenceproxy; spec/isa/tensormap.md). The new value of .global_address and
 * .global_stride is .b64, of the other fields .b32 ("Illegal modifier '.rank' for instruction
 * 'tensormap.replace' with type '.b64'"); the per-dimension fields take an ordinal 0..4, the
 * enumerated fields a constant whose range ptxas reports ("expected to be in range [0..3] when
 * .swizzle_mode"). Boundaries from testdata/check/tensormap.jsonl.gz.
 */
public final class TensorMapRules implements RuleTable {
    private static final String PAGE = "9.7.9.27 tensormap.replace (spec/isa/tensormap.md)";
    private static final String CP_PAGE = "9.7.9.28 tensormap.cp_fenceproxy";
    private static final String SPACE = "[.global|.shared::cta]";

    /** sm_90a, the later `a` chips, and from PTX ISA 8.8 the sm_100f/110f/120f families. */
    static final TargetRequirement ARCH_SPECIFIC = new TargetRequirement.ArchSpecific(
            java.util.Set.of(90, 100, 101, 103, 110, 120, 121), java.util.Set.of(100, 110, 120), PtxVersion.of("8.8"));

    /**
     * The Blackwell `a` chips and families only, not sm_90a (ptxas: "Instruction
     * 'tensormap.replace.swizzle_atomicity' not supported on .target 'sm_90a'").
     */
    static final TargetRequirement BLACKWELL_ARCH_SPECIFIC = new TargetRequirement.ArchSpecific(
            java.util.Set.of(100, 101, 103, 110, 120, 121), java.util.Set.of(100, 110, 120), PtxVersion.of("8.8"));

    private static Form replace(String field, String type, String operands) {
        return Form.of(TENSORMAP_REPLACE, ".tile " + field + " " + SPACE + " .b1024 " + type, operands, PAGE);
    }

    @Override
    public Set<Opcode> opcodes() {
        return EnumSet.of(Opcode.TENSORMAP_REPLACE, Opcode.TENSORMAP_CP_FENCEPROXY);
    }

    @Override
    public List<Form> forms() {
        List<Form> f = new ArrayList<>();
        f.add(replace(".global_address", ".b64", "addr:addr, new_val:b64|imm"));
        // .rank takes any 32-bit register, .f32 included (ptxas accepts it).
        f.add(replace(".rank", ".b32", "addr:addr, new_val:t"));
        f.add(replace("(.box_dim|.global_dim|.element_stride)", ".b32", "addr:addr, ord:imm=0..4, new_val:b32|imm"));
        f.add(replace(".global_stride", ".b64", "addr:addr, ord:imm=0..4, new_val:b64|imm"));
        f.add(replace(".elemtype", ".b32", "addr:addr, new_val:imm=0..12"));
        // Element types 13..15 (the sub-byte types of Table 33) came with PTX ISA 8.7.
        f.add(replace(".elemtype", ".b32", "addr:addr, new_val:imm=0..15")
                .since("8.7", "tensormap.replace.elemtype with a value of 13 or more"));
        f.add(replace(".interleave_layout", ".b32", "addr:addr, new_val:imm=0..2"));
        f.add(replace(".swizzle_mode", ".b32", "addr:addr, new_val:imm=0..3"));
        f.add(replace(".swizzle_atomicity", ".b32", "addr:addr, new_val:imm=0..3"));
        f.add(replace(".fill_mode", ".b32", "addr:addr, new_val:imm=0..1"));
        f.add(Form.of(TENSORMAP_CP_FENCEPROXY,
                ".global .shared::cta .tensormap::generic .release (.cta|.cluster|.gpu|.sys) .sync .aligned",
                "dst:addr, src:addr, size:imm=128", CP_PAGE));
        return f;
    }

    @Override
    public List<FeatureRule> features() {
        return List.of(
                FeatureRule.of(TENSORMAP_REPLACE, "", "8.3", ARCH_SPECIFIC, "tensormap.replace", PAGE),
                FeatureRule.of(TENSORMAP_REPLACE, ".swizzle_atomicity", "8.6", BLACKWELL_ARCH_SPECIFIC,
                        "tensormap.replace.swizzle_atomicity", PAGE),
                FeatureRule.of(TENSORMAP_CP_FENCEPROXY, "", "8.3", atLeast(90), "tensormap.cp_fenceproxy", CP_PAGE));
    }
}
