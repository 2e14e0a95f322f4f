package io.ptxrun.ast;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Instruction opcodes of the PTX ISA (chapter 9). Many instructions are named by a dotted
 * sequence (`mbarrier.arrive`, `cp.async.bulk.tensor`); the parser picks the longest known
 * sequence and the remaining words become qualifiers, so `cp.async.bulk.tensor.2d...` has the
 * opcode CP_ASYNC_BULK_TENSOR and `bar.cta.sync` has the opcode BAR with `.cta .sync`.
 */
public enum Opcode {
    ABS("abs"),
    ACTIVEMASK("activemask"),
    ADD("add"),
    ADDC("addc"),
    ALLOCA("alloca"),
    AND("and"),
    APPLYPRIORITY("applypriority"),
    ATOM("atom"),
    BAR("bar"),
    BAR_WARP_SYNC("bar.warp.sync"),
    BARRIER("barrier"),
    BARRIER_CLUSTER_ARRIVE("barrier.cluster.arrive"),
    BARRIER_CLUSTER_WAIT("barrier.cluster.wait"),
    BFE("bfe"),
    BFI("bfi"),
    BFIND("bfind"),
    BMSK("bmsk"),
    BRA("bra"),
    BREV("brev"),
    BRKPT("brkpt"),
    BRX("brx"),
    CALL("call"),
    CLZ("clz"),
    CNOT("cnot"),
    COPYSIGN("copysign"),
    COS("cos"),
    CREATEPOLICY("createpolicy"),
    CVT("cvt"),
    CVT_PACK("cvt.pack"),
    CVTA("cvta"),
    DISCARD("discard"),
    DIV("div"),
    DP2A("dp2a"),
    DP4A("dp4a"),
    ELECT("elect"),
    EX2("ex2"),
    EXIT("exit"),
    FENCE("fence"),
    FMA("fma"),
    FNS("fns"),
    GETCTARANK("getctarank"),
    GRIDDEPCONTROL_LAUNCH_DEPENDENTS("griddepcontrol.launch_dependents"),
    GRIDDEPCONTROL_WAIT("griddepcontrol.wait"),
    ISSPACEP("isspacep"),
    ISTYPEP("istypep"),
    LD("ld"),
    LD_ASYNC("ld.async"),
    LDMATRIX("ldmatrix"),
    LDU("ldu"),
    LG2("lg2"),
    LOP3("lop3"),
    MAD("mad"),
    MAD24("mad24"),
    MADC("madc"),
    MAPA("mapa"),
    MATCH("match"),
    MAX("max"),
    MEMBAR("membar"),
    MIN("min"),
    MMA("mma"),
    MMA_SP("mma.sp"),
    MOV("mov"),
    MOVMATRIX("movmatrix"),
    MUL("mul"),
    MUL24("mul24"),
    NANOSLEEP("nanosleep"),
    NEG("neg"),
    NOT("not"),
    OR("or"),
    PMEVENT("pmevent"),
    POPC("popc"),
    PREFETCH("prefetch"),
    PREFETCHU("prefetchu"),
    PRMT("prmt"),
    RCP("rcp"),
    RED("red"),
    RED_ASYNC("red.async"),
    REM("rem"),
    RET("ret"),
    RSQRT("rsqrt"),
    SAD("sad"),
    SELP("selp"),
    SET("set"),
    SETMAXNREG("setmaxnreg"),
    SETP("setp"),
    SHF("shf"),
    SHFL("shfl"),
    SHL("shl"),
    SHR("shr"),
    SIN("sin"),
    SLCT("slct"),
    SQRT("sqrt"),
    ST("st"),
    ST_ASYNC("st.async"),
    ST_BULK("st.bulk"),
    STACKRESTORE("stackrestore"),
    STACKSAVE("stacksave"),
    STMATRIX("stmatrix"),
    SUB("sub"),
    SUBC("subc"),
    SULD("suld"),
    SUQ("suq"),
    SURED("sured"),
    SUST("sust"),
    SZEXT("szext"),
    TANH("tanh"),
    TESTP("testp"),
    TEX("tex"),
    TLD4("tld4"),
    TRAP("trap"),
    TXQ("txq"),
    XOR("xor"),
    VOTE("vote"),
    REDUX("redux"),
    MBARRIER_INIT("mbarrier.init"),
    MBARRIER_INVAL("mbarrier.inval"),
    MBARRIER_ARRIVE("mbarrier.arrive"),
    MBARRIER_ARRIVE_DROP("mbarrier.arrive_drop"),
    MBARRIER_TEST_WAIT("mbarrier.test_wait"),
    MBARRIER_TRY_WAIT("mbarrier.try_wait"),
    MBARRIER_EXPECT_TX("mbarrier.expect_tx"),
    MBARRIER_COMPLETE_TX("mbarrier.complete_tx"),
    MBARRIER_PENDING_COUNT("mbarrier.pending_count"),
    CP_ASYNC("cp.async"),
    CP_ASYNC_COMMIT_GROUP("cp.async.commit_group"),
    CP_ASYNC_WAIT_GROUP("cp.async.wait_group"),
    CP_ASYNC_WAIT_ALL("cp.async.wait_all"),
    CP_ASYNC_MBARRIER_ARRIVE("cp.async.mbarrier.arrive"),
    CP_ASYNC_BULK("cp.async.bulk"),
    CP_ASYNC_BULK_TENSOR("cp.async.bulk.tensor"),
    CP_ASYNC_BULK_PREFETCH("cp.async.bulk.prefetch"),
    CP_ASYNC_BULK_PREFETCH_TENSOR("cp.async.bulk.prefetch.tensor"),
    CP_ASYNC_BULK_COMMIT_GROUP("cp.async.bulk.commit_group"),
    CP_ASYNC_BULK_WAIT_GROUP("cp.async.bulk.wait_group"),
    CP_REDUCE_ASYNC_BULK("cp.reduce.async.bulk"),
    CP_REDUCE_ASYNC_BULK_TENSOR("cp.reduce.async.bulk.tensor"),
    MULTIMEM_LD_REDUCE("multimem.ld_reduce"),
    MULTIMEM_ST("multimem.st"),
    MULTIMEM_RED("multimem.red"),
    MULTIMEM_CP_ASYNC_BULK("multimem.cp.async.bulk"),
    MULTIMEM_CP_REDUCE_ASYNC_BULK("multimem.cp.reduce.async.bulk"),
    TENSORMAP_REPLACE("tensormap.replace"),
    TENSORMAP_CP_FENCEPROXY("tensormap.cp_fenceproxy"),
    WGMMA_FENCE("wgmma.fence"),
    WGMMA_COMMIT_GROUP("wgmma.commit_group"),
    WGMMA_WAIT_GROUP("wgmma.wait_group"),
    WGMMA_MMA_ASYNC("wgmma.mma_async"),
    WGMMA_MMA_ASYNC_SP("wgmma.mma_async.sp"),
    WMMA_LOAD("wmma.load"),
    WMMA_STORE("wmma.store"),
    WMMA_MMA("wmma.mma"),
    TCGEN05_ALLOC("tcgen05.alloc"),
    TCGEN05_DEALLOC("tcgen05.dealloc"),
    TCGEN05_RELINQUISH_ALLOC_PERMIT("tcgen05.relinquish_alloc_permit"),
    TCGEN05_LD("tcgen05.ld"),
    TCGEN05_ST("tcgen05.st"),
    TCGEN05_WAIT_LD("tcgen05.wait::ld"),
    TCGEN05_WAIT_ST("tcgen05.wait::st"),
    TCGEN05_CP("tcgen05.cp"),
    TCGEN05_SHIFT("tcgen05.shift"),
    TCGEN05_MMA("tcgen05.mma"),
    TCGEN05_MMA_SP("tcgen05.mma.sp"),
    TCGEN05_MMA_WS("tcgen05.mma.ws"),
    TCGEN05_MMA_WS_SP("tcgen05.mma.ws.sp"),
    TCGEN05_COMMIT("tcgen05.commit"),
    TCGEN05_FENCE_BEFORE_THREAD_SYNC("tcgen05.fence::before_thread_sync"),
    TCGEN05_FENCE_AFTER_THREAD_SYNC("tcgen05.fence::after_thread_sync"),
    CLUSTERLAUNCHCONTROL_TRY_CANCEL("clusterlaunchcontrol.try_cancel"),
    CLUSTERLAUNCHCONTROL_QUERY_CANCEL("clusterlaunchcontrol.query_cancel"),
    VABSDIFF("vabsdiff"),
    VABSDIFF2("vabsdiff2"),
    VABSDIFF4("vabsdiff4"),
    VADD("vadd"),
    VADD2("vadd2"),
    VADD4("vadd4"),
    VAVRG2("vavrg2"),
    VAVRG4("vavrg4"),
    VMAD("vmad"),
    VMAX("vmax"),
    VMAX2("vmax2"),
    VMAX4("vmax4"),
    VMIN("vmin"),
    VMIN2("vmin2"),
    VMIN4("vmin4"),
    VSET("vset"),
    VSET2("vset2"),
    VSET4("vset4"),
    VSHL("vshl"),
    VSHR("vshr"),
    VSUB("vsub"),
    VSUB2("vsub2"),
    VSUB4("vsub4");

    public final String spelling;
    /** Dotted words in the spelling: `cp.async.bulk` has three. */
    private final int words;

    Opcode(String spelling) {
        this.spelling = spelling;
        // Counted in a loop: a stream per constant was a visible share of a short check's start.
        int dots = 0;
        for (int i = 0; i < spelling.length(); i++) {
            if (spelling.charAt(i) == '.') {
                dots++;
            }
        }
        this.words = dots + 1;
    }

    private static final Map<String, Opcode> BY_SPELLING = new HashMap<>();

    /**
     * The opcodes as a tree of dotted words (`cp` → `.async` → `.bulk` ...), so that the opcode
     * of `word.q1.q2...` is found by one walk over the words as written, without building strings.
     */
    private static final class Words {
        Opcode opcode;
        final Map<String, Words> next = new HashMap<>(4);
    }

    private static final Map<String, Words> BY_FIRST_WORD = new HashMap<>();

    static {
        for (Opcode op : values()) {
            BY_SPELLING.put(op.spelling, op);
            List<String> parts = Qualifier.dotWords(op.spelling);
            Words node = BY_FIRST_WORD.computeIfAbsent(parts.get(0), w -> new Words());
            for (int k = 1; k < parts.size(); k++) {
                node = node.next.computeIfAbsent(parts.get(k), w -> new Words());
            }
            node.opcode = op;
        }
    }

    /** The opcode spelled exactly so, or null. */
    public static Opcode lookup(String spelling) {
        return BY_SPELLING.get(spelling);
    }

    /**
     * The longest opcode spelled by {@code head} followed by the first of {@code dotWords} (each
     * with its dot: `.async`), or null; its {@link #words()} say how many it takes.
     */
    public static Opcode longestMatch(String head, List<String> dotWords) {
        Words node = BY_FIRST_WORD.get(head);
        if (node == null) {
            return null;
        }
        Opcode best = node.opcode;
        for (int k = 0; k < dotWords.size() && !node.next.isEmpty(); k++) {
            node = node.next.get(dotWords.get(k));
            if (node == null) {
                break;
            }
            if (node.opcode != null) {
                best = node.opcode;
            }
        }
        return best;
    }

    public int words() {
        return words;
    }
}
