#!/usr/bin/env python3
"""Run one PTX kernel launch on a real NVIDIA GPU and print the result JSON.

    python3 harness.py CASE_DIR            # reads CASE_DIR/kernel.ptx and CASE_DIR/launch.json
    python3 harness.py KERNEL.ptx LAUNCH.json

The launch file and the result follow the launch format of the README (struct arguments, u8/u16
scalars included). Needs an NVIDIA GPU, the CUDA driver, numpy and cuda-bindings
(cuda.bindings.driver). It recorded the expected.json of the run cases (see their recordedOn).
"""
import ctypes, json, os, re, sys, threading

import numpy as np

try:
    from cuda.bindings import driver as cu
except ImportError:  # older cuda-python layout
    from cuda import cuda as cu

DTYPES = {
    "u8": np.uint8, "s8": np.int8, "u16": np.uint16, "s16": np.int16, "u32": np.uint32,
    "s32": np.int32, "u64": np.uint64, "s64": np.int64, "f32": np.float32, "f64": np.float64,
    "b8": np.uint8, "b16": np.uint16, "b32": np.uint32, "b64": np.uint64,
}
CTYPES = {"u8": ctypes.c_uint8, "s8": ctypes.c_int8, "u16": ctypes.c_uint16, "s16": ctypes.c_int16,
          "u32": ctypes.c_uint32, "s32": ctypes.c_int32, "u64": ctypes.c_uint64,
          "s64": ctypes.c_int64, "f32": ctypes.c_float, "f64": ctypes.c_double}
MASK64 = (1 << 64) - 1


def check(result, what):
    """cuda-python returns (err,) or (err, value, ...): raise on error, return the value(s)."""
    err, *values = result if isinstance(result, tuple) else (result,)
    if int(err) != 0:
        _, name = cu.cuGetErrorName(err)
        raise RuntimeError(f"{what} failed: {name.decode() if isinstance(name, bytes) else name}")
    return values[0] if len(values) == 1 else (tuple(values) or None)


def splitmix64(seed, n):
    state = seed & MASK64
    out = []
    for _ in range(n):
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        out.append(z ^ (z >> 31))
    return out


def init_buffer(spec):
    t = spec["type"]
    dt = np.dtype(DTYPES[t])
    if "values" in spec:
        return np.array(spec["values"], dtype=dt)
    n = int(spec["count"])
    init = spec.get("init", 0)
    if init == "iota":
        return np.arange(n).astype(dt)
    if isinstance(init, dict) and "random" in init:
        raw = splitmix64(int(init["random"]), n)
        if dt.kind == "f":
            return np.array([(x >> 40) * 2.0 ** -24 for x in raw], dtype=dt)
        bits = dt.itemsize * 8
        return np.array([x & ((1 << bits) - 1) for x in raw], dtype=np.uint64).astype(
            np.dtype(f"u{dt.itemsize}")).view(dt)
    return np.full(n, init, dtype=dt)


def entry_names(ptx):
    return re.findall(r"\.entry\s+([A-Za-z_$%][\w$%]*)", ptx)


def to_json_values(arr, t):
    if np.dtype(DTYPES[t]).kind == "f":
        # shortest decimal that round-trips in the element's own precision
        return [float(str(x)) if np.isfinite(x) else ("NaN" if np.isnan(x) else ("Infinity" if x > 0 else "-Infinity"))
                for x in arr]
    return [int(x) for x in arr]


def tensor_map(spec, buffers, dptrs):
    dtype_enum = {
        "u8": "UINT8", "u16": "UINT16", "u32": "UINT32", "s32": "INT32", "u64": "UINT64",
        "s64": "INT64", "f32": "FLOAT32", "f64": "FLOAT64",
    }[spec["type"]]
    rank = len(spec["dims"])
    E = cu.CUtensorMapDataType
    args = (
        getattr(E, f"CU_TENSOR_MAP_DATA_TYPE_{dtype_enum}"),
        rank,
        dptrs[spec["buffer"]],
        [cu.cuuint64_t(int(x)) for x in spec["dims"]],
        [cu.cuuint64_t(int(x)) for x in spec.get("strides", [])],
        [cu.cuuint32_t(int(x)) for x in spec["box"]],
        [cu.cuuint32_t(int(x)) for x in spec.get("elementStrides", [1] * rank)],
        getattr(cu.CUtensorMapInterleave, "CU_TENSOR_MAP_INTERLEAVE_" + spec.get("interleave", "none").upper()),
        getattr(cu.CUtensorMapSwizzle, "CU_TENSOR_MAP_SWIZZLE_" + spec.get("swizzle", "none").upper()),
        getattr(cu.CUtensorMapL2promotion,
                "CU_TENSOR_MAP_L2_PROMOTION_" + ("NONE" if spec.get("l2Promotion", "none") == "none"
                                                 else "L2_" + spec["l2Promotion"].upper())),
        cu.CUtensorMapFloatOOBfill.CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE if spec.get("oobFill", "none") == "none"
        else cu.CUtensorMapFloatOOBfill.CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA,
    )
    tmap = check(cu.cuTensorMapEncodeTiled(*args), "cuTensorMapEncodeTiled")
    raw = (ctypes.c_uint64 * 16)()
    try:
        ctypes.memmove(raw, int(tmap.getPtr()), 128)
    except Exception:
        for i, v in enumerate(tmap.opaque):
            raw[i] = int(v)
    return raw


def param_alignment(p):
    """The alignment of an argument as a struct member: that of the C type it stands for."""
    if isinstance(p, str):
        return 8
    (k, v), = p.items()
    if k == "tensorMap":
        return 64
    if k == "zeros":
        return 1
    if k == "struct":
        return max([param_alignment(m) for m in v] or [1])
    return ctypes.sizeof(CTYPES[k])


def param_bytes(p, launch, host, dptrs):
    """One argument as the bytes it occupies in parameter space (a ctypes object)."""
    if isinstance(p, str):
        return ctypes.c_uint64(int(dptrs[p]))
    (k, v), = p.items()
    if k == "tensorMap":
        return tensor_map(launch["tensorMaps"][v], host, dptrs)
    if k == "zeros":
        return (ctypes.c_uint8 * int(v))()
    if k == "struct":
        # members at the next multiple of their alignment, as C lays out a struct
        parts, end = [], 0
        for m in v:
            a = param_alignment(m)
            off = (end + a - 1) // a * a
            b = bytes(param_bytes(m, launch, host, dptrs))
            parts.append((off, b))
            end = off + len(b)
        out = (ctypes.c_uint8 * max(end, 1))()
        for off, b in parts:
            ctypes.memmove(ctypes.addressof(out) + off, b, len(b))
        return out
    return CTYPES[k](v)


def run(ptx_path, launch_path):
    ptx = open(ptx_path).read()
    launch = json.load(open(launch_path))
    names = entry_names(ptx)
    kernel = launch.get("kernel") or (names[0] if len(names) == 1 else None)
    if kernel is None:
        raise RuntimeError(f"launch file names no kernel and the module has {len(names)} entries")
    dims = lambda k, d=(1, 1, 1): (list(launch.get(k, d)) + [1, 1, 1])[:3]
    grid, block, cluster = dims("grid"), dims("block"), dims("cluster")

    check(cu.cuInit(0), "cuInit")
    dev = check(cu.cuDeviceGet(0), "cuDeviceGet")
    ctx = check(cu.cuDevicePrimaryCtxRetain(dev), "cuDevicePrimaryCtxRetain")
    check(cu.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
    module = check(cu.cuModuleLoadData(ptx.encode() + b"\0"), "cuModuleLoadData")
    func = check(cu.cuModuleGetFunction(module, kernel.encode()), "cuModuleGetFunction")

    host, dptrs = {}, {}
    for name, spec in launch.get("buffers", {}).items():
        arr = init_buffer(spec)
        host[name] = arr
        nbytes = max(arr.nbytes, 1)
        dptrs[name] = check(cu.cuMemAlloc(nbytes), "cuMemAlloc")
        if arr.nbytes:
            check(cu.cuMemcpyHtoD(dptrs[name], arr.ctypes.data, arr.nbytes), "cuMemcpyHtoD")

    keep = [param_bytes(p, launch, host, dptrs) for p in launch.get("params", [])]
    argv = (ctypes.c_void_p * max(len(keep), 1))(*[ctypes.addressof(k) for k in keep])

    shared = int(launch.get("sharedBytes", 0))
    if shared > 48 * 1024:
        check(cu.cuFuncSetAttribute(
            func, cu.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shared),
            "cuFuncSetAttribute")
    config = cu.CUlaunchConfig()
    config.gridDimX, config.gridDimY, config.gridDimZ = grid
    config.blockDimX, config.blockDimY, config.blockDimZ = block
    config.sharedMemBytes = shared
    config.hStream = cu.CUstream(0)
    if cluster != [1, 1, 1]:
        attr = cu.CUlaunchAttribute()
        attr.id = cu.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
        attr.value.clusterDim.x, attr.value.clusterDim.y, attr.value.clusterDim.z = cluster
        config.attrs = [attr]
        config.numAttrs = 1
    else:
        config.numAttrs = 0
    check(cu.cuLaunchKernelEx(config, func, ctypes.addressof(argv), 0), "cuLaunchKernelEx")

    done = threading.Event()
    failure = []

    def sync():
        try:
            check(cu.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")  # the context is current per thread
            check(cu.cuCtxSynchronize(), "cuCtxSynchronize")
        except Exception as e:  # noqa: BLE001
            failure.append(str(e))
        done.set()

    threading.Thread(target=sync, daemon=True).start()
    if not done.wait(float(os.environ.get("HARNESS_TIMEOUT_S", "10"))):
        print(json.dumps({"kernel": kernel, "status": "timeout", "buffers": {}}))
        sys.stdout.flush()
        os._exit(3)
    if failure:
        return {"kernel": kernel, "status": "error", "buffers": {}, "diagnostics": [{"message": failure[0]}]}

    out = {}
    for name in launch.get("dump", list(host)):
        arr = host[name]
        if arr.nbytes:
            check(cu.cuMemcpyDtoH(arr.ctypes.data, dptrs[name], arr.nbytes), "cuMemcpyDtoH")
        t = launch["buffers"][name]["type"]
        out[name] = {"type": t, "values": to_json_values(arr, t)}
    return {"kernel": kernel, "status": "ok", "buffers": out}


def main():
    if len(sys.argv) == 2:
        ptx, launch = os.path.join(sys.argv[1], "kernel.ptx"), os.path.join(sys.argv[1], "launch.json")
    elif len(sys.argv) == 3:
        ptx, launch = sys.argv[1], sys.argv[2]
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    try:
        result = run(ptx, launch)
    except Exception as e:  # noqa: BLE001
        result = {"status": "error", "buffers": {}, "diagnostics": [{"message": str(e)}]}
    print(json.dumps(result))
    sys.exit(0 if result["status"] == "ok" else 1)


if __name__ == "__main__":
    main()
