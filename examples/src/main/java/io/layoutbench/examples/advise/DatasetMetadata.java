package io.layoutbench.examples.advise;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.predicate.ColumnarTable;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.datasets.synthetic.SyntheticImageNet;
import io.layoutbench.layouts.common.MetadataParquet;
import io.layoutbench.layouts.common.MetadataTable;
import io.layoutbench.layouts.manifest.DatasetManifest;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Optional;

/**
 * What the advisor knows about a dataset: the metadata of every sample in storage order, and each sample's size.
 * That is all a layout's plan depends on — where a sample's bytes land in a tar shard or a Parquet page follows from
 * the sizes of the samples before it — so candidate layouts are modelled without generating or reading a sample.
 *
 * <p>Memory: the metadata as a {@link ColumnarTable} (at the full ImageNet scale, 1.28 million rows, about 150 MB,
 * most of it the distinct file names) plus 12 bytes per sample. Immutable once built; safe to share between
 * threads.
 *
 * <pre>{@code
 * DatasetMetadata mini = DatasetMetadata.synthetic(ImageNetScale.MINI, 42, false);
 * long bytes = mini.size(17);                 // filesize_bytes of the 18th sample in storage order
 * }</pre>
 */
public final class DatasetMetadata {

    private final String name;
    private final Optional<ImageNetScale> scale;
    private final ColumnarTable table;
    private final long[] sizes;
    private final int[] nameBytes;
    private final long payloadBytes;
    private final ColumnModel[] columns;

    private DatasetMetadata(String name, Optional<ImageNetScale> scale, ColumnarTable table, long[] sizes,
            int[] nameBytes) {
        this.name = name;
        this.scale = scale;
        this.table = table;
        this.sizes = sizes;
        this.nameBytes = nameBytes;
        long total = 0;
        for (long size : sizes) {
            total += size;
        }
        this.payloadBytes = total;
        this.columns = new ColumnModel[table.schema().size()];
    }

    /**
     * The metadata of the synthetic ImageNet of {@code scale} and {@code seed}, computed from the generator without
     * generating a sample's bytes.
     */
    public static DatasetMetadata synthetic(ImageNetScale scale, long seed, boolean shuffle) {
        SyntheticImageNet source = SyntheticImageNet.of(scale, seed, shuffle);
        String id = "imagenet-" + scale.scaleName() + "-seed" + seed + (shuffle ? "-shuffled" : "");
        return of(id, Optional.of(scale), source.schema(), (int) source.size(), source.metadata().iterator());
    }

    /**
     * A dataset of {@code rows} (in storage order) of {@code schema}, which needs the {@code filename} and
     * {@code filesize_bytes} columns (a sample's size is its {@code filesize_bytes}).
     *
     * @param scale the synthetic scale it was made at, if any (Q2's LIMIT follows it)
     * @throws IllegalArgumentException if a column is missing, or a row has no size or file name
     */
    public static DatasetMetadata of(String name, Optional<ImageNetScale> scale, MetadataSchema schema,
            int expectedRows, Iterator<MetadataRow> rows) {
        requireNonNull(name, "name is null");
        requireNonNull(scale, "scale is null");
        requireNonNull(schema, "schema is null");
        int sizeColumn = requiredColumn(schema, MetadataSchema.FILESIZE_BYTES, ColumnType.BIGINT);
        int nameColumn = requiredColumn(schema, MetadataSchema.FILENAME, ColumnType.STRING);
        ColumnarTable.Builder builder = ColumnarTable.builder(schema, Math.max(16, expectedRows));
        long[] sizes = new long[Math.max(16, expectedRows)];
        int[] names = new int[sizes.length];
        int n = 0;
        while (rows.hasNext()) {
            MetadataRow row = rows.next();
            Object size = row.get(sizeColumn);
            Object filename = row.get(nameColumn);
            if (!(size instanceof Long bytes) || bytes < 0 || filename == null) {
                throw new IllegalArgumentException("Sample " + n + " of dataset " + name + " has no "
                        + (filename == null ? "filename" : "valid filesize_bytes (" + size + ")")
                        + "; the advisor needs both to place its bytes");
            }
            if (n == sizes.length) {
                sizes = Arrays.copyOf(sizes, n * 2);
                names = Arrays.copyOf(names, n * 2);
            }
            sizes[n] = bytes;
            names[n] = ((String) filename).getBytes(StandardCharsets.UTF_8).length;
            builder.add(row);
            n++;
        }
        return new DatasetMetadata(name, scale, builder.build(), Arrays.copyOf(sizes, n),
                Arrays.copyOf(names, n));
    }

    /**
     * The metadata of the L1 or L2 dataset at {@code prefix} of {@code backend}, read from its metadata table (one
     * Parquet object of a few tens of bytes per sample; no sample is read).
     *
     * @throws io.layoutbench.api.backend.ObjectNotFoundException if no dataset is committed at {@code prefix}
     * @throws IllegalArgumentException if the dataset has no metadata table, or lacks file names or sizes
     */
    public static DatasetMetadata ingested(String name, ObjectBackend backend, String prefix) {
        DatasetManifest manifest = DatasetManifest.read(backend, prefix);
        String key = manifest.property("metadata.key", null);
        ObjectInfo object = manifest.objects().stream().filter(o -> o.key().equals(key)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("The " + manifest.layout() + " dataset at '" + prefix
                        + "' has no metadata table to read sizes from"));
        MetadataSchema schema = manifest.schema();
        ColumnarTable table = MetadataTable.load(backend, object, MetadataParquet.paperNames(schema).build())
                .columns();
        Iterator<MetadataRow> rows = java.util.stream.IntStream.range(0, table.rowCount()).mapToObj(table::row)
                .iterator();
        return of(name, Optional.empty(), schema, table.rowCount(), rows);
    }

    private static int requiredColumn(MetadataSchema schema, String column, ColumnType type) {
        int index = schema.indexOf(column).orElseThrow(() -> new IllegalArgumentException("The advisor needs a "
                + column + " column; the dataset has [" + schema.describeColumns() + "]"));
        if (schema.columns().get(index).type() != type) {
            throw new IllegalArgumentException("The advisor needs " + column + " to be " + type + "; the dataset's "
                    + "is " + schema.columns().get(index).type());
        }
        return index;
    }

    /** The dataset's id, e.g. {@code imagenet-mini-seed42}. */
    public String name() {
        return name;
    }

    /** The synthetic scale the dataset was made at, if it is synthetic. */
    public Optional<ImageNetScale> scale() {
        return scale;
    }

    public MetadataSchema schema() {
        return table.schema();
    }

    /** The metadata, one row per sample in storage order: what predicates are evaluated on. */
    public ColumnarTable table() {
        return table;
    }

    /** Number of samples. */
    public int sampleCount() {
        return sizes.length;
    }

    /** Bytes of sample {@code row}. */
    public long size(int row) {
        return sizes[row];
    }

    /** UTF-8 length of sample {@code row}'s file name (a tar member name longer than 100 bytes costs more). */
    public int filenameBytes(int row) {
        return nameBytes[row];
    }

    /** Metadata column {@code column} as Parquet encodes it (string columns get dictionary ids once, here). */
    synchronized ColumnModel column(int column) {
        if (columns[column] == null) {
            columns[column] = ColumnModel.of(table, column);
        }
        return columns[column];
    }

    /** Sum of all samples' sizes. */
    public long payloadBytes() {
        return payloadBytes;
    }

    @Override
    public String toString() {
        return "DatasetMetadata[" + name + ", " + sizes.length + " samples, " + payloadBytes + " bytes]";
    }
}
