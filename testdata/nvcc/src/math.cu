// Math library: single precision (accurate and intrinsic forms) and double precision.
// nvcc-targets: sm_80 sm_90
#include <cuda_runtime.h>

// x = in[i] * 8 - 4 (in in [0, 1)); out[k * n + i] for 16 functions.
extern "C" __global__ void math_f32(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = in[i] * 8.0f - 4.0f;
    float ax = fabsf(x) + 0.125f;
    out[0 * n + i] = sinf(x);
    out[1 * n + i] = cosf(x);
    out[2 * n + i] = expf(x);
    out[3 * n + i] = logf(ax);
    out[4 * n + i] = sqrtf(ax);
    out[5 * n + i] = rsqrtf(ax);
    out[6 * n + i] = log2f(ax);
    out[7 * n + i] = __fdividef(x, ax);
    out[8 * n + i] = x / ax;
    out[9 * n + i] = powf(ax, x);
    out[10 * n + i] = tanhf(x);
    out[11 * n + i] = __sinf(x);
    out[12 * n + i] = __expf(x);
    out[13 * n + i] = fmaf(x, ax, -1.0f);
    out[14 * n + i] = atan2f(x, ax - 1.0f);
    out[15 * n + i] = erff(x) + floorf(x * 3.3f) + truncf(x) + rintf(x * 1.5f);
}

// x = in[i] * 8 - 4; out[k * n + i] for 12 functions.
extern "C" __global__ void math_f64(const double* in, double* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double x = in[i] * 8.0 - 4.0;
    double ax = fabs(x) + 0.125;
    out[0 * n + i] = sin(x);
    out[1 * n + i] = cos(x);
    out[2 * n + i] = exp(x);
    out[3 * n + i] = log(ax);
    out[4 * n + i] = sqrt(ax);
    out[5 * n + i] = rsqrt(ax);
    out[6 * n + i] = x / ax;
    out[7 * n + i] = pow(ax, x);
    out[8 * n + i] = tanh(x);
    out[9 * n + i] = cbrt(x);
    out[10 * n + i] = fma(x, ax, -1.0) + floor(x * 3.3) + (double)__double2int_rn(x * 7.0);
    out[11 * n + i] = atan2(x, ax - 1.0) + (double)(float)x;
}

// Conversions between integer and floating types in their rounding modes (f32 <-> s32/u32/s64, f64).
// out rows (u32 unless noted): 0 f2i rn, 1 f2i rz, 2 f2i rd, 3 f2i ru, 4 f2u rn (of |x|),
// 5 i2f rn bits, 6 i2f rz bits, 7 ll2f rn bits, 8 f2ll rz low word, 9 d2f rn bits, 10 d2f ru bits,
// 11 float-to-half-to-float round trip bits.
extern "C" __global__ void convert_modes(const float* in, unsigned* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = (in[i] - 0.5f) * 300000.0f;
    int xi = (int)((unsigned)(in[i] * 2147483647.0f) * 3u);
    long long xl = (long long)xi * 1234567ll;
    double d = (double)x * 1.0000001;
    out[0 * n + i] = (unsigned)__float2int_rn(x);
    out[1 * n + i] = (unsigned)__float2int_rz(x);
    out[2 * n + i] = (unsigned)__float2int_rd(x);
    out[3 * n + i] = (unsigned)__float2int_ru(x);
    out[4 * n + i] = __float2uint_rn(fabsf(x));
    out[5 * n + i] = __float_as_uint(__int2float_rn(xi));
    out[6 * n + i] = __float_as_uint(__int2float_rz(xi));
    out[7 * n + i] = __float_as_uint(__ll2float_rn(xl));
    out[8 * n + i] = (unsigned)__float2ll_rz(x * 12345.0f);
    out[9 * n + i] = __float_as_uint(__double2float_rn(d));
    out[10 * n + i] = __float_as_uint(__double2float_ru(d));
    out[11 * n + i] = __float_as_uint(__saturatef(x / 1000.0f)) ^ __float_as_uint(__fsqrt_rd(fabsf(x)));
}
