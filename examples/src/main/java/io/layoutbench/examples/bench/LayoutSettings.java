package io.layoutbench.examples.bench;

import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.datasets.synthetic.speech.SpeechScale;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The layout options the benchmark writes with, as the paper chose them: a per-file limit of 64 MB at mini (and
 * tiny) and 512 MB at medium and full, for L2's tar shards and L3's Parquet files; 128 MB Parquet row groups;
 * 4 KB L3 pages (one image per page).
 * Layouts not named here get no options. The speech corpus is written with the same settings: 64 MB files up to
 * small (2.4 GB), 512 MB at medium (11.6 GB).
 *
 * <pre>{@code
 * Map<String, String> l2 = LayoutSettings.paperDefaults("l2", ImageNetScale.MINI);   // {shard-size=64MB}
 * Map<String, String> l3 = LayoutSettings.paperDefaults("l3", SpeechScale.MEDIUM);   // {file-size=512MB, ...}
 * }</pre>
 */
public final class LayoutSettings {

    /** Paper's per-file limit at tiny and mini. */
    public static final String SMALL_FILE_LIMIT = "64MB";
    /** Paper's per-file limit at medium and full. */
    public static final String LARGE_FILE_LIMIT = "512MB";
    /** Parquet row-group size. */
    public static final String ROW_GROUP_SIZE = "128MB";
    /** L3 blob page size: small pages, so a page holds one image (the "small blob pages"). */
    public static final String PAGE_SIZE = "4KB";

    private LayoutSettings() {
    }

    /** The options the paper used for {@code layout} at {@code scale}, sorted by key. */
    public static Map<String, String> paperDefaults(String layout, ImageNetScale scale) {
        return defaults(layout, scale == ImageNetScale.MEDIUM || scale == ImageNetScale.FULL
                ? LARGE_FILE_LIMIT : SMALL_FILE_LIMIT);
    }

    /** The paper's settings for {@code layout} over the speech corpus at {@code scale}, sorted by key. */
    public static Map<String, String> paperDefaults(String layout, SpeechScale scale) {
        return defaults(layout, scale == SpeechScale.MEDIUM ? LARGE_FILE_LIMIT : SMALL_FILE_LIMIT);
    }

    private static Map<String, String> defaults(String layout, String fileLimit) {
        Map<String, String> options = new TreeMap<>();
        switch (layout) {
            case "l2" -> options.put("shard-size", fileLimit);
            case "l3" -> {
                options.put("file-size", fileLimit);
                options.put("row-group-size", ROW_GROUP_SIZE);
                options.put("page-size", PAGE_SIZE);
            }
            default -> {
                // Other layouts (l1, fac, third-party ones) are written with their own defaults.
            }
        }
        return options;
    }

    /**
     * {@code defaults} overridden by the {@code layout.key=value} entries of {@code overrides} that name
     * {@code layout}; sorted by key.
     */
    public static Map<String, String> withOverrides(String layout, Map<String, String> defaults,
            Map<String, Map<String, String>> overrides) {
        Map<String, String> options = new TreeMap<>(defaults);
        options.putAll(overrides.getOrDefault(layout, Map.of()));
        return options;
    }

    /**
     * Parses {@code layout.key=value} entries into options per layout.
     *
     * @throws IllegalArgumentException naming an entry that is not of that form
     */
    public static Map<String, Map<String, String>> parseOverrides(Iterable<String> entries) {
        Map<String, Map<String, String>> byLayout = new LinkedHashMap<>();
        for (String entry : entries) {
            int dot = entry.indexOf('.');
            int equals = entry.indexOf('=');
            if (dot <= 0 || equals <= dot + 1 || equals == entry.length() - 1) {
                throw new IllegalArgumentException("Layout option '" + entry
                        + "' must look like layout.key=value, for example l2.shard-size=32MB");
            }
            byLayout.computeIfAbsent(entry.substring(0, dot).trim().toLowerCase(java.util.Locale.ROOT),
                    k -> new TreeMap<>()).put(entry.substring(dot + 1, equals).trim(),
                    entry.substring(equals + 1).trim());
        }
        return byLayout;
    }

    /** Options as {@code key=value} separated by commas, sorted by key; empty for none. */
    public static String describe(Map<String, String> options) {
        StringBuilder text = new StringBuilder();
        new TreeMap<>(options).forEach((key, value) -> {
            if (text.length() > 0) {
                text.append(',');
            }
            text.append(key).append('=').append(value);
        });
        return text.toString();
    }
}
