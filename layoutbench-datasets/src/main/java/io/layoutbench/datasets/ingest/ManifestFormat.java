package io.layoutbench.datasets.ingest;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The file formats a {@link ManifestSource} reads: CSV (RFC 4180, with a header row), JSON Lines (one JSON object a
 * line) and Parquet (a flat table). A manifest's format is told from its extension unless chosen explicitly.
 *
 * <pre>{@code
 * ManifestFormat.of(Path.of("train.jsonl"));    // JSON_LINES
 * ManifestFormat.parse("parquet");              // PARQUET, as the CLI's --manifest-format takes it
 * }</pre>
 */
public enum ManifestFormat {
    /** RFC 4180 CSV in UTF-8 whose first record names the columns: {@code .csv}. */
    CSV(".csv"),
    /** One JSON object per line, UTF-8: {@code .jsonl} or {@code .ndjson}. */
    JSON_LINES(".jsonl", ".ndjson"),
    /** A flat Parquet table: {@code .parquet} or {@code .pq}. */
    PARQUET(".parquet", ".pq");

    private final List<String> extensions;

    ManifestFormat(String... extensions) {
        this.extensions = List.of(extensions);
    }

    /** The file name extensions that {@link #of(Path)} recognises, lower case, with their dot. */
    public List<String> extensions() {
        return extensions;
    }

    /**
     * The format a manifest's file name extension says, ignoring case.
     *
     * @throws IngestException naming the file and the known extensions when the extension is none of them
     */
    public static ManifestFormat of(Path manifest) {
        requireNonNull(manifest, "manifest is null");
        Path name = manifest.getFileName();
        String file = name == null ? "" : name.toString().toLowerCase(Locale.ROOT);
        for (ManifestFormat format : values()) {
            for (String extension : format.extensions) {
                if (file.endsWith(extension)) {
                    return format;
                }
            }
        }
        throw new IngestException("Cannot tell the format of manifest " + manifest + " from its name: expected "
                + Arrays.stream(values()).flatMap(f -> f.extensions.stream()).collect(Collectors.joining(", "))
                + "; choose the format explicitly (ManifestOptions.withFormat)");
    }

    /**
     * The format named {@code name}, ignoring case: {@code csv}, {@code jsonl} (or {@code json_lines},
     * {@code json-lines}, {@code ndjson}) or {@code parquet}.
     *
     * @throws IllegalArgumentException naming the accepted names
     */
    public static ManifestFormat parse(String name) {
        requireNonNull(name, "name is null");
        return switch (name.strip().toLowerCase(Locale.ROOT)) {
            case "csv" -> CSV;
            case "jsonl", "json_lines", "json-lines", "ndjson" -> JSON_LINES;
            case "parquet" -> PARQUET;
            default -> throw new IllegalArgumentException("Unknown manifest format '" + name
                    + "': use csv, jsonl or parquet");
        };
    }
}
