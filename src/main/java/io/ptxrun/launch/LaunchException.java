package io.ptxrun.launch;

/**
 * A launch description (launch file, command-line launch flags, tensor map) or a result file that
 * cannot be used. The message always says where the problem is, as a JSON path such as
 * {@code buffers.in.count} or {@code params[2]}, and what is wrong, so a front end can print it
 * as it is.
 *
 * <p>Checks deep inside a value report a path relative to that value; the code that knows where
 * the value sits in the file adds the outer part with {@link #at(String)}.
 */
public final class LaunchException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String path;
    private final String problem;

    public LaunchException(String path, String problem) {
        this(path.isEmpty() ? problem : path + ": " + problem, path, problem);
    }

    private LaunchException(String message, String path, String problem) {
        super(message, null, false, false);
        this.path = path;
        this.problem = problem;
    }

    /** A problem not tied to a place in the description (yet). */
    public LaunchException(String problem) {
        this("", problem);
    }

    /** The JSON path of the offending value, or "" when the problem is about the whole input. */
    public String path() {
        return path;
    }

    /**
     * The same place as a JSON Pointer ({@code /buffers/in/count}, {@code /params/2}), as JSON
     * Schema validators name it: the key at fault, also where a required key is missing.
     */
    public String pointer() {
        return JsonPaths.pointer(path);
    }

    /** What is wrong, without the path. */
    public String problem() {
        return problem;
    }

    /** The same problem, seen from the value at {@code outerPath} that contains this one. */
    public LaunchException at(String outerPath) {
        if (outerPath.isEmpty()) {
            return this;
        }
        return new LaunchException(JsonPaths.join(outerPath, path), problem);
    }

    /**
     * The same problem with the message prefixed by the file it is in ({@code launch.json: grid:
     * ...}); {@link #path()} and {@link #problem()} stay as they were.
     */
    public LaunchException inFile(String source) {
        return new LaunchException(source + ": " + getMessage(), path, problem);
    }
}
