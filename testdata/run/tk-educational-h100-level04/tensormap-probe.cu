// Host-only probe: builds level_04's matmul_globals as its matmul() does and prints the arguments of
// cuTensorMapEncodeTiled and the bytes of the kernel argument (no GPU needed).
#define main level_main
#include "kernels/gemm/educational_h100/level_04.cu"
#undef main
#include <cuda.h>

extern "C" CUresult cuTensorMapEncodeTiled(CUtensorMap* map, CUtensorMapDataType fmt, cuuint32_t rank, void* addr,
    const cuuint64_t* dims, const cuuint64_t* strides, const cuuint32_t* box, const cuuint32_t* es,
    CUtensorMapInterleave il, CUtensorMapSwizzle sw, CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob) {
  printf("encode map=%p fmt=%d rank=%u addr=%p dims=[", (void*)map, (int)fmt, rank, addr);
  for (unsigned i = 0; i < rank; i++) printf("%llu%s", (unsigned long long)dims[i], i + 1 < rank ? "," : "");
  printf("] strides=[");
  for (unsigned i = 0; i + 1 < rank; i++) printf("%llu%s", (unsigned long long)strides[i], i + 2 < rank ? "," : "");
  printf("] box=[");
  for (unsigned i = 0; i < rank; i++) printf("%u%s", box[i], i + 1 < rank ? "," : "");
  printf("] es=[");
  for (unsigned i = 0; i < rank; i++) printf("%u%s", es[i], i + 1 < rank ? "," : "");
  printf("] interleave=%d swizzle=%d l2=%d oob=%d\n", (int)il, (int)sw, (int)l2, (int)oob);
  memset(map, 0xEE, sizeof(*map));
  return CUDA_SUCCESS;
}

extern "C" CUresult cuGetErrorString(CUresult, const char** s) { *s = "stub"; return CUDA_SUCCESS; }

int main() {
  size_t N = 128;
  bf16* A = reinterpret_cast<bf16*>(0x100000); bf16* B = reinterpret_cast<bf16*>(0x200000); bf16* C = reinterpret_cast<bf16*>(0x300000);
  using a_gl = matmul_globals::tile_gl;
  a_gl a_arg{A, nullptr, nullptr, N, N};
  a_gl b_arg{B, nullptr, nullptr, N, N};
  a_gl c_arg{C, nullptr, nullptr, N, N};
  matmul_globals g{a_arg, b_arg, c_arg, (int)N};
  auto p = reinterpret_cast<unsigned char const*>(&g);
  printf("globals sizeof=%zu alignof=%zu gl sizeof=%zu\n", sizeof(g), alignof(matmul_globals), sizeof(a_gl));
  for (size_t i = 0; i < sizeof(g); i++) printf("%02x%s", p[i], i % 64 == 63 ? "\n" : " ");
  printf("offsets A=%zu B=%zu C=%zu N=%zu; in gl: raw_ptr=%zu rows=%zu cols=%zu tma=%zu\n",
         offsetof(matmul_globals, A), offsetof(matmul_globals, B), offsetof(matmul_globals, C), offsetof(matmul_globals, N),
         offsetof(a_gl, raw_ptr), offsetof(a_gl, rows_internal), offsetof(a_gl, cols_internal), offsetof(a_gl, tma_descs));
  return 0;
}
