package io.ptxrun.check;

import io.ptxrun.ast.Block;
import io.ptxrun.ast.DataType;
import io.ptxrun.ast.Function;
import io.ptxrun.ast.Instruction;
import io.ptxrun.ast.Module;
import io.ptxrun.ast.ModuleItem;
import io.ptxrun.ast.Opcode;
import io.ptxrun.ast.Operand;
import io.ptxrun.ast.Param;
import io.ptxrun.ast.Qual;
import io.ptxrun.ast.Statement;
import io.ptxrun.ast.StateSpace;
import io.ptxrun.ast.VarDecl;
import io.ptxrun.diag.Diagnostics;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The address operand of the cache-control instructions against their state space (PTX ISA 6.4.1
 * "Addresses as Operands"): a variable named in `[var]` must live in the space the instruction
 * names (ptxas: "State space mismatch between instruction and address"), prefetchu takes generic
 * addresses, so a variable of a non-global space is not one ("Non-generic address is not
 * supported as operand for prefetchu instruction"), and under `.address_size 64` an address
 * register is 64 bits wide (ptxas rejects `[%r1]` with a .u32 register). Instructions of other
 * families keep their own address rules.
 */
final class AddressSpaceChecker {
    /** The instructions whose addresses are checked here. */
    private static final Set<Opcode> CHECKED = EnumSet.of(Opcode.PREFETCH, Opcode.PREFETCHU, Opcode.APPLYPRIORITY,
            Opcode.DISCARD, Opcode.CREATEPOLICY);

    private final Diagnostics diagnostics;
    private final Map<String, StateSpace> moduleVariables = new HashMap<>();
    private int addressBits = 64;

    AddressSpaceChecker(Diagnostics diagnostics) {
        this.diagnostics = diagnostics;
    }

    void check(Module module) {
        module.addressSize().ifPresent(a -> addressBits = a.bits());
        for (ModuleItem item : module.items()) {
            if (item instanceof VarDecl v) {
                v.declarators().forEach(d -> moduleVariables.put(d.name(), v.space()));
            }
        }
        for (Function f : module.functions()) {
            if (f.body().isEmpty()) {
                continue;
            }
            Map<String, StateSpace> local = new HashMap<>(moduleVariables);
            for (Param p : f.params()) {
                local.put(p.name(), p.space());
            }
            collect(f.body().get(), local);
            checkBlock(f.body().get(), RegisterTable.of(f), local);
        }
    }

    private static void collect(Block block, Map<String, StateSpace> spaces) {
        for (Statement s : block.statements()) {
            if (s instanceof VarDecl v) {
                v.declarators().forEach(d -> spaces.put(d.name(), v.space()));
            } else if (s instanceof Block b) {
                collect(b, spaces);
            }
        }
    }

    private void checkBlock(Block block, RegisterTable registers, Map<String, StateSpace> spaces) {
        for (Statement s : block.statements()) {
            if (s instanceof Instruction i && CHECKED.contains(i.opcode())) {
                for (Operand o : i.operands()) {
                    if (o instanceof Operand.Address a) {
                        checkAddress(i, a, registers, spaces);
                    }
                }
            } else if (s instanceof Block b) {
                checkBlock(b, registers.enter(b), spaces);
            }
        }
    }

    private void checkAddress(Instruction i, Operand.Address a, RegisterTable registers,
                              Map<String, StateSpace> spaces) {
        String name = i.mnemonic();
        StateSpace named = i.qualifiers().stream().map(Qual::kind).map(q -> q.space()).filter(sp -> sp != null)
                .findFirst().orElse(StateSpace.GENERIC);
        if (a.base() instanceof Operand.Register r) {
            // Generic and global addresses span the whole address space; .const and .param
            // windows are addressed with 32-bit offsets too (ptxas takes prefetch.const [%r1]).
            boolean wide = named == StateSpace.GENERIC || named == StateSpace.GLOBAL;
            DataType t = registers.typeOf(r.name());
            if (wide && t != null && t != DataType.PRED && t.bits < addressBits) {
                diagnostics.error(r.pos(), "isa.address", "the address register " + r.name() + " of " + name + " is "
                        + t.spelling + "; under .address_size " + addressBits + " an address is a " + addressBits
                        + "-bit register (PTX ISA 6.4.1)");
            }
            return;
        }
        if (!(a.base() instanceof Operand.Symbol s)) {
            return;
        }
        StateSpace declared = spaces.get(s.name());
        if (declared == null) {
            return;
        }
        if (named == StateSpace.GENERIC) {
            if (i.opcode() == Opcode.PREFETCHU && declared != StateSpace.GLOBAL) {
                diagnostics.error(s.pos(), "isa.address", "prefetchu takes a generic address; '" + s.name()
                        + "' is a " + declared.spelling + " variable (PTX ISA 9.7.9.15 prefetchu)");
            }
            return;
        }
        if (!sameSpace(named, declared)) {
            diagnostics.error(s.pos(), "isa.address", "'" + s.name() + "' is a " + declared.spelling + " variable, but "
                    + name + " addresses " + named.spelling + " (PTX ISA 6.4.1: the state space of an address must"
                    + " match the instruction's)");
        }
    }

    private static boolean sameSpace(StateSpace named, StateSpace declared) {
        if (named.isShared() || declared.isShared()) {
            return named.isShared() && declared.isShared();
        }
        if (named.isParam() || declared.isParam()) {
            return named.isParam() && declared.isParam();
        }
        return named == declared;
    }
}
