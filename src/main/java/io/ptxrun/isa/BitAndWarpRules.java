package io.ptxrun.isa;

import static io.ptxrun.ast.Opcode.BFE;
import static io.ptxrun.ast.Opcode.BFI;
import static io.ptxrun.ast.Opcode.BFIND;
import static io.ptxrun.ast.Opcode.BMSK;
import static io.ptxrun.ast.Opcode.BRKPT;
import static io.ptxrun.ast.Opcode.FENCE;
import static io.ptxrun.ast.Opcode.FNS;
import static io.ptxrun.ast.Opcode.GRIDDEPCONTROL_LAUNCH_DEPENDENTS;
import static io.ptxrun.ast.Opcode.GRIDDEPCONTROL_WAIT;
import static io.ptxrun.ast.Opcode.ISSPACEP;
import static io.ptxrun.ast.Opcode.LOP3;
import static io.ptxrun.ast.Opcode.MATCH;
import static io.ptxrun.ast.Opcode.MEMBAR;
import static io.ptxrun.ast.Opcode.PRMT;
import static io.ptxrun.ast.Opcode.REDUX;
import static io.ptxrun.ast.Opcode.SETMAXNREG;
import static io.ptxrun.ast.Opcode.SHF;
import static io.ptxrun.ast.Opcode.TESTP;
import static io.ptxrun.ast.Opcode.TRAP;
import static io.ptxrun.isa.TargetRequirement.ANY;
import static io.ptxrun.isa.TargetRequirement.atLeast;

import io.ptxrun.ast.Opcode;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Bit-field and byte manipulation (bfe, bfi, bfind, bmsk, fns, prmt, lop3; PTX ISA 9.7.1, 9.7.7),
 * warp-wide match and redux (9.7.13), address-space tests (isspacep, 9.7.9), memory fences
 * (9.7.13.4 fence), register reconfiguration (setmaxnreg), grid dependency control and the
 * trap/brkpt miscellany. Bit-field positions and lengths, masks and selectors are 32-bit
 * operands whatever the instruction type. Citations name the pages of spec/isa/*.md; version and
 * target rows are the boundaries ptxas reports (testdata/check/core-isa-arith.jsonl.gz).
 */
public final class BitAndWarpRules implements RuleTable {
    private static final String B32_OR_IMM = "b32|imm";

    private static String page(String name) {
        return "9.7 " + name + " (spec/isa/" + name + ".md)";
    }

    @Override
    public Set<Opcode> opcodes() {
        return EnumSet.of(Opcode.BFE, Opcode.BFI, Opcode.BFIND, Opcode.BMSK, Opcode.BRKPT, Opcode.FENCE, Opcode.FNS,
                Opcode.GRIDDEPCONTROL_LAUNCH_DEPENDENTS, Opcode.GRIDDEPCONTROL_WAIT, Opcode.ISSPACEP, Opcode.LOP3,
                Opcode.MATCH, Opcode.MEMBAR, Opcode.PRMT, Opcode.SETMAXNREG, Opcode.SHF, Opcode.TESTP, Opcode.TRAP,
                Opcode.REDUX);
    }

    @Override
    public List<Form> forms() {
        List<Form> f = new ArrayList<>();
        f.add(Form.of(BFE, "(.u32|.u64|.s32|.s64)", "d:t, a:t, b:b32|imm, c:b32|imm", page("bfe")));
        f.add(Form.of(BFI, "(.b32|.b64)", "f:t, a:t, b:t, c:b32|imm, d:b32|imm", page("bfi")));
        f.add(Form.of(BFIND, "[.shiftamt] (.u32|.u64|.s32|.s64)", "d:b32, a:t", page("bfind")));
        f.add(Form.of(BMSK, "(.clamp|.wrap) .b32", "d:t, a:t, b:t", page("bmsk")));
        f.add(Form.of(FNS, ".b32", "d:t, mask:t, base:t, offset:t", page("fns")));
        f.add(Form.of(PRMT, ".b32 [.f4e|.b4e|.rc8|.ecl|.ecr|.rc16]", "d:t, a:t, b:t, c:t", page("prmt")));
        f.add(Form.of(LOP3, ".b32", "d:t, a:t, b:t, c:t, immLut:imm=~0..255", page("lop3")));
        // The predicate form: d|p, and p combined with q by .or/.and.
        f.add(Form.of(LOP3, "(.or|.and) .b32", "d:bpair, a:t, b:t, c:t, immLut:imm=~0..255, q:pred|!pred",
                page("lop3")));
        f.add(Form.of(MATCH, ".any .sync (.b32|.b64)", "d:b32, a:t, membermask:" + B32_OR_IMM, page("match")));
        f.add(Form.of(MATCH, ".all .sync (.b32|.b64)", "d:b32|rpair, a:t, membermask:" + B32_OR_IMM, page("match")));
        f.add(Form.of(REDUX, ".sync (.add|.min|.max) (.u32|.s32)", "dst:t, src:t, membermask:" + B32_OR_IMM,
                page("redux")));
        f.add(Form.of(REDUX, ".sync (.and|.or|.xor) .b32", "dst:t, src:t, membermask:" + B32_OR_IMM, page("redux")));
        f.add(Form.of(REDUX, ".sync (.min|.max) [.abs] [.NaN] .f32", "dst:t, src:t, membermask:" + B32_OR_IMM,
                page("redux")));
        f.add(Form.of(ISSPACEP, "(.const|.global|.local|.shared|.shared::cta|.shared::cluster|.param|.param::entry)",
                "p:pred, a:b32|b64|imm", page("isspacep")));
        String scope = "(.cta|.cluster|.gpu|.sys)";
        f.add(Form.of(FENCE, "[.sc|.acq_rel|.acquire|.release] " + scope, "", page("fence")));
        f.add(Form.of(FENCE, ".mbarrier_init .release .cluster", "", page("fence")));
        // Uni-directional fences restricted to shared memory, plain and as proxy fences.
        for (String proxy : List.of("", ".proxy .async::generic ")) {
            f.add(Form.of(FENCE, proxy + ".acquire .sync_restrict::shared::cluster .cluster", "", page("fence")));
            f.add(Form.of(FENCE, proxy + ".release .sync_restrict::shared::cta .cluster", "", page("fence")));
        }
        f.add(Form.of(FENCE, ".proxy (.alias|.async|.async.global|.async.shared::cta|.async.shared::cluster)", "",
                page("fence")));
        f.add(Form.of(FENCE, ".proxy .tensormap::generic .release " + scope, "", page("fence")));
        f.add(Form.of(FENCE, ".proxy .tensormap::generic .acquire " + scope, "addr:addr, size:imm=128",
                page("fence")));
        // membar: the old-style fence. Its levels are .cta, .gl and .sys, not fence's scopes
        // ("Illegal modifier '.gpu' for instruction 'membar'"); of the proxy kinds ptxas takes
        // only .alias ("Illegal modifier '.async' for instruction 'membar.proxy'").
        f.add(Form.of(MEMBAR, "(.cta|.gl|.sys)", "", page("membar")));
        f.add(Form.of(MEMBAR, ".proxy .alias", "", page("membar")));
        // shf: the direction directly after the opcode ("Unknown modifier '.l'" for shf.wrap.l),
        // a mode, and .b32 only ("Unexpected instruction types specified for 'shf.l'").
        f.add(Form.of(SHF, "^(.l|.r) (.clamp|.wrap) .b32", "d:t, a:t, b:t, c:b32|imm", page("shf")));
        // testp: the property is optional for ptxas (testp.f32 is accepted).
        f.add(Form.of(TESTP, "[.finite|.infinite|.number|.notanumber|.normal|.subnormal] (.f32|.f64)", "p:pred, a:t",
                page("testp")));
        // ptxas also takes .s32 for the count's type.
        f.add(Form.of(SETMAXNREG, "(.inc|.dec) .sync .aligned (.u32|.s32)", "imm-reg-count:imm=24..256&8n",
                page("setmaxnreg")));
        f.add(Form.of(GRIDDEPCONTROL_LAUNCH_DEPENDENTS, "", "", page("griddepcontrol")));
        f.add(Form.of(GRIDDEPCONTROL_WAIT, "", "", page("griddepcontrol")));
        f.add(Form.of(TRAP, "", "", page("trap")));
        f.add(Form.of(BRKPT, "", "", page("brkpt")));
        return f;
    }

    /**
     * setmaxnreg: the `a` targets from sm_90a, and from PTX ISA 8.8 the sm_100f/110f/120f
     * families (ptxas: "Instruction 'setmaxnreg.inc' not supported on .target 'sm_90'").
     */
    private static final TargetRequirement SETMAXNREG_TARGETS = new TargetRequirement.ArchSpecific(
            java.util.Set.of(90, 100, 103, 110, 120, 121), java.util.Set.of(100, 110, 120), PtxVersion.of("8.8"));

    private static final TargetRequirement REDUX_F32_TARGETS = new TargetRequirement.ArchSpecific(
            java.util.Set.of(100, 103), java.util.Set.of(100), PtxVersion.of("8.8"));

    @Override
    public List<FeatureRule> features() {
        return List.of(
                FeatureRule.of(BMSK, "", "7.6", atLeast(70), "bmsk", page("bmsk")),
                FeatureRule.of(FNS, "", "6.0", atLeast(30), "fns", page("fns")),
                FeatureRule.of(LOP3, "", "4.3", atLeast(50), "lop3", page("lop3")),
                FeatureRule.of(MATCH, "", "6.0", atLeast(70), "match", page("match")),
                FeatureRule.of(REDUX, "", "7.0", atLeast(80), "redux", page("redux")),
                // ptxas: "Feature 'redux.f32' requires PTX ISA .version 8.6", "Instruction 'redux.f32' not
                // supported on .target 'sm_100'" (sm_100a/sm_103a, the sm_100f family from 8.8; not sm_110a/sm_120a).
                FeatureRule.of(REDUX, ".f32", "8.6", REDUX_F32_TARGETS, "redux.f32", page("redux")),
                FeatureRule.of(REDUX, ".abs", "8.6", atLeast(86), "redux .abs", page("redux")),
                FeatureRule.of(ISSPACEP, ".shared::cluster", "7.8", atLeast(90), "isspacep.shared::cluster",
                        page("isspacep")),
                FeatureRule.of(ISSPACEP, ".shared::cta", "7.8", ANY, "isspacep.shared::cta", page("isspacep")),
                FeatureRule.of(ISSPACEP, ".param", "7.7", atLeast(70), "isspacep.param", page("isspacep")),
                FeatureRule.of(ISSPACEP, ".param::entry", "8.3", atLeast(70), "isspacep.param::entry", page("isspacep")),
                FeatureRule.of(FENCE, "", "6.0", atLeast(70), "fence", page("fence")),
                FeatureRule.of(FENCE, ".cluster", "7.8", atLeast(90), "fence with .cluster scope", page("fence")),
                FeatureRule.of(LOP3, ".or", "8.2", atLeast(70), "lop3 with a predicate result", page("lop3")),
                FeatureRule.of(LOP3, ".and", "8.2", atLeast(70), "lop3 with a predicate result", page("lop3")),
                FeatureRule.of(FENCE, ".sync_restrict::shared::cluster", "8.6", atLeast(90), ".sync_restrict",
                        page("fence")),
                FeatureRule.of(FENCE, ".sync_restrict::shared::cta", "8.6", atLeast(90), ".sync_restrict",
                        page("fence")),
                FeatureRule.of(FENCE, ".mbarrier_init", "8.0", atLeast(90), "fence.mbarrier_init", page("fence")),
                FeatureRule.of(FENCE, ".alias", "7.5", atLeast(70), "fence.proxy.alias", page("fence")),
                FeatureRule.of(FENCE, ".async", "8.0", atLeast(90), "fence.proxy.async", page("fence")),
                FeatureRule.of(FENCE, ".tensormap::generic", "8.3", atLeast(90), "fence.proxy.tensormap::generic",
                        page("fence")),
                // ptxas takes membar.proxy for sm_60 too.
                FeatureRule.of(MEMBAR, ".proxy", "7.5", atLeast(60), "membar.proxy", page("membar")),
                FeatureRule.of(SHF, "", "3.1", atLeast(32), "shf", page("shf")),
                FeatureRule.of(SETMAXNREG, "", "8.0", SETMAXNREG_TARGETS, "setmaxnreg", page("setmaxnreg")),
                FeatureRule.of(GRIDDEPCONTROL_LAUNCH_DEPENDENTS, "", "7.8", atLeast(90),
                        "griddepcontrol.launch_dependents", page("griddepcontrol")),
                FeatureRule.of(GRIDDEPCONTROL_WAIT, "", "7.8", atLeast(90), "griddepcontrol.wait",
                        page("griddepcontrol")));
    }
}
