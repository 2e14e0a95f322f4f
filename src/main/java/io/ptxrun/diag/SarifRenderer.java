package io.ptxrun.diag;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Diagnostics as one SARIF 2.1.0 log (OASIS Static Analysis Results Interchange Format), the
 * form code-scanning services read: one run of the tool `ptxrun`, its rules (the diagnostic rule
 * ids), and one result per diagnostic with its file, line and column.
 */
public final class SarifRenderer {
    public static final String SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";

    private SarifRenderer() {}

    /** diagnosticsByFile: file name as given on the command line -> its diagnostics, in order. */
    public static ObjectNode sarif(Map<String, List<Diagnostic>> diagnosticsByFile, String toolVersion) {
        ObjectNode log = DiagnosticRenderer.mapper().createObjectNode();
        log.put("$schema", SCHEMA);
        log.put("version", "2.1.0");
        ObjectNode run = log.putArray("runs").addObject();
        ObjectNode driver = run.putObject("tool").putObject("driver");
        driver.put("name", "ptxrun");
        driver.put("version", toolVersion);
        TreeSet<String> ruleIds = new TreeSet<>();
        diagnosticsByFile.values().forEach(ds -> ds.forEach(d -> ruleIds.add(d.rule())));
        ArrayNode rules = driver.putArray("rules");
        for (String id : ruleIds) {
            rules.addObject().put("id", id);
        }
        ArrayNode artifacts = run.putArray("artifacts");
        diagnosticsByFile.keySet().forEach(f -> artifacts.addObject().putObject("location").put("uri", uri(f)));
        ArrayNode results = run.putArray("results");
        for (Map.Entry<String, List<Diagnostic>> e : diagnosticsByFile.entrySet()) {
            for (Diagnostic d : e.getValue()) {
                ObjectNode r = results.addObject();
                r.put("ruleId", d.rule());
                r.put("ruleIndex", ruleIds.headSet(d.rule()).size());
                r.put("level", level(d.severity()));
                r.putObject("message").put("text", d.message());
                ObjectNode physical = r.putArray("locations").addObject().putObject("physicalLocation");
                physical.putObject("artifactLocation").put("uri", uri(e.getKey()));
                ObjectNode region = physical.putObject("region");
                region.put("startLine", Math.max(1, d.pos().line()));
                region.put("startColumn", Math.max(1, d.pos().column()));
                if (!d.notes().isEmpty()) {
                    ArrayNode related = r.putArray("relatedLocations");
                    for (int k = 0; k < d.notes().size(); k++) {
                        Diagnostic.Note n = d.notes().get(k);
                        ObjectNode loc = related.addObject();
                        loc.put("id", k);
                        ObjectNode p = loc.putObject("physicalLocation");
                        p.putObject("artifactLocation").put("uri", uri(n.pos().file()));
                        ObjectNode reg = p.putObject("region");
                        reg.put("startLine", Math.max(1, n.pos().line()));
                        if (n.pos().column() > 0) {
                            reg.put("startColumn", n.pos().column());
                        }
                        loc.putObject("message").put("text", n.message());
                    }
                }
            }
        }
        return log;
    }

    /** SARIF levels: error, warning, note. */
    private static String level(Severity s) {
        return switch (s) {
            case ERROR -> "error";
            case WARNING -> "warning";
            case NOTE -> "note";
        };
    }

    /**
     * A URI reference with forward slashes, as SARIF's artifactLocation.uri expects: relative
     * paths as they are, absolute ones as file: URIs.
     */
    private static String uri(String file) {
        String u = file.replace('\\', '/').replace(" ", "%20");
        return u.startsWith("/") ? "file://" + u : u;
    }
}
