// The translation unit DeepGEMM's JIT generates for sm90_fp8_gemm_1d2d (csrc/jit_kernels/impls/
// sm90_fp8_gemm_1d2d.hpp, generate_impl) for a 4096x7168 FP8 GEMM with per-128 scaling and M
// compiled dynamically: 128x128x128 blocks, 128B swizzles, 5 stages, 128 TMA + 256 math threads,
// multicast of 2 on B, 132 SMs, BF16 output, the default epilogue.
#include <deep_gemm/impls/sm90_fp8_gemm_1d2d.cuh>

using namespace deep_gemm;

static void __instantiate_kernel() {
    auto ptr = reinterpret_cast<void*>(&sm90_fp8_gemm_1d2d_impl<
        cute::UMMA::Major::K,
        0, 4096, 7168,
        1,
        128, 128, 128,
        128, 128, 128,
        5,
        128, 256,
        2, false,
        132, GemmType::Normal,
        cutlass::bfloat16_t,
        epilogue::transform::EpilogueIdentity
    >);
};
