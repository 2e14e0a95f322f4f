package io.ptxrun.check;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ptxrun.ast.Instruction;
import io.ptxrun.ast.Opcode;
import io.ptxrun.ast.Qual;
import io.ptxrun.ast.Qualifier;
import io.ptxrun.ast.SourcePos;
import io.ptxrun.isa.Form;
import io.ptxrun.isa.InstructionSet;
import io.ptxrun.isa.QualifierGroup;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The check that rules a form out before matching qualifiers against it (InstructionChecker.cannotFit)
 * is sound: whatever it rules out, the full matching also finds a problem with. Qualifier lists are
 * drawn from what each opcode's forms offer (and one foreign qualifier), in random orders and
 * numbers, for every form of every opcode with rules.
 */
class QualifierPrefilterTest {
    private static final SourcePos AT = new SourcePos("t.ptx", 1, 1);

    @Test
    void aFormRuledOutNeverMatchesWithoutProblems() {
        Random random = new Random(13);
        int ruledOut = 0;
        int checked = 0;
        for (Opcode op : InstructionSet.modelled()) {
            List<Form> forms = InstructionSet.forms(op);
            Set<Qualifier> offered = new LinkedHashSet<>();
            for (Form f : forms) {
                for (QualifierGroup g : f.qualifiers()) {
                    g.alternatives().forEach(offered::addAll);
                }
            }
            offered.add(Qualifier.of(".f64"));
            List<Qualifier> pool = new ArrayList<>(offered);
            for (int trial = 0; trial < 200; trial++) {
                List<Qualifier> kinds = new ArrayList<>();
                if (trial < forms.size()) {
                    // A written form of each: one alternative of every group, required or not.
                    for (QualifierGroup g : forms.get(trial).qualifiers()) {
                        if (g.required() || random.nextBoolean()) {
                            kinds.addAll(g.alternatives().get(random.nextInt(g.alternatives().size())));
                        }
                    }
                    if (random.nextInt(4) == 0) {
                        Collections.shuffle(kinds, random);
                    }
                } else {
                    int n = random.nextInt(6);
                    for (int k = 0; k < n; k++) {
                        kinds.add(pool.get(random.nextInt(pool.size())));
                    }
                }
                List<Qual> quals = new ArrayList<>();
                for (Qualifier k : kinds) {
                    quals.add(new Qual(AT, k, k.spelling));
                }
                Instruction instruction = new Instruction(AT, null, op, quals, List.of());
                for (Form form : forms) {
                    List<InstructionChecker.Problem> problems = new ArrayList<>();
                    InstructionChecker.matchQualifiers(instruction, form, problems);
                    checked++;
                    if (InstructionChecker.cannotFit(kinds, form)) {
                        ruledOut++;
                        assertFalse(problems.isEmpty(), op + " " + kinds + " was ruled out of " + form
                                + " but matches it");
                    }
                }
            }
        }
        // The check rules out most mismatches, or it would not save anything.
        assertTrue(ruledOut > checked / 2, ruledOut + " of " + checked);
    }
}
