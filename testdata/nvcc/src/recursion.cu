// Non-inlined device functions: recursion, local arrays with dynamic indexing, aggregates passed and
// returned by value, indirect calls through a function-pointer table.
// nvcc-targets: sm_80 sm_90
#include <cuda_runtime.h>

__device__ __noinline__ int fib(int n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__device__ __noinline__ unsigned gcd(unsigned a, unsigned b)
{
    return b == 0 ? a : gcd(b, a % b);
}

__device__ __noinline__ void quicksort(int* a, int lo, int hi)
{
    if (lo >= hi) return;
    int pivot = a[(lo + hi) / 2];
    int i = lo, j = hi;
    while (i <= j) {
        while (a[i] < pivot) ++i;
        while (a[j] > pivot) --j;
        if (i <= j) {
            int t = a[i]; a[i] = a[j]; a[j] = t;
            ++i; --j;
        }
    }
    quicksort(a, lo, j);
    quicksort(a, i, hi);
}

struct Stats {
    int min, max;
    long long sum;
};

__device__ __noinline__ Stats stats_of(const int* a, int n)
{
    Stats s{a[0], a[0], 0};
    for (int i = 0; i < n; ++i) {
        s.min = a[i] < s.min ? a[i] : s.min;
        s.max = a[i] > s.max ? a[i] : s.max;
        s.sum += a[i];
    }
    return s;
}

__device__ __noinline__ int weigh(Stats s, int k)
{
    return (int)(s.sum % 1000) * k + s.max - s.min;
}

#define LEN 12

// Per thread: fib(gid % 16), gcd of two inputs, a locally sorted copy of 12 values
// a[k] = (in[(5 gid + 7 k) % n] & 0xffff) % 1000 - 300,
// and statistics of the sorted array. out has 16 ints per thread.
extern "C" __global__ void recursion_local(const int* in, int* out, int n)
{
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    int a[LEN];
    for (int k = 0; k < LEN; ++k)
        a[k] = (in[(gid * 5 + k * 7) % n] & 0xffff) % 1000 - 300;
    quicksort(a, 0, LEN - 1);
    Stats s = stats_of(a, LEN);
    int* o = out + gid * 16;
    o[0] = fib(gid % 16);
    o[1] = (int)gcd((unsigned)in[gid % n] % 5000u + 1u, (unsigned)in[(gid + 1) % n] % 3000u + 1u);
    for (int k = 0; k < LEN; ++k) o[2 + k] = a[k];
    o[14] = weigh(s, 3);
    o[15] = a[(in[gid % n] & 0xffff) % LEN];           // dynamic index into the local array
}

typedef int (*binop)(int, int);
__device__ __noinline__ int op_add(int a, int b) { return a + b; }
__device__ __noinline__ int op_sub(int a, int b) { return a - b; }
__device__ __noinline__ int op_mul(int a, int b) { return a * b; }
__device__ __noinline__ int op_max(int a, int b) { return a > b ? a : b; }

// Indirect calls: out[gid] = ops[sel % 4](x, y), where sel, x, y come from in.
extern "C" __global__ void indirect_calls(const int* in, int* out)
{
    binop ops[4] = {op_add, op_sub, op_mul, op_max};
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    int sel = in[3 * gid], x = in[3 * gid + 1], y = in[3 * gid + 2];
    out[gid] = ops[(unsigned)sel % 4u](x % 1000, y % 1000);
}
