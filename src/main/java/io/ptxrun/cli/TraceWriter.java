package io.ptxrun.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.ptxrun.diag.SourceMap;
import io.ptxrun.exec.Trace;
import java.io.IOException;
import java.io.Writer;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * A {@link Trace} as Chrome / Perfetto trace-event JSON: a process per CTA, a thread (track) per
 * warp, and a complete event ("X") per warp turn named after the PTX line (and CUDA line, when the
 * module has them) it began at. The time axis is the cluster's virtual time: one microsecond of the
 * timeline is one thread-instruction executed in the cluster.
 */
final class TraceWriter {
    private TraceWriter() {}

    static void write(Trace trace, int[] grid, SourceMap lines, Writer out) throws IOException {
        try (JsonGenerator g = new JsonFactory().createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("displayTimeUnit", "ns");
            g.writeObjectFieldStart("otherData");
            g.writeStringField("timeUnit", "one microsecond is one thread-instruction of the cluster");
            g.writeBooleanField("truncated", trace.truncated());
            g.writeEndObject();
            g.writeArrayFieldStart("traceEvents");
            Set<Integer> ctas = new LinkedHashSet<>();
            Set<Long> warps = new LinkedHashSet<>();
            for (Trace.Turn t : trace.turns()) {
                int pid = t.cta()[0] + grid[0] * (t.cta()[1] + grid[1] * t.cta()[2]);
                if (ctas.add(pid)) {
                    g.writeStartObject();
                    g.writeStringField("ph", "M");
                    g.writeStringField("name", "process_name");
                    g.writeNumberField("pid", pid);
                    g.writeObjectFieldStart("args");
                    g.writeStringField("name", String.format("CTA (%d,%d,%d)", t.cta()[0], t.cta()[1], t.cta()[2]));
                    g.writeEndObject();
                    g.writeEndObject();
                }
                if (warps.add(((long) pid << 32) | t.warp())) {
                    g.writeStartObject();
                    g.writeStringField("ph", "M");
                    g.writeStringField("name", "thread_name");
                    g.writeNumberField("pid", pid);
                    g.writeNumberField("tid", t.warp());
                    g.writeObjectFieldStart("args");
                    g.writeStringField("name", "warp " + t.warp());
                    g.writeEndObject();
                    g.writeEndObject();
                }
                g.writeStartObject();
                g.writeStringField("ph", "X");
                g.writeStringField("cat", "warp");
                String cuda = lines.locate(t.at()).map(l -> l.place()).orElse(null);
                g.writeStringField("name", "line " + t.at().line() + " " + t.mnemonic()
                        + (cuda == null ? "" : " (" + cuda.substring(cuda.lastIndexOf('/') + 1) + ")"));
                g.writeNumberField("ts", t.start());
                g.writeNumberField("dur", Math.max(1, t.end() - t.start()));
                g.writeNumberField("pid", pid);
                g.writeNumberField("tid", t.warp());
                g.writeObjectFieldStart("args");
                g.writeStringField("ptx", t.at().toString());
                if (cuda != null) {
                    g.writeStringField("cuda", cuda);
                }
                g.writeEndObject();
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
    }
}
