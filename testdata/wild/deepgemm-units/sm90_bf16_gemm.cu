// The translation unit DeepGEMM's JIT generates for sm90_bf16_gemm (csrc/jit_kernels/impls/
// sm90_bf16_gemm.hpp, generate_impl) for a 4096x4096 BF16 GEMM with M compiled dynamically:
// 128x128x64 blocks, 128B swizzles, 5 stages, 128 TMA + 256 math threads, no multicast, 132 SMs.
#include <deep_gemm/impls/sm90_bf16_gemm.cuh>

using namespace deep_gemm;

static void __instantiate_kernel() {
    auto ptr = reinterpret_cast<void*>(&sm90_bf16_gemm_impl<
        cute::UMMA::Major::K, cute::UMMA::Major::K,
        0, 4096, 4096,
        1,
        128, 128, 64,
        128, 128, 128,
        5,
        128, 256,
        1, false,
        132,
        GemmType::Normal, false,
        cutlass::bfloat16_t
    >);
};
