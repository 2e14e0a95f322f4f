// The translation unit DeepGEMM's JIT generates for sm100_bf16_gemm (csrc/jit_kernels/impls/
// sm100_bf16_gemm.hpp, generate_impl) for a 4096x4096 BF16 GEMM with M compiled dynamically:
// 128x128x64 blocks, 128B swizzles, 6 stages, 128 + 128 threads, no multicast, 148 SMs,
// K alignment 128, full tensor-core utilisation.
#include <deep_gemm/impls/sm100_bf16_gemm.cuh>

using namespace deep_gemm;

static void __instantiate_kernel() {
    auto ptr = reinterpret_cast<void*>(&sm100_bf16_gemm_impl<
        cute::UMMA::Major::K, cute::UMMA::Major::K,
        0, 4096, 4096,
        128, 128, 64,
        1,
        128, 128, 128,
        6,
        128, 128,
        1, false,
        148,
        128,
        false, false,
        GemmType::Normal, false, cutlass::bfloat16_t,
        100
    >);
};
