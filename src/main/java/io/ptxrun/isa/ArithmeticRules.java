package io.ptxrun.isa;

import static io.ptxrun.ast.Opcode.ABS;
import static io.ptxrun.ast.Opcode.ADDC;
import static io.ptxrun.ast.Opcode.COPYSIGN;
import static io.ptxrun.ast.Opcode.COS;
import static io.ptxrun.ast.Opcode.DIV;
import static io.ptxrun.ast.Opcode.DP2A;
import static io.ptxrun.ast.Opcode.DP4A;
import static io.ptxrun.ast.Opcode.EX2;
import static io.ptxrun.ast.Opcode.FMA;
import static io.ptxrun.ast.Opcode.LG2;
import static io.ptxrun.ast.Opcode.MAD;
import static io.ptxrun.ast.Opcode.MAD24;
import static io.ptxrun.ast.Opcode.MADC;
import static io.ptxrun.ast.Opcode.MAX;
import static io.ptxrun.ast.Opcode.MIN;
import static io.ptxrun.ast.Opcode.MUL;
import static io.ptxrun.ast.Opcode.MUL24;
import static io.ptxrun.ast.Opcode.NEG;
import static io.ptxrun.ast.Opcode.RCP;
import static io.ptxrun.ast.Opcode.REM;
import static io.ptxrun.ast.Opcode.RSQRT;
import static io.ptxrun.ast.Opcode.SAD;
import static io.ptxrun.ast.Opcode.SET;
import static io.ptxrun.ast.Opcode.SLCT;
import static io.ptxrun.ast.Opcode.SIN;
import static io.ptxrun.ast.Opcode.SQRT;
import static io.ptxrun.ast.Opcode.SUBC;
import static io.ptxrun.ast.Opcode.TANH;
import static io.ptxrun.isa.TargetRequirement.ANY;
import static io.ptxrun.isa.TargetRequirement.atLeast;

import io.ptxrun.ast.Opcode;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Integer and floating-point arithmetic beyond add/sub (PTX ISA 9.7.1-9.7.4): the integer modes
 * of mul/mad (`.lo`/`.hi` on every integer type, `.wide` on 16- and 32-bit ones, with a
 * destination twice as wide), the rounding rules of floating point (required on f64 and on
 * f32 mad/fma/div/sqrt/rcp, `.approx` on the special functions, `.ftz`/`.sat` on f32 only), and
 * operands typed as 6.4.1 demands; also the comparisons set and slct, whose destination type
 * comes first. Citations name the pages of spec/isa/*.md; version and target
 * rows are the boundaries ptxas reports (testdata/check/core-isa-arith.jsonl.gz).
 */
public final class ArithmeticRules implements RuleTable {
    private static final String INT = "(.u16|.u32|.u64|.s16|.s32|.s64)";
    private static final String INT_16_32 = "(.u16|.u32|.s16|.s32)";
    private static final String RND = "(.rn|.rz|.rm|.rp)";
    private static final String HALF = "(.f16|.f16x2)";
    private static final String BHALF = "(.bf16|.bf16x2)";
    private static final String D_A = "d:t, a:t";
    private static final String D_A_B = "d:t, a:t, b:t";
    private static final String D_A_B_C = "d:t, a:t, b:t, c:t";

    private static String page(String name) {
        return "9.7 " + name + " (spec/isa/" + name + ".md)";
    }

    @Override
    public Set<Opcode> opcodes() {
        return EnumSet.of(Opcode.ABS, Opcode.ADDC, Opcode.COPYSIGN, Opcode.COS, Opcode.DIV, Opcode.DP2A, Opcode.DP4A,
                Opcode.EX2, Opcode.FMA, Opcode.LG2, Opcode.MAD, Opcode.MAD24, Opcode.MADC, Opcode.MAX, Opcode.MIN,
                Opcode.MUL, Opcode.MUL24, Opcode.NEG, Opcode.RCP, Opcode.REM, Opcode.RSQRT, Opcode.SAD, Opcode.SET,
                Opcode.SIN, Opcode.SLCT, Opcode.SQRT, Opcode.SUBC, Opcode.TANH);
    }

    @Override
    public List<Form> forms() {
        List<Form> f = new ArrayList<>();
        // mul / mad: ptxas "Unexpected instruction types specified for 'mul'" without a mode.
        f.add(Form.of(MUL, "(.lo|.hi) " + INT, D_A_B, page("mul")));
        f.add(Form.of(MUL, ".wide " + INT_16_32, "d:wt, a:t, b:t", page("mul")));
        f.add(Form.of(MAD, "(.lo|.hi) " + INT, D_A_B_C, page("mad")));
        f.add(Form.of(MAD, ".hi .sat .s32", D_A_B_C, page("mad")));
        f.add(Form.of(MAD, "(.lo|.hi) .cc (.u32|.s32|.u64|.s64)", D_A_B_C, page("mad")));
        f.add(Form.of(MAD, ".wide " + INT_16_32, "d:wt, a:t, b:t, c:wt", page("mad")));
        // Floating point: mul may omit the rounding (default .rn); mad and fma may not.
        f.add(Form.of(MUL, "[.rn|.rz|.rm|.rp] [.ftz] [.sat] .f32", D_A_B, page("mul")));
        f.add(Form.of(MUL, "[.rn|.rz|.rm|.rp] .f64", D_A_B, page("mul")));
        f.add(Form.of(MUL, "[.rn] [.ftz] [.sat] " + HALF, D_A_B, page("mul")));
        f.add(Form.of(MUL, "[.rn] " + BHALF, D_A_B, page("mul")));
        f.add(Form.of(MUL, "[.rn|.rz|.rm|.rp] [.ftz] .f32x2", D_A_B, page("mul")));
        f.add(Form.of(MAD, RND + " [.ftz] [.sat] .f32", D_A_B_C, page("mad")));
        f.add(Form.of(MAD, RND + " .f64", D_A_B_C, page("mad")));
        // Before sm_20, mad.f32 without a rounding modifier is the truncating multiply-add; ptxas
        // still takes it there, and for sm_20 and sm_30 modules up to PTX ISA 3.1.
        f.add(Form.of(MAD, "[.ftz] [.sat] .f32", D_A_B_C, page("mad"))
                .onlyWhere(new TargetRequirement.OlderThan(20, PtxVersion.of("3.2"))));
        f.add(Form.of(FMA, RND + " [.ftz] [.sat] .f32", D_A_B_C, page("fma")));
        f.add(Form.of(FMA, RND + " .f64", D_A_B_C, page("fma")));
        f.add(Form.of(FMA, RND + " [.ftz] .f32x2", D_A_B_C, page("fma")));
        // .oob: a zero result where an operand is an out-of-bounds tensor element.
        f.add(Form.of(FMA, ".rn .oob [.relu] (.f16|.f16x2|.bf16|.bf16x2)", D_A_B_C, page("fma")));
        f.add(Form.of(FMA, ".rn [.ftz] [.sat] " + HALF, D_A_B_C, page("fma")));
        f.add(Form.of(FMA, ".rn .relu " + HALF, D_A_B_C, page("fma")));
        // bf16 takes every IEEE rounding in ptxas (`fma.rz.bf16`); f16 only .rn.
        f.add(Form.of(FMA, RND + " [.relu] " + BHALF, D_A_B_C, page("fma")));
        // Extended-precision integer arithmetic (9.7.2): carry in, optionally carry out.
        for (Opcode op : List.of(ADDC, SUBC)) {
            // ptxas also takes the 16-bit types and .sat.s32, which the spec does not list.
            f.add(Form.of(op, "[.cc] " + INT, D_A_B, page(op.spelling)));
            f.add(Form.of(op, "[.cc] .sat .s32", D_A_B, page(op.spelling)));
        }
        f.add(Form.of(MADC, "(.lo|.hi) [.cc] " + INT, D_A_B_C, page("madc")));
        // div / rem: integer division; f32 division is .approx, .full or IEEE-rounded, f64 IEEE-rounded.
        f.add(Form.of(DIV, INT, D_A_B, page("div")));
        f.add(Form.of(REM, INT, D_A_B, page("rem")));
        // One group, so that a bare div.f32 is told every choice (ptxas: "Rounding modifier or
        // '.approx' modifier required for instruction 'div'").
        f.add(Form.of(DIV, "(.approx|.full|.rn|.rz|.rm|.rp) [.ftz] .f32", D_A_B, page("div")));
        f.add(Form.of(DIV, RND + " .f64", D_A_B, page("div")));
        // abs / neg: signed integers and floating point; .ftz only on f32 and half precision.
        for (Opcode op : List.of(ABS, NEG)) {
            f.add(Form.of(op, "(.s16|.s32|.s64)", D_A, page(op.spelling)));
            f.add(Form.of(op, "[.ftz] .f32", D_A, page(op.spelling)));
            f.add(Form.of(op, ".f64", D_A, page(op.spelling)));
            f.add(Form.of(op, "[.ftz] " + HALF, D_A, page(op.spelling)));
            f.add(Form.of(op, BHALF, D_A, page(op.spelling)));
        }
        // min / max: integers (with .relu on signed 32-bit), floating point.
        for (Opcode op : List.of(MIN, MAX)) {
            f.add(Form.of(op, INT, D_A_B, page(op.spelling)));
            f.add(Form.of(op, "(.u16x2|.s16x2)", D_A_B, page(op.spelling)));
            f.add(Form.of(op, ".relu (.s32|.s16x2)", D_A_B, page(op.spelling)));
            f.add(Form.of(op, "[.ftz] [.NaN] .f32", D_A_B, page(op.spelling)));
            f.add(Form.of(op, "[.ftz] [.NaN] .xorsign .abs .f32", D_A_B, page(op.spelling)));
            // Three inputs, f32 only (ptxas: "Feature 'min.f32 with 3 input operands' requires .target sm_100").
            f.add(Form.of(op, "[.ftz] [.NaN] .f32", D_A_B_C, page(op.spelling)));
            f.add(Form.of(op, ".f64", D_A_B, page(op.spelling)));
            f.add(Form.of(op, "[.ftz] [.NaN] " + HALF, D_A_B, page(op.spelling)));
            f.add(Form.of(op, "[.NaN] " + BHALF, D_A_B, page(op.spelling)));
        }
        f.add(Form.of(COPYSIGN, "(.f32|.f64)", D_A_B, page("copysign")));
        // sqrt / rcp: approximate or IEEE-rounded f32, IEEE-rounded f64 (rcp.approx.ftz.f64 too).
        for (Opcode op : List.of(SQRT, RCP)) {
            f.add(Form.of(op, "(.approx|.rn|.rz|.rm|.rp) [.ftz] .f32", D_A, page(op.spelling)));
            f.add(Form.of(op, RND + " .f64", D_A, page(op.spelling)));
        }
        f.add(Form.of(RCP, ".approx .ftz .f64", D_A, page("rcp")));
        // ptxas accepts (and ignores) .ftz on the IEEE f64 reciprocal, unlike sqrt.
        f.add(Form.of(RCP, RND + " .ftz .f64", D_A, page("rcp")));
        f.add(Form.of(RSQRT, ".approx [.ftz] .f32", D_A, page("rsqrt")));
        f.add(Form.of(RSQRT, ".approx [.ftz] .f64", D_A, page("rsqrt")));
        // The special functions exist only as approximations: ptxas requires .approx.
        for (Opcode op : List.of(EX2, LG2, SIN, COS)) {
            f.add(Form.of(op, ".approx [.ftz] .f32", D_A, page(op.spelling)));
        }
        f.add(Form.of(EX2, ".approx " + HALF, D_A, page("ex2")));
        f.add(Form.of(EX2, ".approx .ftz " + BHALF, D_A, page("ex2")));
        f.add(Form.of(TANH, ".approx (.f32|.f16|.f16x2|.bf16|.bf16x2)", D_A, page("tanh")));
        // Integer helpers: sad, 24-bit multiplies, dot products (32-bit operands throughout).
        f.add(Form.of(SAD, INT, D_A_B_C, page("sad")));
        f.add(Form.of(MUL24, "(.lo|.hi) (.u32|.s32)", D_A_B, page("mul24")));
        f.add(Form.of(MAD24, "(.lo|.hi) (.u32|.s32)", D_A_B_C, page("mad24")));
        f.add(Form.of(MAD24, ".hi .sat .s32", D_A_B_C, page("mad24")));
        String dot = "d:b32, a:b32|imm, b:b32|imm, c:b32|imm";
        f.add(Form.of(DP4A, "(.u32|.s32) (.u32|.s32)", dot, page("dp4a")));
        f.add(Form.of(DP2A, "(.lo|.hi) (.u32|.s32) (.u32|.s32)", dot, page("dp2a")));
        comparisonForms(f);
        return f;
    }

    /**
     * set and slct (9.7.6.2, 9.7.6.4): the destination type is written first (`set.lt.u32.s32`,
     * `slct.f32.s32`). set compares as setp does (unsigned comparisons on unsigned types, the
     * unordered ones on floating point) and writes 0/-1 or 0.0/1.0; slct selects on the sign
     * of a .s32 or .f32 operand (ptxas: "Instruction 'slct' applies only to signed numeric types").
     */
    private static void comparisonForms(List<Form> f) {
        String signedCmp = "(.eq|.ne|.lt|.le|.gt|.ge)";
        String unsignedCmp = "(.eq|.ne|.lt|.le|.gt|.ge|.lo|.ls|.hi|.hs)";
        String floatCmp = "(.eq|.ne|.lt|.le|.gt|.ge|.equ|.neu|.ltu|.leu|.gtu|.geu|.num|.nan)";
        String dest = "(.u32|.s32|.f32)";
        for (String row : new String[] {
                "(.eq|.ne) " + dest + " (.b16|.b32|.b64)",
                unsignedCmp + " " + dest + " (.u16|.u32|.u64)",
                signedCmp + " " + dest + " (.s16|.s32|.s64)",
                floatCmp + " [.ftz] " + dest + " .f32",
                floatCmp + " " + dest + " .f64",
                // ptxas takes set.lt.f16.f32 but not set.lt.f32.f16 nor set.lt.f32.bf16.
                floatCmp + " [.ftz] .f16 .f32",
                floatCmp + " [.ftz] (.u16|.s16|.u32|.s32|.f16) .f16",
                floatCmp + " [.ftz] (.u32|.s32|.f16x2) .f16x2",
                floatCmp + " (.u16|.s16|.u32|.s32|.bf16) .bf16",
                floatCmp + " (.u32|.s32|.bf16x2) .bf16x2"}) {
            f.add(Form.of(SET, row, "d:t1, a:t, b:t", page("set")));
            f.add(Form.of(SET, row + " (.and|.or|.xor)", "d:t1, a:t, b:t, c:pred|!pred", page("set")));
        }
        String values = "(.b16|.b32|.b64|.u16|.u32|.u64|.s16|.s32|.s64|.f32|.f64)";
        f.add(Form.of(SLCT, values + " .s32", "d:t1, a:t1, b:t1, c:t", page("slct")));
        f.add(Form.of(SLCT, "[.ftz] " + values + " .f32", "d:t1, a:t1, b:t1, c:t", page("slct")));
    }

    @Override
    public List<FeatureRule> features() {
        return List.of(
                FeatureRule.of(MUL, ".bf16", "7.8", atLeast(90), "mul.bf16", page("mul")),
                FeatureRule.of(MUL, ".bf16x2", "7.8", atLeast(90), "mul.bf16x2", page("mul")),
                FeatureRule.of(MUL, ".f32x2", "8.6", atLeast(100), "mul.f32x2", page("mul")),
                FeatureRule.of(FMA, ".f32x2", "8.6", atLeast(100), "fma.f32x2", page("fma")),
                FeatureRule.of(FMA, ".oob", "8.1", atLeast(90), "fma.oob", page("fma")),
                FeatureRule.of(FMA, ".bf16", "7.0", atLeast(80), ".bf16", page("fma")),
                FeatureRule.of(FMA, ".bf16x2", "7.0", atLeast(80), ".bf16x2", page("fma")),
                FeatureRule.of(FMA, ".relu", "7.0", atLeast(80), ".relu", page("fma")),
                FeatureRule.of(MIN, ".f32 operands=4", "8.8", atLeast(100), "min.f32 with 3 input operands", page("min")),
                FeatureRule.of(MAX, ".f32 operands=4", "8.8", atLeast(100), "max.f32 with 3 input operands", page("max")),
                FeatureRule.of(MIN, ".relu", "8.0", atLeast(90), "min.relu", page("min")),
                // ptxas: "Feature '.NaN' requires PTX ISA .version 7.0", "Modifier '.NaN' requires .target sm_80".
                FeatureRule.of(MIN, ".NaN", "7.0", atLeast(80), "min.NaN", page("min")),
                FeatureRule.of(MAX, ".NaN", "7.0", atLeast(80), "max.NaN", page("max")),
                FeatureRule.of(MAX, ".relu", "8.0", atLeast(90), "max.relu", page("max")),
                FeatureRule.of(MIN, ".bf16", "7.0", atLeast(80), "min.bf16", page("min")),
                FeatureRule.of(MAX, ".bf16", "7.0", atLeast(80), "max.bf16", page("max")),
                FeatureRule.of(MIN, ".bf16x2", "7.0", atLeast(80), "min.bf16x2", page("min")),
                FeatureRule.of(MAX, ".bf16x2", "7.0", atLeast(80), "max.bf16x2", page("max")),
                FeatureRule.of(MIN, ".u16x2", "8.0", atLeast(90), "min.u16x2", page("min")),
                FeatureRule.of(MAX, ".u16x2", "8.0", atLeast(90), "max.u16x2", page("max")),
                FeatureRule.of(MIN, ".s16x2", "8.0", atLeast(90), "min.s16x2", page("min")),
                FeatureRule.of(MAX, ".s16x2", "8.0", atLeast(90), "max.s16x2", page("max")),
                FeatureRule.of(MIN, ".xorsign", "7.2", atLeast(86), "min.xorsign", page("min")),
                FeatureRule.of(MAX, ".xorsign", "7.2", atLeast(86), "max.xorsign", page("max")),
                FeatureRule.of(ABS, ".bf16", "7.0", atLeast(80), "abs.bf16", page("abs")),
                FeatureRule.of(ABS, ".bf16x2", "7.0", atLeast(80), "abs.bf16x2", page("abs")),
                FeatureRule.of(NEG, ".bf16", "7.0", atLeast(80), "neg.bf16", page("neg")),
                FeatureRule.of(NEG, ".bf16x2", "7.0", atLeast(80), "neg.bf16x2", page("neg")),
                FeatureRule.of(TANH, "", "7.0", atLeast(75), "tanh", page("tanh")),
                FeatureRule.of(TANH, ".bf16", "7.8", atLeast(90), "tanh.bf16", page("tanh")),
                FeatureRule.of(TANH, ".bf16x2", "7.8", atLeast(90), "tanh.bf16x2", page("tanh")),
                FeatureRule.of(EX2, ".f16", "7.0", atLeast(75), "ex2.f16/f16x2", page("ex2")),
                FeatureRule.of(EX2, ".f16x2", "7.0", atLeast(75), "ex2.f16/f16x2", page("ex2")),
                FeatureRule.of(EX2, ".bf16", "7.8", atLeast(90), "ex2.bf16", page("ex2")),
                FeatureRule.of(EX2, ".bf16x2", "7.8", atLeast(90), "ex2.bf16x2", page("ex2")),
                FeatureRule.of(SET, ".f16", "4.2", atLeast(53), "set.f16", page("set")),
                FeatureRule.of(SET, ".f16x2", "4.2", atLeast(53), "set.f16x2", page("set")),
                // "half precision floating point set instruction with integer result"
                FeatureRule.of(SET, ".f16 .u16", "6.5", ANY, "set.f16 with an integer result", page("set")),
                FeatureRule.of(SET, ".f16 .s16", "6.5", ANY, "set.f16 with an integer result", page("set")),
                FeatureRule.of(SET, ".f16 .u32", "6.5", ANY, "set.f16 with an integer result", page("set")),
                FeatureRule.of(SET, ".f16 .s32", "6.5", ANY, "set.f16 with an integer result", page("set")),
                FeatureRule.of(SET, ".f16x2 .u32", "6.5", ANY, "set.f16x2 with an integer result", page("set")),
                FeatureRule.of(SET, ".f16x2 .s32", "6.5", ANY, "set.f16x2 with an integer result", page("set")),
                FeatureRule.of(SET, ".bf16", "7.8", atLeast(90), "set.bf16", page("set")),
                FeatureRule.of(SET, ".bf16x2", "7.8", atLeast(90), "set.bf16x2", page("set")),
                // ptxas: "Feature '.cc with 64bit type' requires PTX ISA .version 4.3 or later".
                FeatureRule.of(ADDC, ".cc .u64", "4.3", ANY, "addc.cc with a 64-bit type", page("addc")),
                FeatureRule.of(ADDC, ".cc .s64", "4.3", ANY, "addc.cc with a 64-bit type", page("addc")),
                FeatureRule.of(SUBC, ".cc .u64", "4.3", ANY, "subc.cc with a 64-bit type", page("subc")),
                FeatureRule.of(SUBC, ".cc .s64", "4.3", ANY, "subc.cc with a 64-bit type", page("subc")),
                FeatureRule.of(MAD, ".cc .u64", "4.3", ANY, "mad.cc with a 64-bit type", page("mad")),
                FeatureRule.of(MAD, ".cc .s64", "4.3", ANY, "mad.cc with a 64-bit type", page("mad")),
                FeatureRule.of(MADC, ".cc .u64", "4.3", ANY, "madc.cc with a 64-bit type", page("madc")),
                FeatureRule.of(MADC, ".cc .s64", "4.3", ANY, "madc.cc with a 64-bit type", page("madc")),
                // ptxas: "Feature 'f16 arithemetic and compare instructions' requires .target sm_53",
                // "Feature 'neg.f16 or neg.f16x2' requires PTX ISA .version 6.0", abs.f16 6.5,
                // "Feature 'min.f16 or min.f16x2' requires .target sm_80".
                FeatureRule.of(MUL, ".f16", "4.2", atLeast(53), "mul.f16", page("mul")),
                FeatureRule.of(MUL, ".f16x2", "4.2", atLeast(53), "mul.f16x2", page("mul")),
                FeatureRule.of(FMA, ".f16", "4.2", atLeast(53), "fma.f16", page("fma")),
                FeatureRule.of(FMA, ".f16x2", "4.2", atLeast(53), "fma.f16x2", page("fma")),
                FeatureRule.of(NEG, ".f16", "6.0", atLeast(53), "neg.f16", page("neg")),
                FeatureRule.of(NEG, ".f16x2", "6.0", atLeast(53), "neg.f16x2", page("neg")),
                FeatureRule.of(ABS, ".f16", "6.5", atLeast(53), "abs.f16", page("abs")),
                FeatureRule.of(ABS, ".f16x2", "6.5", atLeast(53), "abs.f16x2", page("abs")),
                FeatureRule.of(MIN, ".f16", "7.0", atLeast(80), "min.f16 or min.f16x2", page("min")),
                FeatureRule.of(MIN, ".f16x2", "7.0", atLeast(80), "min.f16 or min.f16x2", page("min")),
                FeatureRule.of(MAX, ".f16", "7.0", atLeast(80), "max.f16 or max.f16x2", page("max")),
                FeatureRule.of(MAX, ".f16x2", "7.0", atLeast(80), "max.f16 or max.f16x2", page("max")),
                FeatureRule.of(DP4A, "", "5.0", atLeast(61), "dp4a", page("dp4a")),
                FeatureRule.of(DP2A, "", "5.0", atLeast(61), "dp2a", page("dp2a")));
    }
}
