package io.layoutbench.api.backend;

import java.nio.charset.StandardCharsets;

/**
 * The rules every backend applies to object keys, so a dataset written to one backend can be copied to any other:
 * non-empty, at most 1,024 UTF-8 bytes (the S3 limit), {@code /}-separated segments that are neither empty nor
 * {@code .} or {@code ..}, no leading {@code /}, no backslash and no control characters.
 *
 * <pre>{@code
 * ObjectKeys.check("l2/shards/shard-000001.tar");   // fine
 * ObjectKeys.check("../etc/passwd");                // IllegalArgumentException naming the key and the rule
 * }</pre>
 */
public final class ObjectKeys {
    /** Longest key in UTF-8 bytes (S3's limit). */
    public static final int MAX_KEY_BYTES = 1024;

    private ObjectKeys() {
    }

    /**
     * Returns {@code key} if it is a valid object key.
     *
     * @throws IllegalArgumentException naming the key and the rule it breaks
     */
    public static String check(String key) {
        if (key == null) {
            throw new IllegalArgumentException("Object key is null");
        }
        if (key.isEmpty()) {
            throw new IllegalArgumentException("Object key is empty");
        }
        if (key.getBytes(StandardCharsets.UTF_8).length > MAX_KEY_BYTES) {
            throw new IllegalArgumentException("Object key '" + abbreviate(key) + "' is longer than "
                    + MAX_KEY_BYTES + " UTF-8 bytes");
        }
        if (key.startsWith("/")) {
            throw new IllegalArgumentException("Object key '" + key + "' must not start with '/'");
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c < 0x20 || c == 0x7f || c == '\\') {
                throw new IllegalArgumentException("Object key '" + abbreviate(key) + "' contains "
                        + (c == '\\' ? "a backslash" : "the control character U+" + String.format("%04X", (int) c))
                        + " at index " + i);
            }
        }
        for (String segment : key.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                throw new IllegalArgumentException("Object key '" + key + "' has an empty, '.' or '..' segment");
            }
        }
        return key;
    }

    /**
     * Returns {@code prefix} if it is a valid listing prefix: empty, or the start of some valid key. So it has no
     * leading {@code /} and no empty, {@code .} or {@code ..} segment before its last {@code /}; its last, partial
     * segment may be {@code .} or {@code ..}, the start of {@code .hidden} or {@code ..x}.
     */
    public static String checkPrefix(String prefix) {
        if (prefix == null) {
            throw new IllegalArgumentException("Listing prefix is null");
        }
        if (prefix.isEmpty()) {
            return prefix;
        }
        // A prefix may end in '/' or in a partial segment: check the shortest key that could start with it.
        // A prefix of the maximum length can only match itself, so it must be a whole key.
        boolean roomForMore = prefix.getBytes(StandardCharsets.UTF_8).length < MAX_KEY_BYTES;
        check(roomForMore ? prefix + "x" : prefix);
        return prefix;
    }

    private static String abbreviate(String key) {
        return key.length() <= 80 ? key : key.substring(0, 77) + "...";
    }
}
