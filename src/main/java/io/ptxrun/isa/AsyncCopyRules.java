package io.ptxrun.isa;

import static io.ptxrun.ast.Opcode.CP_ASYNC;
import static io.ptxrun.ast.Opcode.CP_ASYNC_COMMIT_GROUP;
import static io.ptxrun.ast.Opcode.CP_ASYNC_MBARRIER_ARRIVE;
import static io.ptxrun.ast.Opcode.CP_ASYNC_WAIT_ALL;
import static io.ptxrun.ast.Opcode.CP_ASYNC_WAIT_GROUP;
import static io.ptxrun.isa.TargetRequirement.ANY;
import static io.ptxrun.isa.TargetRequirement.atLeast;

import io.ptxrun.ast.Opcode;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.Map;

/**
 * Non-bulk asynchronous copies (PTX ISA 9.7.9.25.3) and cp.async.mbarrier.arrive (9.7.13.15.15).
 * cp-size is 4, 8 or 16 with `.ca` and only 16 with `.cg` (ptxas: "unexpected value '2',
 * expected to be 4 or 8 or 16" / "expected to be 16"); a constant src-size may not exceed
 * cp-size ("value '32' out of range, expected to be in range [0..16]"). The cache policy operand
 * comes with `.L2::cache_hint` and only with it (".L2::cache_hint modifier required for
 * instruction 'cp.async' with 4 arguments"). The forms are expanded per cache operator and
 * cp-size so that each row states its own constants.
 */
public final class AsyncCopyRules implements RuleTable {
    private static final String CP_ASYNC_S = "9.7.9.25.3.1 cp.async";
    private static final String ARRIVE_S = "9.7.13.15.15 cp.async.mbarrier.arrive";
    private static final String COMMIT_S = "9.7.9.25.3.2 cp.async.commit_group";
    private static final String WAIT_S = "9.7.9.25.3.3 cp.async.wait_group/wait_all";

    /** Cache operator -> the cp-sizes it allows (Syntax: `.cg ... 16`, `cp-size = { 4, 8, 16 }`). */
    private static final Map<String, List<Integer>> CP_SIZES = Map.of(".ca", List.of(4, 8, 16), ".cg", List.of(16));

    @Override
    public Set<Opcode> opcodes() {
        return EnumSet.of(Opcode.CP_ASYNC, Opcode.CP_ASYNC_COMMIT_GROUP, Opcode.CP_ASYNC_WAIT_GROUP,
                Opcode.CP_ASYNC_WAIT_ALL, Opcode.CP_ASYNC_MBARRIER_ARRIVE);
    }

    @Override
    public List<Form> forms() {
        List<Form> f = new ArrayList<>();
        for (String cacheOp : List.of(".ca", ".cg")) {
            for (int size : CP_SIZES.get(cacheOp)) {
                String quals = cacheOp + " (.shared|.shared::cta) .global [.L2::64B|.L2::128B|.L2::256B]";
                String base = "dst:addr, src:addr, cp-size:imm=" + size;
                String srcSize = "src-size:b32|imm=0.." + size;
                f.add(Form.of(CP_ASYNC, quals, base + ", " + srcSize.replace("src-size", "src-size?"), CP_ASYNC_S));
                f.add(Form.of(CP_ASYNC, quals, base + ", ignore-src:pred|!pred", CP_ASYNC_S)
                        .since("7.5", "the ignore-src operand of cp.async"));
                f.add(Form.of(CP_ASYNC, quals + " .L2::cache_hint", base + ", cache-policy:b64|imm", CP_ASYNC_S));
                f.add(Form.of(CP_ASYNC, quals + " .L2::cache_hint", base + ", " + srcSize + ", cache-policy:b64|imm",
                        CP_ASYNC_S));
                f.add(Form.of(CP_ASYNC, quals + " .L2::cache_hint", base + ", ignore-src:pred|!pred, cache-policy:b64|imm",
                        CP_ASYNC_S).since("7.5", "the ignore-src operand of cp.async"));
            }
        }
        f.add(Form.of(CP_ASYNC_COMMIT_GROUP, "", "", COMMIT_S));
        f.add(Form.of(CP_ASYNC_WAIT_GROUP, "", "N:imm", WAIT_S));
        f.add(Form.of(CP_ASYNC_WAIT_ALL, "", "", WAIT_S));
        f.add(Form.of(CP_ASYNC_MBARRIER_ARRIVE, "[.noinc] [.shared|.shared::cta] .b64", "addr:addr", ARRIVE_S));
        return f;
    }

    @Override
    public List<FeatureRule> features() {
        TargetRequirement sm80 = atLeast(80);
        String notes = ", PTX ISA / Target ISA Notes";
        return List.of(
                FeatureRule.of(CP_ASYNC, "", "7.0", sm80, "cp.async", CP_ASYNC_S + notes),
                FeatureRule.of(CP_ASYNC, ".L2::cache_hint", "7.4", ANY, "'.L2::cache_hint' on cp.async",
                        CP_ASYNC_S + ", PTX ISA Notes"),
                FeatureRule.of(CP_ASYNC, ".L2::64B", "7.4", ANY, "the prefetch size '.L2::64B'", CP_ASYNC_S + ", PTX ISA Notes"),
                FeatureRule.of(CP_ASYNC, ".L2::128B", "7.4", ANY, "the prefetch size '.L2::128B'", CP_ASYNC_S + ", PTX ISA Notes"),
                FeatureRule.of(CP_ASYNC, ".L2::256B", "7.4", ANY, "the prefetch size '.L2::256B'", CP_ASYNC_S + ", PTX ISA Notes"),
                FeatureRule.of(CP_ASYNC_COMMIT_GROUP, "", "7.0", sm80, "cp.async.commit_group", COMMIT_S + notes),
                FeatureRule.of(CP_ASYNC_WAIT_GROUP, "", "7.0", sm80, "cp.async.wait_group", WAIT_S + notes),
                FeatureRule.of(CP_ASYNC_WAIT_ALL, "", "7.0", sm80, "cp.async.wait_all", WAIT_S + notes),
                FeatureRule.of(CP_ASYNC_MBARRIER_ARRIVE, "", "7.0", sm80, "cp.async.mbarrier.arrive", ARRIVE_S + notes),
                FeatureRule.of(CP_ASYNC_MBARRIER_ARRIVE, ".shared::cta", "7.8", ANY,
                        "the sub-qualifier '::cta' on cp.async.mbarrier.arrive", ARRIVE_S + ", PTX ISA Notes"));
    }
}
