package io.layoutbench.api.layout;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.MetadataSchema;
import java.io.Serializable;
import java.util.Map;

/**
 * One distributed write of a dataset ({@link SupportsDistributedWrites}): where it goes, the schema and layout
 * options every part is written with, and the ingest generation its objects go under. Started once by the
 * coordinator (a Spark driver), handed to every writer as is (it is serializable), and committed or aborted once.
 *
 * <pre>{@code
 * WriteJob job = layout.startJob(backend, "imagenet/l2", schema, Map.of("shard-size", "64MB"));
 * // on each executor: layout.openPart(backend, job, partition, attempt)
 * }</pre>
 *
 * @param layout     the layout's name
 * @param prefix     the dataset's prefix
 * @param generation the ingest generation every part writes under
 * @param schema     the metadata schema and payload fields of every sample
 * @param options    layout options, checked when the job started
 * @param replacing  identity of the manifest at the prefix when the job started, empty if none: the commit refuses
 *                   to replace a dataset another ingest committed meanwhile
 */
public record WriteJob(String layout, String prefix, String generation, MetadataSchema schema,
        Map<String, String> options, String replacing) implements Serializable {

    private static final long serialVersionUID = 1L;

    public WriteJob {
        requireNonNull(layout, "layout is null");
        requireNonNull(prefix, "prefix is null");
        requireNonNull(generation, "generation is null");
        requireNonNull(schema, "schema is null");
        options = Map.copyOf(requireNonNull(options, "options is null"));
        requireNonNull(replacing, "replacing is null");
        if (generation.isEmpty() || generation.contains("/")) {
            throw new IllegalArgumentException("A write job's generation must be one non-empty key segment, got '"
                    + generation + "'");
        }
    }
}
