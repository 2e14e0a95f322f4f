package io.ptxrun.ast;

import java.util.HashMap;
import java.util.Map;

/**
 * Instruction qualifiers, classified once at parse time. A spelling that appears in several roles
 * (`.lo` is a comparison of `setp` and the low half of `mul`; `.and` a boolean operation and an
 * atomic operation) has one constant; which role it plays is decided by the instruction's
 * catalogue entry in io.ptxrun.isa. Spellings not listed here parse as {@link #OTHER} with their
 * text kept, and the validator rejects them where an instruction does not allow them.
 */
public enum Qualifier {
    REG(".reg", Category.SPACE),
    SREG(".sreg", Category.SPACE),
    CONST(".const", Category.SPACE),
    GLOBAL(".global", Category.SPACE),
    LOCAL(".local", Category.SPACE),
    PARAM(".param", Category.SPACE),
    PARAM_ENTRY(".param::entry", Category.SPACE),
    PARAM_FUNC(".param::func", Category.SPACE),
    SHARED(".shared", Category.SPACE),
    SHARED_CTA(".shared::cta", Category.SPACE),
    SHARED_CLUSTER(".shared::cluster", Category.SPACE),
    TEX(".tex", Category.SPACE),
    CTA(".cta", Category.SCOPE),
    CLUSTER(".cluster", Category.SCOPE),
    GPU(".gpu", Category.SCOPE),
    SYS(".sys", Category.SCOPE),
    RELAXED(".relaxed", Category.SEM),
    ACQUIRE(".acquire", Category.SEM),
    RELEASE(".release", Category.SEM),
    ACQ_REL(".acq_rel", Category.SEM),
    SC(".sc", Category.SEM),
    WEAK(".weak", Category.SEM),
    VOLATILE(".volatile", Category.SEM),
    MMIO(".mmio", Category.SEM),
    B8(".b8", Category.TYPE),
    B16(".b16", Category.TYPE),
    B32(".b32", Category.TYPE),
    B64(".b64", Category.TYPE),
    B128(".b128", Category.TYPE),
    U8(".u8", Category.TYPE),
    U16(".u16", Category.TYPE),
    U32(".u32", Category.TYPE),
    U64(".u64", Category.TYPE),
    S8(".s8", Category.TYPE),
    S16(".s16", Category.TYPE),
    S32(".s32", Category.TYPE),
    S64(".s64", Category.TYPE),
    F16(".f16", Category.TYPE),
    F16X2(".f16x2", Category.TYPE),
    BF16(".bf16", Category.TYPE),
    BF16X2(".bf16x2", Category.TYPE),
    F32(".f32", Category.TYPE),
    F64(".f64", Category.TYPE),
    TF32(".tf32", Category.TYPE),
    F32X2(".f32x2", Category.TYPE),
    E4M3(".e4m3", Category.TYPE),
    E5M2(".e5m2", Category.TYPE),
    E4M3X2(".e4m3x2", Category.TYPE),
    E5M2X2(".e5m2x2", Category.TYPE),
    E2M1X2(".e2m1x2", Category.TYPE),
    E2M3X2(".e2m3x2", Category.TYPE),
    E3M2X2(".e3m2x2", Category.TYPE),
    UE8M0X2(".ue8m0x2", Category.TYPE),
    S16X2(".s16x2", Category.TYPE),
    U16X2(".u16x2", Category.TYPE),
    PRED(".pred", Category.TYPE),
    V2(".v2", Category.VECTOR),
    V4(".v4", Category.VECTOR),
    V8(".v8", Category.VECTOR),
    RN(".rn", Category.ROUNDING),
    RZ(".rz", Category.ROUNDING),
    RM(".rm", Category.ROUNDING),
    RP(".rp", Category.ROUNDING),
    RNI(".rni", Category.ROUNDING),
    RZI(".rzi", Category.ROUNDING),
    RMI(".rmi", Category.ROUNDING),
    RPI(".rpi", Category.ROUNDING),
    RNA(".rna", Category.ROUNDING),
    RS(".rs", Category.ROUNDING),
    EQ(".eq", Category.COMPARE),
    NE(".ne", Category.COMPARE),
    LT(".lt", Category.COMPARE),
    LE(".le", Category.COMPARE),
    GT(".gt", Category.COMPARE),
    GE(".ge", Category.COMPARE),
    LO(".lo", Category.COMPARE),
    LS(".ls", Category.COMPARE),
    HI(".hi", Category.COMPARE),
    HS(".hs", Category.COMPARE),
    EQU(".equ", Category.COMPARE),
    NEU(".neu", Category.COMPARE),
    LTU(".ltu", Category.COMPARE),
    LEU(".leu", Category.COMPARE),
    GTU(".gtu", Category.COMPARE),
    GEU(".geu", Category.COMPARE),
    NUM(".num", Category.COMPARE),
    NAN(".nan", Category.COMPARE),
    MBARRIER_COMPLETE_TX_BYTES(".mbarrier::complete_tx::bytes", Category.COMPLETION),
    BULK_GROUP(".bulk_group", Category.COMPLETION),
    CA(".ca", Category.CACHE),
    CG(".cg", Category.CACHE),
    CS(".cs", Category.CACHE),
    LU(".lu", Category.CACHE),
    CV(".cv", Category.CACHE),
    WB(".wb", Category.CACHE),
    WT(".wt", Category.CACHE),
    NC(".nc", Category.CACHE),
    L2_CACHE_HINT(".L2::cache_hint", Category.CACHE),
    L2_64B(".L2::64B", Category.CACHE),
    L2_128B(".L2::128B", Category.CACHE),
    L2_256B(".L2::256B", Category.CACHE),
    L1_EVICT_NORMAL(".L1::evict_normal", Category.CACHE),
    L1_EVICT_UNCHANGED(".L1::evict_unchanged", Category.CACHE),
    L1_EVICT_FIRST(".L1::evict_first", Category.CACHE),
    L1_EVICT_LAST(".L1::evict_last", Category.CACHE),
    L1_NO_ALLOCATE(".L1::no_allocate", Category.CACHE),
    L2_EVICT_NORMAL(".L2::evict_normal", Category.CACHE),
    L2_EVICT_FIRST(".L2::evict_first", Category.CACHE),
    L2_EVICT_LAST(".L2::evict_last", Category.CACHE),
    L2_EVICT_UNCHANGED(".L2::evict_unchanged", Category.CACHE),
    D1D(".1d", Category.DIM),
    D2D(".2d", Category.DIM),
    D3D(".3d", Category.DIM),
    D4D(".4d", Category.DIM),
    D5D(".5d", Category.DIM),
    TILE(".tile", Category.LOAD_MODE),
    IM2COL(".im2col", Category.LOAD_MODE),
    TILE_GATHER4(".tile::gather4", Category.LOAD_MODE),
    TILE_SCATTER4(".tile::scatter4", Category.LOAD_MODE),
    IM2COL_W(".im2col::w", Category.LOAD_MODE),
    IM2COL_W_128(".im2col::w::128", Category.LOAD_MODE),
    IM2COL_NO_OFFS(".im2col_no_offs", Category.LOAD_MODE),
    SYNC(".sync", Category.MODIFIER),
    ARRIVE(".arrive", Category.MODIFIER),
    RED(".red", Category.MODIFIER),
    ALIGNED(".aligned", Category.MODIFIER),
    WAIT(".wait", Category.MODIFIER),
    POPC(".popc", Category.MODIFIER),
    AND(".and", Category.MODIFIER),
    OR(".or", Category.MODIFIER),
    XOR(".xor", Category.MODIFIER),
    NOT(".not", Category.MODIFIER),
    CNOT(".cnot", Category.MODIFIER),
    ADD(".add", Category.MODIFIER),
    MIN(".min", Category.MODIFIER),
    MAX(".max", Category.MODIFIER),
    INC(".inc", Category.MODIFIER),
    DEC(".dec", Category.MODIFIER),
    CAS(".cas", Category.MODIFIER),
    EXCH(".exch", Category.MODIFIER),
    INIT(".init", Category.MODIFIER),
    INVAL(".inval", Category.MODIFIER),
    EXPECT_TX(".expect_tx", Category.MODIFIER),
    COMPLETE_TX(".complete_tx", Category.MODIFIER),
    NO_COMPLETE(".noComplete", Category.MODIFIER),
    PARITY(".parity", Category.MODIFIER),
    NOINC(".noinc", Category.MODIFIER),
    MULTICAST_CLUSTER(".multicast::cluster", Category.MODIFIER),
    CP_MASK(".cp_mask", Category.MODIFIER),
    CTA_GROUP_1(".cta_group::1", Category.MODIFIER),
    CTA_GROUP_2(".cta_group::2", Category.MODIFIER),
    READ(".read", Category.MODIFIER),
    ASYNC(".async", Category.MODIFIER),
    BULK(".bulk", Category.MODIFIER),
    TENSOR(".tensor", Category.MODIFIER),
    PREFETCH(".prefetch", Category.MODIFIER),
    REDUCE(".reduce", Category.MODIFIER),
    COMMIT_GROUP(".commit_group", Category.MODIFIER),
    WAIT_GROUP(".wait_group", Category.MODIFIER),
    WAIT_ALL(".wait_all", Category.MODIFIER),
    FTZ(".ftz", Category.MODIFIER),
    SAT(".sat", Category.MODIFIER),
    APPROX(".approx", Category.MODIFIER),
    FULL(".full", Category.MODIFIER),
    WIDE(".wide", Category.MODIFIER),
    CC(".cc", Category.MODIFIER),
    UNI(".uni", Category.MODIFIER),
    SHIFTAMT(".shiftamt", Category.MODIFIER),
    CLAMP(".clamp", Category.MODIFIER),
    WRAP(".wrap", Category.MODIFIER),
    UP(".up", Category.MODIFIER),
    DOWN(".down", Category.MODIFIER),
    BFLY(".bfly", Category.MODIFIER),
    IDX(".idx", Category.MODIFIER),
    ALL(".all", Category.MODIFIER),
    ANY(".any", Category.MODIFIER),
    BALLOT(".ballot", Category.MODIFIER),
    NOFTZ(".noftz", Category.MODIFIER),
    RELU(".relu", Category.MODIFIER),
    SATFINITE(".satfinite", Category.MODIFIER),
    ABS(".abs", Category.MODIFIER),
    NAN_PROPAGATE(".NaN", Category.MODIFIER),
    XORSIGN(".xorsign", Category.MODIFIER),
    OOB(".oob", Category.MODIFIER),
    TO(".to", Category.MODIFIER),
    PROXY(".proxy", Category.MODIFIER),
    ALIAS(".alias", Category.MODIFIER),
    ASYNC_GENERIC(".async::generic", Category.MODIFIER),
    ASYNC_GLOBAL(".async::global", Category.MODIFIER),
    ASYNC_SHARED_CTA(".async::shared::cta", Category.MODIFIER),
    ASYNC_SHARED_CLUSTER(".async::shared::cluster", Category.MODIFIER),
    TENSORMAP_GENERIC(".tensormap::generic", Category.MODIFIER),
    PROXY_GENERIC(".proxy::generic", Category.MODIFIER),
    MBARRIER_INIT(".mbarrier_init", Category.MODIFIER),
    SYNC_RESTRICT_SHARED_CTA(".sync_restrict::shared::cta", Category.MODIFIER),
    SYNC_RESTRICT_SHARED_CLUSTER(".sync_restrict::shared::cluster", Category.MODIFIER),
    OP_RESTRICT(".op_restrict", Category.MODIFIER),
    TRAP(".trap", Category.MODIFIER),
    UNIFIED(".unified", Category.MODIFIER),
    LEVEL_CACHE_HINT(".level::cache_hint", Category.MODIFIER),
    LEVEL_PREFETCH_SIZE(".level::prefetch_size", Category.MODIFIER),
    LEVEL_EVICTION_PRIORITY(".level::eviction_priority", Category.MODIFIER),
    L2(".L2", Category.MODIFIER),
    X(".x", Category.MODIFIER),
    Y(".y", Category.MODIFIER),
    Z(".z", Category.MODIFIER),
    MODE(".mode", Category.MODIFIER),
    F4E(".f4e", Category.MODIFIER),
    B4E(".b4e", Category.MODIFIER),
    RC8(".rc8", Category.MODIFIER),
    ECL(".ecl", Category.MODIFIER),
    ECR(".ecr", Category.MODIFIER),
    RC16(".rc16", Category.MODIFIER),
    B0(".b0", Category.MODIFIER),
    B1(".b1", Category.MODIFIER),
    B2(".b2", Category.MODIFIER),
    B3(".b3", Category.MODIFIER),
    H0(".h0", Category.MODIFIER),
    H1(".h1", Category.MODIFIER),
    PACK(".pack", Category.MODIFIER),
    RELEASE_MEM(".release_mem", Category.MODIFIER),
    ACQUIRE_MEM(".acquire_mem", Category.MODIFIER),
    OTHER("", Category.OTHER);

    public enum Category {
        SPACE, SCOPE, SEM, TYPE, VECTOR, ROUNDING, COMPARE, COMPLETION, CACHE, DIM, LOAD_MODE, MODIFIER, OTHER
    }

    public final String spelling;
    public final Category category;

    Qualifier(String spelling, Category category) {
        this.spelling = spelling;
        this.category = category;
    }

    /** The state space of a SPACE qualifier. */
    public StateSpace space() {
        return category == Category.SPACE ? StateSpace.ofSpelling(spelling) : null;
    }

    /** The data type of a TYPE qualifier. */
    public DataType dataType() {
        return category == Category.TYPE ? DataType.ofSpelling(spelling) : null;
    }

    /** 2, 4 or 8 for a VECTOR qualifier. */
    public int vectorWidth() {
        return category == Category.VECTOR ? spelling.charAt(2) - '0' : 1;
    }

    /** 1..5 for a DIM qualifier. */
    public int dimensions() {
        return category == Category.DIM ? spelling.charAt(1) - '0' : 0;
    }

    private static final Map<String, Qualifier> BY_SPELLING = new HashMap<>();

    static {
        for (Qualifier q : values()) {
            if (q != OTHER) {
                BY_SPELLING.put(q.spelling, q);
            }
        }
    }

    public static Qualifier of(String spelling) {
        return BY_SPELLING.getOrDefault(spelling, OTHER);
    }
}
