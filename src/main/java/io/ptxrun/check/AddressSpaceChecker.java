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
 * Addresses against their state space (PTX ISA 6.4.1 "Addresses as Operands", 5.1 "State
 * Spaces", 11.1.3 ".address_size"), for the loads, stores, atomics and cache-control instructions:
 * a variable named in `[var]` must live in the space the instruction names (ptxas: "State space
 * mismatch between instruction and address"); a generic access may name a .global, .shared or
 * .local variable, not a .const or .param one; prefetchu takes generic addresses only ("Non-generic
 * address is not supported as operand for prefetchu instruction"). Under `.address_size 64`
 * generic and global addresses are 64 bits wide: a .u32 address register, the address of a
 * .global variable moved into 32 bits, and cvta on .u32 are 32-bit addresses, which ptxas refuses
 * ("Program uses 32-bit address ... which is conflicting with .address_size 64"). Each rule was
 * compared with ptxas (testdata/check/address-spaces.jsonl.gz).
 */
final class AddressSpaceChecker {
    /** The instructions whose addresses are checked here. */
    private static final Set<Opcode> CHECKED = EnumSet.of(Opcode.LD, Opcode.LDU, Opcode.ST, Opcode.ATOM, Opcode.RED,
            Opcode.PREFETCH, Opcode.PREFETCHU, Opcode.APPLYPRIORITY, Opcode.DISCARD, Opcode.CREATEPOLICY,
            Opcode.LDMATRIX, Opcode.STMATRIX);

    private final Diagnostics diagnostics;
    private final Map<String, StateSpace> moduleVariables = new HashMap<>();
    private int addressBits = 64;
    /** Whether the function being checked is a kernel (.entry). */
    private boolean inEntry;

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
            inEntry = f.isEntry();
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
            } else if (s instanceof Instruction i && addressBits == 64) {
                checkAddressWidth(i, spaces);
            } else if (s instanceof Block b) {
                checkBlock(b, registers.enter(b), spaces);
            }
        }
    }

    private void checkAddress(Instruction i, Operand.Address a, RegisterTable registers,
                              Map<String, StateSpace> spaces) {
        String name = i.mnemonic();
        StateSpace named = StateSpace.GENERIC;
        for (Qual q : i.qualifiers()) {
            if (q.kind().space() != null) {
                named = q.kind().space();
                break;
            }
        }
        if (a.base() instanceof Operand.Register r && inEntry && i.opcode() == Opcode.ST && named.isParam()) {
            // A kernel writes .param space only to pass arguments to a call, through their names.
            diagnostics.error(r.pos(), "isa.address", "st.param in a kernel writes the parameters of a call by"
                    + " name; a register address is not one (PTX ISA 5.1.6; ptxas refuses it)");
            return;
        }
        if (a.base() instanceof Operand.Register r) {
            // Generic and global addresses span the whole address space; .const and .param
            // windows are addressed with 32-bit offsets too (ptxas takes prefetch.const [%r1]).
            // ldmatrix and stmatrix address shared memory even generically: ptxas takes a 32-bit
            // register there (testdata/check/matrix-move.jsonl.gz).
            boolean matrix = i.opcode() == Opcode.LDMATRIX || i.opcode() == Opcode.STMATRIX;
            boolean wide = named == StateSpace.GENERIC && !matrix || named == StateSpace.GLOBAL;
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
            } else if (declared == StateSpace.CONST || declared.isParam()) {
                diagnostics.error(s.pos(), "isa.address", "'" + s.name() + "' is a " + declared.spelling
                        + " variable, which a generic " + i.opcode().spelling + " cannot name; write "
                        + i.opcode().spelling + declared.spelling + " (PTX ISA 6.4.1; ptxas: \"State space mismatch"
                        + " between instruction and address\")");
            }
            return;
        }
        if (!sameSpace(named, declared)) {
            diagnostics.error(s.pos(), "isa.address", "'" + s.name() + "' is a " + declared.spelling + " variable, but "
                    + name + " addresses " + named.spelling + " (PTX ISA 6.4.1: the state space of an address must"
                    + " match the instruction's)");
        }
    }

    /** 32-bit addresses outside loads and stores: cvta on .u32, a .global variable moved into 32 bits. */
    private void checkAddressWidth(Instruction i, Map<String, StateSpace> spaces) {
        DataType type = i.type();
        if (type == null || type.bits != 32) {
            return;
        }
        if (i.opcode() == Opcode.CVTA) {
            diagnostics.error(i.pos(), "isa.address", i.mnemonic() + " converts 32-bit addresses, which a module of"
                    + " .address_size 64 does not have; use .u64 (PTX ISA 9.7.9.17 cvta, 11.1.3; ptxas: \"Program"
                    + " uses 32-bit address ... which is conflicting with .address_size 64\")");
        } else if (i.opcode() == Opcode.MOV && i.operands().size() == 2
                && i.operands().get(1) instanceof Operand.Symbol sym && sym.offset() == 0
                && spaces.get(sym.name()) == StateSpace.GLOBAL) {
            // ptxas refuses the bare variable but takes `gv+4` (a constant expression it does not trace).
            diagnostics.error(sym.pos(), "isa.address", "the address of the .global variable '" + sym.name()
                    + "' is 64 bits under .address_size 64; " + i.mnemonic() + " would truncate it (PTX ISA 11.1.3;"
                    + " ptxas: \"Program uses 32-bit address ... which is conflicting with .address_size 64\")");
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
