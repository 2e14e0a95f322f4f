package io.ptxrun.launch;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A launch described by command-line flags instead of a launch file, turned into the same
 * {@link LaunchFile}:
 *
 * <pre>
 * --grid 4,1,1  --block 256  --cluster 2  --shared-bytes 1024  --kernel name
 * --arg in=s32[1024]:iota       buffer of 1024 s32, element i is i
 * --arg out=s32[4]:0            buffer of 4 s32, all 0 (":0" may be left out)
 * --arg r=u32[64]:random:7      buffer of 64 u32 from SplitMix64 seeded with 7
 * --arg w=f32:[1.0,2.5,-3.0]    buffer with these values
 * --arg u32:1024                scalar parameter (u32 s32 u64 s64 f32 f64)
 * --arg in                      the address of a buffer declared by an earlier --arg
 * --dump out                    buffers to print (repeatable or comma-separated; default all)
 * </pre>
 *
 * Each {@code --arg} is one kernel parameter, in order; a buffer's address is passed where it is
 * declared. Integers may be decimal or {@code 0x} hexadecimal; float values may also be
 * {@code nan}, {@code inf}, {@code -inf}. Grid and block default to 1.
 *
 * <p>The components hold the flags' text as given (empty when a flag is absent); {@link #of}
 * takes nulls for absent options, as the command line gives them.
 */
public record LaunchArgs(
        Optional<String> kernel,
        Optional<String> grid,
        Optional<String> block,
        Optional<String> cluster,
        Optional<String> sharedBytes,
        List<String> args,
        List<String> dump) {

    private static final String NAME = "[A-Za-z_][A-Za-z0-9_]*";
    private static final Pattern SIZED_BUFFER =
            Pattern.compile("(?<name>" + NAME + ")=(?<type>\\w+)\\[(?<count>[^\\]]*)\\](?::(?<init>.*))?");
    private static final Pattern VALUES_BUFFER =
            Pattern.compile("(?<name>" + NAME + ")=(?<type>\\w+):\\[(?<values>.*)\\]");
    private static final Pattern SCALAR = Pattern.compile("(?<type>\\w+):(?<value>[^\\[].*)");
    private static final Pattern BUFFER_REFERENCE = Pattern.compile(NAME);
    private static final Pattern RANDOM = Pattern.compile("random:(?<seed>.*)");
    private static final Pattern COUNT = Pattern.compile("\\d+");
    private static final Pattern NON_NEGATIVE = Pattern.compile("\\d+|0[xX][0-9a-fA-F]+");
    private static final BigInteger MAX_SEED = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
    private static final String ARG_FORMS =
            "expected NAME=TYPE[COUNT]:INIT, NAME=TYPE:[V1,V2,...], TYPE:VALUE or the name of an earlier"
                    + " buffer";

    public LaunchArgs {
        args = List.copyOf(args);
        dump = List.copyOf(dump);
    }

    /** From the command line's values: null for an absent option or list. */
    public static LaunchArgs of(
            String kernel,
            String grid,
            String block,
            String cluster,
            String sharedBytes,
            List<String> args,
            List<String> dump) {
        return new LaunchArgs(
                Optional.ofNullable(kernel),
                Optional.ofNullable(grid),
                Optional.ofNullable(block),
                Optional.ofNullable(cluster),
                Optional.ofNullable(sharedBytes),
                args == null ? List.of() : args,
                dump == null ? List.of() : dump);
    }

    /** The launch the flags describe; errors name the flag at fault. */
    public LaunchFile toLaunchFile() {
        Dim3 gridShape = grid.map(text -> dim3("--grid", text)).orElse(Dim3.ONE);
        Dim3 blockShape = block.map(text -> dim3("--block", text)).orElse(Dim3.ONE);
        Optional<Dim3> clusterShape = cluster.map(text -> dim3("--cluster", text));
        int shared = sharedBytes.map(LaunchArgs::sharedBytes).orElse(0);

        Map<String, BufferSpec> buffers = new LinkedHashMap<>();
        List<ParamValue> params = new ArrayList<>();
        for (String arg : args) {
            params.add(arg(arg, buffers));
        }

        List<String> dumped = new ArrayList<>();
        for (String flag : dump) {
            for (String name : flag.split(",")) {
                String trimmed = name.strip();
                if (!buffers.containsKey(trimmed)) {
                    throw new LaunchException(
                            "--dump " + flag,
                            "no buffer '" + trimmed + "' was declared by an --arg"
                                    + Suggestions.didYouMean(trimmed, buffers.keySet()));
                }
                if (dumped.contains(trimmed)) {
                    throw new LaunchException("--dump " + flag, "buffer '" + trimmed + "' is listed twice");
                }
                dumped.add(trimmed);
            }
        }
        if (dump.isEmpty()) {
            dumped.addAll(buffers.keySet());
        }

        try {
            return new LaunchFile(
                    kernel, gridShape, blockShape, clusterShape, shared, buffers, Map.of(), params, dumped,
                    Tolerance.EXACT, List.of());
        } catch (LaunchException e) {
            // Launch-wide checks (block size, cluster shape) name the launch-file key; name the flag.
            String flag =
                    switch (e.path()) {
                        case "grid" -> "--grid";
                        case "block" -> "--block";
                        case "cluster" -> "--cluster";
                        case "kernel" -> "--kernel";
                        default -> e.path();
                    };
            throw new LaunchException(flag, e.problem());
        }
    }

    private static Dim3 dim3(String flag, String text) {
        try {
            return Dim3.parse(text);
        } catch (LaunchException e) {
            throw new LaunchException(flag + " " + text, e.problem());
        }
    }

    private static int sharedBytes(String text) {
        String t = text.strip();
        if (NON_NEGATIVE.matcher(t).matches()) {
            BigInteger value =
                    t.startsWith("0x") || t.startsWith("0X")
                            ? new BigInteger(t.substring(2), 16)
                            : new BigInteger(t);
            if (value.bitLength() <= 31) {
                return value.intValue();
            }
        }
        throw new LaunchException(
                "--shared-bytes " + text, "expected a non-negative integer of at most " + Integer.MAX_VALUE);
    }

    /** One {@code --arg}: declares a buffer in {@code buffers} if it is one, returns the parameter. */
    private static ParamValue arg(String arg, Map<String, BufferSpec> buffers) {
        String where = "--arg " + arg;
        String text = arg.strip();
        try {
            Matcher m;
            if ((m = SIZED_BUFFER.matcher(text)).matches()) {
                ElementType type = ElementType.parse(m.group("type"));
                String count = m.group("count").strip();
                if (!COUNT.matcher(count).matches()) {
                    throw new LaunchException(
                            "the element count '" + count + "' is not a non-negative integer");
                }
                int n;
                try {
                    n = Integer.parseInt(count);
                } catch (NumberFormatException e) {
                    throw new LaunchException("the element count " + count + " is too large");
                }
                String init = m.group("init") == null ? "0" : m.group("init").strip();
                return declare(buffers, m.group("name"), new BufferSpec(type, n, init(type, init)));
            }
            if ((m = VALUES_BUFFER.matcher(text)).matches()) {
                ElementType type = ElementType.parse(m.group("type"));
                String list = m.group("values").strip();
                List<Long> bits = new ArrayList<>();
                if (!list.isEmpty()) {
                    for (String value : list.split(",", -1)) {
                        bits.add(ElementValues.fromText(type, value));
                    }
                }
                return declare(buffers, m.group("name"), BufferSpec.ofValues(type, bits));
            }
            if ((m = SCALAR.matcher(text)).matches()) {
                ElementType type = ElementType.parse(m.group("type"));
                if (!ParamValue.Scalar.TYPES.contains(type)) {
                    throw new LaunchException(
                            "a scalar parameter is u32, s32, u64, s64, f32 or f64, not " + type);
                }
                return new ParamValue.Scalar(type, ElementValues.fromText(type, m.group("value")));
            }
            if (BUFFER_REFERENCE.matcher(text).matches()) {
                if (!buffers.containsKey(text)) {
                    throw new LaunchException(
                            "no buffer '" + text + "' was declared by an earlier --arg"
                                    + Suggestions.didYouMean(text, buffers.keySet()));
                }
                return new ParamValue.BufferAddress(text);
            }
            throw new LaunchException(ARG_FORMS);
        } catch (LaunchException e) {
            throw new LaunchException(where, e.getMessage());
        }
    }

    private static BufferInit init(ElementType type, String init) {
        if (init.equals("iota")) {
            return new BufferInit.Iota();
        }
        Matcher random = RANDOM.matcher(init);
        if (random.matches()) {
            return new BufferInit.Random(seed(random.group("seed").strip()));
        }
        try {
            return new BufferInit.Constant(ElementValues.fromText(type, init));
        } catch (LaunchException e) {
            throw new LaunchException(
                    "the initial value '" + init + "' is not iota, random:SEED or a value of " + type
                            + " (" + e.problem() + ")");
        }
    }

    private static long seed(String text) {
        try {
            BigInteger seed =
                    text.matches("-?0[xX][0-9a-fA-F]+")
                            ? new BigInteger(text.replaceFirst("0[xX]", ""), 16)
                            : new BigInteger(text);
            if (seed.compareTo(BigInteger.valueOf(Long.MIN_VALUE)) >= 0 && seed.compareTo(MAX_SEED) <= 0) {
                return seed.longValue();
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new LaunchException(
                "the random seed '" + text + "' is not an integer between -2^63 and 2^64-1");
    }

    private static ParamValue declare(Map<String, BufferSpec> buffers, String name, BufferSpec buffer) {
        if (buffers.containsKey(name)) {
            throw new LaunchException("buffer '" + name + "' is already declared by an earlier --arg");
        }
        buffers.put(name, buffer);
        return new ParamValue.BufferAddress(name);
    }
}
