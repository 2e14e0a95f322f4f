// One Jacobi step of the 1D heat equation.
extern "C" __global__ void jacobi_step(float *u, float *u_next, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > 0 && i < n - 1) {
        float v = 0.5f * u[i] + 0.25f * (u[i - 1] + u[i + 1]); // [A]
        u[i] = v; // [B]
    }
}
