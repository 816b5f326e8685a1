package io.layoutbench.layouts.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.backend.CorruptDataException;
import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.backend.ObjectNotFoundException;
import io.layoutbench.api.backend.StorageException;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.layout.SampleStream;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.datasets.synthetic.SyntheticImageNet;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Bad input and faults for the metadata-table layouts: nothing returns wrong bytes silently. */
class LayoutFaultsTest {

    private static final SyntheticImageNet DATA = SyntheticImageNet.of(ImageNetScale.TINY, 3, false);
    private static final Query FIRST_SAMPLE = Query.parse("filesize_bytes > 0 LIMIT 1");

    private final MemoryBackend backend = new MemoryBackend();

    @ParameterizedTest
    @ValueSource(strings = {"l1", "l2"})
    void aFlippedByteIsACrcErrorNamingTheSampleAndObject(String name) {
        Dataset dataset = ingest(name, "ds", 200);
        Sample first = firstSample(dataset);
        String victim = objectHolding(name, first);
        byte[] bytes = toArray(backend.readAll(victim));
        int offset = name.equals("l1") ? 100 : indexOf(bytes, first.toByteArray()) + 100;
        bytes[offset] ^= 0x55;
        backend.put(victim, bytes);

        try (Dataset fresh = StorageLayouts.get(name).open(backend, "ds");
             SampleStream samples = fresh.query(FIRST_SAMPLE, QueryOptions.defaults())) {
            assertThatThrownBy(() -> samples.forEachRemaining(s -> { }))
                    .isInstanceOf(CorruptDataException.class)
                    .hasMessageContaining("Checksum mismatch for sample '" + first.filename() + "'")
                    .hasMessageContaining(victim);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"l1", "l2"})
    void aMissingObjectIsNamed(String name) {
        Dataset dataset = ingest(name, "ds", 200);
        String victim = objectHolding(name, firstSample(dataset));
        backend.delete(victim);

        try (Dataset fresh = StorageLayouts.get(name).open(backend, "ds");
             SampleStream samples = fresh.query(FIRST_SAMPLE, QueryOptions.defaults().withMode(RetrievalMode.PAPER))) {
            assertThatThrownBy(() -> samples.forEachRemaining(s -> { }))
                    .isInstanceOf(ObjectNotFoundException.class)
                    .hasMessageContaining(victim);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"l2"})
    void aTruncatedShardIsARangeErrorNamingTheShard(String name) {
        Dataset dataset = ingest(name, "ds", 200);
        String shard = objectHolding(name, firstSample(dataset));
        ByteBuffer whole = backend.readAll(shard);
        backend.put(shard, toArray(whole.limit(whole.limit() / 2)));

        try (Dataset fresh = StorageLayouts.get(name).open(backend, "ds");
             SampleStream samples = fresh.query(Query.parse("filesize_bytes > 0"), QueryOptions.defaults())) {
            assertThatThrownBy(() -> samples.forEachRemaining(s -> { }))
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining(shard)
                    .hasMessageContaining("object is " + whole.limit() + " bytes");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"l1", "l2"})
    void aCrashedIngestLeavesNoDatasetAndARerunRecovers(String name) {
        StorageLayout layout = StorageLayouts.get(name);
        DatasetWriter crashed = layout.create(backend, "ds", MetadataSchema.imageNet(), options(name));
        Iterator<Sample> samples = DATA.iterator();
        for (int i = 0; i < 100; i++) {
            crashed.add(samples.next());
        }
        // No commit: as if the process died here (the writer is simply dropped, not closed).
        assertThatThrownBy(() -> layout.open(backend, "ds"))
                .isInstanceOf(ObjectNotFoundException.class)
                .hasMessageContaining("No committed dataset at 'ds'");

        Dataset dataset = ingest(name, "ds", (int) DATA.size());
        assertThat(dataset.summary().sampleCount()).isEqualTo(DATA.size());
        // Everything the crashed run left behind is gone: only the committed generation and manifest remain.
        long stored;
        try (Stream<ObjectInfo> listing = backend.list("ds/")) {
            stored = listing.count();
        }
        assertThat(stored).isEqualTo(dataset.summary().objectCount());
        crashed.close();   // only to delete its local temporary files (a dead process leaves them to the OS)
        try (Stream<ObjectInfo> listing = backend.list("ds/")) {
            assertThat(listing.count()).as("closing the dropped writer after the rerun").isEqualTo(stored);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"l1", "l2"})
    void aWriterClosedWithoutCommitDeletesWhatItWrote(String name) {
        try (DatasetWriter writer = StorageLayouts.get(name).create(backend, "ds", MetadataSchema.imageNet(),
                options(name))) {
            DATA.samples().limit(50).forEach(writer::add);
        }
        try (Stream<ObjectInfo> listing = backend.list("ds/")) {
            assertThat(listing.count()).isZero();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"l1", "l2"})
    void unknownOptionsAndWrongLayoutsAreClearErrors(String name) {
        assertThatThrownBy(() -> StorageLayouts.get(name).create(backend, "ds", MetadataSchema.imageNet(),
                Map.of("shard-sise", "1MB")))
                .hasMessageContaining("Unknown " + name + " option 'shard-sise'");
        ingest(name, "ds", 20);
        String other = name.equals("l1") ? "l2" : "l1";
        assertThatThrownBy(() -> StorageLayouts.get(other).open(backend, "ds"))
                .hasMessageContaining("is a '" + name + "' dataset, not '" + other + "'");
    }

    private Dataset ingest(String name, String prefix, int count) {
        StorageLayout layout = StorageLayouts.get(name);
        try (DatasetWriter writer = layout.create(backend, prefix, MetadataSchema.imageNet(), options(name))) {
            DATA.samples().limit(count).forEach(writer::add);
            writer.commit();
        }
        return layout.open(backend, prefix);
    }

    private static Map<String, String> options(String name) {
        return name.equals("l2") ? Map.of("shard-size", "4MB") : Map.of();
    }

    private Sample firstSample(Dataset dataset) {
        try (SampleStream samples = dataset.query(Query.parse("filesize_bytes > 0 LIMIT 1"),
                QueryOptions.defaults())) {
            return samples.next();
        }
    }

    private String objectHolding(String layout, Sample sample) {
        List<String> keys = new ArrayList<>();
        try (Stream<ObjectInfo> listing = backend.list("ds/")) {
            listing.map(ObjectInfo::key).forEach(keys::add);
        }
        return keys.stream()
                .filter(k -> layout.equals("l1") ? k.endsWith("/" + sample.filename()) : k.endsWith(".tar"))
                .findFirst().orElseThrow();
    }

    private static byte[] toArray(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < Math.min(needle.length, 64); j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("sample bytes not found in shard");
    }
}
