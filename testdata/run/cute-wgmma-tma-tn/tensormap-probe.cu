// Host-only probe: builds the tutorial's TMA atoms for a given problem and prints the arguments of
// cuTensorMapEncodeTiled and the bytes of every kernel argument (no GPU needed).
#define CUTLASS_ENABLE_DIRECT_CUDA_DRIVER_CALL 1
#define main tutorial_main
#include "examples/cute/tutorial/hopper/wgmma_tma_sm90.cu"
#undef main
#include <cuda.h>

extern "C" CUresult cuTensorMapEncodeTiled(CUtensorMap* map, CUtensorMapDataType fmt, cuuint32_t rank, void* addr,
    const cuuint64_t* dims, const cuuint64_t* strides, const cuuint32_t* box, const cuuint32_t* es,
    CUtensorMapInterleave il, CUtensorMapSwizzle sw, CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob) {
  printf("encode fmt=%d rank=%u addr=%p dims=[", (int)fmt, rank, addr);
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

template <class T> void dump(const char* what, T const& v) {
  auto p = reinterpret_cast<unsigned char const*>(&v);
  printf("%s sizeof=%zu alignof=%zu:", what, sizeof(T), alignof(T));
  for (size_t i = 0; i < sizeof(T); i++) printf(" %02x", p[i]);
  printf("\n");
}

template <bool NT>
void probe(int m, int n, int k) {
  using TA = cute::half_t; using TB = cute::half_t; using TC = cute::half_t;
  TA* A = reinterpret_cast<TA*>(0x100000); TB* B = reinterpret_cast<TB*>(0x200000); TC* C = reinterpret_cast<TC*>(0x300000);
  int ldA = NT ? m : k, ldB = NT ? n : k, ldC = m;
  auto M = int(m); auto N = int(n); auto K = int(k);
  auto prob_shape = make_shape(M, N, K);
  auto dA = [&] { if constexpr (NT) return make_stride(Int<1>{}, ldA); else return make_stride(ldA, Int<1>{}); }();
  auto dB = [&] { if constexpr (NT) return make_stride(Int<1>{}, ldB); else return make_stride(ldB, Int<1>{}); }();
  auto dC = make_stride(Int<1>{}, ldC);
  auto bM = Int<128>{}; auto bN = Int<128>{}; auto bK = Int< 64>{};
  auto cta_tiler = make_shape(bM, bN, bK);
  auto bP = Int<3>{};
  auto sA = [&] { if constexpr (NT) return tile_to_shape(GMMA::Layout_MN_SW128_Atom<TA>{}, make_shape(bM,bK,bP));
                  else return tile_to_shape(GMMA::Layout_K_SW128_Atom<TA>{}, make_shape(bM,bK,bP)); }();
  auto sB = [&] { if constexpr (NT) return tile_to_shape(GMMA::Layout_MN_SW128_Atom<TB>{}, make_shape(bN,bK,bP));
                  else return tile_to_shape(GMMA::Layout_K_SW128_Atom<TB>{}, make_shape(bN,bK,bP)); }();
  auto tiled_mma = [&] { if constexpr (NT) return make_tiled_mma(SM90_64x64x16_F16F16F16_SS<GMMA::Major::MN,GMMA::Major::MN>{});
                         else return make_tiled_mma(SM90_64x64x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>{}); }();
  Tensor mA = make_tensor(A, make_shape(M,K), dA);
  Tensor mB = make_tensor(B, make_shape(N,K), dB);
  Copy_Atom tmaA = make_tma_atom(SM90_TMA_LOAD{}, mA, sA(_,_,0), make_shape(bM,bK));
  Copy_Atom tmaB = make_tma_atom(SM90_TMA_LOAD{}, mB, sB(_,_,0), make_shape(bN,bK));
  printf("%s m=%d n=%d k=%d block=%d smem=%zu grid=(%d,%d) cluster=(2,1,1)\n", NT ? "NT" : "TN", m, n, k,
         int(size(tiled_mma)), sizeof(SharedStorage<TA, TB, decltype(sA), decltype(sB)>),
         int(round_up(size(ceil_div(m, bM)), 2)), int(round_up(size(ceil_div(n, bN)), 1)));
  dump("shape", prob_shape); dump("tiler", cta_tiler); dump("tmaA", tmaA); dump("tmaB", tmaB);
  dump("dC", dC); dump("mma", tiled_mma);
  cute::half_t alpha(1.0f), beta(0.0f); dump("alpha", alpha); dump("beta", beta);
}

int main() {
  probe<true>(256, 128, 128);
  probe<false>(256, 128, 128);
  return 0;
}
