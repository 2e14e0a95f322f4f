package io.ptxrun.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The options of one command and what a command line gives them. A command line is words:
 * `--name VALUE` or `--name=VALUE` for an option with a value, `--name` for a flag, positional
 * words in between, and `--` before positional words that begin with a dash. `-h`/`--help` and
 * `-V`/`--version` (also `-hV`) anywhere before `--` win over everything else on the line, help
 * over version. Hand-written rather than a library: `check` is a short-lived process, and a
 * reflective parser was a visible share of its start-up.
 */
final class CommandLine {
    /** An option: a flag when label is null, else it takes a value shown as label in the help. */
    record Option(String name, String label, String description) {
        boolean isFlag() {
            return label == null;
        }
    }

    /** A command line that cannot be run; the message follows "ptxrun: error: ". */
    static final class UsageException extends Exception {
        UsageException(String message) {
            super(message, null, false, false);
        }
    }

    /** What the words gave: the values of each option given (in order) and the positional words. */
    static final class Parsed {
        private final Map<String, List<String>> values = new LinkedHashMap<>();
        final List<String> positional = new ArrayList<>();
        boolean help;
        boolean version;

        boolean has(String option) {
            return values.containsKey(option);
        }

        /** The last value given to the option (as `--flag=false` turns a flag off), or null. */
        String value(String option) {
            List<String> v = values.get(option);
            return v == null ? null : v.get(v.size() - 1);
        }

        /** Every value given to a repeatable option, or null when it was not given. */
        List<String> values(String option) {
            return values.get(option);
        }

        boolean flag(String option) {
            return has(option) && !value(option).equals("false");
        }

        long longValue(String option, long absent) throws UsageException {
            String v = value(option);
            try {
                return v == null ? absent : Long.parseLong(v);
            } catch (NumberFormatException e) {
                throw invalid(option, "'" + v + "' is not a long");
            }
        }

        int intValue(String option, int absent) throws UsageException {
            String v = value(option);
            try {
                return v == null ? absent : Integer.parseInt(v);
            } catch (NumberFormatException e) {
                throw invalid(option, "'" + v + "' is not an int");
            }
        }
    }

    /** "Invalid value for option '--x': why". */
    static UsageException invalid(String option, String why) {
        return new UsageException("Invalid value for option '" + option + "': " + why);
    }

    private final String name;
    private final List<Option> options;

    /** name is how the command is typed ("ptxrun", "ptxrun check"); -h and -V are added to options. */
    CommandLine(String name, List<Option> options) {
        this.name = name;
        this.options = options;
    }

    String name() {
        return name;
    }

    /** The words of args from index from on; positional words beyond maxPositional are an error. */
    Parsed parse(String[] args, int from, int maxPositional) throws UsageException {
        Parsed parsed = new Parsed();
        for (int i = from; i < args.length && !args[i].equals("--"); i++) {
            switch (args[i]) {
                case "-h", "--help" -> parsed.help = true;
                case "-V", "--version" -> parsed.version = true;
                case "-hV", "-Vh" -> parsed.help = parsed.version = true;
                default -> { }
            }
        }
        if (parsed.help || parsed.version) {
            return parsed;
        }
        boolean positionalOnly = false;
        for (int i = from; i < args.length; i++) {
            String word = args[i];
            if (positionalOnly || !word.startsWith("-") || word.equals("-")) {
                if (parsed.positional.size() == maxPositional) {
                    throw new UsageException("Unmatched argument at index " + i + ": '" + word + "'");
                }
                parsed.positional.add(word);
                continue;
            }
            if (word.equals("--")) {
                positionalOnly = true;
                continue;
            }
            int eq = word.indexOf('=');
            String given = eq < 0 ? word : word.substring(0, eq);
            Option option = option(given);
            if (option == null) {
                String message = "Unknown option: '" + word + "'";
                String closest = closestOption(given);
                throw new UsageException(closest == null ? message : message + "\nDid you mean '" + closest + "'?");
            }
            String value;
            if (eq >= 0) {
                value = word.substring(eq + 1);
            } else if (option.isFlag()) {
                value = "true";
            } else if (i + 1 < args.length && option(args[i + 1]) == null) {
                value = args[++i];
            } else {
                throw new UsageException("Missing required parameter for option '" + option.name() + "' ("
                        + option.label() + ")");
            }
            if (option.isFlag() && !value.equals("true") && !value.equals("false")) {
                throw invalid(option.name(), "'" + value + "' is not a boolean");
            }
            parsed.values.computeIfAbsent(option.name(), k -> new ArrayList<>(1)).add(value);
        }
        return parsed;
    }

    private Option option(String given) {
        for (Option o : options) {
            if (o.name().equals(given)) {
                return o;
            }
        }
        return null;
    }

    /** The option (or -h, --help, -V, --version) nearest in edit distance to an unknown one, if any is near. */
    String closestOption(String given) {
        List<String> names = new ArrayList<>(List.of("-h", "--help", "-V", "--version"));
        options.forEach(o -> names.add(o.name()));
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String n : names) {
            int d = editDistance(given, n);
            if (d < bestDistance) {
                bestDistance = d;
                best = n;
            }
        }
        return best != null && bestDistance <= Math.max(2, given.length() / 3) ? best : null;
    }

    static int editDistance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    /** The option list of the help: name and label in one column, the description wrapped beside it. */
    String optionsHelp(String positional, String positionalDescription) {
        StringBuilder sb = new StringBuilder();
        row(sb, "      " + positional, positionalDescription);
        for (Option o : options) {
            row(sb, "      " + o.name() + (o.isFlag() ? "" : "=" + o.label()), o.description());
        }
        row(sb, "  -h, --help", "Show this help message and exit.");
        row(sb, "  -V, --version", "Print version information and exit.");
        return sb.toString();
    }

    private static final int WIDTH = 80;
    private static final int DESCRIPTION_COLUMN = 29;

    private static void row(StringBuilder sb, String left, String description) {
        sb.append(left);
        int column = left.length();
        if (column >= DESCRIPTION_COLUMN) {
            sb.append('\n');
            column = 0;
        }
        sb.append(" ".repeat(DESCRIPTION_COLUMN - column));
        wrap(sb, description, DESCRIPTION_COLUMN, DESCRIPTION_COLUMN + 2);
    }

    /** Appends text word-wrapped at WIDTH, the cursor at column first, continuation lines at column next. */
    static void wrap(StringBuilder sb, String text, int first, int next) {
        int column = first;
        boolean lineStart = true;
        for (String word : text.split(" ")) {
            if (!lineStart && column + 1 + word.length() > WIDTH) {
                sb.append('\n').append(" ".repeat(next));
                column = next;
                lineStart = true;
            }
            if (!lineStart) {
                sb.append(' ');
                column++;
            }
            sb.append(word);
            column += word.length();
            lineStart = false;
        }
        sb.append('\n');
    }
}
