package io.layoutbench.datasets.ingest;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.MetadataSchema;

import java.nio.file.Path;
import java.util.Set;

/**
 * What a preset over {@link ManifestSource} adds to each row before it is emitted: values the manifest may leave out
 * and the preset can find (an image's dimensions, from its header), checks of its own (a required label). Runs in
 * {@link ManifestSource#metadata()} and {@link ManifestSource#samples()} alike, after the row's size is known.
 */
interface RowCompletion {

    /** Completes nothing. */
    RowCompletion NONE = new RowCompletion() {
        @Override
        public Set<String> fills() {
            return Set.of();
        }

        @Override
        public boolean complete(Object[] values, MetadataSchema schema, Context row) {
            return true;
        }
    };

    /**
     * The row being completed.
     *
     * @param origin     where it is, for errors: {@code train.csv line 7}
     * @param file       its first payload file
     * @param location   that file's path as the manifest writes it
     * @param pathColumn the manifest column that holds it
     */
    record Context(String origin, Path file, String location, String pathColumn) {
        public Context {
            requireNonNull(origin, "origin is null");
            requireNonNull(file, "file is null");
            requireNonNull(location, "location is null");
            requireNonNull(pathColumn, "pathColumn is null");
        }
    }

    /** The declared columns it fills in, which a manifest may therefore lack. */
    Set<String> fills();

    /**
     * Completes and checks a row's values, in schema order, in place.
     *
     * @return false to leave the row out, which the completion logs with the row's origin
     * @throws IngestException naming the row's origin and column when a value is wrong
     */
    boolean complete(Object[] values, MetadataSchema schema, Context row);
}
