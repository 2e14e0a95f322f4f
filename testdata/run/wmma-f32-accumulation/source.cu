// Host program that produced expected.json on an H100 (nvcc -arch=sm_90 -I<repo root>): the inputs are
// built here and printed with the result; the kernel is testdata/nvcc/src/wmma.cu.
#include "testdata/nvcc/src/wmma.cu"
#include <cstdio>
const int K=32;float A[16*K],B[16*K],C[256];unsigned x=7;
unsigned r(){x=x*1103515245u+12345u;return x>>8;}
void s(int i,int k,float a,float b){A[i*K+k]=a;B[i*K+k]=b;}
float v(){unsigned g=r(),m=r()%2047+1,e=r()%11;return (g&1?-1.f:1.f)*m/(float)(1u<<e);}
int main(){
s(0,0,2048,8192);s(0,1,1,1);s(0,2,-2048,8192);
s(1,0,1,1);s(1,1,2048,8192);s(1,2,-2048,8192);
s(2,0,2048,8192);s(2,1,-2048,8192);s(2,2,1,1);
s(3,0,2048,8192);s(3,8,1,1);s(3,15,-2048,8192);
s(4,0,2048,8192);for(int k=1;k<16;k++)s(4,k,.5f,1);
s(5,0,2048,8192);s(5,4,1,1);s(5,5,-2048,8192);
s(6,0,2048,8192);s(6,16,1,1);s(6,17,-2048,8192);
s(7,0,1,1);s(7,3,2048,8192);s(7,7,-2048,8192);
for(int k=0;k<15;k++)s(8,k,.5f,1);s(8,15,2048,8192);
s(9,0,2048,8192);s(9,1,.75f,1);s(9,2,.75f,1);
for(int i=10;i<16;i++)for(int k=0;k<K;k++){A[i*K+k]=v();B[i*K+k]=v();}
float*a,*b,*c;cudaMalloc(&a,sizeof A);cudaMalloc(&b,sizeof B);cudaMalloc(&c,sizeof C);
cudaMemcpy(a,A,sizeof A,cudaMemcpyHostToDevice);cudaMemcpy(b,B,sizeof B,cudaMemcpyHostToDevice);
wmma_gemm_f16_f32<<<1,32>>>(a,b,c,16,16,K);cudaMemcpy(C,c,sizeof C,cudaMemcpyDeviceToHost);
printf("%s\n",cudaGetErrorString(cudaGetLastError()));
for(int i=0;i<16*K;i++)printf("%08x %08x\n",*(unsigned*)&A[i],*(unsigned*)&B[i]);
for(int i=0;i<256;i++)printf("%08x\n",*(unsigned*)&C[i]);}
