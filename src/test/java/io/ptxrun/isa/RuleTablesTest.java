package io.ptxrun.isa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ptxrun.ast.Opcode;
import io.ptxrun.ast.Qualifier;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The rule tables are well-formed data: every opcode in scope has forms, and every row cites its source. */
class RuleTablesTest {

    @Test
    void everyInstructionInScopeHasForms() {
        for (Opcode op : new Opcode[] {Opcode.BAR, Opcode.BARRIER, Opcode.MBARRIER_INIT, Opcode.MBARRIER_INVAL,
                Opcode.MBARRIER_ARRIVE, Opcode.MBARRIER_ARRIVE_DROP, Opcode.MBARRIER_TEST_WAIT, Opcode.MBARRIER_TRY_WAIT,
                Opcode.MBARRIER_EXPECT_TX, Opcode.MBARRIER_COMPLETE_TX, Opcode.MBARRIER_PENDING_COUNT, Opcode.CP_ASYNC,
                Opcode.CP_ASYNC_COMMIT_GROUP, Opcode.CP_ASYNC_WAIT_GROUP, Opcode.CP_ASYNC_WAIT_ALL,
                Opcode.CP_ASYNC_MBARRIER_ARRIVE, Opcode.CP_ASYNC_BULK, Opcode.CP_REDUCE_ASYNC_BULK,
                Opcode.CP_ASYNC_BULK_PREFETCH, Opcode.CP_ASYNC_BULK_TENSOR, Opcode.CP_REDUCE_ASYNC_BULK_TENSOR,
                Opcode.CP_ASYNC_BULK_PREFETCH_TENSOR, Opcode.CP_ASYNC_BULK_COMMIT_GROUP, Opcode.CP_ASYNC_BULK_WAIT_GROUP}) {
            assertFalse(InstructionSet.forms(op).isEmpty(), op + " has no forms");
            assertFalse(InstructionSet.features(op).isEmpty(), op + " has no version/target rows");
        }
    }

    @Test
    void arithmeticConversionAndMiscellaneousInstructionsHaveForms() {
        for (Opcode op : new Opcode[] {Opcode.MUL, Opcode.MAD, Opcode.MADC, Opcode.ADDC, Opcode.SUBC, Opcode.FMA,
                Opcode.DIV, Opcode.REM, Opcode.ABS, Opcode.NEG, Opcode.MIN, Opcode.MAX, Opcode.COPYSIGN, Opcode.SQRT,
                Opcode.RCP, Opcode.RSQRT, Opcode.EX2, Opcode.LG2, Opcode.SIN, Opcode.COS, Opcode.TANH, Opcode.SAD,
                Opcode.MUL24, Opcode.MAD24, Opcode.DP4A, Opcode.DP2A, Opcode.SET, Opcode.SLCT, Opcode.CVT, Opcode.BFE,
                Opcode.BFI, Opcode.BFIND, Opcode.BMSK, Opcode.FNS, Opcode.PRMT, Opcode.LOP3, Opcode.MATCH,
                Opcode.REDUX, Opcode.ISSPACEP, Opcode.FENCE, Opcode.SETMAXNREG, Opcode.GRIDDEPCONTROL_WAIT,
                Opcode.GRIDDEPCONTROL_LAUNCH_DEPENDENTS, Opcode.TRAP, Opcode.BRKPT}) {
            assertFalse(InstructionSet.forms(op).isEmpty(), op + " has no forms");
        }
    }

    @Test
    void eachTableDeclaresTheOpcodesOfItsRows() {
        for (RuleTable t : InstructionSet.tables()) {
            Set<Opcode> named = EnumSet.noneOf(Opcode.class);
            t.forms().forEach(f -> named.add(f.opcode()));
            t.features().forEach(r -> named.add(r.opcode()));
            assertEquals(named, t.opcodes(), t.getClass().getSimpleName());
        }
    }

    /**
     * A form parses its qualifier and operand spelling when a check first needs it: every row of
     * every table must parse (an unknown qualifier throws), whatever a check happens to use.
     */
    @Test
    void everyFormParses() {
        int forms = 0;
        for (RuleTable t : InstructionSet.tables()) {
            for (Form f : t.forms()) {
                for (QualifierGroup g : f.qualifiers()) {
                    assertFalse(g.alternatives().isEmpty() || g.alternatives().contains(java.util.List.of()), f::toString);
                }
                for (OperandSlot o : f.operands()) {
                    assertFalse(o.name().isEmpty() || o.kinds().isEmpty(), f::toString);
                }
                forms++;
            }
        }
        assertTrue(forms > 1000, "forms: " + forms);
    }

    @Test
    void everyRowCitesTheSpec() {
        for (Opcode op : InstructionSet.modelled()) {
            for (Form f : InstructionSet.forms(op)) {
                assertTrue(f.citation().matches("\\d+(\\.\\d+)+ .+"), () -> op + ": " + f.citation());
            }
            for (FeatureRule r : InstructionSet.features(op)) {
                assertTrue(r.citation().matches("\\d+(\\.\\d+)+ .+"), () -> op + ": " + r.citation());
            }
        }
    }

    @Test
    void featureConditionsNameQualifiersTheFormsUse() {
        for (Opcode op : InstructionSet.modelled()) {
            for (FeatureRule r : InstructionSet.features(op)) {
                for (Qualifier q : r.present()) {
                    assertTrue(InstructionSet.forms(op).stream()
                            .anyMatch(f -> f.qualifiers().stream().anyMatch(g -> g.mentions(q))),
                            () -> op + " rule on " + q.spelling + " can never apply");
                }
            }
        }
    }

    @Test
    void slotsParseTheirConstraints() {
        OperandSlot size = OperandSlot.parse("size:b32|imm=16n&0..1048560");
        assertTrue(size.admits(0) && size.admits(1048560) && size.admits(32));
        assertFalse(size.admits(17) || size.admits(-16) || size.admits(1048576));
        OperandSlot count = OperandSlot.parse("count:b32|imm=32n!0");
        assertFalse(count.admits(0));
        assertTrue(count.admits(-32));
        OperandSlot init = OperandSlot.parse("count:b32|imm=~1..1048575");
        assertTrue(init.admits(0) && !init.isDefined(0) && init.isDefined(1));
    }
}
