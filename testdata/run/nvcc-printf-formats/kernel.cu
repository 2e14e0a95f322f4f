// Device printf with every conversion CUDA documents, flags, widths, precisions and length
// modifiers; ret[] holds what each printf returned (CUDA: the number of arguments parsed).
#include <cstdio>
#include <cmath>

extern "C" __global__ void printf_formats(const int* in, int* ret, float x, double y)
{
    int t = threadIdx.x, b = blockIdx.x;
    if (t == 0 && b == 0) {
        int k = 0;
        ret[k++] = printf("ints: %d %i %u %x %X %o|%5d|%-5d|%05d|%+d|% d|%.3d\n",
                          -42, 7, 3000000000u, 255, 255, 8, 42, 42, 42, 42, 42, 5);
        ret[k++] = printf("longs: %ld %lld %llu %llx %lX %lu\n", -1234567890123L, -9223372036854775807LL - 1,
                          18446744073709551615ULL, 0x0123456789abcdefULL, 0xfedcba9876543210UL, 42UL);
        ret[k++] = printf("floats: %f %.2f|%10.3f|%-10.1f|%+.1f %e %.3E %g %g %g %G\n", x, y, x, y, x,
                          y, x * 1e10f, y, 1e-5, 123456789.0, 1e-10);
        ret[k++] = printf("g: %g %g %g %.3g %.10g %#g %g\n", 100000.0, 1000000.0, 0.0001, 3.14159, 1.0 / 3.0, 1.5, 0.0);
        ret[k++] = printf("special: %f %f %e %g %5.1f %F\n", INFINITY, -INFINITY, (double)NAN, -0.0, NAN, INFINITY);
        ret[k++] = printf("chars: %c%c%c %s|%10s|%-6s|%.2s|%% done\n", 'p', 't', 'x', "str", "right", "left", "trunc");
        ret[k++] = printf("ptr: %p %p\n", (void*)0x1234, (void*)0);
        ret[k++] = printf("null string: %s\n", (const char*)0);
        ret[k++] = printf("short: %hd %hu %hhd %hhx\n", (short)-3, (unsigned short)65535, (signed char)-1,
                          (unsigned char)200);
        ret[k++] = printf("star: %*d|%-*d|%.*f|\n", 6, 12, 6, 12, 3, 3.14159);
        ret[k++] = printf("hash: %#x %#o %#.0f %#X\n", 255, 8, 2.0, 0);
        ret[k++] = printf("hex float: %a\n", 1.0);
        ret[k++] = printf("no arguments\n");
        ret[k++] = printf("mixed %d %f %s %lld %c %u\n", 1, 2.5, "three", 4LL, '5', 6u);
        ret[k++] = printf("no newline;");
        ret[k++] = printf("\n");
    }
    if (t < 3) {
        ret[32 + b * 4 + t] = printf("block %d thread %d value %d\n", b, t, in[b * blockDim.x + t]);
    }
}
