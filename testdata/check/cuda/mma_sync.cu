// Warp-level mma.sync in its main forms, written as inline PTX, one tile each: f16 and bf16
// inputs with f32 accumulators (m16n8k16), tf32 (m16n8k8), s8 with .satfinite (m16n8k32), f64
// (m8n8k4 and the sm_90 m16n8k16), e4m3 (m16n8k32, sm_89 on), and the A fragment loaded with
// ldmatrix. Compiled with nvcc -ptx -arch=sm_90a -lineinfo (mma-sync-nvcc.ptx); the check case
// mma-sync-nvcc-sm80.ptx edits its .target to sm_80, which has neither the e4m3 nor the f64
// m16n8k16 form.
#include <cuda_fp16.h>
#include <cstdint>

__device__ __forceinline__ void mma_f16(float d[4], const uint32_t a[4], const uint32_t b[2], const float c[4]) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%10,%11,%12,%13};\n"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
                   "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
}

__global__ void mma_tiles(const uint32_t *in, float *out, int *iout, double *dout) {
    int lane = threadIdx.x & 31;
    __shared__ __align__(16) uint16_t tile[16 * 16];
    for (int i = lane; i < 256; i += 32) tile[i] = (uint16_t)in[i];
    __syncwarp();
    uint32_t a[4], b[2];
    uint32_t addr = (uint32_t)__cvta_generic_to_shared(&tile[(lane % 16) * 16 + (lane / 16) * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3]) : "r"(addr));
    b[0] = in[64 + lane];
    b[1] = in[96 + lane];
    float c[4] = {0, 0, 0, 0}, d[4];
    mma_f16(d, a, b, c);
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%0,%1,%2,%3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%0,%1,%2,%3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%0,%1,%2,%3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    for (int i = 0; i < 4; i++) out[lane * 4 + i] = d[i];

    int s[4] = {0, 0, 0, 0};
    asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                 "{%8,%9}, {%0,%1,%2,%3};\n"
                 : "+r"(s[0]), "+r"(s[1]), "+r"(s[2]), "+r"(s[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    for (int i = 0; i < 4; i++) iout[lane * 4 + i] = s[i];

    double x = (double)in[lane], y = (double)in[32 + lane];
    double e[2] = {0, 0};
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};\n"
                 : "+d"(e[0]), "+d"(e[1]) : "d"(x), "d"(y));
    double f[4] = {e[0], e[1], 0, 0};
    double fa[8], fb[4];
    for (int i = 0; i < 8; i++) fa[i] = x + i;
    for (int i = 0; i < 4; i++) fb[i] = y - i;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, "
                 "{%12,%13,%14,%15}, {%0,%1,%2,%3};\n"
                 : "+d"(f[0]), "+d"(f[1]), "+d"(f[2]), "+d"(f[3])
                 : "d"(fa[0]), "d"(fa[1]), "d"(fa[2]), "d"(fa[3]), "d"(fa[4]), "d"(fa[5]), "d"(fa[6]), "d"(fa[7]),
                   "d"(fb[0]), "d"(fb[1]), "d"(fb[2]), "d"(fb[3]));
    for (int i = 0; i < 4; i++) dout[lane * 4 + i] = f[i];
}
