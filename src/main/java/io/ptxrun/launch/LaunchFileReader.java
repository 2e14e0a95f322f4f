package io.ptxrun.launch;

import com.fasterxml.jackson.databind.JsonNode;
import io.ptxrun.launch.TensorMap.Interleave;
import io.ptxrun.launch.TensorMap.L2Promotion;
import io.ptxrun.launch.TensorMap.OobFill;
import io.ptxrun.launch.TensorMap.Swizzle;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Turns the JSON tree of a launch file into a {@link LaunchFile}, one key at a time, so that every
 * error names the JSON path of the value at fault. Keys it does not know are ignored (suites keep
 * notes in launch files), but one within two edits of a known key is reported as a warning.
 */
final class LaunchFileReader {
    private static final Set<String> TOP_LEVEL_KEYS =
            Set.of(
                    "kernel", "grid", "block", "cluster", "sharedBytes", "buffers", "tensorMaps", "params",
                    "dump", "tolerance");
    private static final Set<String> BUFFER_KEYS = Set.of("type", "count", "init", "values", "tolerance",
            "uninitialized");
    private static final Set<String> TENSOR_MAP_KEYS =
            Set.of(
                    "buffer", "type", "dims", "strides", "box", "elementStrides", "interleave", "swizzle",
                    "l2Promotion", "oobFill", "im2col", "im2colWide");
    private static final Set<String> IM2COL_KEYS =
            Set.of("lowerCorner", "upperCorner", "channelsPerPixel", "pixelsPerColumn");
    private static final Set<String> IM2COL_WIDE_KEYS =
            Set.of("lowerCornerW", "upperCornerW", "channelsPerPixel", "pixelsPerColumn", "mode");
    private static final Set<String> RANDOM_INIT_KEYS = Set.of("random");
    private static final Set<String> TOLERANCE_KEYS = Set.of("ulps", "absolute", "relative", "elements", "source");
    private static final String DIM3_EXPECTED = "expected 1 to 3 positive integers";
    private static final BigInteger MIN_SEED = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger MAX_SEED = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    private final List<String> warnings = new ArrayList<>();

    LaunchFile read(JsonNode root) {
        if (!root.isObject()) {
            throw new LaunchException("expected a JSON object at the top level, got " + Json.kind(root));
        }
        warnUnknownKeys(root, "", TOP_LEVEL_KEYS);

        Optional<String> kernel = Optional.empty();
        JsonNode kernelNode = root.get("kernel");
        if (kernelNode != null && !kernelNode.isNull()) {
            kernel = Optional.of(text(kernelNode, "kernel"));
        }
        Dim3 grid = dim3(required(root, "grid", "", DIM3_EXPECTED), "grid");
        Dim3 block = dim3(required(root, "block", "", DIM3_EXPECTED), "block");
        Optional<Dim3> cluster =
                root.has("cluster") ? Optional.of(dim3(root.get("cluster"), "cluster")) : Optional.empty();
        int sharedBytes =
                root.has("sharedBytes") ? nonNegativeInt(root.get("sharedBytes"), "sharedBytes") : 0;

        Map<String, BufferSpec> buffers = new LinkedHashMap<>();
        Map<String, List<Tolerance.Bound>> boundsByBuffer = new LinkedHashMap<>();
        if (root.has("buffers")) {
            JsonNode buffersNode = object(root.get("buffers"), "buffers");
            for (Iterator<Map.Entry<String, JsonNode>> it = buffersNode.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> entry = it.next();
                String path = JsonPaths.key("buffers", entry.getKey());
                if (entry.getKey().isEmpty()) {
                    throw new LaunchException(path, "a buffer needs a non-empty name");
                }
                BufferSpec buffer = buffer(entry.getValue(), path);
                buffers.put(entry.getKey(), buffer);
                tolerance(entry.getValue().get("tolerance"), JsonPaths.key(path, "tolerance"), buffer.type())
                        .ifPresent(bounds -> boundsByBuffer.put(entry.getKey(), bounds));
            }
        }

        Map<String, TensorMapSpec> tensorMaps = new LinkedHashMap<>();
        if (root.has("tensorMaps")) {
            JsonNode mapsNode = object(root.get("tensorMaps"), "tensorMaps");
            for (Iterator<Map.Entry<String, JsonNode>> it = mapsNode.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> entry = it.next();
                String path = JsonPaths.key("tensorMaps", entry.getKey());
                tensorMaps.put(entry.getKey(), tensorMap(entry.getValue(), path));
            }
        }

        List<ParamValue> params = new ArrayList<>();
        if (root.has("params")) {
            JsonNode paramsNode = array(root.get("params"), "params");
            for (int i = 0; i < paramsNode.size(); i++) {
                params.add(param(paramsNode.get(i), JsonPaths.index("params", i)));
            }
        }

        List<String> dump = new ArrayList<>(buffers.keySet());
        if (root.has("dump")) {
            JsonNode dumpNode = array(root.get("dump"), "dump");
            dump.clear();
            for (int i = 0; i < dumpNode.size(); i++) {
                dump.add(text(dumpNode.get(i), JsonPaths.index("dump", i)));
            }
        }

        List<Tolerance.Bound> everyBuffer =
                tolerance(root.get("tolerance"), "tolerance", null).orElse(List.of());
        return new LaunchFile(
                kernel,
                grid,
                block,
                cluster,
                sharedBytes,
                buffers,
                tensorMaps,
                params,
                dump,
                new Tolerance(everyBuffer, boundsByBuffer),
                Collections.unmodifiableList(warnings));
    }

    private BufferSpec buffer(JsonNode node, String path) {
        JsonNode uninitialized = node.isObject() ? node.get("uninitialized") : null;
        if (uninitialized != null && !uninitialized.isBoolean()) {
            throw new LaunchException(JsonPaths.key(path, "uninitialized"), "expected true or false");
        }
        BufferSpec spec = bufferContents(node, path);
        return uninitialized == null ? spec : spec.asUninitialized(uninitialized.booleanValue());
    }

    private BufferSpec bufferContents(JsonNode node, String path) {
        object(node, path);
        warnUnknownKeys(node, path, BUFFER_KEYS);
        JsonNode typeNode = required(node, "type", path, "expected an element type such as \"s32\"");
        ElementType type = elementType(typeNode, JsonPaths.key(path, "type"));
        JsonNode values = node.get("values");
        JsonNode count = node.get("count");
        JsonNode init = node.get("init");
        if (values != null) {
            if (init != null) {
                throw new LaunchException(
                        JsonPaths.key(path, "init"),
                        "a buffer gives either 'values' or 'count' and 'init', not both");
            }
            String valuesPath = JsonPaths.key(path, "values");
            array(values, valuesPath);
            List<Long> bits = new ArrayList<>(values.size());
            for (int i = 0; i < values.size(); i++) {
                int index = i;
                bits.add(elementBits(type, values.get(i), () -> JsonPaths.index(valuesPath, index)));
            }
            if (count != null) {
                int declared = nonNegativeInt(count, JsonPaths.key(path, "count"));
                if (declared != bits.size()) {
                    throw new LaunchException(
                            JsonPaths.key(path, "count"),
                            declared + " does not match the " + bits.size() + " values given");
                }
            }
            return inside(path, () -> BufferSpec.ofValues(type, bits));
        }
        if (count == null) {
            String hint =
                    misspelling(node, "values", "count").map(k -> " (is '" + k + "' a misspelling?)").orElse("");
            throw new LaunchException(path, "expected 'values', or 'count' with an optional 'init'" + hint);
        }
        int n = nonNegativeInt(count, JsonPaths.key(path, "count"));
        BufferInit bufferInit =
                init == null ? new BufferInit.Constant(0) : init(type, init, JsonPaths.key(path, "init"));
        return inside(path, () -> new BufferSpec(type, n, bufferInit));
    }

    /** Builds a record whose own checks report paths relative to it ({@code box[0]}). */
    private static <T> T inside(String path, Supplier<T> build) {
        try {
            return build.get();
        } catch (LaunchException e) {
            throw e.at(path);
        }
    }

    private BufferInit init(ElementType type, JsonNode node, String path) {
        if (node.isTextual()) {
            String text = node.asText();
            if (text.equals("iota")) {
                return new BufferInit.Iota();
            }
            if (type.isFloat() && ElementValues.specialFloat(text) != null) {
                return new BufferInit.Constant(type.bitsOf(ElementValues.specialFloat(text)));
            }
            throw new LaunchException(
                    path,
                    "expected a number, \"iota\" or {\"random\": seed}, got " + Json.show(node)
                            + Suggestions.didYouMean(text, List.of("iota")));
        }
        if (node.isObject()) {
            warnUnknownKeys(node, path, RANDOM_INIT_KEYS);
            JsonNode seedNode =
                    required(node, "random", path, "expected {\"random\": seed} with an integer seed");
            BigInteger seed = integerValue(seedNode);
            if (seed == null || seed.compareTo(MIN_SEED) < 0 || seed.compareTo(MAX_SEED) > 0) {
                throw new LaunchException(
                        JsonPaths.key(path, "random"),
                        "expected an integer seed between -2^63 and 2^64-1, got " + Json.show(seedNode));
            }
            return new BufferInit.Random(seed.longValue());
        }
        if (node.isNumber()) {
            return new BufferInit.Constant(elementBits(type, node, path));
        }
        throw new LaunchException(
                path, "expected a number, \"iota\" or {\"random\": seed}, got " + Json.show(node));
    }

    private TensorMapSpec tensorMap(JsonNode node, String path) {
        object(node, path);
        warnUnknownKeys(node, path, TENSOR_MAP_KEYS);
        String buffer =
                text(required(node, "buffer", path, "expected the name of a buffer"),
                        JsonPaths.key(path, "buffer"));
        ElementType type =
                elementType(required(node, "type", path, "expected an element type such as \"f32\""),
                        JsonPaths.key(path, "type"));
        List<Long> dims =
                longs(required(node, "dims", path, "expected an array of 1 to 5 dimensions"),
                        JsonPaths.key(path, "dims"));
        List<Long> givenStrides =
                node.has("strides") ? longs(node.get("strides"), JsonPaths.key(path, "strides")) : List.of();
        List<Long> strides = givenStrides;
        if (dims.size() == 1 && givenStrides.size() == 1) {
            // A rank-1 map has no strides, but cuTensorMapEncodeTiled as reached from Python rejects
            // an empty list, so reference launch files carry one unused stride: accept and drop it.
            warnings.add(JsonPaths.key(path, "strides") + ": a rank-1 tensor map has no strides; ignored");
            strides = List.of();
        }
        List<Long> layoutStrides = strides;
        TensorMapIm2col im2col = im2col(node, path);
        List<Integer> box =
                im2col != null && !node.has("box")
                        ? List.of()
                        : ints(required(node, "box", path, "expected an array with a box size per dimension"),
                                JsonPaths.key(path, "box"));
        List<Integer> elementStrides =
                node.has("elementStrides")
                        ? ints(node.get("elementStrides"), JsonPaths.key(path, "elementStrides"))
                        : Collections.nCopies(dims.size(), 1);
        Interleave interleave = option(node, "interleave", path, Interleave.values(), Interleave.NONE);
        Swizzle swizzle = option(node, "swizzle", path, Swizzle.values(), Swizzle.NONE);
        L2Promotion l2 = option(node, "l2Promotion", path, L2Promotion.values(), L2Promotion.NONE);
        OobFill oobFill = option(node, "oobFill", path, OobFill.values(), OobFill.NONE);
        return inside(
                path,
                () -> new TensorMapSpec(
                        buffer, type, dims, layoutStrides, box, elementStrides, interleave, swizzle, l2, oobFill,
                        im2col));
    }

    /**
     * ptxrun's extension for im2col maps: {@code "im2col": {lowerCorner, upperCorner,
     * channelsPerPixel, pixelsPerColumn}} (cuTensorMapEncodeIm2col) or {@code "im2colWide":
     * {lowerCornerW, upperCornerW, channelsPerPixel, pixelsPerColumn, mode: "w" | "w128"}}
     * (cuTensorMapEncodeIm2colWide); null for a tiled map.
     */
    private TensorMapIm2col im2col(JsonNode node, String path) {
        if (node.has("im2col") && node.has("im2colWide")) {
            throw new LaunchException(path, "a tensor map is either \"im2col\" or \"im2colWide\", not both");
        }
        if (node.has("im2col")) {
            String at = JsonPaths.key(path, "im2col");
            JsonNode im = object(node.get("im2col"), at);
            warnUnknownKeys(im, at, IM2COL_KEYS);
            return new TensorMapIm2col(
                    TensorMapIm2col.Kind.IM2COL,
                    signedInts(required(im, "lowerCorner", at, "expected the pixel box lower corner, W first"),
                            JsonPaths.key(at, "lowerCorner")),
                    signedInts(required(im, "upperCorner", at, "expected the pixel box upper corner, W first"),
                            JsonPaths.key(at, "upperCorner")),
                    nonNegativeInt(required(im, "channelsPerPixel", at, "expected a channel count"),
                            JsonPaths.key(at, "channelsPerPixel")),
                    nonNegativeInt(required(im, "pixelsPerColumn", at, "expected a pixel count"),
                            JsonPaths.key(at, "pixelsPerColumn")));
        }
        if (node.has("im2colWide")) {
            String at = JsonPaths.key(path, "im2colWide");
            JsonNode im = object(node.get("im2colWide"), at);
            warnUnknownKeys(im, at, IM2COL_WIDE_KEYS);
            String mode = im.has("mode") ? text(im.get("mode"), JsonPaths.key(at, "mode")) : "w";
            TensorMapIm2col.Kind kind = switch (mode) {
                case "w" -> TensorMapIm2col.Kind.WIDE_W;
                case "w128" -> TensorMapIm2col.Kind.WIDE_W128;
                default -> throw new LaunchException(JsonPaths.key(at, "mode"),
                        "expected \"w\" or \"w128\", got \"" + mode + "\"");
            };
            return new TensorMapIm2col(
                    kind,
                    List.of(signedInt(required(im, "lowerCornerW", at, "expected the W lower corner"),
                            JsonPaths.key(at, "lowerCornerW"))),
                    List.of(signedInt(required(im, "upperCornerW", at, "expected the W upper corner"),
                            JsonPaths.key(at, "upperCornerW"))),
                    nonNegativeInt(required(im, "channelsPerPixel", at, "expected a channel count"),
                            JsonPaths.key(at, "channelsPerPixel")),
                    nonNegativeInt(required(im, "pixelsPerColumn", at, "expected a pixel count"),
                            JsonPaths.key(at, "pixelsPerColumn")));
        }
        return null;
    }

    private static int signedInt(JsonNode node, String path) {
        BigInteger value = integerValue(node);
        if (value == null || value.bitLength() > 31) {
            throw new LaunchException(path, "expected an integer, got " + Json.show(node));
        }
        return value.intValue();
    }

    private static List<Integer> signedInts(JsonNode node, String path) {
        array(node, path);
        List<Integer> values = new ArrayList<>(node.size());
        for (int i = 0; i < node.size(); i++) {
            values.add(signedInt(node.get(i), JsonPaths.index(path, i)));
        }
        return values;
    }

    private ParamValue param(JsonNode node, String path) {
        return param(node, path, false);
    }

    /**
     * One argument, or with {@code member} one member of a {@code struct} argument (which may also
     * be a narrow integer or {@code {"zeros": n}}).
     */
    private ParamValue param(JsonNode node, String path, boolean member) {
        if (node.isTextual()) {
            return new ParamValue.BufferAddress(node.asText());
        }
        String expected =
                "expected a buffer name, a scalar like {\"u32\": 1024}, {\"tensorMap\": name} or {\"struct\": [...]}";
        if (!node.isObject()) {
            throw new LaunchException(path, expected + ", got " + Json.show(node));
        }
        if (node.size() != 1) {
            throw new LaunchException(path, expected + ", got an object with " + node.size() + " keys");
        }
        Map.Entry<String, JsonNode> only = node.fields().next();
        String key = only.getKey();
        String valuePath = JsonPaths.key(path, key);
        if (key.equals("tensorMap")) {
            return new ParamValue.TensorMapParam(text(only.getValue(), valuePath));
        }
        if (key.equals("struct")) {
            JsonNode members = array(only.getValue(), valuePath);
            List<ParamValue> values = new ArrayList<>();
            for (int i = 0; i < members.size(); i++) {
                values.add(param(members.get(i), JsonPaths.index(valuePath, i), true));
            }
            try {
                return new ParamValue.Struct(values);
            } catch (LaunchException e) {
                throw e.at(valuePath);
            }
        }
        if (member && key.equals("zeros")) {
            int count = signedInt(only.getValue(), valuePath);
            if (count < 1) {
                throw new LaunchException(valuePath, "expected a positive byte count, got " + count);
            }
            return new ParamValue.Zeros(count);
        }
        var types = member ? ParamValue.Scalar.MEMBER_TYPES : ParamValue.Scalar.TYPES;
        Optional<ElementType> type = ElementType.fromName(key).filter(types::contains);
        if (type.isEmpty()) {
            List<String> kinds = new ArrayList<>(member
                    ? List.of("u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64", "f32", "f64")
                    : List.of("u32", "s32", "u64", "s64", "f32", "f64"));
            kinds.addAll(member ? List.of("tensorMap", "struct", "zeros") : List.of("tensorMap", "struct"));
            throw new LaunchException(
                    path,
                    "unknown " + (member ? "member" : "parameter") + " kind '" + key + "' (expected one of "
                            + String.join(", ", kinds) + ")" + Suggestions.didYouMean(key, kinds));
        }
        // a number, or for f32/f64 also "NaN" / "Infinity" / "-Infinity", as buffer values take them
        return new ParamValue.Scalar(type.get(), elementBits(type.get(), only.getValue(), valuePath));
    }

    /**
     * The {@code tolerance} of a buffer (or, with {@code type} null, of the whole file): a number of
     * ulps, or a bound {@code {"ulps": n, "absolute": d, "relative": d, "elements": [from, to],
     * "source": "..."}} (any of the three limits; a limit may be written "2^-22.9"), or a list of
     * bounds. Forms it does not know are not errors, as suites may add their own; they are ignored
     * with a warning.
     */
    private Optional<List<Tolerance.Bound>> tolerance(JsonNode node, String path, ElementType type) {
        if (node == null) {
            return Optional.empty();
        }
        if (type != null && type.isInteger()) {
            warnings.add(path + ": ignored, " + type + " elements are always compared exactly");
            return Optional.empty();
        }
        List<Tolerance.Bound> bounds = new ArrayList<>();
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                Optional<Tolerance.Bound> b = bound(node.get(i), JsonPaths.index(path, i));
                if (b.isEmpty()) {
                    return Optional.empty();
                }
                bounds.add(b.get());
            }
        } else {
            Optional<Tolerance.Bound> b = bound(node, path);
            if (b.isEmpty()) {
                return Optional.empty();
            }
            bounds.add(b.get());
        }
        return Optional.of(bounds);
    }

    private Optional<Tolerance.Bound> bound(JsonNode node, String path) {
        if (node.isNumber()) {
            return Optional.of(Tolerance.Bound.ulps(nonNegativeInt(node, path)));
        }
        if (!node.isObject() || !(node.has("ulps") || node.has("absolute") || node.has("relative"))) {
            warnings.add(path + ": unsupported tolerance " + Json.show(node) + " ignored (expected a number of"
                    + " ulps, or {\"ulps\": n} / {\"absolute\": d} / {\"relative\": d} with optional"
                    + " \"elements\": [from, to] and \"source\")");
            return Optional.empty();
        }
        warnUnknownKeys(node, path, TOLERANCE_KEYS);
        long ulps = node.has("ulps") ? nonNegativeInt(node.get("ulps"), JsonPaths.key(path, "ulps")) : 0;
        double absolute = node.has("absolute") ? limit(node.get("absolute"), JsonPaths.key(path, "absolute")) : 0;
        double relative = node.has("relative") ? limit(node.get("relative"), JsonPaths.key(path, "relative")) : 0;
        int from = 0;
        int to = Integer.MAX_VALUE;
        if (node.has("elements")) {
            String elementsPath = JsonPaths.key(path, "elements");
            JsonNode range = array(node.get("elements"), elementsPath);
            if (range.size() != 2) {
                throw new LaunchException(elementsPath, "expected [from, to], got " + Json.show(range));
            }
            from = nonNegativeInt(range.get(0), JsonPaths.index(elementsPath, 0));
            to = nonNegativeInt(range.get(1), JsonPaths.index(elementsPath, 1));
            if (to < from) {
                throw new LaunchException(elementsPath, "expected from <= to, got " + Json.show(range));
            }
        }
        String source = node.has("source") ? text(node.get("source"), JsonPaths.key(path, "source")) : "";
        return Optional.of(new Tolerance.Bound(ulps, absolute, relative, from, to, source));
    }

    /** A positive limit: a number, or a power of two written "2^-22.9". */
    private static double limit(JsonNode node, String path) {
        double v = Double.NaN;
        if (node.isNumber()) {
            v = node.asDouble();
        } else if (node.isTextual() && node.asText().matches("2\\^-?[0-9]+(\\.[0-9]+)?")) {
            v = Math.pow(2, Double.parseDouble(node.asText().substring(2)));
        }
        if (!(v > 0) || Double.isInfinite(v)) {
            throw new LaunchException(path, "expected a positive number or a power of two such as \"2^-22.9\", got "
                    + Json.show(node));
        }
        return v;
    }

    // ---- small readers, each failing with the path of the value ----

    private void warnUnknownKeys(JsonNode object, String path, Set<String> known) {
        for (Iterator<String> it = object.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            Optional<String> suggestion = known.contains(key) ? Optional.empty() : Suggestions.closest(key, known);
            if (suggestion.isPresent()) {
                String where = path.isEmpty() ? "" : path + ": ";
                warnings.add(where + "unknown key '" + key + "' — did you mean '" + suggestion.get() + "'?");
            }
        }
    }

    private static JsonNode required(JsonNode object, String key, String path, String expected) {
        JsonNode value = object.get(key);
        if (value == null) {
            String hint = misspelling(object, key).map(k -> "; is '" + k + "' a misspelling?").orElse("");
            throw new LaunchException(JsonPaths.key(path, key), "missing (" + expected + hint + ")");
        }
        return value;
    }

    /** A key of {@code object} that looks like a misspelling of one of the missing keys. */
    private static Optional<String> misspelling(JsonNode object, String... missingKeys) {
        for (Iterator<String> it = object.fieldNames(); it.hasNext(); ) {
            String present = it.next();
            if (Suggestions.closest(present, List.of(missingKeys)).isPresent()) {
                return Optional.of(present);
            }
        }
        return Optional.empty();
    }

    private static JsonNode object(JsonNode node, String path) {
        if (!node.isObject()) {
            throw new LaunchException(path, "expected an object, got " + Json.show(node));
        }
        return node;
    }

    private static JsonNode array(JsonNode node, String path) {
        if (!node.isArray()) {
            throw new LaunchException(path, "expected an array, got " + Json.show(node));
        }
        return node;
    }

    private static String text(JsonNode node, String path) {
        if (!node.isTextual()) {
            throw new LaunchException(path, "expected a string, got " + Json.show(node));
        }
        return node.asText();
    }

    private static ElementType elementType(JsonNode node, String path) {
        try {
            return ElementType.parse(text(node, path));
        } catch (LaunchException e) {
            throw e.path().isEmpty() ? e.at(path) : e;
        }
    }

    /** The integer a number node holds exactly ({@code 3} or {@code 3.0}), or null. */
    static BigInteger integerValue(JsonNode node) {
        if (node.isIntegralNumber()) {
            return node.bigIntegerValue();
        }
        if (node.isFloatingPointNumber()) {
            double d = node.doubleValue();
            if (Double.isFinite(d) && d == Math.rint(d)) {
                return new BigDecimal(d).toBigIntegerExact();
            }
        }
        return null;
    }

    private static int nonNegativeInt(JsonNode node, String path) {
        BigInteger value = integerValue(node);
        if (value == null || value.signum() < 0) {
            throw new LaunchException(path, "expected a non-negative integer, got " + Json.show(node));
        }
        if (value.bitLength() > 31) {
            throw new LaunchException(path, value + " is too large (at most " + Integer.MAX_VALUE + ")");
        }
        return value.intValue();
    }

    private static List<Long> longs(JsonNode node, String path) {
        array(node, path);
        List<Long> values = new ArrayList<>(node.size());
        for (int i = 0; i < node.size(); i++) {
            BigInteger value = integerValue(node.get(i));
            String elementPath = JsonPaths.index(path, i);
            if (value == null || value.signum() < 0) {
                throw new LaunchException(
                        elementPath, "expected a non-negative integer, got " + Json.show(node.get(i)));
            }
            if (value.bitLength() > 63) {
                throw new LaunchException(elementPath, value + " is too large");
            }
            values.add(value.longValue());
        }
        return values;
    }

    private static List<Integer> ints(JsonNode node, String path) {
        array(node, path);
        List<Integer> values = new ArrayList<>(node.size());
        for (int i = 0; i < node.size(); i++) {
            values.add(nonNegativeInt(node.get(i), JsonPaths.index(path, i)));
        }
        return values;
    }

    private static Dim3 dim3(JsonNode node, String path) {
        if (!node.isArray() || node.isEmpty() || node.size() > 3) {
            throw new LaunchException(path, DIM3_EXPECTED + ", got " + Json.show(node));
        }
        List<Integer> extents = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            BigInteger value = integerValue(node.get(i));
            if (value == null || value.signum() <= 0 || value.bitLength() > 31) {
                throw new LaunchException(
                        JsonPaths.index(path, i),
                        "expected a positive integer (at most " + Integer.MAX_VALUE + "), got " + Json.show(node.get(i)));
            }
            extents.add(value.intValue());
        }
        return Dim3.of(extents);
    }

    /** A number (or, for float types, "NaN"/"Infinity"/"-Infinity") as raw element bits. */
    static long elementBits(ElementType type, JsonNode node, String path) {
        return elementBits(type, node, () -> path);
    }

    /**
     * {@link #elementBits(ElementType, JsonNode, String)} with the path made only for a message
     * (an element of a long array: its path and its spelling are not built for every element).
     */
    static long elementBits(ElementType type, JsonNode node, Supplier<String> path) {
        try {
            if (node.isIntegralNumber()) {
                return ElementValues.fromInteger(type, node.bigIntegerValue());
            }
            if (node.isFloatingPointNumber()) {
                return ElementValues.fromDouble(type, node.doubleValue(), () -> Json.show(node));
            }
            if (node.isTextual() && type.isFloat() && ElementValues.specialFloat(node.asText()) != null) {
                return type.bitsOf(ElementValues.specialFloat(node.asText()));
            }
        } catch (LaunchException e) {
            throw e.at(path.get());
        }
        throw new LaunchException(
                path.get(),
                "expected " + (type.isFloat() ? "a number" : "an integer") + " for " + type + ", got "
                        + Json.show(node));
    }

    private static <E extends Enum<E>> E option(
            JsonNode object, String key, String path, E[] values, E defaultValue) {
        JsonNode node = object.get(key);
        if (node == null) {
            return defaultValue;
        }
        String keyPath = JsonPaths.key(path, key);
        String name = text(node, keyPath);
        Optional<E> value = TensorMap.byJsonName(values, name);
        if (value.isPresent()) {
            return value.get();
        }
        List<String> names = TensorMap.jsonNames(values);
        throw new LaunchException(
                keyPath,
                "expected one of " + String.join(", ", names) + ", got " + Json.show(node)
                        + Suggestions.didYouMean(name, names));
    }
}
