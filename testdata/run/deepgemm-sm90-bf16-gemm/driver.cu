// Instantiates DeepGEMM's sm90_bf16_gemm_impl the way its JIT does (csrc/jit_kernels/impls/
// sm90_bf16_gemm.hpp, generate_impl), for a small problem: D (256x256, bf16) = A (256x256) * B^T
// (256x256), both K-major, M given at run time, N and K compiled in; 128x128x64 blocks, 128B
// swizzles, 5 stages, 128 TMA + 256 math threads, no multicast, and 2 SMs, so each of the two
// persistent CTAs computes two of the four 128x128 output blocks.
#include <deep_gemm/impls/sm90_bf16_gemm.cuh>

using namespace deep_gemm;

static void __instantiate_kernel() {
    auto ptr = reinterpret_cast<void*>(&sm90_bf16_gemm_impl<
        cute::UMMA::Major::K, cute::UMMA::Major::K,
        0, 256, 256,
        1,
        128, 128, 64,
        128, 128, 128,
        5,
        128, 256,
        1, false,
        2,
        GemmType::Normal, false,
        cutlass::bfloat16_t
    >);
};
