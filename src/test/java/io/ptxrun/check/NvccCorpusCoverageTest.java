package io.ptxrun.check;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ptxrun.TestData;
import io.ptxrun.ast.Block;
import io.ptxrun.ast.Function;
import io.ptxrun.ast.Instruction;
import io.ptxrun.ast.Module;
import io.ptxrun.ast.Opcode;
import io.ptxrun.ast.Statement;
import io.ptxrun.isa.InstructionSet;
import io.ptxrun.syntax.PtxParser;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Which instructions of the compiler output in testdata/nvcc the validator checks beyond syntax:
 * every opcode the corpus uses has rule rows, except the listed ones, whose rows are still to be
 * written. The list is exact, so that it shrinks as tables are added.
 */
class NvccCorpusCoverageTest {
    /**
     * Used by the corpus without a rule table: call, whose operand lists CallChecker checks
     * against the callee's prototype instead.
     */
    static final Set<Opcode> NOT_YET_MODELLED = EnumSet.of(Opcode.CALL);

    @Test
    void everyCorpusInstructionHasRulesButTheListedGaps() {
        Set<Opcode> unmodelled = EnumSet.noneOf(Opcode.class);
        for (Path file : TestData.files("nvcc", ".ptx")) {
            PtxParser.Parsed<Module> parsed = PtxParser.parseModule(file.toString(), TestData.read(file));
            for (Function f : parsed.value().functions()) {
                f.body().ifPresent(b -> collect(b, unmodelled));
            }
        }
        assertEquals(NOT_YET_MODELLED, unmodelled);
    }

    private static void collect(Block block, Set<Opcode> unmodelled) {
        for (Statement s : block.statements()) {
            if (s instanceof Instruction i && !InstructionSet.isModelled(i.opcode())) {
                unmodelled.add(i.opcode());
            } else if (s instanceof Block b) {
                collect(b, unmodelled);
            }
        }
    }
}
