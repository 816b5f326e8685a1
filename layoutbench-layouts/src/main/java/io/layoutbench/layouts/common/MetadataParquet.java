package io.layoutbench.layouts.common;

import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.parquet.ParquetTableSchema;

/**
 * Column names of the metadata tables the layouts write. L1 and L2 use the paper's names ({@code human_label} for
 * the label) so the paper's SQL runs unchanged in DuckDB; every layout adds the sample's CRC32C.
 *
 * <pre>{@code
 * ParquetTableSchema l1 = MetadataParquet.paperNames(schema).build();
 * }</pre>
 */
public final class MetadataParquet {

    /** Column holding each sample's CRC32C, as an unsigned 32-bit value in a BIGINT. */
    public static final String CRC32C = "crc32c";

    private MetadataParquet() {
    }

    /**
     * A Parquet schema builder for {@code schema} with the paper's L1/L2 names ({@code label} written as
     * {@code human_label} when the schema has that column) and the checksum column.
     */
    public static ParquetTableSchema.Builder paperNames(MetadataSchema schema) {
        ParquetTableSchema.Builder builder = ParquetTableSchema.builder(schema);
        if (schema.find(MetadataSchema.LABEL).filter(c -> c.name().equals(MetadataSchema.LABEL)).isPresent()) {
            builder.rename(MetadataSchema.LABEL, MetadataSchema.HUMAN_LABEL);
        }
        return builder.extraColumn(CRC32C, ColumnType.BIGINT);
    }

    /** A stored checksum column value back to the int {@link SampleChecksum} computes. */
    public static int crc(long stored) {
        return (int) stored;
    }

    /** The int checksum as stored: unsigned, so other tools show the usual CRC32C value. */
    public static long stored(int crc) {
        return Integer.toUnsignedLong(crc);
    }
}
