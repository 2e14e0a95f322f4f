package io.ptxrun.isa;

import static io.ptxrun.ast.Opcode.APPLYPRIORITY;
import static io.ptxrun.ast.Opcode.CREATEPOLICY;
import static io.ptxrun.ast.Opcode.DISCARD;
import static io.ptxrun.ast.Opcode.PREFETCH;
import static io.ptxrun.ast.Opcode.PREFETCHU;
import static io.ptxrun.isa.TargetRequirement.atLeast;

import io.ptxrun.ast.Opcode;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Cache control (PTX ISA 9.7.9.15 prefetch/prefetchu, 9.7.9.16 applypriority, 9.7.9.17 discard,
 * 9.7.9.18 createpolicy). Rows follow the Syntax blocks of spec/isa/*.md as ptxas applies them
 * (testdata/check/prefetch.jsonl.gz, createpolicy.jsonl.gz, cache-priority.jsonl.gz): an eviction priority
 * on prefetch only with .global or generic addressing ("State space incorrect for feature 'cache
 * eviction priority'"), .tensormap only with .const, .param or generic addressing, a size operand
 * of exactly 128 ("unexpected value '64', expected to be 128").
 */
public final class CacheControlRules implements RuleTable {
    private static final String PRIMARY = "(.L2::evict_last|.L2::evict_normal|.L2::evict_first|.L2::evict_unchanged)";
    /** ptxas: "Unsupported modifier '.evict_last' as secondary_priority". */
    private static final String SECONDARY = "[.L2::evict_first|.L2::evict_unchanged]";

    private static String page(String name) {
        return "9.7.9 " + name + " (spec/isa/" + name + ".md)";
    }

    @Override
    public Set<Opcode> opcodes() {
        return EnumSet.of(Opcode.APPLYPRIORITY, Opcode.CREATEPOLICY, Opcode.DISCARD, Opcode.PREFETCH,
                Opcode.PREFETCHU);
    }

    @Override
    public List<Form> forms() {
        List<Form> f = new ArrayList<>();
        f.add(Form.of(PREFETCH, "[.global|.local] (.L1|.L2)", "a:addr", page("prefetch")));
        f.add(Form.of(PREFETCH, "[.global] (.L2::evict_last|.L2::evict_normal)", "a:addr", page("prefetch")));
        f.add(Form.of(PREFETCH, "[.const|.param] .tensormap", "a:addr", page("prefetch")));
        f.add(Form.of(PREFETCHU, ".L1", "a:addr", page("prefetchu")));
        f.add(Form.of(CREATEPOLICY, ".fractional " + PRIMARY + " " + SECONDARY + " .b64",
                "cache-policy:b64, fraction?:frac", page("createpolicy")));
        // ptxas: "No state space qualifier expected for instruction 'createpolicy.fractional'".
        f.add(Form.of(CREATEPOLICY, ".range [.global] " + PRIMARY + " " + SECONDARY + " .b64",
                "cache-policy:b64, a:addr, primary-size:b32|imm=0..4294967295, total-size:b32|imm=0..4294967295",
                page("createpolicy")));
        f.add(Form.of(CREATEPOLICY, ".cvt .L2 .b64", "cache-policy:b64, access-property:b64|imm", page("createpolicy")));
        f.add(Form.of(APPLYPRIORITY, "[.global] .L2::evict_normal", "a:addr, size:imm=128", page("applypriority")));
        f.add(Form.of(DISCARD, "[.global] .L2", "a:addr, size:imm=128", page("discard")));
        return f;
    }

    @Override
    public List<FeatureRule> features() {
        return List.of(
                // ptxas: "Modifier 'cache eviction priority' on 'prefetch' requires PTX ISA .version 7.4".
                FeatureRule.of(PREFETCH, ".L2::evict_last", "7.4", atLeast(80), "prefetch with an eviction priority",
                        page("prefetch")),
                FeatureRule.of(PREFETCH, ".L2::evict_normal", "7.4", atLeast(80), "prefetch with an eviction priority",
                        page("prefetch")),
                FeatureRule.of(PREFETCH, ".tensormap", "8.0", atLeast(90), "prefetch.tensormap", page("prefetch")),
                FeatureRule.of(PREFETCH, "", "2.0", atLeast(20), "prefetch", page("prefetch")),
                FeatureRule.of(PREFETCHU, "", "2.0", atLeast(20), "prefetchu", page("prefetchu")),
                FeatureRule.of(CREATEPOLICY, "", "7.4", atLeast(80), "createpolicy", page("createpolicy")),
                FeatureRule.of(APPLYPRIORITY, "", "7.4", atLeast(80), "applypriority", page("applypriority")),
                FeatureRule.of(DISCARD, "", "7.4", atLeast(80), "discard", page("discard")));
    }
}
