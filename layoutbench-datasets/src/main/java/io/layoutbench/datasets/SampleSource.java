package io.layoutbench.datasets;

import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.model.DatasetMetadata;
import io.layoutbench.api.predicate.ColumnarTable;

import java.util.Iterator;
import java.util.stream.Stream;

/**
 * An ordered source of samples to write into a layout: a synthetic dataset or real files on disk. Sources are lazy:
 * their streams hold at most one sample's bytes at a time, so a source of any size can be written with bounded
 * memory.
 *
 * <p>Streams may hold open files: close them, for example with try-with-resources. Each call starts a new pass in
 * the same deterministic order.
 *
 * <pre>{@code
 * SampleSource source = ImageFolderSource.open(Path.of("/data/imagenet/train"), IngestOptions.defaults());
 * try (Stream<Sample> samples = source.samples();
 *      DatasetWriter writer = layout.create(backend, "imagenet/l2", source.schema(), Map.of())) {
 *     samples.forEach(writer::add);
 *     writer.commit();
 * }
 * }</pre>
 */
public interface SampleSource {

    /** The metadata columns of every sample. */
    MetadataSchema schema();

    /** Every sample's metadata, in order, without reading more sample bytes than computing it needs. */
    Stream<MetadataRow> metadata();

    /** Every sample with its bytes, in the order of {@link #metadata()}. */
    Stream<Sample> samples();

    /**
     * Every sample's metadata and size, named {@code name}: what a layout model needs to predict a layout before it
     * is written. Sizes come from the {@code filesize_bytes} column where the schema has one; otherwise every sample
     * is read once to size it.
     */
    default DatasetMetadata datasetMetadata(String name) {
        MetadataSchema schema = schema();
        boolean sized = schema.find(MetadataSchema.FILESIZE_BYTES)
                .filter(c -> c.name().equals(MetadataSchema.FILESIZE_BYTES) && c.type() == ColumnType.BIGINT)
                .isPresent();
        if (sized) {
            ColumnarTable.Builder table = ColumnarTable.builder(schema);
            try (Stream<MetadataRow> rows = metadata()) {
                rows.forEach(table::add);
            }
            return DatasetMetadata.withSizesFrom(name, table.build(), MetadataSchema.FILESIZE_BYTES);
        }
        DatasetMetadata.Builder builder = DatasetMetadata.builder(name, schema);
        try (Stream<Sample> samples = samples()) {
            Iterator<Sample> it = samples.iterator();
            while (it.hasNext()) {
                Sample sample = it.next();
                builder.add(sample.metadata(), sample.size());
            }
        }
        return builder.build();
    }
}
