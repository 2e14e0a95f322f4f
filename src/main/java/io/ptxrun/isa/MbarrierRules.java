package io.ptxrun.isa;

import static io.ptxrun.ast.Opcode.MBARRIER_ARRIVE;
import static io.ptxrun.ast.Opcode.MBARRIER_ARRIVE_DROP;
import static io.ptxrun.ast.Opcode.MBARRIER_COMPLETE_TX;
import static io.ptxrun.ast.Opcode.MBARRIER_EXPECT_TX;
import static io.ptxrun.ast.Opcode.MBARRIER_INIT;
import static io.ptxrun.ast.Opcode.MBARRIER_INVAL;
import static io.ptxrun.ast.Opcode.MBARRIER_PENDING_COUNT;
import static io.ptxrun.ast.Opcode.MBARRIER_TEST_WAIT;
import static io.ptxrun.ast.Opcode.MBARRIER_TRY_WAIT;
import static io.ptxrun.isa.TargetRequirement.ANY;
import static io.ptxrun.isa.TargetRequirement.atLeast;

import io.ptxrun.ast.Opcode;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * mbarrier.* (PTX ISA 9.7.13.15). `.sem` and `.scope` are written together or not at all
 * (ptxas: "Modifier '.release' requires scope with ...", "Modifier '.cta' requires order with
 * ..."), so each is one group of combinations. The state of an arrive on a `.shared::cluster`
 * mbarrier must be the sink ("Sink '_' is expected as a destination operand ... with
 * '.shared::cluster'"); the `.shared::cta` / generic forms return a 64-bit state or `_`.
 */
public final class MbarrierRules implements RuleTable {
    private static final String INIT = "9.7.13.15.9 mbarrier.init";
    private static final String INVAL = "9.7.13.15.10 mbarrier.inval";
    private static final String EXPECT = "9.7.13.15.11 mbarrier.expect_tx";
    private static final String COMPLETE = "9.7.13.15.12 mbarrier.complete_tx";
    private static final String ARRIVE = "9.7.13.15.13 mbarrier.arrive";
    private static final String DROP = "9.7.13.15.14 mbarrier.arrive_drop";
    private static final String WAIT = "9.7.13.15.16 mbarrier.test_wait/try_wait";
    private static final String PENDING = "9.7.13.15.17 mbarrier.pending_count";

    private static final String CTA_SPACE = "[.shared|.shared::cta]";
    private static final String ANY_SPACE = "[.shared|.shared::cta|.shared::cluster]";
    private static final String RELEASE_SEM_SCOPE = "[.release.cta|.release.cluster|.relaxed.cta|.relaxed.cluster]";
    private static final String ACQUIRE_SEM_SCOPE = "[.acquire.cta|.acquire.cluster|.relaxed.cta|.relaxed.cluster]";
    private static final String COUNT = "b32|imm";
    /** count: "The valid range of values for the operand count is [1, ..., 2^20 - 1]" (9.7.13.15.9). */
    private static final String ARRIVAL_COUNT = "b32|imm=~1..1048575";

    @Override
    public Set<Opcode> opcodes() {
        return EnumSet.of(Opcode.MBARRIER_INIT, Opcode.MBARRIER_INVAL, Opcode.MBARRIER_ARRIVE,
                Opcode.MBARRIER_ARRIVE_DROP, Opcode.MBARRIER_TEST_WAIT, Opcode.MBARRIER_TRY_WAIT,
                Opcode.MBARRIER_EXPECT_TX, Opcode.MBARRIER_COMPLETE_TX, Opcode.MBARRIER_PENDING_COUNT);
    }

    @Override
    public List<Form> forms() {
        List<Form> f = new ArrayList<>(List.of(
                Form.of(MBARRIER_INIT, CTA_SPACE + " .b64", "addr:addr, count:" + ARRIVAL_COUNT, INIT),
                Form.of(MBARRIER_INVAL, CTA_SPACE + " .b64", "addr:addr", INVAL),
                Form.of(MBARRIER_EXPECT_TX, "[.relaxed.cta|.relaxed.cluster] " + ANY_SPACE + " .b64",
                        "addr:addr, txCount:" + COUNT, EXPECT),
                Form.of(MBARRIER_COMPLETE_TX, "[.relaxed.cta|.relaxed.cluster] " + ANY_SPACE + " .b64",
                        "addr:addr, txCount:" + COUNT, COMPLETE),
                Form.of(MBARRIER_PENDING_COUNT, ".b64", "count:b32, state:b64", PENDING)));
        for (Opcode op : List.of(MBARRIER_ARRIVE, MBARRIER_ARRIVE_DROP)) {
            String s = op == MBARRIER_ARRIVE ? ARRIVE : DROP;
            f.add(Form.of(op, RELEASE_SEM_SCOPE + " " + CTA_SPACE + " .b64", "state:b64|_, addr:addr, count?:" + COUNT, s));
            f.add(Form.of(op, RELEASE_SEM_SCOPE + " .shared::cluster .b64", "state:_, addr:addr, count?:" + COUNT, s));
            f.add(Form.of(op, ".expect_tx " + RELEASE_SEM_SCOPE + " " + CTA_SPACE + " .b64",
                    "state:b64|_, addr:addr, txCount:" + COUNT, s));
            f.add(Form.of(op, ".expect_tx " + RELEASE_SEM_SCOPE + " .shared::cluster .b64",
                    "state:_, addr:addr, txCount:" + COUNT, s));
            f.add(Form.of(op, ".noComplete [.release.cta] " + CTA_SPACE + " .b64",
                    "state:b64|_, addr:addr, count:" + COUNT, s));
        }
        f.add(Form.of(MBARRIER_TEST_WAIT, ACQUIRE_SEM_SCOPE + " " + CTA_SPACE + " .b64",
                "waitComplete:pred, addr:addr, state:b64", WAIT));
        f.add(Form.of(MBARRIER_TEST_WAIT, ".parity " + ACQUIRE_SEM_SCOPE + " " + CTA_SPACE + " .b64",
                "waitComplete:pred, addr:addr, phaseParity:b32|imm=0/1", WAIT));
        f.add(Form.of(MBARRIER_TRY_WAIT, ACQUIRE_SEM_SCOPE + " " + CTA_SPACE + " .b64",
                "waitComplete:pred, addr:addr, state:b64, suspendTimeHint?:" + COUNT, WAIT));
        f.add(Form.of(MBARRIER_TRY_WAIT, ".parity " + ACQUIRE_SEM_SCOPE + " " + CTA_SPACE + " .b64",
                "waitComplete:pred, addr:addr, phaseParity:b32|imm=0/1" + ", suspendTimeHint?:" + COUNT, WAIT));
        return f;
    }

    @Override
    public List<FeatureRule> features() {
        List<FeatureRule> r = new ArrayList<>();
        TargetRequirement sm80 = atLeast(80);
        TargetRequirement sm90 = atLeast(90);
        r.add(FeatureRule.of(MBARRIER_INIT, "", "7.0", sm80, "mbarrier.init", INIT + ", PTX ISA / Target ISA Notes"));
        r.add(FeatureRule.of(MBARRIER_INVAL, "", "7.0", sm80, "mbarrier.inval", INVAL + ", PTX ISA / Target ISA Notes"));
        r.add(FeatureRule.of(MBARRIER_EXPECT_TX, "", "8.0", sm90, "mbarrier.expect_tx", EXPECT + ", PTX ISA / Target ISA Notes"));
        r.add(FeatureRule.of(MBARRIER_COMPLETE_TX, "", "8.0", sm90, "mbarrier.complete_tx", COMPLETE + ", PTX ISA / Target ISA Notes"));
        r.add(FeatureRule.of(MBARRIER_PENDING_COUNT, "", "7.0", sm80, "mbarrier.pending_count", PENDING + ", PTX ISA / Target ISA Notes"));
        for (Opcode op : List.of(MBARRIER_ARRIVE, MBARRIER_ARRIVE_DROP)) {
            String s = op == MBARRIER_ARRIVE ? ARRIVE : DROP;
            String name = op.spelling;
            r.add(FeatureRule.of(op, "", "7.0", sm80, name, s + ", PTX ISA / Target ISA Notes"));
            r.add(FeatureRule.of(op, "sink", "7.1", ANY, "the sink '_' as the state of " + name, s + ", PTX ISA Notes"));
            r.add(FeatureRule.of(op, "operands=3 !.noComplete !.expect_tx", "7.8", sm90,
                    name + " with a count operand and without .noComplete", s + ", PTX ISA Notes; Description (sm_8x)"));
            r.add(FeatureRule.of(op, ".expect_tx", "8.0", sm90, name + ".expect_tx", s + ", PTX ISA / Target ISA Notes"));
            r.add(FeatureRule.of(op, ".shared::cluster", "8.0", sm90, "'.shared::cluster' on " + name, s + ", PTX ISA / Target ISA Notes"));
            r.add(FeatureRule.of(op, ".release", "8.0", ANY, "'.release' on " + name, s + ", PTX ISA Notes"));
            r.add(FeatureRule.of(op, ".relaxed", "8.6", sm90, "'.relaxed' on " + name, s + ", PTX ISA / Target ISA Notes"));
            r.add(FeatureRule.of(op, ".cluster", null, sm90, "the .cluster scope", s + ", Target ISA Notes"));
        }
        r.add(FeatureRule.of(MBARRIER_TEST_WAIT, "", "7.0", sm80, "mbarrier.test_wait", WAIT + ", PTX ISA / Target ISA Notes"));
        r.add(FeatureRule.of(MBARRIER_TEST_WAIT, ".parity", "7.1", sm80, "mbarrier.test_wait.parity", WAIT + ", PTX ISA Notes"));
        r.add(FeatureRule.of(MBARRIER_TRY_WAIT, "", "7.8", sm90, "mbarrier.try_wait", WAIT + ", PTX ISA / Target ISA Notes"));
        for (Opcode op : List.of(MBARRIER_TEST_WAIT, MBARRIER_TRY_WAIT)) {
            r.add(FeatureRule.of(op, ".acquire", "8.0", ANY, "'.acquire' on " + op.spelling, WAIT + ", PTX ISA Notes"));
            r.add(FeatureRule.of(op, ".relaxed", "8.6", sm90, "'.relaxed' on " + op.spelling, WAIT + ", PTX ISA / Target ISA Notes"));
            r.add(FeatureRule.of(op, ".cluster", null, sm90, "the .cluster scope", WAIT + ", Target ISA Notes"));
        }
        for (Opcode op : List.of(MBARRIER_INIT, MBARRIER_INVAL, MBARRIER_ARRIVE, MBARRIER_ARRIVE_DROP,
                MBARRIER_TEST_WAIT, MBARRIER_TRY_WAIT, MBARRIER_EXPECT_TX, MBARRIER_COMPLETE_TX)) {
            r.add(FeatureRule.of(op, ".shared::cta", "7.8", ANY, "the sub-qualifier '::cta' on " + op.spelling,
                    "9.7.13.15 mbarrier, PTX ISA Notes (ptxas: \"Feature '::cta' requires PTX ISA .version 7.8\")"));
        }
        return r;
    }
}
