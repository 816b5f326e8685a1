package io.layoutbench.layouts.l2;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.Blob;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.layouts.common.GenerationalDatasetWriter;
import io.layoutbench.layouts.common.LocalTable;
import io.layoutbench.layouts.common.PayloadColumns;
import io.layoutbench.layouts.retrieval.FieldRead;
import io.layoutbench.layouts.retrieval.LazyBlob;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Writes an L2 dataset over tar shards that exist already: only the metadata table and the manifest. Every field of
 * a sample must be a {@link LazyBlob} naming where its bytes lie (a member's data in a shard), all of one sample's
 * in one shard; nothing is read or copied. The shards are not the dataset's: the manifest does not list them, so
 * no commit or abort deletes them, and they must lie outside the dataset's prefix (a commit removes what it does not
 * list there). Fields have no checksums (their bytes were never read).
 */
final class L2InPlaceWriter extends GenerationalDatasetWriter {

    private final PayloadColumns payload;
    private final LocalTable metadata;
    private final Set<String> shards = new HashSet<>();
    private final String prefix;

    L2InPlaceWriter(ObjectBackend backend, String prefix, MetadataSchema schema) {
        super(L2Layout.NAME, L2Layout.FORMAT_VERSION, backend, prefix, schema);
        this.prefix = prefix;
        this.payload = PayloadColumns.of(schema);
        this.metadata = LocalTable.create("layoutbench-l2-in-place-", L2Writer.tableSchema(schema));
    }

    @Override
    protected boolean checksumsFields() {
        return false;
    }

    @Override
    protected void addSample(Sample sample, String key, int[] checksums) {
        long[] offsets = new long[payload.count()];
        String shard = null;
        for (int f = 0; f < payload.count(); f++) {
            Blob blob = sample.fields().get(payload.field(f));
            if (blob == null) {
                continue;
            }
            if (!(blob instanceof LazyBlob located)) {
                throw new IllegalArgumentException("Sample '" + key + "' field '" + payload.field(f) + "' is " + blob
                        + ", not a location in a shard: an in-place dataset records where bytes lie, it stores none");
            }
            FieldRead at = located.location();
            if (shard == null) {
                shard = at.key();
            } else if (!shard.equals(at.key())) {
                throw new IllegalArgumentException("Sample '" + key + "' has fields in " + shard + " and " + at.key()
                        + ": an l2 sample's fields lie in one shard");
            }
            offsets[f] = at.offset();
        }
        if (!prefix.isEmpty() && shard.startsWith(prefix + "/")) {
            throw new IllegalArgumentException("Shard " + shard + " lies under the dataset's prefix '" + prefix
                    + "/', where a commit deletes what the manifest does not list: index it into another prefix");
        }
        shards.add(shard);
        metadata.write(sample.metadata(), L2Writer.locations(payload, sample, null, shard, offsets));
    }

    @Override
    protected Map<String, String> finish() {
        String key = putTable(L2Writer.METADATA, metadata);
        return Map.of("metadata.key", key, L2Layout.CHECKSUMS, L2Layout.NO_CHECKSUMS,
                "shards", Integer.toString(shards.size()), "in-place", "true");
    }

    @Override
    protected void abandon() {
        metadata.discard();
    }
}
