package io.layoutbench.oneobject;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.predicate.BoundQuery;
import io.layoutbench.api.predicate.Selection;
import io.layoutbench.layouts.common.ManifestDataset;
import io.layoutbench.layouts.common.PreparedResult;
import io.layoutbench.layouts.common.SampleChecksum;
import io.layoutbench.layouts.manifest.ManifestObject;
import io.layoutbench.layouts.retrieval.ReadTask;
import io.layoutbench.layouts.retrieval.SampleRead;
import io.layoutbench.layouts.retrieval.SampleTask;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** A one-object dataset: the metadata block loaded on first use and cached; a query with matches is one GET. */
final class OneObjectDataset extends ManifestDataset {

    private final ManifestObject object;
    private final int blockCrc;
    private volatile Loaded loaded;

    private record Loaded(OneObjectFormat.Block block, List<PlannedRequest> reads) {
    }

    OneObjectDataset(ObjectBackend backend, String prefix) {
        super(OneObjectLayout.NAME, OneObjectLayout.FORMAT_VERSION, backend, prefix);
        String key = manifest.property("object.key", null);
        this.blockCrc = Integer.parseUnsignedInt(manifest.property("metadata.crc32c", "0"), 16);
        this.object = manifest.object(key).orElseThrow(() ->
                new io.layoutbench.api.backend.CorruptDataException("Manifest of the one-object dataset at '"
                        + prefix + "' does not list its object " + key));
    }

    @Override
    protected PreparedResult prepare(ObjectBackend reads, BoundQuery query, QueryOptions options) {
        Loaded metadata = load(reads);
        OneObjectFormat.Block block = metadata.block();
        Selection rows = query.select(block.table());
        List<ReadTask> tasks = new ArrayList<>();
        long[] sizes = new long[rows.size()];
        boolean payload = !options.fieldsOf(schema()).isEmpty();
        for (int i = 0; i < rows.size(); i++) {
            sizes[i] = payload ? block.sizes()[rows.get(i)] : 0;
        }
        if (!rows.isEmpty() && !payload) {
            // No payload asked for: the block's metadata is the answer, read with no request.
            tasks.add(SampleTask.of(List.of(), rows.size(), () -> {
                List<SampleRead> samples = new ArrayList<>(rows.size());
                for (int i = 0; i < rows.size(); i++) {
                    samples.add(new SampleRead(block.table().row(rows.get(i)), "row " + rows.get(i), List.of()));
                }
                return samples;
            }, options.lazyFieldBytes()));
        } else if (!rows.isEmpty()) {
            tasks.add(ReadTask.single(OneObjectModel.scan(object.key(), block.payloadEnd()), rows.size(), data -> {
                List<Sample> samples = new ArrayList<>(rows.size());
                for (int i = 0; i < rows.size(); i++) {
                    int row = rows.get(i);
                    ByteBuffer bytes = data.duplicate();
                    bytes.position(data.position() + (int) block.offsets()[row]);
                    bytes.limit(bytes.position() + (int) block.sizes()[row]);
                    SampleChecksum.verify(bytes, block.crcs()[row], "row " + row, object.key());
                    samples.add(new Sample(block.table().row(row), bytes.slice()));
                }
                return samples;
            }));
        }
        // One GET reads every match: a read of some of them reads the object and keeps those.
        return PreparedResult.ofTasks(backend, resultId(query, options), options, metadata.reads(),
                metadata.reads().size(), tasks, sizes);
    }

    private Loaded load(ObjectBackend reads) {
        Loaded cached = loaded;
        if (cached != null) {
            return cached;
        }
        synchronized (this) {
            if (loaded == null) {
                long size = object.size();
                ByteBuffer trailer = reads.readRange(object.key(), io.layoutbench.api.backend.ByteRange.of(
                        size - OneObjectFormat.TRAILER, OneObjectFormat.TRAILER));
                long length = OneObjectFormat.blockLength(trailer, object.key(), size);
                List<PlannedRequest> planned = OneObjectFormat.metadataReads(object.key(), size, length);
                ByteBuffer block = reads.readRange(object.key(), planned.get(1).range());
                // The block is metadata a query trusts: checked against the checksum the manifest records.
                if (SampleChecksum.of(block) != blockCrc) {
                    throw new io.layoutbench.api.backend.CorruptDataException("Checksum mismatch in the metadata "
                            + "block " + planned.get(1).range() + " of " + object.key());
                }
                loaded = new Loaded(OneObjectFormat.decode(block, schema(), Math.toIntExact(manifest.sampleCount()),
                        object.key()), planned);
            }
            return loaded;
        }
    }

    @Override
    public void close() {
        loaded = null;
    }
}
