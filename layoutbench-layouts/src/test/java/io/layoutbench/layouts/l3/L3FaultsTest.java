package io.layoutbench.layouts.l3;

import static io.layoutbench.layouts.l3.L3Fixture.DATA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.backend.CorruptDataException;
import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.backend.ObjectNotFoundException;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.layout.SampleStream;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.layouts.manifest.DatasetManifest;
import io.layoutbench.layouts.manifest.ManifestObject;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Damaged L3 datasets fail loudly, naming the sample and object at fault; an interrupted ingest leaves nothing. */
class L3FaultsTest {

    private static final L3Layout L3 = new L3Layout();

    private static List<String> parts(MemoryBackend backend, String prefix) {
        return DatasetManifest.read(backend, prefix).objects().stream().map(ManifestObject::key).toList();
    }

    private static void drain(Dataset dataset, Query query, RetrievalMode mode) {
        try (SampleStream samples = dataset.query(query, QueryOptions.defaults().withMode(mode))) {
            samples.forEachRemaining(s -> { });
        }
    }

    @ParameterizedTest
    @EnumSource(RetrievalMode.class)
    void aFlippedByteInABlobIsACrcErrorNamingThePageAndObject(RetrievalMode mode) {
        MemoryBackend backend = L3Fixture.copy();
        int victim = L3Fixture.expectedIndices(Query.parse("label = 'cello'")).get(0);
        String filename = DATA.metadata(victim).getString("filename");
        byte[] sample = L3Fixture.toArray(DATA.sampleBytes(victim));
        // Find the sample's bytes (by a stretch from its middle: JPEG headers repeat) in a part and flip one.
        byte[] needle = Arrays.copyOfRange(sample, sample.length / 2, sample.length / 2 + 256);
        String damaged = null;
        for (String part : parts(backend, L3Fixture.PREFIX)) {
            byte[] bytes = L3Fixture.toArray(backend.readAll(part));
            int at = indexOf(bytes, needle);
            if (at >= 0) {
                bytes[at + 7] ^= 0x5a;
                backend.put(part, bytes);
                damaged = part;
                break;
            }
        }
        assertThat(damaged).as("a part holds %s", filename).isNotNull();

        try (Dataset dataset = L3.open(backend, L3Fixture.PREFIX)) {
            String key = damaged;
            assertThatThrownBy(() -> drain(dataset, Query.parse("label = 'cello'"), mode))
                    .isInstanceOf(CorruptDataException.class)
                    // The page's CRC32 fails before the sample's CRC32C is checked: both cover the blob.
                    .hasMessageContaining("Checksum mismatch in the page at offset")
                    .hasMessageContaining("column image_bytes of row group")
                    .hasMessageContaining(key);
            // Samples elsewhere still read fine.
            drain(dataset, Query.parse("label = 'tench'"), mode);
        }
    }

    @Test
    void aTruncatedPartIsAnErrorNamingTheObject() {
        MemoryBackend backend = L3Fixture.copy();
        String part = parts(backend, L3Fixture.PREFIX).get(1);
        byte[] bytes = L3Fixture.toArray(backend.readAll(part));
        backend.put(part, Arrays.copyOf(bytes, bytes.length - 5000));

        try (Dataset dataset = L3.open(backend, L3Fixture.PREFIX)) {
            assertThatThrownBy(() -> drain(dataset, Query.parse("label = 'cello'"), RetrievalMode.OPTIMIZED))
                    .isInstanceOf(CorruptDataException.class)
                    .hasMessageContaining(part)
                    .hasMessageContaining("truncated");
        }
    }

    @Test
    void aPartWithAZeroedFooterIsAChecksumErrorNamingTheObject() {
        MemoryBackend backend = L3Fixture.copy();
        String part = parts(backend, L3Fixture.PREFIX).get(0);
        byte[] bytes = L3Fixture.toArray(backend.readAll(part));
        // Same length as the manifest says, but the footer is garbage: zeros over the tail.
        Arrays.fill(bytes, bytes.length - 100, bytes.length, (byte) 0);
        backend.put(part, bytes);

        try (Dataset dataset = L3.open(backend, L3Fixture.PREFIX)) {
            assertThatThrownBy(() -> drain(dataset, Query.parse("label = 'cello'"), RetrievalMode.PAPER))
                    .isInstanceOf(CorruptDataException.class)
                    .hasMessageContaining("Checksum mismatch in the footer region of " + part);
        }
    }

    @Test
    void aMissingPartIsObjectNotFoundNamingTheKey() {
        MemoryBackend backend = L3Fixture.copy();
        String part = parts(backend, L3Fixture.PREFIX).get(2);
        backend.delete(part);

        try (Dataset dataset = L3.open(backend, L3Fixture.PREFIX)) {
            for (RetrievalMode mode : RetrievalMode.values()) {
                assertThatThrownBy(() -> drain(dataset, Query.parse("label = 'cello'"), mode))
                        .isInstanceOf(ObjectNotFoundException.class)
                        .hasMessageContaining(part);
            }
        }
    }

    @Test
    void aBlobPageMissingAfterPlanningFailsTheStreamNamingTheKey() {
        MemoryBackend backend = L3Fixture.copy();
        try (Dataset dataset = L3.open(backend, L3Fixture.PREFIX)) {
            drain(dataset, Query.parse("label = 'cello'"), RetrievalMode.OPTIMIZED);   // footers cached
            String part = dataset.plan(Query.parse("label = 'cello'"), QueryOptions.defaults()).dataRequests()
                    .get(0).key();
            backend.delete(part);
            assertThatThrownBy(() -> drain(dataset, Query.parse("label = 'cello'"), RetrievalMode.OPTIMIZED))
                    .isInstanceOf(ObjectNotFoundException.class)
                    .hasMessageContaining(part);
        }
    }

    @Test
    void anIngestClosedWithoutCommitLeavesNoDatasetAndARerunCommitsCleanly() {
        MemoryBackend backend = new MemoryBackend();
        try (DatasetWriter writer = L3.create(backend, "crash", MetadataSchema.imageNet(), L3Fixture.SMALL)) {
            DATA.samples().limit(200).forEach(writer::add);   // about 22 MB: two parts uploaded already
            assertThat(count(backend, "crash/")).isGreaterThanOrEqualTo(2);
        }
        assertThat(count(backend, "crash/")).as("an aborted writer deletes its parts").isZero();
        assertThatThrownBy(() -> L3.open(backend, "crash"))
                .isInstanceOf(ObjectNotFoundException.class)
                .hasMessageContaining("No committed dataset at 'crash'");
    }

    @Test
    void aCrashedIngestLeavesNoDatasetAndARerunCommitsCleanly() {
        MemoryBackend backend = new MemoryBackend();
        // A writer that dies (never closed) leaves its uploaded parts but no manifest.
        DatasetWriter crashed = L3.create(backend, "crash", MetadataSchema.imageNet(), L3Fixture.SMALL);
        DATA.samples().limit(200).forEach(crashed::add);
        long leftovers = count(backend, "crash/");
        assertThat(leftovers).isGreaterThanOrEqualTo(2);
        assertThatThrownBy(() -> L3.open(backend, "crash"))
                .isInstanceOf(ObjectNotFoundException.class)
                .hasMessageContaining("crash/_manifest.properties");

        L3Fixture.write(backend, "crash", L3Fixture.SMALL, DATA.samples().limit(300));
        DatasetManifest manifest = DatasetManifest.read(backend, "crash");
        try (Stream<ObjectInfo> objects = backend.list("crash/")) {
            assertThat(objects.map(ObjectInfo::key)).as("only the new ingest's objects remain")
                    .containsExactlyInAnyOrderElementsOf(Stream.concat(
                            manifest.objects().stream().map(ManifestObject::key),
                            Stream.of(DatasetManifest.keyFor("crash"))).toList());
        }
        try (Dataset dataset = L3.open(backend, "crash")) {
            assertThat(dataset.summary().sampleCount()).isEqualTo(300);
            Query all = Query.parse("filesize_bytes >= 0");
            List<String> read = new java.util.ArrayList<>();
            try (SampleStream samples = dataset.query(all, QueryOptions.defaults())) {
                samples.forEachRemaining(s -> read.add(L3Fixture.fingerprint(s)));
            }
            assertThat(read).containsExactlyElementsOf(L3Fixture.expected(all).subList(0, 300));
        }
        crashed.close();   // the dead writer's cleanup touches only its own (already removed) generation
        assertThat(L3.open(backend, "crash").summary().sampleCount()).isEqualTo(300);
    }

    private static long count(MemoryBackend backend, String prefix) {
        try (Stream<ObjectInfo> objects = backend.list(prefix)) {
            return objects.count();
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
