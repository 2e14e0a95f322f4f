// See cublas_v2.h: host-side declarations only.
#pragma once
#include "cublas_v2.h"
typedef struct cublasLtContext *cublasLtHandle_t;
cublasStatus_t cublasLtCreate(cublasLtHandle_t *handle);
cublasStatus_t cublasLtDestroy(cublasLtHandle_t handle);
