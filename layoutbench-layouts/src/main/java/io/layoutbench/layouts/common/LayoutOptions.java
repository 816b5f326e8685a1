package io.layoutbench.layouts.common;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.ConfigurationException;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A layout's settings from a string map, checked: unknown keys are an error listing the known ones; sizes accept
 * {@code 64MB}, {@code 512MiB}, {@code 1g} or plain bytes (MB = 2^20 bytes, as tar and Parquet tools mean it).
 *
 * <pre>{@code
 * LayoutOptions options = LayoutOptions.of("l2", Map.of("shard-size", "64MB"), Set.of("shard-size"));
 * long shardSize = options.size("shard-size", 512L << 20);
 * }</pre>
 */
public final class LayoutOptions {

    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*([kmgt]?)(i?b)?", Pattern.CASE_INSENSITIVE);

    private final String layout;
    private final Map<String, String> values;

    private LayoutOptions(String layout, Map<String, String> values) {
        this.layout = layout;
        this.values = values;
    }

    /**
     * @throws ConfigurationException naming an unknown key and the known ones
     */
    public static LayoutOptions of(String layout, Map<String, String> values, Set<String> known) {
        requireNonNull(values, "options are null");
        for (String key : values.keySet()) {
            if (!known.contains(key)) {
                throw new ConfigurationException("Unknown " + layout + " option '" + key + "'; known options: "
                        + (known.isEmpty() ? "none" : String.join(", ", new TreeSet<>(known))));
            }
        }
        return new LayoutOptions(layout, Map.copyOf(values));
    }

    /** A size in bytes, or {@code fallback} when unset. */
    public long size(String key, long fallback) {
        String text = values.get(key);
        return text == null ? fallback : parseSize(layout + " option '" + key + "'", text);
    }

    /** An integer, or {@code fallback} when unset. */
    public int integer(String key, int fallback) {
        String text = values.get(key);
        if (text == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new ConfigurationException(layout + " option '" + key + "' must be an integer, got '" + text
                    + "'");
        }
    }

    /** {@code true} or {@code false} (any case), or {@code fallback} when unset. */
    public boolean bool(String key, boolean fallback) {
        String text = values.get(key);
        if (text == null) {
            return fallback;
        }
        return switch (text.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new ConfigurationException(layout + " option '" + key + "' must be true or false, got '"
                    + text + "'");
        };
    }

    /**
     * {@code bytes} as a size option, the inverse of {@link #parseSize}: {@code 64MB}, {@code 16KB}, {@code 1GB}, or
     * plain bytes when it is not a whole number of KiB.
     */
    public static String formatSize(long bytes) {
        if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) {
            return (bytes >> 30) + "GB";
        }
        if (bytes >= 1L << 20 && bytes % (1L << 20) == 0) {
            return (bytes >> 20) + "MB";
        }
        if (bytes >= 1L << 10 && bytes % (1L << 10) == 0) {
            return (bytes >> 10) + "KB";
        }
        return Long.toString(bytes);
    }

    /** Parses {@code 64MB}, {@code 512MiB}, {@code 1g}, {@code 4096}; {@code what} names the setting in errors. */
    public static long parseSize(String what, String text) {
        Matcher m = SIZE.matcher(text.trim());
        if (!m.matches()) {
            throw new ConfigurationException(what + " must be a size like 64MB, 512MiB or 1048576, got '" + text
                    + "'");
        }
        long number = Long.parseLong(m.group(1));
        int shift = switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "k" -> 10;
            case "m" -> 20;
            case "g" -> 30;
            case "t" -> 40;
            default -> 0;
        };
        if (number > (Long.MAX_VALUE >> shift)) {
            throw new ConfigurationException(what + " is too large: '" + text + "'");
        }
        long bytes = number << shift;
        if (bytes < 1) {
            throw new ConfigurationException(what + " must be at least 1 byte, got '" + text + "'");
        }
        return bytes;
    }
}
