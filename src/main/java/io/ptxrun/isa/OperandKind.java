package io.ptxrun.isa;

/**
 * What one operand position of an instruction form accepts (PTX ISA 6.4 operand kinds; the
 * register widths follow 5.2 and the operand type rules of 6.4.1).
 */
public enum OperandKind {
    /** An 8-, 16-, 32- or 64-bit integer or bit-size register (.bN, .uN, .sN; not floating point). */
    B8("b8", "an 8-bit register"),
    B16("b16", "a 16-bit register"),
    B32("b32", "a 32-bit register"),
    B64("b64", "a 64-bit register"),
    /** A `.pred` register. */
    PRED("pred", "a predicate register"),
    /** `!p`. */
    NEGATED_PRED("!pred", "a negated predicate"),
    /** An integer constant (range or set given by the slot). */
    IMMEDIATE("imm", "an integer constant"),
    /** `[reg]`, `[var]`, `[reg+imm]`. */
    ADDRESS("addr", "an address [..]"),
    /** `_`. */
    SINK("_", "the sink '_'"),
    /** `{a, b}` of 16-bit registers or constants; the slot gives the count. */
    VECTOR16("vec16", "a vector of 16-bit values"),
    /** Any 32-bit register, floating point too (the scale data of mma's block scaling). */
    REG32("r32", "a 32-bit register"),
    /**
     * `{byte-id, thread-id}` of mma's block scaling: two 16-bit registers or constants; the slot
     * gives the byte selectors allowed (its value set) and the thread selectors (its range),
     * `sel=0/2:0..1`. ptxas: "unexpected value '1', expected to be 0 or 2".
     */
    SELECTOR("sel", "a selector pair {byte-id, thread-id}"),
    /** `[tensorMap, {c0, ..}]` with 32-bit coordinates; the slot gives the count. */
    TENSOR("tensor", "a tensor reference [map, {coordinates}]"),
    /**
     * A register or constant of the instruction's type, under the operand type rules of 6.4.1 as
     * ptxas applies them: same size; a bit-size type takes any register of its size, an integer
     * type integer or bit-size registers, a floating-point type floating-point or bit-size ones;
     * an integer type takes integer constants, a floating-point type floating-point constants.
     */
    TYPED("t", "a value of the instruction type"),
    /**
     * A value of twice the width of the instruction type, under the same rules as {@link #TYPED}:
     * the destination of `mul.wide.s32` (a .s64) and the addend of `mad.wide` (spec/isa/mul.md).
     */
    WIDE_TYPED("wt", "a value twice as wide as the instruction type"),
    /**
     * A value of the first of two type qualifiers, under the rules of {@link #TYPED}: the
     * destination of `cvt.dtype.atype`, the destination and sources of `slct.dtype.s32`.
     */
    FIRST_TYPED("t1", "a value of the first type of the instruction"),
    /**
     * cvt's source: a value of the instruction type whose register may be wider than it, as for
     * ld/st (PTX ISA 6.4.1 permits wider source and destination registers on cvt; ptxas accepts
     * `cvt.u64.u32 %rd1, %rd2` and rejects a narrower register with "Arguments mismatch").
     */
    TYPED_OR_WIDER("t+", "a value of the instruction type, or a wider register of its kind"),
    /** cvt's destination: a register of the first type, or a wider one of its kind. */
    FIRST_TYPED_OR_WIDER("t1+", "a register of the first type, or a wider one of its kind"),
    /** A variable, function or label name. */
    SYMBOL("sym", "a name"),
    /** `p|q`: two predicate destinations, either of which may be the sink (setp). */
    PRED_PAIR("ppair", "a predicate pair p|q"),
    /** `d|p`: a 32-bit destination or the sink, and a predicate (elect.sync). */
    VALUE_PRED_PAIR("bpair", "a pair d|p of a 32-bit register or '_' and a predicate"),
    /** `d|p`: a 32-bit register and a predicate; no sink for d (shfl.sync). */
    REGISTER_PRED_PAIR("rpair", "a pair d|p of a 32-bit register and a predicate"),
    /**
     * The value of ld/st: a register of the instruction type that may be wider than it (`ld.u8`
     * into a .u32 register), or with `.v2/.v4/.v8` a vector of as many (ld: `_` allowed); st also
     * takes a constant of the type. ptxas: "Arguments mismatch" for a narrower register,
     * "Argument vector size mismatch" for a wrong count.
     */
    MEMORY_VALUE("mval", "a register of the instruction type (or a vector of them)"),
    /** A special register (`%tid.x`, `%clock64`) whose width matches the instruction type. */
    SPECIAL("sreg", "a special register"),
    /** `{a, b}`: the halves of a packed value (mov pack/unpack). */
    VECTOR("vec", "a vector {a, b, ..}"),
    /**
     * A matrix fragment `{r0, .., rN-1}` of 32-bit integer or bit-size registers (packed .f16x2,
     * .bf16, .tf32, integer and single-bit elements of wmma and wgmma); the slot gives N. ptxas:
     * "Arguments mismatch" for .f32 registers, "Argument vector size mismatch" for a wrong N.
     */
    VECTOR_U32("vecu32", "a vector of 32-bit integer registers"),
    /** A fragment of any 32-bit registers (the sub-byte fragments of wmma loads). */
    VECTOR_B32("vecb32", "a vector of 32-bit registers"),
    /** A fragment of .f32 (or 32-bit bit-size) registers: f32 accumulators. */
    VECTOR_F32("vecf32", "a vector of .f32 registers"),
    /** A fragment of .f64 (or 64-bit bit-size) registers: the f64 fragments of wmma. */
    VECTOR_F64("vecf64", "a vector of .f64 registers"),
    /**
     * mma fragments, whose register types ptxas checks per element type (testdata/check/mma.jsonl.gz):
     * .bf16 and .tf32 elements only in .b32 registers; packed .f16 ones in .b32 or .f16x2; .f32
     * accumulators in .f32 or .b32; .f64 elements in any 64-bit register.
     */
    VECTOR_BITS32("vecbits32", "a vector of .b32 registers"),
    VECTOR_F16X2("vecf16x2", "a vector of .f16x2 or .b32 registers"),
    VECTOR_F32_BITS("vecf32b", "a vector of .f32 or .b32 registers"),
    VECTOR_64("vec64", "a vector of 64-bit registers"),
    /**
     * A floating-point constant in (0, 1] or a 32-bit register: the fraction of
     * createpolicy.fractional (ptxas: "value '1.500000' out of range").
     */
    UNIT_FRACTION("frac", "a floating-point constant in (0, 1] or a 32-bit register");

    public final String spelling;
    public final String description;

    OperandKind(String spelling, String description) {
        this.spelling = spelling;
        this.description = description;
    }

    public static OperandKind ofSpelling(String s) {
        for (OperandKind k : values()) {
            if (k.spelling.equals(s)) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown operand kind " + s);
    }
}
