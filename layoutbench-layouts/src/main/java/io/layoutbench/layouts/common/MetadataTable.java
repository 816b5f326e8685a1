package io.layoutbench.layouts.common;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.CorruptDataException;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.ColumnVector;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.predicate.ColumnarTable;
import io.layoutbench.layouts.manifest.ManifestObject;
import io.layoutbench.parquet.BackendInputFile;
import io.layoutbench.parquet.FetchOptions;
import io.layoutbench.parquet.MetadataColumns;
import io.layoutbench.parquet.ParquetChecksums;
import io.layoutbench.parquet.ParquetObject;
import io.layoutbench.parquet.ParquetTableSchema;

import java.util.ArrayList;
import java.util.List;

/**
 * A dataset's metadata table (L1, L2) held by the client: the metadata columns as a {@link ColumnarTable} for
 * predicate evaluation, the layout's extra columns (checksums, shard locations) as arrays, and the reads that
 * loading it took, for cold-run prediction. Loading checks every byte it trusts against the manifest's checksums of
 * the table: its footer region and each row group's chunks ({@link ParquetChecksums}), from the bytes it reads anyway.
 *
 * <pre>{@code
 * MetadataTable table = MetadataTable.load(backend, manifest.object(key).orElseThrow(), parquetSchema);
 * Selection rows = query.select(table.columns());
 * }</pre>
 */
public final class MetadataTable implements PayloadColumns.ColumnsOfTable {

    private final ColumnarTable columns;
    private final MetadataColumns raw;
    private final List<PlannedRequest> loadRequests;

    private MetadataTable(ColumnarTable columns, MetadataColumns raw, List<PlannedRequest> loadRequests) {
        this.columns = columns;
        this.raw = raw;
        this.loadRequests = List.copyOf(loadRequests);
    }

    /**
     * Reads the metadata table {@code object} (written with {@code schema}) through {@code backend}, checking it
     * against the object's checksums.
     *
     * @throws CorruptDataException naming the table and region when a checksum does not match, or when the manifest
     *                              records no Parquet checksums for it
     */
    public static MetadataTable load(ObjectBackend backend, ManifestObject object, ParquetTableSchema schema) {
        requireNonNull(schema, "schema is null");
        ParquetChecksums checksums = object.parquet().orElseThrow(() -> new CorruptDataException("The manifest "
                + "records no Parquet checksums for the metadata table " + object.key()));
        RecordingBackend recorder = new RecordingBackend(backend);
        BackendInputFile file = new BackendInputFile(recorder, object.key(), object.size(), FetchOptions.defaults());
        MetadataColumns raw = ParquetObject.open(file, checksums).readMetadataColumns();
        return new MetadataTable(toColumnarTable(raw, schema), raw, recorder.recorded());
    }

    /**
     * The metadata columns of {@code raw} as a {@link ColumnarTable} of {@code schema}'s metadata schema, handing
     * over the arrays without a per-row copy.
     */
    public static ColumnarTable toColumnarTable(MetadataColumns raw, ParquetTableSchema schema) {
        MetadataSchema metadata = schema.metadata();
        List<ColumnVector> columns = new ArrayList<>(metadata.size());
        for (int i = 0; i < metadata.size(); i++) {
            columns.add(raw.column(schema.metadataNames().get(i)));
        }
        return ColumnarTable.fromColumns(metadata, columns);
    }

    /**
     * Appends every row of this table, all its non-blob columns, to {@code target}, which has this table's schema
     * {@code schema} (a distributed write's commit merging its parts' tables).
     */
    public void appendTo(LocalTable target, ParquetTableSchema schema) {
        java.util.function.IntFunction<io.layoutbench.api.dataset.MetadataRow> rows = raw.rows(schema);
        List<ColumnVector> extras = new ArrayList<>();
        schema.extraColumns().forEach(column -> extras.add(raw.column(column.name())));
        for (int row = 0; row < rowCount(); row++) {
            List<Object> values = new ArrayList<>(extras.size());
            for (ColumnVector extra : extras) {
                values.add(extra.get(row));
            }
            target.write(rows.apply(row), values);
        }
    }

    /** The metadata columns, for predicates. */
    public ColumnarTable columns() {
        return columns;
    }

    /** Number of rows (samples). */
    public int rowCount() {
        return raw.rowCount();
    }

    /** A BIGINT extra column's values, e.g. {@code data_offset}. */
    public long[] longs(String column) {
        ColumnVector values = raw.column(column);
        if (values instanceof ColumnVector.Longs longs) {
            return longs.values();
        }
        throw new IllegalStateException("Metadata column " + column + " is " + values.type() + ", not BIGINT");
    }

    /** A BIGINT column's values with NULL as -1 (a size or checksum of a field a sample lacks). */
    @Override
    public long[] longsOrMinusOne(String column) {
        longs(column);   // checks the type, naming the column
        return PayloadColumns.orMinusOne((ColumnVector.Longs) raw.column(column));
    }

    /** A STRING extra column's values, e.g. {@code shard}. */
    public ColumnVector.Strings strings(String column) {
        ColumnVector values = raw.column(column);
        if (values instanceof ColumnVector.Strings strings) {
            return strings;
        }
        throw new IllegalStateException("Metadata column " + column + " is " + values.type() + ", not STRING");
    }

    /** The reads loading took, in order. */
    public List<PlannedRequest> loadRequests() {
        return loadRequests;
    }
}
