package io.ptxrun.launch;

import io.ptxrun.diag.Severity;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The result file of the launch format, written by {@code ptxrun --json} and by the hardware
 * harness:
 *
 * <pre>{@code
 * {"kernel":"k","status":"ok","buffers":{"out":{"type":"s32","values":[1,2]}},
 *  "diagnostics":[],"stats":{"threads":1024}}
 * }</pre>
 *
 * <p>Integers are JSON integers ({@code u64} unsigned). Floats are the shortest decimal that reads
 * back as the same value of the element's own type ({@link ShortestDecimal}): an {@code f32} 0.1
 * prints as {@code 0.1}, as the harness prints it, not as the double {@code 0.10000000149011612}.
 * NaN and the infinities are the strings {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"}.
 *
 * <p>Reading accepts what the harness writes ({@code diagnostics} and {@code stats} may be absent,
 * a diagnostic may have only a message). An {@code f32} value is the JSON number rounded to float,
 * so {@code 0.1} reads as {@code 0.1f}.
 */
public final class ResultJson {
    private ResultJson() {}

    /** The result as one line of JSON. */
    public static String write(RunResult result) {
        StringWriter out = new StringWriter();
        write(result, out);
        return out.toString();
    }

    /** Writes the result as one line of JSON; {@code out} is flushed, not closed. */
    public static void write(RunResult result, Writer out) {
        try (JsonGenerator gen = Json.MAPPER.getFactory().createGenerator(out)) {
            gen.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            gen.writeStartObject();
            if (result.kernel().isPresent()) {
                gen.writeStringField("kernel", result.kernel().get());
            }
            gen.writeStringField("status", result.status().jsonName());
            gen.writeObjectFieldStart("buffers");
            for (Map.Entry<String, ResultBuffer> entry : result.buffers().entrySet()) {
                gen.writeObjectFieldStart(entry.getKey());
                writeBuffer(gen, entry.getValue());
                gen.writeEndObject();
            }
            gen.writeEndObject();
            gen.writeArrayFieldStart("diagnostics");
            for (ResultDiagnostic diagnostic : result.diagnostics()) {
                writeDiagnostic(gen, diagnostic);
            }
            gen.writeEndArray();
            gen.writeObjectField("stats", result.stats());
            if (!result.printed().isEmpty()) {
                gen.writeArrayFieldStart("printf");
                for (DeviceOutput p : result.printed()) {
                    gen.writeStartObject();
                    gen.writeFieldName("cta");
                    gen.writeArray(p.cta(), 0, 3);
                    gen.writeFieldName("thread");
                    gen.writeArray(p.thread(), 0, 3);
                    gen.writeStringField("text", p.text());
                    gen.writeEndObject();
                }
                gen.writeEndArray();
            }
            gen.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void writeBuffer(JsonGenerator gen, ResultBuffer buffer) throws IOException {
        ElementType type = buffer.type();
        gen.writeStringField("type", type.typeName());
        gen.writeArrayFieldStart("values");
        for (int i = 0; i < buffer.count(); i++) {
            long bits = buffer.bits(i);
            if (type.isFloat()) {
                String decimal = type.format(bits);
                if (Double.isFinite(type.doubleOf(bits))) {
                    gen.writeNumber(decimal);
                } else {
                    gen.writeString(decimal);
                }
            } else if (type.isSigned()) {
                gen.writeNumber(type.signExtend(bits));
            } else if (bits >= 0) {
                gen.writeNumber(bits);
            } else {
                gen.writeNumber(Long.toUnsignedString(bits));
            }
        }
        gen.writeEndArray();
    }

    private static void writeDiagnostic(JsonGenerator gen, ResultDiagnostic diagnostic)
            throws IOException {
        gen.writeStartObject();
        gen.writeStringField("severity", diagnostic.severity().label());
        gen.writeStringField("message", diagnostic.message());
        if (diagnostic.file().isPresent()) {
            gen.writeStringField("file", diagnostic.file().get());
        }
        if (diagnostic.line() > 0) {
            gen.writeNumberField("line", diagnostic.line());
        }
        if (diagnostic.column() > 0) {
            gen.writeNumberField("column", diagnostic.column());
        }
        writeOptional(gen, "thread", diagnostic.thread());
        writeOptional(gen, "warp", diagnostic.warp());
        writeOptional(gen, "cta", diagnostic.cta());
        writeOptional(gen, "cluster", diagnostic.cluster());
        writeOptional(gen, "rule", diagnostic.rule());
        if (diagnostic.source().isPresent()) {
            gen.writeFieldName("source");
            writeLocation(gen, diagnostic.source().get());
        }
        gen.writeEndObject();
    }

    private static void writeOptional(JsonGenerator gen, String key, Optional<String> value)
            throws IOException {
        if (value.isPresent()) {
            gen.writeStringField(key, value.get());
        }
    }

    /** Reads a result file; messages start with the file name. */
    public static RunResult read(Path file) {
        String text = Json.readFile(file);
        try {
            return read(text);
        } catch (LaunchException e) {
            throw e.inFile(file.toString());
        }
    }

    /** Reads a result's JSON text. */
    public static RunResult read(String json) {
        JsonNode root = Json.parse(json);
        if (!root.isObject()) {
            throw new LaunchException("expected a JSON object at the top level, got " + Json.kind(root));
        }
        Optional<String> kernel = Optional.empty();
        if (root.hasNonNull("kernel")) {
            kernel = Optional.of(text(root.get("kernel"), "kernel"));
        }
        String statuses = String.join(", ", RunStatus.jsonNames());
        JsonNode statusNode = root.get("status");
        if (statusNode == null) {
            throw new LaunchException("status", "missing (expected one of " + statuses + ")");
        }
        Optional<RunStatus> status = RunStatus.fromJsonName(text(statusNode, "status"));
        if (status.isEmpty()) {
            throw new LaunchException(
                    "status", "expected one of " + statuses + ", got " + Json.show(statusNode));
        }

        Map<String, ResultBuffer> buffers = new LinkedHashMap<>();
        JsonNode buffersNode = root.get("buffers");
        if (buffersNode != null) {
            object(buffersNode, "buffers");
            for (Iterator<Map.Entry<String, JsonNode>> it = buffersNode.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> entry = it.next();
                String path = JsonPaths.key("buffers", entry.getKey());
                buffers.put(entry.getKey(), buffer(entry.getValue(), path));
            }
        }

        List<ResultDiagnostic> diagnostics = new ArrayList<>();
        JsonNode diagnosticsNode = root.get("diagnostics");
        if (diagnosticsNode != null) {
            if (!diagnosticsNode.isArray()) {
                throw new LaunchException(
                        "diagnostics", "expected an array, got " + Json.show(diagnosticsNode));
            }
            for (int i = 0; i < diagnosticsNode.size(); i++) {
                diagnostics.add(diagnostic(diagnosticsNode.get(i), JsonPaths.index("diagnostics", i)));
            }
        }

        Map<String, Object> stats = new LinkedHashMap<>();
        JsonNode statsNode = root.get("stats");
        if (statsNode != null) {
            object(statsNode, "stats");
            for (Iterator<Map.Entry<String, JsonNode>> it = statsNode.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> entry = it.next();
                stats.put(entry.getKey(), Json.MAPPER.convertValue(entry.getValue(), Object.class));
            }
        }
        List<DeviceOutput> printed = new ArrayList<>();
        JsonNode printfNode = root.get("printf");
        if (printfNode != null) {
            if (!printfNode.isArray()) {
                throw new LaunchException("printf", "expected an array, got " + Json.show(printfNode));
            }
            for (int i = 0; i < printfNode.size(); i++) {
                String p = JsonPaths.index("printf", i);
                JsonNode call = printfNode.get(i);
                object(call, p);
                JsonNode textNode = call.get("text");
                if (textNode == null) {
                    throw new LaunchException(JsonPaths.key(p, "text"), "missing (expected a string)");
                }
                printed.add(new DeviceOutput(triple(call.get("cta"), JsonPaths.key(p, "cta")),
                        triple(call.get("thread"), JsonPaths.key(p, "thread")), text(textNode, JsonPaths.key(p, "text"))));
            }
        }
        return new RunResult(kernel, status.get(), buffers, diagnostics, stats, printed);
    }

    private static ResultBuffer buffer(JsonNode node, String path) {
        object(node, path);
        JsonNode typeNode = node.get("type");
        if (typeNode == null) {
            throw new LaunchException(JsonPaths.key(path, "type"), "missing (expected an element type)");
        }
        ElementType type;
        try {
            type = ElementType.parse(text(typeNode, JsonPaths.key(path, "type")));
        } catch (LaunchException e) {
            throw e.path().isEmpty() ? e.at(JsonPaths.key(path, "type")) : e;
        }
        JsonNode values = node.get("values");
        String valuesPath = JsonPaths.key(path, "values");
        if (values == null || !values.isArray()) {
            throw new LaunchException(
                    valuesPath,
                    values == null ? "missing (expected an array)" : "expected an array, got " + Json.show(values));
        }
        byte[] contents = new byte[values.size() * type.byteSize()];
        for (int i = 0; i < values.size(); i++) {
            int index = i;
            type.store(contents, i, LaunchFileReader.elementBits(type, values.get(i),
                    () -> JsonPaths.index(valuesPath, index)));
        }
        return new ResultBuffer(type, contents);
    }

    /** {"file", "line", "column", "function", "inlinedAt": [call sites, innermost first]}. */
    private static void writeLocation(JsonGenerator gen, io.ptxrun.diag.CudaLocation l) throws IOException {
        gen.writeStartObject();
        gen.writeStringField("file", l.file());
        gen.writeNumberField("line", l.line());
        gen.writeNumberField("column", l.column());
        if (l.function().isPresent()) {
            gen.writeStringField("function", l.function().get());
        }
        if (l.inlinedAt().isPresent()) {
            gen.writeArrayFieldStart("inlinedAt");
            for (io.ptxrun.diag.CudaLocation up = l; up.inlinedAt().isPresent(); up = up.inlinedAt().get()) {
                io.ptxrun.diag.CudaLocation site = up.inlinedAt().get();
                gen.writeStartObject();
                gen.writeStringField("file", site.file());
                gen.writeNumberField("line", site.line());
                gen.writeNumberField("column", site.column());
                if (site.function().isPresent()) {
                    gen.writeStringField("function", site.function().get());
                }
                gen.writeEndObject();
            }
            gen.writeEndArray();
        }
        gen.writeEndObject();
    }

    private static ResultDiagnostic diagnostic(JsonNode node, String path) {
        object(node, path);
        JsonNode message = node.get("message");
        if (message == null) {
            throw new LaunchException(JsonPaths.key(path, "message"), "missing (expected a string)");
        }
        Severity severity = Severity.ERROR;
        if (node.hasNonNull("severity")) {
            String severityPath = JsonPaths.key(path, "severity");
            String name = text(node.get("severity"), severityPath);
            severity =
                    Severity.fromLabel(name)
                            .orElseThrow(
                                    () -> new LaunchException(
                                            severityPath, "expected error, warning or note, got \"" + name + "\""));
        }
        return new ResultDiagnostic(
                severity,
                text(message, JsonPaths.key(path, "message")),
                optionalText(node, "file", path),
                lineOrColumn(node, "line", path),
                lineOrColumn(node, "column", path),
                optionalText(node, "thread", path),
                optionalText(node, "warp", path),
                optionalText(node, "cta", path),
                optionalText(node, "cluster", path),
                Optional.empty(),
                optionalText(node, "rule", path));
    }

    private static Optional<String> optionalText(JsonNode object, String key, String path) {
        JsonNode node = object.get(key);
        if (node == null || node.isNull()) {
            return Optional.empty();
        }
        // Thread and CTA coordinates may be written as numbers or arrays by other tools.
        return Optional.of(node.isTextual() ? node.asText() : node.toString());
    }

    private static int lineOrColumn(JsonNode object, String key, String path) {
        JsonNode node = object.get(key);
        if (node == null || node.isNull()) {
            return 0;
        }
        if (!node.canConvertToInt() || !node.isIntegralNumber() || node.intValue() < 0) {
            throw new LaunchException(
                    JsonPaths.key(path, key), "expected a non-negative integer, got " + Json.show(node));
        }
        return node.intValue();
    }

    private static int[] triple(JsonNode node, String path) {
        if (node == null || !node.isArray() || node.size() != 3) {
            throw new LaunchException(path, "expected an array of 3 integers, got "
                    + (node == null ? "nothing" : Json.show(node)));
        }
        int[] v = new int[3];
        for (int i = 0; i < 3; i++) {
            if (!node.get(i).canConvertToInt()) {
                throw new LaunchException(JsonPaths.index(path, i), "expected an integer, got " + Json.show(node.get(i)));
            }
            v[i] = node.get(i).intValue();
        }
        return v;
    }

    private static void object(JsonNode node, String path) {
        if (!node.isObject()) {
            throw new LaunchException(path, "expected an object, got " + Json.show(node));
        }
    }

    private static String text(JsonNode node, String path) {
        if (!node.isTextual()) {
            throw new LaunchException(path, "expected a string, got " + Json.show(node));
        }
        return node.asText();
    }
}
