package io.ptxrun.check;

import io.ptxrun.ast.Module;
import io.ptxrun.ast.ModuleItem;
import io.ptxrun.diag.Diagnostics;
import io.ptxrun.isa.PtxVersion;
import io.ptxrun.isa.Target;
import java.util.Optional;

/**
 * Module directives (PTX ISA 11.1): `.version` known to the reference ptxas, `.target` a known
 * architecture that the version supports, `.address_size` 32 or 64; and, when a GPU is named on
 * the command line (like `ptxas --gpu-name`), the module's target must be one that can be
 * assembled for it. Features are still judged against the module's `.target`, as ptxas does.
 */
public final class ModuleTargetChecker {

    /** What the instruction rules are checked against; absent parts were reported already. */
    public record Context(PtxVersion version, Target target) {}

    private final Diagnostics diagnostics;

    public ModuleTargetChecker(Diagnostics diagnostics) {
        this.diagnostics = diagnostics;
    }

    /** The version and target of the module, or empty when either is missing or unusable. */
    public Optional<Context> check(Module module, Optional<Target> gpu) {
        PtxVersion version = null;
        Optional<ModuleItem.Version> v = module.version();
        if (v.isPresent()) {
            PtxVersion written = new PtxVersion(v.get().major(), v.get().minor());
            if (!written.isKnown() || written.compareTo(PtxVersion.LATEST) > 0) {
                diagnostics.error(v.get().pos(), "module.version", "unsupported .version " + written
                        + "; known versions are 1.0 .. " + PtxVersion.LATEST
                        + " (ptxas: \"Unsupported .version " + written + "; current version is '"
                        + PtxVersion.LATEST + "'\")");
            } else {
                version = written;
            }
        }
        Target target = null;
        Optional<ModuleItem.Target> t = module.target();
        if (t.isPresent() && !t.get().names().isEmpty()) {
            String name = t.get().names().get(0);
            Optional<Target> parsed = Target.parse(name);
            if (parsed.isEmpty()) {
                diagnostics.error(t.get().pos(), "module.target", "unsupported .target '" + name
                        + "'; expected sm_XY with an optional 'a' or 'f' suffix naming a known architecture"
                        + " (PTX ISA 11.1.2)");
            } else {
                target = parsed.get();
                if (version != null && !version.atLeast(target.introducedIn())) {
                    diagnostics.error(t.get().pos(), "module.target", ".target " + target + " requires .version "
                            + target.introducedIn() + " or later; the module declares .version " + version
                            + " (PTX ISA 11.1.2; ptxas: \"PTX .version " + version + " does not support .target "
                            + target + "\")");
                }
                // map_f64_to_f32 lowered doubles to floats for chips without double precision.
                if (t.get().names().contains("map_f64_to_f32") && target.atLeast(13)) {
                    diagnostics.error(t.get().pos(), "module.target", "map_f64_to_f32 applies to targets below"
                            + " sm_13 only (PTX ISA 11.1.2; ptxas: \"Directive map_f64_to_f32 is not supported with SM"
                            + " 1.3 or higher\")");
                }
                if (gpu.isPresent()) {
                    String why = target.incompatibilityWith(gpu.get());
                    if (why != null) {
                        diagnostics.error(t.get().pos(), "module.target", ".target " + target
                                + " cannot be assembled for --target " + gpu.get() + " (ptxas: \"" + why + "\")");
                    }
                }
            }
        }
        module.addressSize().ifPresent(a -> {
            if (a.bits() != 32 && a.bits() != 64) {
                diagnostics.error(a.pos(), "module.address_size", ".address_size must be 32 or 64, not "
                        + a.bits() + " (PTX ISA 11.1.3)");
            } else if (a.bits() == 32) {
                diagnostics.error(a.pos(), "module.address_size", "32-bit addressing is no longer compiled:"
                        + " use .address_size 64 (PTX ISA 11.1.3; ptxas: \"32-Bit compilation is no longer supported\","
                        + " and for sm_90 and later \"32-Bit ABI ... is not supported\")");
            }
        });
        if (version != null && module.addressSize().isPresent()
                && !version.atLeast(PtxVersion.ADDRESS_SIZE_DIRECTIVE)) {
            diagnostics.error(module.addressSize().get().pos(), "isa.version", ".address_size requires .version "
                    + PtxVersion.ADDRESS_SIZE_DIRECTIVE + " or later; the module declares .version " + version
                    + " (PTX ISA 11.1.3; ptxas: \"Feature '.address_size directive' requires PTX ISA .version 2.3"
                    + " or later\")");
        }
        return version != null && target != null ? Optional.of(new Context(version, target)) : Optional.empty();
    }
}
