package io.layoutbench.datasets.ingest;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.ColumnType;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One pass over the records of a manifest, in file order, in any {@link ManifestFormat}. Each format's reader turns
 * its syntax into records of cells ({@link ManifestValues}) keyed by the manifest's own column names; what the
 * columns mean is the {@link ManifestSource}'s business. Not thread-safe; close it to close the file.
 */
interface ManifestReader extends AutoCloseable {

    /**
     * A column the manifest names before its records (a CSV header field, a Parquet column).
     *
     * @param name    the name as the manifest writes it (a CSV header field without surrounding white space)
     * @param type    the type its values have, or empty when the format has none (CSV)
     * @param refusal why its values cannot be metadata (a Parquet blob column), or empty
     */
    record SourceColumn(String name, Optional<ColumnType> type, Optional<String> refusal) {
        public SourceColumn {
            requireNonNull(name, "name is null");
            requireNonNull(type, "type is null");
            requireNonNull(refusal, "refusal is null");
        }
    }

    /**
     * One record.
     *
     * @param origin where it is, for errors: {@code train.csv line 7}, {@code train.parquet row 6}
     * @param cells  its cells by manifest column name, in manifest order; a column the record lacks is absent
     */
    record Record(String origin, Map<String, Object> cells) {
        public Record {
            requireNonNull(origin, "origin is null");
            requireNonNull(cells, "cells is null");
        }
    }

    /** The columns the manifest names up front (CSV, Parquet), or empty when only its records say (JSON Lines). */
    Optional<List<SourceColumn>> columns();

    /** Where {@link #columns()} come from, for errors: {@code train.csv line 1}, {@code train.parquet}. */
    String columnsOrigin();

    /** Whether a {@link String} cell is typed text (a JSON string) rather than text of any type (a CSV field). */
    boolean typedText();

    /**
     * The next record, or null at the end.
     *
     * @throws IngestException naming the manifest and line or row when the record is malformed or cannot be read
     */
    Record next();

    @Override
    void close();

    /**
     * Starts a pass over {@code manifest}. A Parquet reader reads the columns named in {@code wanted} (matched
     * exactly) and no others: null reads none, for a look at the columns only.
     *
     * @throws IngestException if the manifest cannot be opened or its header is malformed
     */
    static ManifestReader open(Path manifest, ManifestFormat format, Set<String> wanted) {
        return switch (format) {
            case CSV -> CsvManifestReader.open(manifest);
            case JSON_LINES -> JsonLinesManifestReader.open(manifest);
            case PARQUET -> ParquetManifestReader.open(manifest, wanted);
        };
    }
}
