// Instantiates DeepGEMM's sm90_fp8_gemm_1d2d_impl the way its JIT does (csrc/jit_kernels/impls/
// sm90_fp8_gemm_1d2d.hpp, generate_impl), for a small problem: D (256x256, bf16) = A (256x256,
// fp8 e4m3) * B^T (B 256x256, fp8 e4m3), both K-major, with per-row-per-128-K scales for A (SFA,
// MN-major, loaded by TMA) and per-128x128-block scales for B (SFB, K-major, read from global);
// M given at run time, N and K compiled in; 128x128x128 blocks, 128B swizzles, 5 stages, 128 TMA
// + 256 math threads, no multicast, and 1 SM, so the one persistent CTA computes all four
// 128x128 output blocks, 8 K blocks through the 5-stage ring.
#include <deep_gemm/impls/sm90_fp8_gemm_1d2d.cuh>

using namespace deep_gemm;

static void __instantiate_kernel() {
    auto ptr = reinterpret_cast<void*>(&sm90_fp8_gemm_1d2d_impl<
        cute::UMMA::Major::K,
        0, 256, 256,
        1,
        128, 128, 128,
        128, 128, 128,
        5,
        128, 256,
        1, false,
        1, GemmType::Normal,
        cutlass::bfloat16_t,
        epilogue::transform::EpilogueIdentity
    >);
};
