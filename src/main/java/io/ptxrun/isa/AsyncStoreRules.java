package io.ptxrun.isa;

import static io.ptxrun.ast.Opcode.RED_ASYNC;
import static io.ptxrun.ast.Opcode.ST_ASYNC;
import static io.ptxrun.isa.TargetRequirement.atLeast;

import io.ptxrun.ast.Opcode;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * st.async (PTX ISA 9.7.9.12) and red.async (9.7.13.8):
 *
 * <pre>
 * st.async{.weak}{.ss}.completion_mechanism{.vec}.type [a], b, [mbar];
 * st.async{.scope}{.ss}.completion_mechanism{.vec}.type [a], b, [mbar];
 *   .scope = { .cluster }; .ss = { .shared::cluster }; .vec = { .v2, .v4 };
 *   .type = { .b32, .b64, .u32, .u64, .s32, .s64, .f32, .f64 };
 *   .completion_mechanism = { .mbarrier::complete_tx::bytes };
 * st.async{.mmio}.sem.scope{.ss}.type [a], b;        .sem = { .release }; .scope = { .gpu, .sys }; .ss = { .global }
 * red.async.sem.scope{.ss}.completion_mechanism.op.type [a], b, [mbar];
 *   .sem = { .relaxed }; .scope = { .cluster }; .ss = { .shared::cluster };
 *   .inc/.dec .u32; .min/.max .u32, .s32; .and/.or/.xor .b32; .add .u32, .s32, .u64
 * red.async{.mmio}.sem.scope{.ss}.add.type [a], b;   .sem = { .release }; .scope = { .gpu, .sys }; .ss = { .global }
 * </pre>
 *
 * Where ptxas 13.0 is more lenient than the Syntax block, the rows follow ptxas: st.async
 * takes `.shared::cta` ("If .ss is specified, it must be .shared::cluster") and `.cluster` before
 * PTX ISA 8.7, both take `[a], b` without the mbarrier operand, `.mmio` with `.gpu`, red.async
 * `.add.s64`, and the `.release` red.async every operation of the `.shared::cluster` form; `b`
 * may be an immediate. (A run does not model the forms without an mbarrier.) ptxas
 * requires the completion mechanism of the shared forms ("Modifier '.shared::cluster' requires
 * modifier '.completion_mechanism'"), `.relaxed` with `.cluster` for red.async ("order modifier
 * required", "Modifier '.relaxed' requires scope"), and no vector for red.async; `.v4` takes
 * 32-bit types only ("Vector type too large, exceeds 128 bit limit").
 */
public final class AsyncStoreRules implements RuleTable {
    private static final String ST = "9.7.9.12 st.async";
    private static final String RED = "9.7.13.8 red.async";
    private static final String MBAR = ".mbarrier::complete_tx::bytes";

    /** red.async into shared::cluster: operation -> the types ptxas 13.0 accepts. */
    private static final List<Map.Entry<String, String>> RED_TYPES = List.of(
            Map.entry(".add", ".u32|.s32|.u64|.s64"), Map.entry(".inc", ".u32"), Map.entry(".dec", ".u32"),
            Map.entry(".min", ".u32|.s32"), Map.entry(".max", ".u32|.s32"), Map.entry(".and", ".b32"),
            Map.entry(".or", ".b32"), Map.entry(".xor", ".b32"));

    @Override
    public Set<Opcode> opcodes() {
        return EnumSet.of(ST_ASYNC, RED_ASYNC);
    }

    @Override
    public List<Form> forms() {
        List<Form> f = new ArrayList<>();
        String shared = "[.weak|.cluster] [.shared::cluster|.shared::cta] " + MBAR;
        String types = "(.b32|.b64|.u32|.u64|.s32|.s64|.f32|.f64)";
        f.add(Form.of(ST_ASYNC, shared + " " + types, "a:addr, b:t|imm, mbar?:addr", ST));
        f.add(Form.of(ST_ASYNC, shared + " .v2 " + types, "a:addr, b:mval, mbar?:addr", ST));
        f.add(Form.of(ST_ASYNC, shared + " .v4 (.b32|.u32|.s32|.f32)", "a:addr, b:mval, mbar?:addr", ST));
        String stTypes = "(.b8|.b16|.b32|.b64|.u8|.u16|.u32|.u64|.s8|.s16|.s32|.s64|.f32|.f64)";
        f.add(Form.of(ST_ASYNC, "[.mmio] .release (.gpu|.sys) [.global] " + stTypes, "a:addr, b:t|imm", ST));
        for (Map.Entry<String, String> e : RED_TYPES) {
            String op = e.getKey() + " (" + e.getValue() + ")";
            f.add(Form.of(RED_ASYNC, ".relaxed .cluster [.shared::cluster] " + MBAR + " " + op,
                    "a:addr, b:t|imm, mbar?:addr", RED));
            f.add(Form.of(RED_ASYNC, "[.mmio] .release (.gpu|.sys) [.global] " + op, "a:addr, b:t|imm", RED));
        }
        return f;
    }

    @Override
    public List<FeatureRule> features() {
        String notes = ", PTX ISA / Target ISA Notes";
        return List.of(
                FeatureRule.of(ST_ASYNC, "", "8.1", atLeast(90), "st.async", ST + notes),
                FeatureRule.of(ST_ASYNC, ".release", "8.7", atLeast(100), "st.async.release", ST + notes),
                FeatureRule.of(RED_ASYNC, "", "8.1", atLeast(90), "red.async", RED + notes),
                FeatureRule.of(RED_ASYNC, ".release", "8.7", atLeast(100), "red.async.release", RED + notes));
    }
}
