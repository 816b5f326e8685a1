package io.layoutbench.layouts.common;

import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.parquet.ParquetTableSchema;
import io.layoutbench.parquet.ParquetTableWriter;
import io.layoutbench.parquet.ParquetWriteOptions;
import java.nio.file.Path;
import java.util.List;

/**
 * A Parquet table a writer fills row by row in a local temporary file and stores at commit with
 * {@link GenerationalDatasetWriter#putTable}: L1's and L2's metadata tables. The file is deleted once stored or
 * discarded. Not thread-safe.
 *
 * <pre>{@code
 * LocalTable metadata = LocalTable.create("layoutbench-l1-", tableSchema);
 * metadata.write(sample.metadata(), extras);
 * String key = putTable("metadata.parquet", metadata);   // in finish(); metadata.discard() in abandon()
 * }</pre>
 */
public final class LocalTable {

    private final Path file;
    private final ParquetTableWriter writer;

    private LocalTable(Path file, ParquetTableWriter writer) {
        this.file = file;
        this.writer = writer;
    }

    /** A new table of {@code schema} in a temporary file named with {@code prefix}. */
    public static LocalTable create(String prefix, ParquetTableSchema schema) {
        Path file = TempFiles.create(prefix, ".parquet");
        try {
            return new LocalTable(file, ParquetTableWriter.create(schema, file, ParquetWriteOptions.defaults()));
        } catch (RuntimeException e) {
            TempFiles.delete(file);
            throw e;
        }
    }

    /** Appends a row: its metadata and the values of the table's extra columns. */
    public void write(MetadataRow metadata, List<?> extras) {
        writer.write(metadata, extras, null);
    }

    /** Closes and deletes the file, for an aborted ingest. */
    public void discard() {
        try {
            writer.close();
        } finally {
            TempFiles.delete(file);
        }
    }

    Path file() {
        return file;
    }

    ParquetTableWriter writer() {
        return writer;
    }
}
