package io.ptxrun.isa;

import static io.ptxrun.ast.Opcode.CP_ASYNC_BULK;
import static io.ptxrun.ast.Opcode.CP_ASYNC_BULK_COMMIT_GROUP;
import static io.ptxrun.ast.Opcode.CP_ASYNC_BULK_PREFETCH;
import static io.ptxrun.ast.Opcode.CP_ASYNC_BULK_WAIT_GROUP;
import static io.ptxrun.ast.Opcode.CP_REDUCE_ASYNC_BULK;
import static io.ptxrun.isa.TargetRequirement.atLeast;

import io.ptxrun.ast.Opcode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.Map;

/**
 * Bulk copies (PTX ISA 9.7.9.25.4), bulk reductions, bulk prefetch, and the bulk async-group
 * instructions (9.7.9.25.6). Each direction of cp.async.bulk has its own completion mechanism
 * and optional qualifiers; the optional operands (ctaMask, cache-policy, byteMask) come with and
 * only with their qualifiers, so each combination is one row. size is a multiple of 16 up to
 * 1048560 (ptxas: "unexpected value '17', expected to be multiple of 16", "value '1048576' out of
 * range, expected to be in range [0..1048560]").
 */
public final class BulkCopyRules implements RuleTable {
    private static final String BULK = "9.7.9.25.4.1 cp.async.bulk";
    private static final String REDUCE = "9.7.9.25.4.2 cp.reduce.async.bulk";
    private static final String PREFETCH = "9.7.9.25.4.3 cp.async.bulk.prefetch";
    private static final String COMMIT = "9.7.9.25.6.1 cp.async.bulk.commit_group";
    private static final String WAIT = "9.7.9.25.6.2 cp.async.bulk.wait_group";

    static final String SIZE = "size:b32|imm=16n&0..1048560";
    private static final String MBAR = ".mbarrier::complete_tx::bytes";
    private static final String POLICY = "cache-policy:b64|imm";

    /**
     * Reductions into `.shared::cluster` (mbarrier completion): redOp -> element types that ptxas
     * 13.0 accepts (a subset of the Syntax block's `.type` list; ptxas: "Incorrect type '.s32' for
     * operation '.and'", "Illegal type for cp.reduce.async.bulk with .shared::cluster destination").
     */
    static final Map<String, String> TO_SHARED_CLUSTER = ordered(
            ".and", ".b32", ".or", ".b32", ".xor", ".b32",
            ".add", ".u32|.s32|.u64", ".inc", ".u32", ".dec", ".u32",
            ".min", ".u32|.s32", ".max", ".u32|.s32");

    /** Reductions into `.global` (bulk_group completion); f16/bf16 add needs `.noftz` (separate row). */
    static final Map<String, String> TO_GLOBAL = ordered(
            ".and", ".b32|.b64", ".or", ".b32|.b64", ".xor", ".b32|.b64",
            ".add", ".u32|.s32|.u64|.f32|.f64", ".inc", ".u32", ".dec", ".u32",
            ".min", ".u32|.s32|.u64|.s64|.f16|.bf16", ".max", ".u32|.s32|.u64|.s64|.f16|.bf16");

    private static Map<String, String> ordered(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    @Override
    public Set<Opcode> opcodes() {
        return EnumSet.of(Opcode.CP_ASYNC_BULK, Opcode.CP_ASYNC_BULK_PREFETCH, Opcode.CP_ASYNC_BULK_COMMIT_GROUP,
                Opcode.CP_ASYNC_BULK_WAIT_GROUP, Opcode.CP_REDUCE_ASYNC_BULK);
    }

    @Override
    public List<Form> forms() {
        List<Form> f = new ArrayList<>();
        String copy = "dstMem:addr, srcMem:addr, " + SIZE;
        // global -> shared::cluster
        String g2c = ".shared::cluster .global " + MBAR;
        f.add(Form.of(CP_ASYNC_BULK, g2c, copy + ", mbar:addr", BULK));
        f.add(Form.of(CP_ASYNC_BULK, g2c + " .multicast::cluster", copy + ", mbar:addr, ctaMask:b16|imm", BULK));
        f.add(Form.of(CP_ASYNC_BULK, g2c + " .L2::cache_hint", copy + ", mbar:addr, " + POLICY, BULK));
        f.add(Form.of(CP_ASYNC_BULK, g2c + " .multicast::cluster .L2::cache_hint",
                copy + ", mbar:addr, ctaMask:b16|imm, " + POLICY, BULK));
        // global -> shared::cta (PTX ISA 8.6)
        String g2s = ".shared::cta .global " + MBAR;
        String sharedCtaDst = "cp.async.bulk with destination state space .shared::cta";
        f.add(Form.of(CP_ASYNC_BULK, g2s, copy + ", mbar:addr", BULK).since("8.6", sharedCtaDst));
        f.add(Form.of(CP_ASYNC_BULK, g2s + " .L2::cache_hint", copy + ", mbar:addr, " + POLICY, BULK)
                .since("8.6", sharedCtaDst));
        // shared::cta -> shared::cluster
        f.add(Form.of(CP_ASYNC_BULK, ".shared::cluster .shared::cta " + MBAR, copy + ", mbar:addr", BULK));
        // shared::cta -> global
        String s2g = ".global .shared::cta .bulk_group";
        f.add(Form.of(CP_ASYNC_BULK, s2g, copy, BULK));
        f.add(Form.of(CP_ASYNC_BULK, s2g + " .L2::cache_hint", copy + ", " + POLICY, BULK));
        f.add(Form.of(CP_ASYNC_BULK, s2g + " .cp_mask", copy + ", byteMask:b16|imm", BULK));
        f.add(Form.of(CP_ASYNC_BULK, s2g + " .L2::cache_hint .cp_mask", copy + ", " + POLICY + ", byteMask:b16|imm", BULK));

        for (Map.Entry<String, String> e : TO_SHARED_CLUSTER.entrySet()) {
            f.add(Form.of(CP_REDUCE_ASYNC_BULK, ".shared::cluster .shared::cta " + MBAR + " " + e.getKey()
                    + " (" + e.getValue() + ")", copy + ", mbar:addr", REDUCE));
        }
        for (Map.Entry<String, String> e : TO_GLOBAL.entrySet()) {
            String q = ".global .shared::cta .bulk_group " + e.getKey() + " (" + e.getValue() + ")";
            f.add(Form.of(CP_REDUCE_ASYNC_BULK, q, copy, REDUCE));
            f.add(Form.of(CP_REDUCE_ASYNC_BULK, q + " .L2::cache_hint", copy + ", " + POLICY, REDUCE));
        }
        String noftz = ".global .shared::cta .bulk_group .add .noftz (.f16|.bf16)";
        f.add(Form.of(CP_REDUCE_ASYNC_BULK, noftz, copy, REDUCE));
        f.add(Form.of(CP_REDUCE_ASYNC_BULK, noftz + " .L2::cache_hint", copy + ", " + POLICY, REDUCE));

        f.add(Form.of(CP_ASYNC_BULK_PREFETCH, ".L2 .global", "srcMem:addr, " + SIZE, PREFETCH));
        f.add(Form.of(CP_ASYNC_BULK_PREFETCH, ".L2 .global .L2::cache_hint", "srcMem:addr, " + SIZE + ", " + POLICY,
                PREFETCH));
        f.add(Form.of(CP_ASYNC_BULK_COMMIT_GROUP, "", "", COMMIT));
        f.add(Form.of(CP_ASYNC_BULK_WAIT_GROUP, "[.read]", "N:imm", WAIT));
        return f;
    }

    @Override
    public List<FeatureRule> features() {
        TargetRequirement sm90 = atLeast(90);
        String notes = ", PTX ISA / Target ISA Notes";
        return List.of(
                FeatureRule.of(CP_ASYNC_BULK, "", "8.0", sm90, "cp.async.bulk", BULK + notes),
                FeatureRule.of(CP_ASYNC_BULK, ".cp_mask", "8.6", atLeast(100), "'.cp_mask' on cp.async.bulk", BULK + notes),
                FeatureRule.of(CP_REDUCE_ASYNC_BULK, "", "8.0", sm90, "cp.reduce.async.bulk", REDUCE + notes),
                FeatureRule.of(CP_ASYNC_BULK_PREFETCH, "", "8.0", sm90, "cp.async.bulk.prefetch", PREFETCH + notes),
                FeatureRule.of(CP_ASYNC_BULK_COMMIT_GROUP, "", "8.0", sm90, "cp.async.bulk.commit_group", COMMIT + notes),
                FeatureRule.of(CP_ASYNC_BULK_WAIT_GROUP, "", "8.0", sm90, "cp.async.bulk.wait_group", WAIT + notes),
                FeatureRule.of(CP_ASYNC_BULK_WAIT_GROUP, ".read", "8.0", sm90, "'.read' on cp.async.bulk.wait_group",
                        WAIT + notes));
    }
}
