#!/usr/bin/env python3
"""Records which tiled tensor maps the CUDA driver's cuTensorMapEncodeTiled accepts, for
TensorMapDriverRulesTest. Run on a GPU machine (needs the CUDA driver, cuda-bindings):

    python3 record_tensor_map_rules.py > tensor-map-driver.json

Each case is the launch format's tensor map keys plus the global address offset (from a 256-byte
aligned allocation), and the driver's verdict. For rank 1 a dummy stride array is passed: the
bindings turn an empty list into a null pointer, which the driver rejects (so harness.py, which
passes `strides` as given, cannot record rank-1 maps).
"""
import json

try:
    from cuda.bindings import driver as cu
except ImportError:  # older cuda-python layout
    from cuda import cuda as cu

DTYPE = {"u8": "UINT8", "u16": "UINT16", "u32": "UINT32", "s32": "INT32", "u64": "UINT64",
         "s64": "INT64", "f32": "FLOAT32", "f64": "FLOAT64"}
BASE = {"type": "f32", "dims": [64, 64], "strides": [256], "box": [16, 16], "elementStrides": [1, 1],
        "interleave": "none", "swizzle": "none", "l2Promotion": "none", "oobFill": "none", "offset": 0}
R3 = {"dims": [8, 8, 8], "strides": [64, 512], "box": [8, 8, 8], "elementStrides": [1, 1, 1]}


def cases():
    yield "base", {}
    yield "rank1", {"dims": [64], "strides": [], "box": [16], "elementStrides": [1]}
    yield "rank5", {"dims": [4, 2, 2, 2, 2], "strides": [16, 32, 64, 128], "box": [4, 1, 1, 1, 1], "elementStrides": [1] * 5}
    yield "dim zero", {"dims": [64, 0]}
    yield "dim 2^32", {"dims": [1 << 32, 2]}
    yield "dim 2^32+1", {"dims": [(1 << 32) + 1, 2]}
    yield "stride 100", {"strides": [100]}
    yield "stride 0", {"strides": [0]}
    yield "stride 16 (less than a row)", {"strides": [16]}
    yield "stride 2^40", {"strides": [1 << 40]}
    yield "stride 2^40-16", {"strides": [(1 << 40) - 16]}
    yield "box 256", {"box": [16, 256]}
    yield "box 257", {"box": [16, 257]}
    yield "box 0", {"box": [16, 0]}
    yield "box0 12 bytes", {"box": [3, 16]}
    yield "box0 16 bytes", {"box": [4, 16]}
    yield "u8 box0 8 bytes", {"type": "u8", "box": [8, 16]}
    yield "u8 box0 16 bytes", {"type": "u8", "box": [16, 16]}
    yield "box0 256 bytes", {"box": [64, 16]}
    yield "swizzle 128B, box0 256 bytes", {"box": [64, 16], "swizzle": "128B"}
    yield "swizzle 128B, box0 128 bytes", {"box": [32, 16], "swizzle": "128B"}
    yield "swizzle 64B, box0 64 bytes", {"box": [16, 16], "swizzle": "64B"}
    yield "swizzle 32B, box0 64 bytes", {"box": [16, 16], "swizzle": "32B"}
    yield "swizzle 32B, box0 32 bytes", {"box": [8, 16], "swizzle": "32B"}
    yield "element stride 8", {"elementStrides": [1, 8]}
    yield "element stride 9", {"elementStrides": [1, 9]}
    yield "element stride 0", {"elementStrides": [1, 0]}
    yield "element stride 0 in dim 0", {"elementStrides": [0, 1]}
    yield "interleave 16B rank 2", {"interleave": "16B"}
    yield "interleave 16B rank 3", dict(R3, interleave="16B")
    yield "interleave 16B rank 3, box0 12 bytes", dict(R3, interleave="16B", box=[3, 8, 8])
    yield "interleave 32B swizzle none", dict(R3, interleave="32B")
    yield "interleave 32B swizzle 32B", dict(R3, interleave="32B", swizzle="32B")
    yield "interleave 32B stride 48", dict(R3, interleave="32B", swizzle="32B", strides=[48, 512])
    yield "interleave 32B address 16", dict(R3, interleave="32B", swizzle="32B", offset=16)
    yield "address 8", {"offset": 8}
    yield "address 16", {"offset": 16}
    yield "nan fill f32", {"oobFill": "nan"}
    yield "nan fill s32", {"type": "s32", "oobFill": "nan"}
    yield "nan fill u8", {"type": "u8", "box": [16, 16], "oobFill": "nan"}
    yield "l2 256B", {"l2Promotion": "256B"}
    yield "f64", {"type": "f64", "box": [2, 16]}
    yield "u64 box0 8 bytes", {"type": "u64", "box": [1, 16]}
    yield "rank1 u8", {"type": "u8", "dims": [64], "strides": [], "box": [16], "elementStrides": [1]}
    yield "element stride 2 in dim 0", {"elementStrides": [2, 1]}
    for interleave in ("16B", "32B"):
        swizzle = "32B" if interleave == "32B" else "none"
        for elements in (1, 2, 3, 4, 12, 64):
            yield f"interleave {interleave}, box0 {4 * elements} bytes", dict(
                R3, interleave=interleave, swizzle=swizzle, box=[elements, 8, 8])
        for swizzle in ("none", "32B", "64B", "128B"):
            yield f"interleave {interleave}, swizzle {swizzle}, box0 256 bytes", dict(
                R3, interleave=interleave, swizzle=swizzle, dims=[64, 8, 8], strides=[256, 2048], box=[64, 8, 8])
    yield "interleave 16B rank 5", {"dims": [4, 2, 2, 2, 2], "strides": [16, 32, 64, 128], "box": [4, 1, 1, 1, 1],
                                    "elementStrides": [1] * 5, "interleave": "16B"}


def encode(spec, base):
    rank = len(spec["dims"])
    l2 = spec["l2Promotion"]
    return cu.cuTensorMapEncodeTiled(
        getattr(cu.CUtensorMapDataType, "CU_TENSOR_MAP_DATA_TYPE_" + DTYPE[spec["type"]]),
        rank,
        base + spec["offset"],
        [cu.cuuint64_t(int(x)) for x in spec["dims"]],
        [cu.cuuint64_t(int(x)) for x in (spec["strides"] or [16])],
        [cu.cuuint32_t(int(x)) for x in spec["box"]],
        [cu.cuuint32_t(int(x)) for x in spec["elementStrides"]],
        getattr(cu.CUtensorMapInterleave, "CU_TENSOR_MAP_INTERLEAVE_" + spec["interleave"].upper()),
        getattr(cu.CUtensorMapSwizzle, "CU_TENSOR_MAP_SWIZZLE_" + spec["swizzle"].upper()),
        getattr(cu.CUtensorMapL2promotion,
                "CU_TENSOR_MAP_L2_PROMOTION_" + ("NONE" if l2 == "none" else "L2_" + l2.upper())),
        cu.CUtensorMapFloatOOBfill.CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE if spec["oobFill"] == "none"
        else cu.CUtensorMapFloatOOBfill.CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA)


def main():
    cu.cuInit(0)
    _, dev = cu.cuDeviceGet(0)
    _, ctx = cu.cuDevicePrimaryCtxRetain(dev)
    cu.cuCtxSetCurrent(ctx)
    _, base = cu.cuMemAlloc(1 << 20)
    base = int(base)
    assert base % 256 == 0
    out = []
    for name, change in cases():
        spec = dict(BASE, **change)
        try:
            err, *_ = encode(spec, base)
            accepted, error = int(err) == 0, ("" if int(err) == 0 else str(cu.cuGetErrorName(err)[1]))
        except Exception as e:  # noqa: BLE001 - the bindings reject some arguments themselves
            accepted, error = False, type(e).__name__ + ": " + str(e)
        out.append({"name": name, "spec": spec, "accepted": accepted, "error": error})
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
