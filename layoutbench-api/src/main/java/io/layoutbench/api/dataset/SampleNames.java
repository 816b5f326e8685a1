package io.layoutbench.api.dataset;

import io.layoutbench.api.backend.ObjectKeys;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import java.util.Optional;

/**
 * What a sample's name (its {@value MetadataSchema#FILENAME}) may be. The layouts store and find a sample by its
 * name (an L1 object key ends in it, an L2 tar member is called by it) and tools write a sample to a directory as
 * {@code DIR/<name>}, so a name is a relative path that stays inside whatever it is put under: {@code /}-separated
 * segments, none empty, {@code .} or {@code ..}, no leading {@code /}, no backslash, no control character, at most
 * {@value #MAX_NAME_BYTES} UTF-8 bytes, the rules of {@link ObjectKeys}. Spaces and any other Unicode are fine.
 *
 * <p>A name is not where a file was read from: {@link #fromPath} derives a valid name from any path.
 *
 * <pre>{@code
 * SampleNames.check("n01440764/n01440764_10026.JPEG");   // fine
 * SampleNames.check("/tmp/cat.png");                    // IllegalArgumentException: starts with '/'
 * SampleNames.fromPath("../images/cat.png");            // "images/cat.png"
 * }</pre>
 */
public final class SampleNames {

    /** Longest name in UTF-8 bytes: the longest object key. */
    public static final int MAX_NAME_BYTES = ObjectKeys.MAX_KEY_BYTES;

    private SampleNames() {
    }

    /**
     * Returns {@code name} if it is a valid sample name.
     *
     * @throws IllegalArgumentException naming the name and the rule it breaks
     */
    public static String check(String name) {
        Optional<String> problem = problem(name);
        if (problem.isPresent()) {
            throw new IllegalArgumentException("Sample name '" + abbreviate(name) + "' " + problem.get()
                    + "; a sample name is a relative path (the layouts store the sample under it)");
        }
        return name;
    }

    /** Whether {@code name} is a valid sample name. */
    public static boolean isValid(String name) {
        return problem(name).isEmpty();
    }

    /** What is wrong with {@code name} as a sample name ("starts with '/'"), or empty if nothing is. */
    public static Optional<String> problem(String name) {
        if (name == null) {
            return Optional.of("is NULL");
        }
        if (name.isEmpty()) {
            return Optional.of("is empty");
        }
        if (name.startsWith("/")) {
            return Optional.of("starts with '/'");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '\\') {
                return Optional.of("contains a backslash at index " + i);
            }
            if (c < 0x20 || c == 0x7f) {
                return Optional.of("contains the control character U+" + String.format(Locale.ROOT, "%04X", (int) c)
                        + " at index " + i);
            }
            if (Character.isHighSurrogate(c) && i + 1 < name.length() && Character.isLowSurrogate(name.charAt(i + 1))) {
                i++;   // a pair: one character beyond U+FFFF
            } else if (Character.isSurrogate(c)) {
                // UTF-8 has no form for it: two such names would be one key.
                return Optional.of("contains an unpaired surrogate U+" + String.format(Locale.ROOT, "%04X", (int) c)
                        + " at index " + i);
            }
        }
        for (String segment : name.split("/", -1)) {
            if (segment.isEmpty()) {
                return Optional.of("has an empty segment");
            }
            if (segment.equals(".") || segment.equals("..")) {
                return Optional.of("has a '" + segment + "' segment");
            }
        }
        if (name.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
            return Optional.of("is longer than " + MAX_NAME_BYTES + " UTF-8 bytes");
        }
        return Optional.empty();
    }

    /**
     * A valid name derived from a path, {@code /} or {@code \} separated: the path normalized ({@code a/./b} and
     * {@code a/x/../b} are {@code a/b}), then the {@code ..} segments that climb above its start, a leading
     * {@code /} and empty segments dropped, control characters replaced by {@code _}. So {@code images/cat.png},
     * {@code ./images/cat.png}, {@code ../images/cat.png} and {@code /images/cat.png} all name {@code images/cat.png}:
     * different paths can give one name, which a dataset refuses as a repeated name rather than losing a sample.
     *
     * @throws IllegalArgumentException if nothing is left ({@code /}, {@code ..}) or the name is too long
     */
    public static String fromPath(String path) {
        if (path == null) {
            throw new IllegalArgumentException("Cannot name a sample after a NULL path");
        }
        Deque<String> segments = new ArrayDeque<>();
        for (String segment : path.replace('\\', '/').split("/")) {
            if (segment.isEmpty() || segment.equals(".")) {
                continue;
            }
            if (segment.equals("..")) {
                segments.pollLast();
                continue;
            }
            StringBuilder cleaned = new StringBuilder(segment.length());
            segment.chars().forEach(c -> cleaned.append(c < 0x20 || c == 0x7f ? '_' : (char) c));
            segments.addLast(cleaned.toString());
        }
        if (segments.isEmpty()) {
            throw new IllegalArgumentException("Path '" + abbreviate(path) + "' leaves no name for a sample");
        }
        return check(String.join("/", segments));
    }

    private static String abbreviate(String name) {
        return name == null || name.length() <= 80 ? String.valueOf(name) : name.substring(0, 77) + "...";
    }
}
