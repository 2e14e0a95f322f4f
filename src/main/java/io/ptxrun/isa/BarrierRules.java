package io.ptxrun.isa;

import static io.ptxrun.ast.Opcode.BAR;
import static io.ptxrun.ast.Opcode.BARRIER;
import static io.ptxrun.ast.Opcode.BARRIER_CLUSTER_ARRIVE;
import static io.ptxrun.ast.Opcode.BARRIER_CLUSTER_WAIT;
import static io.ptxrun.ast.Opcode.BAR_WARP_SYNC;

import io.ptxrun.ast.Opcode;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * bar / barrier (PTX ISA 9.7.13.1) and bar.warp.sync (9.7.13.2). The barrier number is 0..15
 * (ptxas: "Barrier number '16' out of range, expected to be in range [0..15]"); a constant thread
 * count must be a multiple of the warp size ("Number of threads participating in barrier must be
 * in multiple of warp size"), and non-zero for arrive ("Instruction 'bar.arrive' requires a
 * non-zero thread count argument"). `.aligned` is spelled only on `barrier` (`bar` is always
 * aligned). Counts and numbers are 32-bit ("Arguments mismatch" for 16- and 64-bit registers).
 */
public final class BarrierRules implements RuleTable {
    private static final String S = "9.7.13.1 bar, barrier";
    private static final String CLUSTER = "9.7.13.3 barrier.cluster";
    private static final String BARRIER_NO = "barrier:b32|imm=0..15";
    private static final String COUNT = "threadCount:b32|imm=32n";
    private static final String ARRIVE_COUNT = "threadCount:b32|imm=32n!0";

    @Override
    public Set<Opcode> opcodes() {
        return EnumSet.of(Opcode.BAR, Opcode.BAR_WARP_SYNC, Opcode.BARRIER, Opcode.BARRIER_CLUSTER_ARRIVE,
                Opcode.BARRIER_CLUSTER_WAIT);
    }

    @Override
    public List<Form> forms() {
        return List.of(
                // ptxas accepts `bar.sync.sync` (a repeated .sync) but no other repetition.
                Form.of(BAR, ".sync ^[.cta] [.sync]", BARRIER_NO + ", threadCount?:b32|imm=32n", S),
                Form.of(BAR, ".arrive ^[.cta]", BARRIER_NO + ", " + ARRIVE_COUNT, S),
                Form.of(BAR, ".red .popc .u32 ^[.cta]", "d:b32, " + BARRIER_NO + ", predicate:pred|!pred", S),
                Form.of(BAR, ".red .popc .u32 ^[.cta]", "d:b32, " + BARRIER_NO + ", " + COUNT + ", predicate:pred|!pred", S),
                Form.of(BAR, ".red (.and|.or) .pred ^[.cta]", "p:pred, " + BARRIER_NO + ", predicate:pred|!pred", S),
                Form.of(BAR, ".red (.and|.or) .pred ^[.cta]", "p:pred, " + BARRIER_NO + ", " + COUNT + ", predicate:pred|!pred", S),
                Form.of(BARRIER, ".sync ^[.cta] [.aligned]", BARRIER_NO + ", threadCount?:b32|imm=32n", S),
                Form.of(BARRIER, ".arrive ^[.cta] [.aligned]", BARRIER_NO + ", " + ARRIVE_COUNT, S),
                Form.of(BARRIER, ".red .popc .u32 ^[.cta] [.aligned]", "d:b32, " + BARRIER_NO + ", predicate:pred|!pred", S),
                Form.of(BARRIER, ".red .popc .u32 ^[.cta] [.aligned]", "d:b32, " + BARRIER_NO + ", " + COUNT + ", predicate:pred|!pred", S),
                Form.of(BARRIER, ".red (.and|.or) .pred ^[.cta] [.aligned]", "p:pred, " + BARRIER_NO + ", predicate:pred|!pred", S),
                Form.of(BARRIER, ".red (.and|.or) .pred ^[.cta] [.aligned]", "p:pred, " + BARRIER_NO + ", " + COUNT + ", predicate:pred|!pred", S),
                Form.of(BAR_WARP_SYNC, "", "membermask:b32|imm", "9.7.13.2 bar.warp.sync"),
                Form.of(BARRIER_CLUSTER_ARRIVE, "[.release|.relaxed] [.aligned]", "", CLUSTER),
                Form.of(BARRIER_CLUSTER_WAIT, "[.acquire] [.aligned]", "", CLUSTER));
    }

    @Override
    public List<FeatureRule> features() {
        return List.of(
                FeatureRule.of(BARRIER, "", "6.0", TargetRequirement.ANY, "barrier", S + ", PTX ISA Notes"),
                FeatureRule.of(BAR, ".cta", "7.8", TargetRequirement.ANY, "bar.cta", S + ", PTX ISA Notes"),
                FeatureRule.of(BARRIER, ".cta", "7.8", TargetRequirement.ANY, "barrier.cta", S + ", PTX ISA Notes"),
                FeatureRule.of(BAR_WARP_SYNC, "", "6.0", TargetRequirement.ANY, "bar.warp.sync",
                        "9.7.13.2 bar.warp.sync, PTX ISA Notes"),
                FeatureRule.of(BARRIER_CLUSTER_ARRIVE, "", "7.8", TargetRequirement.atLeast(90),
                        "barrier.cluster.arrive", CLUSTER + ", PTX ISA / Target ISA Notes"),
                FeatureRule.of(BARRIER_CLUSTER_ARRIVE, ".relaxed", "8.0", TargetRequirement.atLeast(90),
                        "'.relaxed' on barrier.cluster.arrive", CLUSTER + ", PTX ISA Notes"),
                FeatureRule.of(BARRIER_CLUSTER_WAIT, "", "7.8", TargetRequirement.atLeast(90),
                        "barrier.cluster.wait", CLUSTER + ", PTX ISA / Target ISA Notes"),
                // ptxas: "Modifier '.release' on 'barrier.cluster.arrive' requires PTX ISA .version 8.0".
                FeatureRule.of(BARRIER_CLUSTER_ARRIVE, ".release", "8.0", TargetRequirement.atLeast(90),
                        "'.release' on barrier.cluster.arrive", CLUSTER + ", PTX ISA Notes"),
                FeatureRule.of(BARRIER_CLUSTER_WAIT, ".acquire", "8.0", TargetRequirement.atLeast(90),
                        "'.acquire' on barrier.cluster.wait", CLUSTER + ", PTX ISA Notes"));
    }
}
