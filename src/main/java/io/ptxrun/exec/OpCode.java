package io.ptxrun.exec;

/** The executable operations the decoder produces (several PTX spellings may share one). */
enum OpCode {
    NOP, UNSUPPORTED, MOV, MOV_PACK, MOV_UNPACK, LD, ST, CVTA, CVTA_TO, ISSPACEP,
    ADD, SUB, MUL, MAD, DIV, REM, MIN, MAX, ABS, NEG, ADDC, SUBC,
    AND, OR, XOR, NOT, CNOT, SHL, SHR, POPC, CLZ, BREV, BFE, BFI, BFIND, PRMT, LOP3, SHF,
    SETP, SELP, SET, SLCT, CVT, COPYSIGN, TESTP,
    FADD, FSUB, FMUL, FMA, FDIV, FMIN, FMAX, FABS, FNEG, SQRT, RSQRT, RCP, EX2, LG2, SIN, COS, TANH,
    ATOM, RED,
    BRA, CALL, LIBRARY_CALL, RET, EXIT, BAR, BAR_ARRIVE, TRAP, SHFL, VOTE, ACTIVEMASK, MATCH, REDUX, ELECT, BAR_WARP, BAR_RED, SAD, DOT, MADC, MUL24, MAD24, BMSK, FNS, CP_ASYNC, MBARRIER, CP_ASYNC_BULK, GETCTARANK, MAPA,
    /** cp.async / cp.async.bulk commit_group, wait_group, wait_all ({@link AsyncCopies.GroupStep} as form). */
    ASYNC_GROUP,
    /** wmma.load, wmma.mma and wmma.store ({@link WarpMatrixOps}). */
    WMMA,
    /** ldmatrix / stmatrix .m8n8 .b16 ({@link WarpMatrixOps#moveMatrices}, {@link WarpMatrixOps.MoveForm}). */
    MATRIX_MOVE,
    /** movmatrix .m8n8 .trans .b16: the warp's 8x8 fragment transposed ({@link WarpMatrixOps#transposeMatrix}). */
    MATRIX_TRANSPOSE,
    /** mma.sync.aligned ({@link MmaSync}, {@link MmaSync.Form}). */
    MMA_SYNC,
    /** wgmma.* and setmaxnreg: warpgroup-collective ({@link Warpgroups}). */
    WARPGROUP,
    /** barrier.cluster.arrive / barrier.cluster.wait ({@link ClusterBarrier}). */
    CLUSTER_ARRIVE, CLUSTER_WAIT,
    /** fence.sc / fence.acq_rel / membar: orders the thread's accesses for the memory model (exec.order). */
    FENCE,
    /** fence.proxy.async: orders the thread's generic-proxy accesses with the async proxy's (exec.order). */
    FENCE_PROXY_ASYNC,
    /** st.async / red.async into a peer CTA's shared memory, signalling its mbarrier ({@link AsyncCopies.StoreForm}). */
    ST_ASYNC,
    /** cp.async.bulk.tensor, cp.reduce.async.bulk.tensor, cp.async.bulk.prefetch.tensor ({@link AsyncCopies.TensorForm}). */
    CP_ASYNC_BULK_TENSOR,
    /** tensormap.replace ({@link TensorMapEdits.ReplaceForm}; source: the new value). */
    TENSORMAP_REPLACE,
    /**
     * tensormap.cp_fenceproxy: 128 bytes from shared::cta ({@link TensorMapEdits.CopyForm}) to global,
     * released to the tensormap proxy.
     */
    TENSORMAP_COPY,
    /** fence.proxy.tensormap::generic.acquire [addr], size: the map at addr may now be used by tensor copies. */
    TENSORMAP_ACQUIRE
}
