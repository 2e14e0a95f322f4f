package io.ptxrun.isa;

import io.ptxrun.ast.DataType;
import java.util.Map;

/**
 * Fundamental types that a later PTX ISA version and target introduced (PTX ISA 5.2.2), required
 * wherever the type is declared: a `.reg .b128` needs what a `.b128` instruction needs.
 */
public final class DataTypeRules {
    /** The version and target a type requires, and where that is stated. */
    public record Requirement(PtxVersion minVersion, TargetRequirement target, String citation) {}

    private static final Map<DataType, Requirement> REQUIREMENTS = Map.of(
            // ptxas: "Feature 'Type .b128' requires PTX ISA .version 8.3 or later", "... requires .target sm_70 or higher".
            DataType.B128, new Requirement(PtxVersion.of("8.3"), TargetRequirement.atLeast(70),
                    "5.2.2 Fundamental types"));

    private DataTypeRules() {}

    /** The requirement of a type, or null for types every version and target has. */
    public static Requirement requirement(DataType type) {
        return REQUIREMENTS.get(type);
    }
}
