package io.layoutbench.layouts.l2;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.Blob;
import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.DatasetSummary;
import io.layoutbench.layouts.retrieval.FieldRead;
import io.layoutbench.layouts.retrieval.LazyBlob;
import io.layoutbench.layouts.webdataset.FieldLocation;
import io.layoutbench.layouts.webdataset.JsonColumns;
import io.layoutbench.layouts.webdataset.SampleGrouping;
import io.layoutbench.layouts.webdataset.ShardFormatException;
import io.layoutbench.layouts.webdataset.ShardSample;
import io.layoutbench.layouts.webdataset.TarIndex;
import io.layoutbench.layouts.webdataset.TarIndexOptions;
import io.layoutbench.layouts.webdataset.TarIndexer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Makes an l2 dataset of tar shards that exist already (WebDataset shards, or plain tar files), without rewriting
 * them: each shard's members are found by reading its headers with ranged reads ({@link TarIndexer}), grouped into
 * samples ({@link SampleGrouping}), and the metadata table records where each field lies. The dataset then reads
 * as any l2 dataset (a query reads the fields it asks for by ranged GETs), from the shards where they are.
 *
 * <p>The schema is {@code filename} (the WebDataset key, or the member path of a plain tar), then the columns of a
 * JSON member if {@link Options#jsonField} names one (their types inferred from every sample's member); the payload
 * fields are the members' extensions in the order first seen ({@code data} for a plain tar). The shards must lie on
 * {@code backend} outside {@code prefix}; they are never deleted by the dataset. Fields have no checksums (their
 * bytes are not read), so a changed shard returns changed bytes: index again after rewriting a shard. Memory: the
 * index of every shard is held until the table is written (about 200 bytes a sample).
 *
 * <pre>{@code
 * DatasetSummary made = InPlaceIndex.index(backend, "indexes/laion", List.of("wds/shard-000000.tar",
 *         "wds/shard-000001.tar"), InPlaceIndex.Options.defaults().withJsonField("json"));
 * Dataset dataset = StorageLayouts.get("l2").open(backend, "indexes/laion");
 * }</pre>
 */
public final class InPlaceIndex {

    private InPlaceIndex() {
    }

    /**
     * How to index.
     *
     * @param grouping  WebDataset samples (members sharing a key) or one sample per member
     * @param jsonField the field of a JSON member whose top-level values become columns, if any
     * @param tar       how the tar headers are read
     */
    public record Options(SampleGrouping grouping, Optional<String> jsonField, TarIndexOptions tar) {
        public Options {
            requireNonNull(grouping, "grouping is null");
            requireNonNull(jsonField, "jsonField is null");
            requireNonNull(tar, "tar is null");
        }

        /** WebDataset samples, no JSON columns, default header reads. */
        public static Options defaults() {
            return new Options(SampleGrouping.WEBDATASET, Optional.empty(), TarIndexOptions.defaults());
        }

        public Options withGrouping(SampleGrouping newGrouping) {
            return new Options(newGrouping, jsonField, tar);
        }

        public Options withJsonField(String field) {
            return new Options(grouping, Optional.of(field), tar);
        }

        public Options withTar(TarIndexOptions newTar) {
            return new Options(grouping, jsonField, newTar);
        }
    }

    /**
     * Indexes {@code shardKeys} (in that order) on {@code backend} as the l2 dataset at {@code prefix}.
     *
     * @throws ShardFormatException naming shard, member and offset for a truncated shard, a member that is not a
     *                              file, a key repeated within a shard, or a malformed JSON member
     * @throws IllegalArgumentException for a key found in two shards (naming both), or a shard under the prefix
     */
    public static DatasetSummary index(ObjectBackend backend, String prefix, List<String> shardKeys, Options options) {
        requireNonNull(backend, "backend is null");
        requireNonNull(options, "options is null");
        if (requireNonNull(shardKeys, "shardKeys is null").isEmpty()) {
            throw new IllegalArgumentException("No shards to index at '" + prefix + "'");
        }
        TarIndexer indexer = new TarIndexer(backend, options.tar());
        List<ShardSample> samples = new ArrayList<>();
        Map<String, String> shardOfKey = new HashMap<>();
        Set<String> fields = new LinkedHashSet<>();
        for (String shard : shardKeys) {
            TarIndex index = indexer.index(shard);
            for (ShardSample sample : options.grouping().samples(index)) {
                String earlier = shardOfKey.putIfAbsent(sample.key(), shard);
                if (earlier != null) {
                    throw new IllegalArgumentException("Sample key '" + sample.key() + "' is in " + earlier
                            + " and again in " + shard + ": keys name samples, so each must be in one shard once");
                }
                fields.addAll(sample.fields().keySet());
                samples.add(sample);
            }
        }
        List<Column> columns = new ArrayList<>();
        columns.add(new Column(MetadataSchema.FILENAME, ColumnType.STRING));
        List<List<Object>> json = null;
        if (options.jsonField().isPresent()) {
            // Types from every document, not the first ones: a 2.5 after a hundred integers makes the column DOUBLE.
            JsonColumns parsed = JsonColumns.infer(backend, options.jsonField().get(), samples,
                    Math.max(1, samples.size()));
            for (Column column : parsed.metadataColumns()) {
                if (column.answersTo(MetadataSchema.FILENAME)) {
                    throw new IllegalArgumentException("The JSON member '" + options.jsonField().get() + "' has a "
                            + "key 'filename', which is the column naming samples; it cannot also be a column");
                }
                columns.add(column);
            }
            json = parsed.read(backend, samples);
        }
        MetadataSchema schema = new MetadataSchema(columns, List.copyOf(fields));
        try (L2InPlaceWriter writer = new L2InPlaceWriter(backend, prefix, schema)) {
            for (int i = 0; i < samples.size(); i++) {
                ShardSample sample = samples.get(i);
                List<Object> values = new ArrayList<>(columns.size());
                values.add(sample.key());
                if (json != null) {
                    values.addAll(json.get(i));
                }
                Map<String, Blob> blobs = new LinkedHashMap<>();
                for (String field : schema.payloadFields()) {
                    FieldLocation at = sample.fields().get(field);
                    if (at != null) {
                        blobs.put(field, new LazyBlob(backend, new FieldRead(field, at.shardKey(), at.offset(),
                                at.size(), FieldRead.NO_CHECKSUM), sample.key()));
                    }
                }
                writer.add(new Sample(new MetadataRow(schema, values), blobs));
            }
            return writer.commit();
        }
    }
}
