package io.layoutbench.layouts.l3;

import static io.layoutbench.layouts.l3.L3Fixture.DATA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.backend.CorruptDataException;
import io.layoutbench.api.backend.ObjectNotFoundException;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.layout.RetrievalPlan;
import io.layoutbench.api.layout.SampleStream;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.layouts.manifest.DatasetManifest;
import io.layoutbench.layouts.manifest.ManifestObject;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/**
 * L3 with a metadata file beside each part ({@code metadata-file=true}): the same answers as without, each part's
 * row groups evaluated from one read of its metadata file instead of a read each, and a missing, damaged or
 * mismatched metadata file named in the error.
 */
class L3MetadataFileTest {

    private static final L3Layout L3 = new L3Layout();
    private static final String PREFIX = "tiny/l3-metadata-file";
    /** Many small row groups per part, as the fac layout writes them. */
    private static final Map<String, String> OPTIONS = Map.of(L3Layout.FILE_SIZE, "8MB",
            L3Layout.ROW_GROUP_SIZE, "256KB", L3Layout.PAGE_SIZE, "4KB", L3Layout.METADATA_FILE, "true");

    private static MemoryBackend written() {
        MemoryBackend backend = new MemoryBackend();
        L3Fixture.write(backend, PREFIX, OPTIONS, DATA.samples());
        return backend;
    }

    private static List<String> fingerprints(Dataset dataset, Query query, RetrievalMode mode) {
        List<String> found = new ArrayList<>();
        try (SampleStream samples = dataset.query(query, QueryOptions.defaults().withMode(mode))) {
            samples.forEachRemaining(s -> found.add(L3Fixture.fingerprint(s)));
        }
        return found;
    }

    private static List<String> keys(MemoryBackend backend, String infix) {
        return DatasetManifest.read(backend, PREFIX).objects().stream().map(ManifestObject::key)
                .filter(k -> k.contains(infix)).toList();
    }

    @ParameterizedTest
    @EnumSource(RetrievalMode.class)
    void answersAsWithoutAndReadsNoRowGroupOnItsOwn(RetrievalMode mode) {
        MemoryBackend backend = written();
        List<String> parts = keys(backend, "/part-");
        List<String> metadataFiles = keys(backend, "/metadata-");
        assertThat(metadataFiles).hasSameSizeAs(parts).hasSizeGreaterThan(1);
        for (String query : List.of("label = 'cello'", "width > 400 AND height < 300", "label = 'tench' LIMIT 3")) {
            Query q = Query.parse(query);
            try (Dataset dataset = L3.open(backend, PREFIX)) {
                RetrievalPlan plan = dataset.plan(q, QueryOptions.defaults().withMode(mode));
                // Opening a part reads its footer (one request: the page indexes lie in its tail) and its metadata
                // file, side by side; no row group's metadata is read on its own.
                assertThat(plan.metadataRequests()).extracting(PlannedRequest::key)
                        .containsExactlyInAnyOrderElementsOf(concat(parts, metadataFiles));
                assertThat(plan.metadataRounds()).isEqualTo(1);
                assertThat(fingerprints(dataset, q, mode)).as(query).isEqualTo(L3Fixture.expected(q));
            }
        }
    }

    @Test
    void aMissingMetadataFileIsNamed() {
        MemoryBackend backend = written();
        String victim = keys(backend, "/metadata-").get(1);
        backend.delete(victim);
        try (Dataset dataset = L3.open(backend, PREFIX)) {
            assertThatThrownBy(() -> fingerprints(dataset, Query.parse("label = 'cello'"), RetrievalMode.OPTIMIZED))
                    .isInstanceOf(ObjectNotFoundException.class)
                    .hasMessageContaining("metadata file " + victim)
                    .hasMessageContaining("does not exist");
        }
    }

    @Test
    void aFlippedByteInAMetadataFileIsAChecksumErrorNamingIt() {
        MemoryBackend backend = written();
        String victim = keys(backend, "/metadata-").get(0);
        byte[] bytes = L3Fixture.toArray(backend.readAll(victim));
        bytes[bytes.length / 3] ^= 0x5a;   // in the column chunks
        backend.put(victim, bytes);
        try (Dataset dataset = L3.open(backend, PREFIX)) {
            assertThatThrownBy(() -> fingerprints(dataset, Query.parse("label = 'cello'"), RetrievalMode.OPTIMIZED))
                    .isInstanceOf(CorruptDataException.class)
                    .hasMessageContaining(victim);
        }
    }

    @Test
    void aManifestNamingAnotherPartsMetadataFileIsRefusedOnOpen() {
        MemoryBackend backend = written();
        DatasetManifest manifest = DatasetManifest.read(backend, PREFIX);
        int last = Integer.parseInt(manifest.property(L3Writer.PARTS, null)) - 1;
        Map<String, String> properties = new HashMap<>(manifest.properties());
        properties.put(L3Writer.metadataProperty(0), manifest.property(L3Writer.metadataProperty(last), null));
        properties.put(L3Writer.metadataProperty(last), manifest.property(L3Writer.metadataProperty(0), null));
        rewrite(backend, manifest, manifest.objects(), properties);
        assertThatThrownBy(() -> L3.open(backend, PREFIX))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("as the metadata file of part 0")
                .hasMessageContaining(manifest.property(L3Writer.partProperty(0), null));
    }

    @Test
    void aMetadataFileHoldingAnotherPartsRowsIsRefusedNamingBoth() {
        MemoryBackend backend = written();
        DatasetManifest manifest = DatasetManifest.read(backend, PREFIX);
        int last = Integer.parseInt(manifest.property(L3Writer.PARTS, null)) - 1;
        String first = manifest.property(L3Writer.metadataProperty(0), null);
        String other = manifest.property(L3Writer.metadataProperty(last), null);
        // The last part (of fewer rows) lends its metadata file's bytes, and the manifest its checksums: intact, but
        // not the first part's rows.
        backend.put(first, L3Fixture.toArray(backend.readAll(other)));
        ManifestObject lent = manifest.object(other).orElseThrow();
        List<ManifestObject> objects = new ArrayList<>();
        for (ManifestObject object : manifest.objects()) {
            objects.add(object.key().equals(first)
                    ? new ManifestObject(first, lent.size(), lent.crc32c(), lent.parquet()) : object);
        }
        rewrite(backend, manifest, objects, manifest.properties());
        try (Dataset dataset = L3.open(backend, PREFIX)) {
            assertThatThrownBy(() -> fingerprints(dataset, Query.parse("label = 'cello'"), RetrievalMode.OPTIMIZED))
                    .isInstanceOf(CorruptDataException.class)
                    .hasMessageMatching("(?s)Metadata file .*metadata-00000\\.parquet holds \\d+ rows but part "
                            + "file .*part-00000\\.parquet .* holds \\d+.*");
        }
    }

    private static void rewrite(MemoryBackend backend, DatasetManifest manifest, List<ManifestObject> objects,
            Map<String, String> properties) {
        new DatasetManifest(manifest.layout(), manifest.formatVersion(), manifest.generation(), manifest.schema(),
                manifest.sampleCount(), manifest.payloadBytes(), objects, properties).write(backend, PREFIX);
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
