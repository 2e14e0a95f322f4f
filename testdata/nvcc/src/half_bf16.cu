// Half and bfloat16 conversions in every rounding mode, half/half2/bf16 arithmetic.
// Inputs are float bit patterns so that special values (NaN, inf, subnormals) can be fed in exactly.
// nvcc-targets: sm_80 sm_90
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

// bits[k * n + i] (u16): 0 rn, 1 rz, 2 rd, 3 ru half conversions; 4 rn, 5 rz bf16 conversions;
// 6 half add(x, y), 7 half mul, 8 half fma(x, y, 1), 9 half2 add low, 10 half2 mul high,
// 11 bf16 add, 12 bf16 mul, 13 int -> half rn.
// back[k * n + i] (f32): 0 half(rn) -> float, 1 bf16(rn) -> float, 2 half -> int rn,
// 3 bf16(rz) -> float, 4 half(x) compare results.
extern "C" __global__ void f16_bf16_convert(const unsigned* xin, const unsigned* yin,
                                            unsigned short* bits, float* back, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = __uint_as_float(xin[i]);
    float y = __uint_as_float(yin[i]);
    __half hx = __float2half_rn(x), hy = __float2half_rn(y);
    __nv_bfloat16 bx = __float2bfloat16_rn(x), by = __float2bfloat16_rn(y);

    bits[0 * n + i] = __half_as_ushort(hx);
    bits[1 * n + i] = __half_as_ushort(__float2half_rz(x));
    bits[2 * n + i] = __half_as_ushort(__float2half_rd(x));
    bits[3 * n + i] = __half_as_ushort(__float2half_ru(x));
    bits[4 * n + i] = __bfloat16_as_ushort(bx);
    bits[5 * n + i] = __bfloat16_as_ushort(__float2bfloat16_rz(x));
    bits[6 * n + i] = __half_as_ushort(__hadd(hx, hy));
    bits[7 * n + i] = __half_as_ushort(__hmul(hx, hy));
    bits[8 * n + i] = __half_as_ushort(__hfma(hx, hy, __float2half(1.0f)));
    __half2 p = __halves2half2(hx, hy), q = __floats2half2_rn(y, 0.5f);
    bits[9 * n + i] = __half_as_ushort(__low2half(__hadd2(p, q)));
    bits[10 * n + i] = __half_as_ushort(__high2half(__hmul2(p, q)));
    bits[11 * n + i] = __bfloat16_as_ushort(__hadd(bx, by));
    bits[12 * n + i] = __bfloat16_as_ushort(__hmul(bx, by));
    bits[13 * n + i] = __half_as_ushort(__int2half_rn((int)xin[i] >> 12));

    back[0 * n + i] = __half2float(hx);
    back[1 * n + i] = __bfloat162float(bx);
    back[2 * n + i] = (float)__half2int_rn(hx);
    back[3 * n + i] = __bfloat162float(__float2bfloat16_rz(x));
    back[4 * n + i] = (float)(__hlt(hx, hy) | __hge(hx, hy) << 1 | __hisnan(hx) << 2 | __hisinf(hx) << 3);
}

// Half2 vector arithmetic over arrays stored as half (compiled only; also bf16x2 and conversions).
extern "C" __global__ void f16_vector_ops(const __half2* a, const __half2* b, __half2* c,
                                          __nv_bfloat162* d, double* e, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half2 x = a[i], y = b[i];
    c[i] = __hfma2(x, y, __hmax2(x, y));
    float2 f = __half22float2(x);
    d[i] = __floats2bfloat162_rn(f.x * 3.0f, f.y);
    e[i] = (double)__half2float(__hsub(__low2half(x), __high2half(y)));
    c[n + i] = __h2div(x, y);
    c[2 * n + i] = h2sqrt(x);
}
