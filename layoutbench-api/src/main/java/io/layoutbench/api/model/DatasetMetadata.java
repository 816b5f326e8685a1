package io.layoutbench.api.model;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.predicate.ColumnarTable;

import java.util.Arrays;

/**
 * What a layout model needs to know about a dataset: every sample's metadata, in the order the samples would be
 * stored, and every sample's size in bytes. That is all a plan depends on: where a sample's bytes land in a tar
 * shard or a Parquet page follows from the sizes of the samples before it, so layouts are modelled without a sample's
 * bytes. Immutable; safe to share between threads.
 *
 * <p>Memory: the metadata as a {@link ColumnarTable} plus 8 bytes per sample.
 *
 * <pre>{@code
 * DatasetMetadata.Builder builder = DatasetMetadata.builder("pets", schema);
 * for (Sample sample : samples) {
 *     builder.add(sample.metadata(), sample.size());
 * }
 * DatasetMetadata pets = builder.build();
 * // or, when a column already holds each sample's size:
 * DatasetMetadata mini = DatasetMetadata.withSizesFrom("imagenet-mini", table, "filesize_bytes");
 * }</pre>
 */
public final class DatasetMetadata {

    private final String name;
    private final ColumnarTable metadata;
    private final long[] sizes;
    private final long payloadBytes;

    private DatasetMetadata(String name, ColumnarTable metadata, long[] sizes) {
        this.name = requireNonNull(name, "name is null");
        this.metadata = requireNonNull(metadata, "metadata is null");
        if (sizes.length != metadata.rowCount()) {
            throw new IllegalArgumentException("Dataset " + name + " has " + metadata.rowCount()
                    + " metadata rows but " + sizes.length + " sizes");
        }
        long total = 0;
        for (int row = 0; row < sizes.length; row++) {
            if (sizes[row] < 0) {
                throw new IllegalArgumentException("Sample " + row + " of dataset " + name + " has a negative size: "
                        + sizes[row]);
            }
            total += sizes[row];
        }
        this.sizes = sizes;
        this.payloadBytes = total;
    }

    /**
     * A dataset of the rows of {@code metadata} whose samples have {@code sizes} bytes, in the same order.
     *
     * @throws IllegalArgumentException if the counts differ or a size is negative
     */
    public static DatasetMetadata of(String name, ColumnarTable metadata, long[] sizes) {
        return new DatasetMetadata(name, metadata, requireNonNull(sizes, "sizes is null").clone());
    }

    /**
     * A dataset whose samples' sizes are the values of the BIGINT column {@code sizeColumn} (the LayoutBench
     * schema's {@code filesize_bytes}).
     *
     * @throws IllegalArgumentException naming the column if it is missing, not BIGINT, or NULL in some row
     */
    public static DatasetMetadata withSizesFrom(String name, ColumnarTable metadata, String sizeColumn) {
        requireNonNull(metadata, "metadata is null");
        int column = metadata.schema().indexOf(sizeColumn).orElseThrow(() -> new IllegalArgumentException(
                "Dataset " + name + " has no column '" + sizeColumn + "' to take sizes from; its columns: "
                        + metadata.schema().describeColumns()));
        if (metadata.schema().columns().get(column).type() != ColumnType.BIGINT) {
            throw new IllegalArgumentException("Column '" + sizeColumn + "' of dataset " + name + " is "
                    + metadata.schema().columns().get(column).type() + ", not BIGINT: it cannot hold sizes");
        }
        long[] sizes = new long[metadata.rowCount()];
        for (int row = 0; row < sizes.length; row++) {
            if (metadata.isNull(column, row)) {
                throw new IllegalArgumentException("Sample " + row + " of dataset " + name + " has no "
                        + sizeColumn + " (NULL): its size is unknown");
            }
            sizes[row] = metadata.getLong(column, row);
        }
        return new DatasetMetadata(name, metadata, sizes);
    }

    /** A builder of the dataset {@code name} with {@code schema}, one sample at a time. */
    public static Builder builder(String name, MetadataSchema schema) {
        return new Builder(name, schema);
    }

    /** The dataset's name, for reports. */
    public String name() {
        return name;
    }

    /** The metadata columns. */
    public MetadataSchema schema() {
        return metadata.schema();
    }

    /** The metadata, one row per sample in storage order: what predicates are evaluated on. */
    public ColumnarTable metadata() {
        return metadata;
    }

    /** Number of samples. */
    public int sampleCount() {
        return sizes.length;
    }

    /** Bytes of sample {@code row} (its position in storage order). */
    public long size(int row) {
        return sizes[row];
    }

    /** Every sample's size, in storage order: a copy. */
    public long[] sizes() {
        return sizes.clone();
    }

    /** Sum of all samples' sizes. */
    public long payloadBytes() {
        return payloadBytes;
    }

    @Override
    public String toString() {
        return "DatasetMetadata[" + name + ", " + sizes.length + " samples, " + payloadBytes + " bytes]";
    }

    /** Adds samples in storage order; not thread-safe. */
    public static final class Builder {
        private final String name;
        private final ColumnarTable.Builder metadata;
        private long[] sizes = new long[1024];
        private int count;

        private Builder(String name, MetadataSchema schema) {
            this.name = requireNonNull(name, "name is null");
            this.metadata = ColumnarTable.builder(requireNonNull(schema, "schema is null"));
        }

        /** Adds the next sample: its metadata and its size in bytes. */
        public Builder add(MetadataRow row, long size) {
            if (size < 0) {
                throw new IllegalArgumentException("Sample " + count + " of dataset " + name
                        + " has a negative size: " + size);
            }
            metadata.add(row);
            if (count == sizes.length) {
                sizes = Arrays.copyOf(sizes, count * 2);
            }
            sizes[count++] = size;
            return this;
        }

        public DatasetMetadata build() {
            return new DatasetMetadata(name, metadata.build(), Arrays.copyOf(sizes, count));
        }
    }
}
