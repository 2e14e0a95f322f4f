package io.ptxrun.launch;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Reading launch and result files as JSON trees, with the same leniency as Python's
 * {@code json} module (which the hardware harness uses): {@code NaN} and {@code Infinity} literals
 * are accepted, numbers with a fraction or exponent become {@code double}s (so {@code -0.0} keeps
 * its sign). Duplicate keys and text after the value are rejected. Syntax errors become a
 * {@link LaunchException} with line and column and a message in our own words.
 */
final class Json {
    static final ObjectMapper MAPPER =
            JsonMapper.builder()
                    .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
                    .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                    .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER)
                    .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                    .build();

    private static final int SHOWN_VALUE_CHARS = 40;

    private Json() {}

    /** The document in {@code text}; an empty document is an error, like any malformed one. */
    static JsonNode parse(String text) {
        JsonNode root;
        try {
            root = MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw syntaxError(e);
        }
        if (root == null || root.isMissingNode()) {
            throw new LaunchException("1:1: malformed JSON: the input is empty");
        }
        return root;
    }

    /** The text of a file, with a readable error when it cannot be read. */
    static String readFile(Path file) {
        try {
            return Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new LaunchException("no such file").inFile(file.toString());
        } catch (AccessDeniedException e) {
            throw new LaunchException("permission denied").inFile(file.toString());
        } catch (CharacterCodingException e) {
            throw new LaunchException("not UTF-8 text").inFile(file.toString());
        } catch (IOException e) {
            String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            throw new LaunchException("cannot read: " + reason).inFile(file.toString());
        }
    }

    private static LaunchException syntaxError(JsonProcessingException e) {
        var location = e.getLocation();
        String where =
                location == null ? "" : location.getLineNr() + ":" + location.getColumnNr() + ": ";
        return new LaunchException(where + "malformed JSON: " + describe(e));
    }

    /** Jackson's message reworded: no class names, feature names or source excerpts. */
    private static String describe(JsonProcessingException e) {
        if (e instanceof JsonEOFException) {
            return "unexpected end of input (an object, array or string is not closed)";
        }
        if (e instanceof MismatchedInputException) {
            String original = String.valueOf(e.getOriginalMessage());
            if (original.startsWith("Trailing token")) {
                return "unexpected text after the end of the JSON value";
            }
            if (original.startsWith("No content")) {
                return "the input is empty";
            }
        }
        String message = String.valueOf(e.getOriginalMessage());
        int newline = message.indexOf('\n');
        if (newline >= 0) {
            message = message.substring(0, newline);
        }
        message =
                message
                        .replaceAll("\\s*\\(start marker at \\[Source:.*?\\]\\)", "")
                        .replaceAll("\\s*at \\[Source:.*$", "")
                        .replaceAll("\\('(.)' \\(code \\d+\\)\\)", "'$1'")
                        .replaceAll("\\(CTRL-CHAR, code (\\d+)\\)", "control character $1")
                        .replaceAll("\\s*\\(from `[^`]*`\\)", "")
                        .replaceAll("Duplicate field '([^']*)'", "duplicate key '$1'")
                        .replace("`", "'")
                        .strip();
        if (message.isEmpty()) {
            return "syntax error";
        }
        return message.substring(0, 1).toLowerCase(Locale.ROOT) + message.substring(1);
    }

    /** A value as it is shown in messages: its JSON text, shortened if long. */
    static String show(JsonNode node) {
        String text = node.toString();
        return text.length() <= SHOWN_VALUE_CHARS ? text : text.substring(0, SHOWN_VALUE_CHARS - 3) + "...";
    }

    /** "an object", "a string", ... for messages about the wrong kind of value. */
    static String kind(JsonNode node) {
        return switch (node.getNodeType()) {
            case OBJECT -> "an object";
            case ARRAY -> "an array";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case NULL -> "null";
            default -> "nothing";
        };
    }
}
