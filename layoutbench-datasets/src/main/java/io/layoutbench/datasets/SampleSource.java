package io.layoutbench.datasets;

import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;

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
 *      DatasetWriter writer = layout.create(backend, "imagenet/l2", Map.of())) {
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
}
