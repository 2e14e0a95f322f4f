package io.ptxrun.isa;

import static io.ptxrun.ast.Opcode.ACTIVEMASK;
import static io.ptxrun.ast.Opcode.ADD;
import static io.ptxrun.ast.Opcode.ATOM;
import static io.ptxrun.ast.Opcode.LDU;
import static io.ptxrun.ast.Opcode.RED;
import static io.ptxrun.ast.Opcode.AND;
import static io.ptxrun.ast.Opcode.BRA;
import static io.ptxrun.ast.Opcode.BREV;
import static io.ptxrun.ast.Opcode.CLZ;
import static io.ptxrun.ast.Opcode.CNOT;
import static io.ptxrun.ast.Opcode.CVTA;
import static io.ptxrun.ast.Opcode.ELECT;
import static io.ptxrun.ast.Opcode.LD;
import static io.ptxrun.ast.Opcode.MOV;
import static io.ptxrun.ast.Opcode.ST;
import static io.ptxrun.ast.Opcode.SETP;
import static io.ptxrun.ast.Opcode.SHFL;
import static io.ptxrun.ast.Opcode.VOTE;
import static io.ptxrun.ast.Opcode.EXIT;
import static io.ptxrun.ast.Opcode.GETCTARANK;
import static io.ptxrun.ast.Opcode.MAPA;
import static io.ptxrun.ast.Opcode.NANOSLEEP;
import static io.ptxrun.ast.Opcode.NOT;
import static io.ptxrun.ast.Opcode.OR;
import static io.ptxrun.ast.Opcode.POPC;
import static io.ptxrun.ast.Opcode.RET;
import static io.ptxrun.ast.Opcode.SELP;
import static io.ptxrun.ast.Opcode.SHL;
import static io.ptxrun.ast.Opcode.SHR;
import static io.ptxrun.ast.Opcode.SUB;
import static io.ptxrun.ast.Opcode.XOR;
import static io.ptxrun.isa.TargetRequirement.ANY;
import static io.ptxrun.isa.TargetRequirement.atLeast;

import io.ptxrun.ast.Opcode;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The surrounding ISA that compiler output uses most, at the depth the issue asks for: known
 * qualifiers, operand counts, and operand types compatible with the instruction type (PTX ISA
 * 6.4.1, as ptxas applies it: "Arguments mismatch" for an `.f32` register in `add.u32`, an integer
 * constant in `add.f32`). Citations name the pages of the offline spec (spec/isa/*.md), which
 * carry the syntax blocks. Every other instruction outside the families of the other tables is
 * not validated beyond syntax and declarations.
 */
public final class CoreIsaRules implements RuleTable {
    private static final String INT = "(.u16|.u32|.u64|.s16|.s32|.s64)";
    private static final String DAB = "d:t, a:t, b:t";
    private static final String ROUND = "[.rn|.rz|.rm|.rp]";

    private static String page(String name) {
        return "9.7 " + name + " (spec/isa/" + name + ".md)";
    }

    @Override
    public Set<Opcode> opcodes() {
        return EnumSet.of(Opcode.ACTIVEMASK, Opcode.ADD, Opcode.AND, Opcode.ATOM, Opcode.BRA, Opcode.BREV, Opcode.CLZ,
                Opcode.CNOT, Opcode.CVTA, Opcode.ELECT, Opcode.EXIT, Opcode.GETCTARANK, Opcode.LD, Opcode.LDU,
                Opcode.MAPA, Opcode.MOV, Opcode.NANOSLEEP, Opcode.NOT, Opcode.OR, Opcode.POPC, Opcode.RED, Opcode.RET,
                Opcode.SELP, Opcode.SETP, Opcode.SHFL, Opcode.SHL, Opcode.SHR, Opcode.ST, Opcode.SUB, Opcode.XOR,
                Opcode.VOTE);
    }

    @Override
    public List<Form> forms() {
        List<Form> f = new ArrayList<>();
        for (Opcode op : List.of(ADD, SUB)) {
            String s = page(op.spelling);
            f.add(Form.of(op, INT, DAB, s));
            f.add(Form.of(op, ".sat .s32", DAB, s));
            f.add(Form.of(op, ".cc (.u32|.s32|.u64|.s64)", DAB, s));
            if (op == ADD) {
                f.add(Form.of(op, "(.u16x2|.s16x2)", DAB, s));
            }
            f.add(Form.of(op, ROUND + " [.ftz] [.sat] .f32", DAB, s));
            f.add(Form.of(op, ROUND + " [.ftz] .f32x2", DAB, s));
            f.add(Form.of(op, ROUND + " .f64", DAB, s));
            f.add(Form.of(op, "[.rn] [.ftz] [.sat] (.f16|.f16x2)", DAB, s));
            f.add(Form.of(op, "[.rn] (.bf16|.bf16x2)", DAB, s));
        }
        for (Opcode op : List.of(AND, OR, XOR)) {
            f.add(Form.of(op, "(.pred|.b16|.b32|.b64)", DAB, page(op.spelling)));
        }
        f.add(Form.of(NOT, "(.pred|.b16|.b32|.b64)", "d:t, a:t", page("not")));
        f.add(Form.of(CNOT, "(.b16|.b32|.b64)", "d:t, a:t", page("cnot")));
        f.add(Form.of(SHL, "(.b16|.b32|.b64)", "d:t, a:t, b:b32|imm", page("shl")));
        f.add(Form.of(SHR, "(.b16|.b32|.b64|.u16|.u32|.u64|.s16|.s32|.s64)", "d:t, a:t, b:b32|imm", page("shr")));
        f.add(Form.of(SELP, "(.b16|.b32|.b64|.u16|.u32|.u64|.s16|.s32|.s64|.f32|.f64)",
                "d:t, a:t, b:t, c:pred|!pred", page("selp")));
        f.add(Form.of(POPC, "(.b32|.b64)", "d:b32, a:t", page("popc")));
        f.add(Form.of(CLZ, "(.b32|.b64)", "d:b32, a:t", page("clz")));
        f.add(Form.of(BREV, "(.b32|.b64)", "d:t, a:t", page("brev")));
        f.add(Form.of(BRA, "[.uni]", "target:sym", page("bra")));
        f.add(Form.of(RET, "[.uni]", "", page("ret")));
        f.add(Form.of(EXIT, "", "", page("exit")));
        f.add(Form.of(ACTIVEMASK, ".b32", "d:b32", page("activemask")));
        f.add(Form.of(NANOSLEEP, ".u32", "t:b32|imm", page("nanosleep")));
        f.add(Form.of(GETCTARANK, "[.shared::cluster] (.u32|.u64)", "d:b32, a:t|sym", page("getctarank")));
        f.add(Form.of(MAPA, "[.shared::cluster] (.u32|.u64)", "d:t, a:t|sym, b:b32|imm", page("mapa")));
        // setp: integer comparisons on integer types, floating-point ones (with the unordered
        // variants) on floating-point types; bit-size types compare for equality only.
        String signedCmp = "(.eq|.ne|.lt|.le|.gt|.ge)";
        String unsignedCmp = "(.eq|.ne|.lt|.le|.gt|.ge|.lo|.ls|.hi|.hs)";
        String floatCmp = "(.eq|.ne|.lt|.le|.gt|.ge|.equ|.neu|.ltu|.leu|.gtu|.geu|.num|.nan)";
        String dest = "p:pred|_|ppair";
        for (String[] row : new String[][] {
                {"(.eq|.ne) (.b16|.b32|.b64)", ""},
                {unsignedCmp + " (.u16|.u32|.u64)", ""},
                {signedCmp + " (.s16|.s32|.s64)", ""},
                {floatCmp + " [.ftz] .f32", ""},
                {floatCmp + " .f64", ""},
                {floatCmp + " [.ftz] .f16", ""},
                {floatCmp + " .bf16", ""},
                {floatCmp + " [.ftz] .f16x2", ""},
                {floatCmp + " .bf16x2", ""}}) {
            f.add(Form.of(SETP, row[0], dest + ", a:t, b:t", page("setp")));
            f.add(Form.of(SETP, row[0] + " (.and|.or|.xor)", dest + ", a:t, b:t, c:pred|!pred", page("setp")));
        }
        f.add(Form.of(VOTE, ".sync (.all|.any|.uni) .pred", "d:pred, a:pred|!pred, membermask:b32|imm", page("vote")));
        f.add(Form.of(VOTE, ".sync .ballot .b32", "d:t, a:pred|!pred, membermask:b32|imm", page("vote")));
        // vote without .sync: dropped for sm_70 and later from PTX ISA 6.4 (ptxas: "Instruction
        // 'vote' without '.sync' is not supported on .target sm_70 and higher from PTX ISA version 6.4").
        TargetRequirement beforeSync = new TargetRequirement.OlderThan(70, PtxVersion.of("6.4"));
        f.add(Form.of(VOTE, "(.all|.any|.uni) .pred", "d:pred, a:pred|!pred", page("vote")).onlyWhere(beforeSync));
        f.add(Form.of(VOTE, ".ballot .b32", "d:t, a:pred|!pred", page("vote")).onlyWhere(beforeSync));
        f.add(Form.of(SHFL, ".sync (.up|.down|.bfly|.idx) .b32",
                "d:t|rpair, a:t, b:b32|imm, c:b32|imm, membermask:b32|imm", page("shfl")));
        // shfl without .sync: dropped like vote's (ptxas takes `shfl.idx.b32` for sm_60 under 9.0).
        f.add(Form.of(SHFL, "(.up|.down|.bfly|.idx) .b32", "d:t|rpair, a:t, b:b32|imm, c:b32|imm", page("shfl"))
                .onlyWhere(beforeSync));
        f.add(Form.of(ELECT, ".sync", "d:bpair, membermask:b32|imm", page("elect")));
        String spaces = "(.const|.global|.local|.shared|.shared::cta|.shared::cluster|.param|.param::entry)";
        f.add(Form.of(CVTA, spaces + " (.u32|.u64)", "p:t, a:t|sym", page("cvta")));
        f.add(Form.of(CVTA, ".to " + spaces + " (.u32|.u64)", "p:t, a:t", page("cvta")));
        memoryForms(f);
        atomicForms(f);
        String movTypes = "(.pred|.b16|.b32|.b64|.u16|.u32|.u64|.s16|.s32|.s64|.f32|.f64)";
        f.add(Form.of(MOV, movTypes, "d:t, a:t|sym|sreg", page("mov")));
        // Vector registers (PTX ISA 5.4.2): `mov.v2.u32 w, {v.x, v.y}`, `mov.v2.u32 {a, b}, w`.
        f.add(Form.of(MOV, "(.v2|.v4) " + movTypes, "d:t|vec, a:t|vec", page("mov")));
        // pack / unpack: `mov.b64 %rd1, {%r1, %r2}`, `mov.b64 {%r1, %r2}, %rd1`.
        f.add(Form.of(MOV, "(.b16|.b32|.b64|.b128)", "d:t, a:vec", page("mov")));
        f.add(Form.of(MOV, "(.b16|.b32|.b64|.b128)", "d:vec, a:t", page("mov")));
        return f;
    }

    /**
     * ld and st (spec/isa/ld.md, st.md): a weak, volatile, relaxed/acquire (ld) or relaxed/release
     * (st) access with an optional state space, cache operator or eviction priority (one of
     * them), L2 prefetch size (ld), vector width and type; `.L2::cache_hint` comes with its
     * cache-policy operand. `ld.global.nc` is the non-coherent load.
     */
    private static void memoryForms(List<Form> f) {
        String type = "(.b8|.b16|.b32|.b64|.b128|.u8|.u16|.u32|.u64|.s8|.s16|.s32|.s64|.f32|.f64)";
        String vec = "[.v2|.v4|.v8]";
        String evict = ".L1::evict_normal|.L1::evict_unchanged|.L1::evict_first|.L1::evict_last|.L1::no_allocate";
        String prefetch = "[.L2::64B|.L2::128B|.L2::256B]";
        String ldSpace = "[.const|.global|.local|.param|.param::entry|.param::func|.shared|.shared::cta|.shared::cluster]";
        String stSpace = "[.global|.local|.param|.param::func|.shared|.shared::cta|.shared::cluster]";
        // "The qualifiers .volatile, .relaxed and .acquire may be used only with .global and .shared
        // spaces and with generic addressing" (ld.md; st.md likewise for .release).
        String orderedSpace = "[.global|.shared|.shared::cta|.shared::cluster]";
        String scopes = ".cta|.cluster|.gpu|.sys";
        String ldOrder = "(" + sems(".relaxed", scopes) + "|" + sems(".acquire", scopes) + ")";
        String stOrder = "(" + sems(".relaxed", scopes) + "|" + sems(".release", scopes) + ")";
        String ld = page("ld");
        String st = page("st");
        String ldOps = "d:mval, a:addr";
        String stOps = "a:addr, b:mval";
        String hint = " .L2::cache_hint";
        String policy = ", cache-policy:b64|imm";
        for (String q : List.of(
                "[.weak] " + ldSpace + " [.ca|.cg|.cs|.lu|.cv|" + evict + "] " + prefetch + " " + vec + " " + type,
                ldOrder + " " + orderedSpace + " [" + evict + "] " + prefetch + " " + vec + " " + type,
                ".global .nc [.ca|.cg|.cs|" + evict + "] " + prefetch + " " + vec + " " + type)) {
            f.add(Form.of(LD, q, ldOps, ld));
            f.add(Form.of(LD, q + hint, ldOps + policy, ld));
        }
        f.add(Form.of(LD, ".volatile " + orderedSpace + " " + prefetch + " " + vec + " " + type, ldOps, ld));
        // ldu (spec/isa/ldu.md): read-only, warp-uniform loads from .global or generic addresses.
        f.add(Form.of(LDU, "[.global] [.v2|.v4] " + type, ldOps, page("ldu")));
        f.add(Form.of(LD, ".mmio .relaxed.sys [.global] " + type, ldOps, ld));
        for (String q : List.of(
                "[.weak] " + stSpace + " [.wb|.cg|.cs|.wt|" + evict + "] " + vec + " " + type,
                stOrder + " " + orderedSpace + " [" + evict + "] " + vec + " " + type)) {
            f.add(Form.of(ST, q, stOps, st));
            f.add(Form.of(ST, q + hint, stOps + policy, st));
        }
        f.add(Form.of(ST, ".volatile " + orderedSpace + " " + vec + " " + type, stOps, st));
        f.add(Form.of(ST, ".mmio .relaxed.sys [.global] " + type, stOps, st));
    }

    /**
     * Atomic operation -> the scalar types it takes (spec/isa/atom.md Syntax: `.op` and `.type`,
     * with the bitwise operations and exch on bit-size types, inc/dec on .u32, as ptxas checks
     * them: "Operation .exch requires .b32 or .b64 or .b128 type for instruction 'atom'").
     */
    static final java.util.Map<String, String> ATOMIC_TYPES = java.util.Map.of(
            ".and", ".b32|.b64", ".or", ".b32|.b64", ".xor", ".b32|.b64",
            ".exch", ".b32|.b64",
            ".add", ".u32|.s32|.u64|.f32|.f64", ".inc", ".u32", ".dec", ".u32",
            ".min", ".u32|.s32|.u64|.s64", ".max", ".u32|.s32|.u64|.s64");

    /** atom (d, [a], b{, c}) and red ([a], b): scalar forms per operation, cas, half-precision adds, vectors. */
    private static void atomicForms(List<Form> f) {
        String sem = "[.relaxed|.acquire|.release|.acq_rel]";
        String scope = "[.cta|.cluster|.gpu|.sys]";
        String space = "[.global|.shared|.shared::cta|.shared::cluster]";
        String head = sem + " " + scope + " " + space + " ";
        String hint = " .L2::cache_hint";
        for (java.util.Map.Entry<String, String> e : new java.util.TreeMap<>(ATOMIC_TYPES).entrySet()) {
            String q = head + e.getKey() + " (" + e.getValue() + ")";
            f.add(Form.of(ATOM, q, "d:t, a:addr, b:t", page("atom")));
            f.add(Form.of(ATOM, q + hint, "d:t, a:addr, b:t, cache-policy:b64|imm", page("atom")));
            if (!e.getKey().equals(".exch")) {
                f.add(Form.of(RED, q, "a:addr, b:t", page("red")));
                f.add(Form.of(RED, q + hint, "a:addr, b:t, cache-policy:b64|imm", page("red")));
            }
        }
        f.add(Form.of(ATOM, head + ".cas (.b16|.b32|.b64|.b128)", "d:t, a:addr, b:t, c:t", page("atom")));
        f.add(Form.of(ATOM, head + ".exch .b128", "d:t, a:addr, b:t", page("atom")));
        String half = head + ".add .noftz (.f16|.f16x2|.bf16|.bf16x2)";
        f.add(Form.of(ATOM, half, "d:t, a:addr, b:t", page("atom")));
        f.add(Form.of(ATOM, half + hint, "d:t, a:addr, b:t, cache-policy:b64|imm", page("atom")));
        f.add(Form.of(RED, half, "a:addr, b:t", page("red")));
        f.add(Form.of(RED, half + hint, "a:addr, b:t, cache-policy:b64|imm", page("red")));
        String vector = sem + " " + scope + " [.global] (.add|.min|.max) [.noftz] (.v2|.v4|.v8) (.f32|.f16|.bf16|.f16x2|.bf16x2)";
        f.add(Form.of(ATOM, vector + " [.L2::cache_hint]", "d:vec, a:addr, b:vec, cache-policy?:b64|imm", page("atom")));
        f.add(Form.of(RED, vector + " [.L2::cache_hint]", "a:addr, b:vec, cache-policy?:b64|imm", page("red")));
    }

    /** `.relaxed.cta|.relaxed.cluster|...`: a semantics written together with each scope. */
    private static String sems(String sem, String scopes) {
        StringBuilder sb = new StringBuilder();
        for (String scope : scopes.split("\\|")) {
            sb.append(sb.length() == 0 ? "" : "|").append(sem).append(scope);
        }
        return sb.toString();
    }

    @Override
    public List<FeatureRule> features() {
        return List.of(
                FeatureRule.of(GETCTARANK, "", "7.8", atLeast(90), "getctarank", page("getctarank")),
                FeatureRule.of(MAPA, "", "7.8", atLeast(90), "mapa", page("mapa")),
                FeatureRule.of(ACTIVEMASK, "", "6.2", atLeast(30), "activemask", page("activemask")),
                // ptxas: "Feature 'nanosleep' requires PTX ISA .version 6.2 or later" (accepted for sm_70 at 6.2).
                FeatureRule.of(NANOSLEEP, "", "6.2", atLeast(70), "nanosleep", page("nanosleep")),
                FeatureRule.of(ADD, ".bf16", "7.8", atLeast(90), "add.bf16", page("add")),
                FeatureRule.of(ADD, ".bf16x2", "7.8", atLeast(90), "add.bf16x2", page("add")),
                FeatureRule.of(SUB, ".bf16", "7.8", atLeast(90), "sub.bf16", page("sub")),
                FeatureRule.of(SUB, ".bf16x2", "7.8", atLeast(90), "sub.bf16x2", page("sub")),
                FeatureRule.of(ADD, ".u16x2", "8.0", atLeast(90), "add.u16x2", page("add")),
                FeatureRule.of(ADD, ".s16x2", "8.0", atLeast(90), "add.s16x2", page("add")),
                FeatureRule.of(ADD, ".f32x2", "8.6", atLeast(100), "add.f32x2", page("add")),
                FeatureRule.of(SUB, ".f32x2", "8.6", atLeast(100), "sub.f32x2", page("sub")),
                FeatureRule.of(VOTE, ".sync", "6.0", atLeast(30), "vote.sync", page("vote")),
                FeatureRule.of(SHFL, ".sync", "6.0", atLeast(30), "shfl.sync", page("shfl")),
                FeatureRule.of(ELECT, "", "8.0", atLeast(90), "elect.sync", page("elect")),
                FeatureRule.of(SETP, ".bf16", "7.8", atLeast(90), "setp.bf16", page("setp")),
                FeatureRule.of(SETP, ".f16", "4.2", atLeast(53), "setp.f16", page("setp")),
                FeatureRule.of(CVTA, ".shared::cluster", "7.8", atLeast(90), "cvta with .shared::cluster", page("cvta")),
                FeatureRule.of(CVTA, ".shared::cta", "7.8", ANY, "cvta with .shared::cta", page("cvta")),
                FeatureRule.of(LD, ".v8", "8.8", atLeast(100), "256-bit ld (.v8)", page("ld")),
                FeatureRule.of(ST, ".v8", "8.8", atLeast(100), "256-bit st (.v8)", page("st")),
                FeatureRule.of(LD, ".shared::cluster", "7.8", atLeast(90), "ld from .shared::cluster", page("ld")),
                // ptxas: "Feature '::cluster' requires .target sm_90 or higher" (PTX ISA .version 7.8).
                FeatureRule.of(ATOM, ".shared::cluster", "7.8", atLeast(90), "atom on .shared::cluster", page("atom")),
                FeatureRule.of(RED, ".shared::cluster", "7.8", atLeast(90), "red on .shared::cluster", page("red")),
                FeatureRule.of(ST, ".shared::cluster", "7.8", atLeast(90), "st to .shared::cluster", page("st")),
                FeatureRule.of(RET, "", null, ANY, "ret", page("ret")),
                // atom and red (ptxas: "Instruction 'atom.add.f64.global' requires .target sm_60",
                // "Feature 'scopes on atomic operations' requires .target sm_60", "Feature '.relaxed'
                // requires .target sm_70", "Feature 'atom instruction with vector types' requires .target sm_90").
                FeatureRule.of(ATOM, ".add .f64", "5.0", atLeast(60), "atom.add.f64", page("atom")),
                FeatureRule.of(ATOM, ".add .f16", "6.3", atLeast(70), "atom.add.f16", page("atom")),
                FeatureRule.of(ATOM, ".add .f16x2", "6.2", atLeast(60), "atom.add.f16x2", page("atom")),
                FeatureRule.of(ATOM, ".cta", "5.0", atLeast(60), "scopes on atomic operations", page("atom")),
                FeatureRule.of(ATOM, ".gpu", "5.0", atLeast(60), "scopes on atomic operations", page("atom")),
                FeatureRule.of(ATOM, ".sys", "5.0", atLeast(60), "scopes on atomic operations", page("atom")),
                FeatureRule.of(ATOM, ".cluster", "7.8", atLeast(90), "atom with .cluster scope", page("atom")),
                FeatureRule.of(ATOM, ".relaxed", "6.0", atLeast(70), "atom.relaxed", page("atom")),
                FeatureRule.of(ATOM, ".acquire", "6.0", atLeast(70), "atom.acquire", page("atom")),
                FeatureRule.of(ATOM, ".release", "6.0", atLeast(70), "atom.release", page("atom")),
                FeatureRule.of(ATOM, ".acq_rel", "6.0", atLeast(70), "atom.acq_rel", page("atom")),
                FeatureRule.of(ATOM, ".L2::cache_hint", "7.4", atLeast(80), "atom with .L2::cache_hint", page("atom")),
                FeatureRule.of(ATOM, ".v2", "8.1", atLeast(90), "atom with vector types", page("atom")),
                FeatureRule.of(ATOM, ".v4", "8.1", atLeast(90), "atom with vector types", page("atom")),
                FeatureRule.of(ATOM, ".v8", "8.1", atLeast(90), "atom with vector types", page("atom")),
                FeatureRule.of(RED, ".add .f64", "5.0", atLeast(60), "red.add.f64", page("red")),
                FeatureRule.of(RED, ".add .f16", "6.3", atLeast(70), "red.add.f16", page("red")),
                FeatureRule.of(RED, ".add .f16x2", "6.2", atLeast(60), "red.add.f16x2", page("red")),
                FeatureRule.of(RED, ".cta", "5.0", atLeast(60), "scopes on atomic operations", page("red")),
                FeatureRule.of(RED, ".gpu", "5.0", atLeast(60), "scopes on atomic operations", page("red")),
                FeatureRule.of(RED, ".sys", "5.0", atLeast(60), "scopes on atomic operations", page("red")),
                FeatureRule.of(RED, ".cluster", "7.8", atLeast(90), "red with .cluster scope", page("red")),
                FeatureRule.of(RED, ".relaxed", "6.0", atLeast(70), "red.relaxed", page("red")),
                FeatureRule.of(RED, ".acquire", "6.0", atLeast(70), "red.acquire", page("red")),
                FeatureRule.of(RED, ".release", "6.0", atLeast(70), "red.release", page("red")),
                FeatureRule.of(RED, ".acq_rel", "6.0", atLeast(70), "red.acq_rel", page("red")),
                FeatureRule.of(RED, ".L2::cache_hint", "7.4", atLeast(80), "red with .L2::cache_hint", page("red")),
                FeatureRule.of(RED, ".v2", "8.1", atLeast(90), "red with vector types", page("red")),
                FeatureRule.of(RED, ".v4", "8.1", atLeast(90), "red with vector types", page("red")),
                FeatureRule.of(RED, ".v8", "8.1", atLeast(90), "red with vector types", page("red")),
                FeatureRule.of(ATOM, ".cas .b16", "6.3", atLeast(70), "atom.cas.b16", page("atom")),
                FeatureRule.of(ATOM, ".add .bf16", "7.8", atLeast(90), "atom.add.bf16", page("atom")),
                FeatureRule.of(ATOM, ".add .bf16x2", "7.8", atLeast(90), "atom.add.bf16x2", page("atom")),
                FeatureRule.of(RED, ".add .bf16", "7.8", atLeast(90), "red.add.bf16", page("red")),
                FeatureRule.of(RED, ".add .bf16x2", "7.8", atLeast(90), "red.add.bf16x2", page("red")),
                // L2 prefetch sizes on ld ("Feature 'cache prefetching' requires .target sm_75").
                FeatureRule.of(LD, ".L2::64B", "7.4", atLeast(75), "ld with .L2::64B", page("ld")),
                FeatureRule.of(LD, ".L2::128B", "7.4", atLeast(75), "ld with .L2::128B", page("ld")),
                FeatureRule.of(LD, ".L2::256B", "7.4", atLeast(80), "ld with .L2::256B", page("ld")),
                // ptxas: "Feature '::cta' requires PTX ISA .version 7.8 or later".
                FeatureRule.of(LD, ".shared::cta", "7.8", ANY, "ld on .shared::cta", page("ld")),
                FeatureRule.of(ST, ".shared::cta", "7.8", ANY, "st on .shared::cta", page("st")),
                FeatureRule.of(ATOM, ".shared::cta", "7.8", ANY, "atom on .shared::cta", page("atom")),
                FeatureRule.of(RED, ".shared::cta", "7.8", ANY, "red on .shared::cta", page("red")),
                // ptxas: "Feature '.cc with 64bit type' requires PTX ISA .version 4.3 or later".
                FeatureRule.of(ADD, ".cc .u64", "4.3", ANY, "add.cc with a 64-bit type", page("add")),
                FeatureRule.of(ADD, ".cc .s64", "4.3", ANY, "add.cc with a 64-bit type", page("add")),
                FeatureRule.of(SUB, ".cc .u64", "4.3", ANY, "sub.cc with a 64-bit type", page("sub")),
                FeatureRule.of(SUB, ".cc .s64", "4.3", ANY, "sub.cc with a 64-bit type", page("sub")),
                // f16 arithmetic (ptxas: "Feature 'f16 arithemetic and compare instructions' requires
                // .target sm_53 or higher"), min/max on f16 from sm_80 ("Feature 'min.f16 or min.f16x2'").
                FeatureRule.of(ADD, ".f16", "4.2", atLeast(53), "add.f16", page("add")),
                FeatureRule.of(ADD, ".f16x2", "4.2", atLeast(53), "add.f16x2", page("add")),
                FeatureRule.of(SUB, ".f16", "4.2", atLeast(53), "sub.f16", page("sub")),
                FeatureRule.of(SUB, ".f16x2", "4.2", atLeast(53), "sub.f16x2", page("sub")),
                FeatureRule.of(SETP, ".f16x2", "4.2", atLeast(53), "setp.f16x2", page("setp")),
                FeatureRule.of(CVTA, ".param", "7.7", atLeast(70), "cvta with .param", page("cvta")),
                FeatureRule.of(LD, ".L2::cache_hint", "7.4", atLeast(80), "ld with .L2::cache_hint", page("ld")),
                FeatureRule.of(ST, ".L2::cache_hint", "7.4", atLeast(80), "st with .L2::cache_hint", page("st")));
    }
}
