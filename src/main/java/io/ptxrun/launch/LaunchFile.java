package io.ptxrun.launch;

import java.nio.file.Path;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Everything a kernel launch needs besides the PTX text, as the launch format
 * ({@code docs/launch-format.md}) describes it: grid, block and cluster shape, dynamic shared
 * memory, the buffers in global memory, tensor maps, kernel parameters and which buffers to dump.
 *
 * <p>Launch files are read with {@link #read(Path)} or {@link #parse(String)}; the command line
 * builds the same record through {@link LaunchArgs}. Either way the constructor checks what spans
 * several parts (parameters naming declared buffers, cluster shape dividing the grid, tensor maps
 * fitting in their buffer, the hardware's launch limits): a {@code LaunchFile} is consistent in
 * itself, and only what needs the PTX module (the kernel's parameters) is left to check.
 *
 * @param kernel the {@code .entry} to launch; empty means the module's only one
 * @param cluster CTAs per cluster; empty means {@code [1,1,1]} or the kernel's
 *     {@code .reqnctapercluster}
 * @param buffers buffers by name, in declaration order (the order the harness allocates them)
 * @param dump the buffers written to the result, in order; every buffer unless the file says
 * @param tolerance the float tolerance for comparing results (not part of the launch itself)
 * @param warnings near misses noticed while reading (a misspelt key, an ignored tolerance)
 */
public record LaunchFile(
        Optional<String> kernel,
        Dim3 grid,
        Dim3 block,
        Optional<Dim3> cluster,
        int sharedBytes,
        Map<String, BufferSpec> buffers,
        Map<String, TensorMapSpec> tensorMaps,
        List<ParamValue> params,
        List<String> dump,
        Tolerance tolerance,
        List<String> warnings) {

    public static final int MAX_THREADS_PER_CTA = 1024;
    public static final int MAX_BLOCK_X = 1024;
    public static final int MAX_BLOCK_Y = 1024;
    public static final int MAX_BLOCK_Z = 64;
    public static final int MAX_GRID_Y = 65535;
    public static final int MAX_GRID_Z = 65535;
    /** Clusters larger than 8 need a non-portable launch attribute the harness does not set. */
    public static final int MAX_CTAS_PER_CLUSTER = 8;
    /** Shared memory of one CTA, static and dynamic, on an H100 (227 KB; ptxas: 0x38c00 max). */
    public static final int MAX_SHARED_BYTES_PER_CTA = 232448;

    public LaunchFile {
        buffers = Collections.unmodifiableMap(new LinkedHashMap<>(buffers));
        tensorMaps = Collections.unmodifiableMap(new LinkedHashMap<>(tensorMaps));
        params = List.copyOf(params);
        dump = List.copyOf(dump);
        warnings = List.copyOf(warnings);
        if (kernel.isPresent() && kernel.get().isEmpty()) {
            throw new LaunchException("kernel", "expected a kernel name, got an empty string");
        }
        checkShape(grid, block, cluster);
        if (sharedBytes < 0 || sharedBytes > MAX_SHARED_BYTES_PER_CTA) {
            throw new LaunchException("sharedBytes", "expected 0 to " + MAX_SHARED_BYTES_PER_CTA
                    + " (the shared memory a CTA can have), got " + sharedBytes);
        }
        checkTensorMaps(buffers, tensorMaps);
        checkParams(buffers, tensorMaps, params);
        checkDump(buffers, dump);
        for (String name : tolerance.byBuffer().keySet()) {
            requireBuffer(buffers, name, "tolerance");
        }
    }

    /** Reads a launch file; messages start with the file name. */
    public static LaunchFile read(Path file) {
        String text = Json.readFile(file);
        try {
            return parse(text);
        } catch (LaunchException e) {
            throw e.inFile(file.toString());
        }
    }

    /** Reads a launch file's text. */
    public static LaunchFile parse(String json) {
        return new LaunchFileReader().read(Json.parse(json));
    }

    /** The cluster shape to use when the kernel does not require one. */
    public Dim3 clusterOrDefault() {
        return cluster.orElse(Dim3.ONE);
    }

    private static void checkShape(Dim3 grid, Dim3 block, Optional<Dim3> cluster) {
        if (grid.y() > MAX_GRID_Y || grid.z() > MAX_GRID_Z) {
            throw new LaunchException(
                    "grid", "y and z are at most " + MAX_GRID_Y + ", got " + grid);
        }
        if (block.x() > MAX_BLOCK_X || block.y() > MAX_BLOCK_Y || block.z() > MAX_BLOCK_Z) {
            throw new LaunchException(
                    "block",
                    "x and y are at most " + MAX_BLOCK_X + " and z at most " + MAX_BLOCK_Z
                            + ", got " + block);
        }
        if (block.count() > MAX_THREADS_PER_CTA) {
            throw new LaunchException(
                    "block",
                    block + " is " + block.count() + " threads, more than the " + MAX_THREADS_PER_CTA
                            + " a CTA can have");
        }
        if (cluster.isPresent()) {
            Dim3 c = cluster.get();
            if (c.count() > MAX_CTAS_PER_CLUSTER) {
                throw new LaunchException(
                        "cluster",
                        c + " is " + c.count() + " CTAs, more than the portable limit of "
                                + MAX_CTAS_PER_CLUSTER);
            }
            if (grid.x() % c.x() != 0 || grid.y() % c.y() != 0 || grid.z() % c.z() != 0) {
                throw new LaunchException(
                        "cluster", "grid " + grid + " is not a whole number of clusters " + c);
            }
        }
    }

    private static void checkTensorMaps(
            Map<String, BufferSpec> buffers, Map<String, TensorMapSpec> tensorMaps) {
        tensorMaps.forEach(
                (name, map) -> {
                    String path = JsonPaths.key(JsonPaths.key("tensorMaps", name), "buffer");
                    BufferSpec buffer = requireBuffer(buffers, map.buffer(), path);
                    if (map.interleave() == TensorMap.Interleave.NONE
                            && map.extentBytes() > buffer.byteSize()) {
                        throw new LaunchException(
                                JsonPaths.key("tensorMaps", name),
                                "the tensor spans "
                                        + (map.extentBytes() == Long.MAX_VALUE
                                                ? "more than 2^63"
                                                : map.extentBytes())
                                        + " bytes but buffer '"
                                        + map.buffer()
                                        + "' has "
                                        + buffer.byteSize());
                    }
                });
    }

    private static void checkParams(
            Map<String, BufferSpec> buffers, Map<String, TensorMapSpec> tensorMaps, List<ParamValue> params) {
        for (int i = 0; i < params.size(); i++) {
            checkParam(buffers, tensorMaps, params.get(i), JsonPaths.index("params", i));
        }
    }

    private static void checkParam(
            Map<String, BufferSpec> buffers, Map<String, TensorMapSpec> tensorMaps, ParamValue param, String path) {
        if (param instanceof ParamValue.BufferAddress address) {
            requireBuffer(buffers, address.name(), path);
        } else if (param instanceof ParamValue.TensorMapParam map
                && !tensorMaps.containsKey(map.name())) {
            throw new LaunchException(
                    path,
                    "tensor map '" + map.name() + "' is not declared in tensorMaps"
                            + Suggestions.didYouMean(map.name(), tensorMaps.keySet()));
        } else if (param instanceof ParamValue.Struct struct) {
            for (int i = 0; i < struct.members().size(); i++) {
                checkParam(buffers, tensorMaps, struct.members().get(i), JsonPaths.index(JsonPaths.key(path, "struct"), i));
            }
        }
    }

    private static void checkDump(Map<String, BufferSpec> buffers, List<String> dump) {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < dump.size(); i++) {
            String path = JsonPaths.index("dump", i);
            requireBuffer(buffers, dump.get(i), path);
            if (!seen.add(dump.get(i))) {
                throw new LaunchException(path, "buffer '" + dump.get(i) + "' is listed twice");
            }
        }
    }

    private static BufferSpec requireBuffer(Map<String, BufferSpec> buffers, String name, String path) {
        BufferSpec buffer = buffers.get(name);
        if (buffer == null) {
            throw new LaunchException(
                    path,
                    "buffer '" + name + "' is not declared in buffers"
                            + Suggestions.didYouMean(name, buffers.keySet()));
        }
        return buffer;
    }
}
