// y = A x for an n x n matrix, one thread per row. y is a fresh cudaMalloc allocation: nothing
// has set it, so the sum must start from zero, not from what y holds.
extern "C" __global__ void gemv(const float *A, const float *x, float *y, int n)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n)
        return;
    float acc = y[row]; // [A]
    for (int k = 0; k < n; ++k)
        acc += A[row * n + k] * x[k];
    y[row] = acc;
}
