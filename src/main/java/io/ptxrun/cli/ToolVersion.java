package io.ptxrun.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** ptxrun's version, as Maven writes it into the jar (ptxrun.properties), and the PTX ISA it follows. */
public final class ToolVersion {
    /** The PTX ISA version whose text the checks and semantics follow. */
    public static final String PTX_ISA = "9.0";

    private ToolVersion() {}

    /** The project version, e.g. {@code 0.1.0}. */
    public static String number() {
        try (InputStream in = ToolVersion.class.getResourceAsStream("/io/ptxrun/ptxrun.properties")) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                String v = p.getProperty("version", "");
                if (!v.isEmpty() && !v.startsWith("$")) {
                    return v;
                }
            }
        } catch (IOException e) {
            // fall through
        }
        return "unknown";
    }
}
