package io.ptxrun.exec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ptxrun.ast.Function;
import io.ptxrun.ast.Module;
import io.ptxrun.syntax.PtxParser;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A minimal reader of run-case directories (kernel.ptx, launch.json, optional expected.json) for
 * engine tests; the real launch-file reader lives elsewhere. Compares status and dumped buffers.
 */
final class LaunchCase {
    private static final ObjectMapper JSON = new ObjectMapper();

    record Outcome(ExecResult result, List<String> mismatches) {}

    static Outcome run(Path dir) throws IOException {
        String ptx = Files.readString(dir.resolve("kernel.ptx"));
        JsonNode launch = JSON.readTree(dir.resolve("launch.json").toFile());
        PtxParser.Parsed<Module> parsed = PtxParser.parseModule(dir.resolve("kernel.ptx").toString(), ptx);
        if (!parsed.ok()) {
            return new Outcome(null, List.of("parse: " + parsed.diagnostics()));
        }
        Module module = parsed.value();
        Function kernel = launch.has("kernel") ? module.function(launch.get("kernel").asText()).orElseThrow()
                : module.entries().get(0);
        GlobalMemory mem = new GlobalMemory();
        Map<String, long[]> buffers = new LinkedHashMap<>(); // name -> {addr, count}
        Map<String, String> types = new LinkedHashMap<>();
        JsonNode bufs = launch.path("buffers");
        for (var it = bufs.fields(); it.hasNext(); ) {
            var e = it.next();
            String type = e.getValue().get("type").asText();
            int size = width(type);
            List<Double> values = new ArrayList<>();
            List<Long> raw = new ArrayList<>();
            JsonNode b = e.getValue();
            int count;
            if (b.has("values")) {
                count = b.get("values").size();
            } else {
                count = b.get("count").asInt();
            }
            ByteBuffer bb = ByteBuffer.allocate(count * size).order(ByteOrder.LITTLE_ENDIAN);
            long state = b.path("init").path("random").asLong(0);
            for (int i = 0; i < count; i++) {
                JsonNode v = b.has("values") ? b.get("values").get(i) : null;
                JsonNode init = b.get("init");
                if (v == null && init != null && init.isObject()) {
                    state += 0x9E3779B97F4A7C15L;
                    long z = state;
                    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
                    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
                    z = z ^ (z >>> 31);
                    if (type.startsWith("f")) {
                        put(bb, type, (z >>> 40) * 0x1p-24, 0, true);
                    } else {
                        put(bb, type, 0, z, false);
                    }
                    continue;
                }
                if (v == null) {
                    v = init != null && init.isTextual() && init.asText().equals("iota") ? JSON.getNodeFactory().numberNode(i)
                            : init == null ? JSON.getNodeFactory().numberNode(0) : init;
                }
                put(bb, type, v.asDouble(), v.isIntegralNumber() ? v.asLong() : (long) v.asDouble(), type.startsWith("f"));
            }
            long addr = mem.allocate(Math.max(1, count * size), 256);
            mem.write(addr, bb.array());
            buffers.put(e.getKey(), new long[] {addr, count});
            types.put(e.getKey(), type);
        }
        ParamLayout layout = ParamLayout.of(kernel);
        ByteBuffer pb = ByteBuffer.allocate(layout.totalBytes()).order(ByteOrder.LITTLE_ENDIAN);
        JsonNode params = launch.path("params");
        for (int i = 0; i < params.size(); i++) {
            JsonNode p = params.get(i);
            int off = layout.slots().get(i).offset();
            if (p.isTextual()) {
                pb.putLong(off, buffers.get(p.asText())[0]);
            } else {
                var f = p.fields().next();
                switch (f.getKey()) {
                    case "u32", "s32" -> pb.putInt(off, (int) f.getValue().asLong());
                    case "u64", "s64" -> pb.putLong(off, f.getValue().asLong());
                    case "f32" -> pb.putFloat(off, (float) f.getValue().asDouble());
                    case "f64" -> pb.putDouble(off, f.getValue().asDouble());
                    default -> throw new IllegalArgumentException("param " + f.getKey());
                }
            }
        }
        KernelLaunch kl = new KernelLaunch(module, kernel.name(), ints(launch.get("grid")), ints(launch.get("block")),
                launch.has("cluster") ? ints(launch.get("cluster")) : null, launch.path("sharedBytes").asLong(0),
                pb.array(), mem, KernelLaunch.Limits.ofMaxInstructions(200_000_000L));
        ExecResult r = Interpreter.run(kl);
        List<String> mismatches = new ArrayList<>();
        Path exp = dir.resolve("expected.json");
        if (Files.exists(exp)) {
            JsonNode e = JSON.readTree(exp.toFile());
            if (!e.get("status").asText().equals(r.status().word())) {
                mismatches.add("status " + r.status().word() + " expected " + e.get("status").asText() + " " + r.diagnostics());
            }
            if (r.status() == ExecStatus.OK) {
                for (var it = e.path("buffers").fields(); it.hasNext(); ) {
                    var b = it.next();
                    long[] ac = buffers.get(b.getKey());
                    String type = types.get(b.getKey());
                    int size = width(type);
                    ByteBuffer got = ByteBuffer.wrap(mem.read(ac[0], (int) ac[1] * size)).order(ByteOrder.LITTLE_ENDIAN);
                    JsonNode want = b.getValue().get("values");
                    int bad = 0;
                    for (int i = 0; i < want.size(); i++) {
                        String g = get(got, type, i * size);
                        String w = type.startsWith("f") ? String.valueOf(type.equals("f32")
                                ? (double) (float) want.get(i).asDouble() : want.get(i).asDouble())
                                : asType(want.get(i).asLong(), type);
                        if (!g.equals(w) && bad++ < 5) {
                            mismatches.add(b.getKey() + "[" + i + "] = " + g + " expected " + w);
                        }
                    }
                }
            }
        }
        return new Outcome(r, mismatches);
    }

    private static int[] ints(JsonNode n) {
        int[] out = new int[n.size()];
        for (int i = 0; i < n.size(); i++) {
            out[i] = n.get(i).asInt();
        }
        return out;
    }

    static int width(String type) {
        return switch (type.replaceAll("[a-z]", "")) {
            case "8" -> 1;
            case "16" -> 2;
            case "32" -> 4;
            default -> 8;
        };
    }

    private static void put(ByteBuffer bb, String type, double d, long l, boolean isFloat) {
        switch (type) {
            case "f32" -> bb.putFloat((float) d);
            case "f64" -> bb.putDouble(d);
            default -> {
                int w = width(type);
                for (int k = 0; k < w; k++) {
                    bb.put((byte) (l >>> (8 * k)));
                }
            }
        }
    }

    private static String asType(long v, String type) {
        ByteBuffer bb = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, v);
        return get(bb, type, 0);
    }

    private static String get(ByteBuffer bb, String type, int off) {
        return switch (type) {
            case "f32" -> String.valueOf((double) bb.getFloat(off));
            case "f64" -> String.valueOf(bb.getDouble(off));
            case "u8", "b8" -> String.valueOf(bb.get(off) & 0xff);
            case "s8" -> String.valueOf(bb.get(off));
            case "u16", "b16" -> String.valueOf(bb.getShort(off) & 0xffff);
            case "s16" -> String.valueOf(bb.getShort(off));
            case "u32", "b32" -> String.valueOf(bb.getInt(off) & 0xffffffffL);
            case "s32" -> String.valueOf(bb.getInt(off));
            case "u64", "b64" -> Long.toUnsignedString(bb.getLong(off));
            default -> String.valueOf(bb.getLong(off));
        };
    }
}
