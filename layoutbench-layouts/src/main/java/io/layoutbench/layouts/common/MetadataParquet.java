package io.layoutbench.layouts.common;

import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.parquet.ParquetTableSchema;

/**
 * Column names of the metadata tables the layouts write, and each sample's size and checksum beside its metadata.
 * L1 and L2 use the paper's names ({@code human_label} for the label) so the paper's SQL runs unchanged in DuckDB;
 * every layout adds the sample's CRC32C.
 *
 * <p>Sizes: a schema with a BIGINT column {@code filesize_bytes} (the LayoutBench schema) holds each sample's size
 * there, and the writers check that it is the size of the bytes stored; for any other schema the layouts add a
 * {@code data_size} column (L2 has one anyway, the paper's). So the LayoutBench tables are the paper's, column for
 * column, and every dataset knows its samples' sizes from its metadata alone.
 *
 * <pre>{@code
 * ParquetTableSchema l1 = MetadataParquet.paperNames(schema).build();
 * if (!MetadataParquet.schemaHoldsSize(schema)) { ...add MetadataParquet.DATA_SIZE... }
 * }</pre>
 */
public final class MetadataParquet {

    /** Column holding each sample's CRC32C, as an unsigned 32-bit value in a BIGINT. */
    public static final String CRC32C = "crc32c";
    /** Column holding each sample's size in bytes, where the schema does not ({@link #schemaHoldsSize}). */
    public static final String DATA_SIZE = "data_size";

    private MetadataParquet() {
    }

    /**
     * A Parquet schema builder for {@code schema} with the paper's L1/L2 names ({@code label} written as
     * {@code human_label} when the schema has that column, for the ImageNet schema's alias only).
     */
    public static ParquetTableSchema.Builder paperNames(MetadataSchema schema) {
        ParquetTableSchema.Builder builder = ParquetTableSchema.builder(schema);
        if (schema.find(MetadataSchema.LABEL).filter(c -> c.name().equals(MetadataSchema.LABEL)
                && c.aliases().contains(MetadataSchema.HUMAN_LABEL)).isPresent()) {
            builder.rename(MetadataSchema.LABEL, MetadataSchema.HUMAN_LABEL);
        }
        return builder;
    }

    /** Whether {@code schema}'s own BIGINT column {@code filesize_bytes} holds each sample's size. */
    public static boolean schemaHoldsSize(MetadataSchema schema) {
        return schema.find(MetadataSchema.FILESIZE_BYTES)
                .filter(c -> c.name().equals(MetadataSchema.FILESIZE_BYTES) && c.type() == ColumnType.BIGINT)
                .isPresent();
    }

    /**
     * The column a dataset of {@code schema} keeps each sample's size in, by its name in the metadata:
     * {@code filesize_bytes} or {@link #DATA_SIZE}.
     */
    public static String sizeColumn(MetadataSchema schema) {
        return schemaHoldsSize(schema) ? MetadataSchema.FILESIZE_BYTES : DATA_SIZE;
    }

    /**
     * Checks that a sample's {@code filesize_bytes}, where the schema has it, is the size of its bytes: the layouts
     * read a sample by that size.
     *
     * @throws IllegalArgumentException naming the sample and both sizes when they differ
     */
    public static void checkSize(MetadataRow row, long size, String sample) {
        if (!schemaHoldsSize(row.schema()) || !row.schema().singleDataField()) {
            return;   // with several payload fields filesize_bytes is metadata like any other column
        }
        Object declared = row.get(MetadataSchema.FILESIZE_BYTES);
        if (declared == null || (Long) declared != size) {
            throw new IllegalArgumentException("Sample '" + sample + "' has filesize_bytes " + declared + " but its "
                    + "bytes are " + size + " long; the layouts take filesize_bytes as the sample's size");
        }
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
