package io.layoutbench.layouts.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.CorruptDataException;
import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.layout.SampleStream;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.datasets.synthetic.SyntheticImageNet;
import io.layoutbench.layouts.manifest.ChecksummedProperties;
import io.layoutbench.layouts.manifest.DatasetManifest;
import io.layoutbench.layouts.manifest.ManifestObject;
import io.layoutbench.layouts.manifest.UnverifiedDatasetException;
import io.layoutbench.parquet.ParquetFooter;
import io.layoutbench.parquet.ParquetObject;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Metadata cannot silently lie (issue 16, item 2): every metadata byte a query trusts (the manifest, the metadata
 * tables, Parquet footers, page indexes and metadata chunks) is checked against a checksum recorded at ingest, and a
 * changed byte is an error naming the object and region, never a different answer.
 */
class MetadataChecksumsTest {

    private static final SyntheticImageNet DATA = SyntheticImageNet.of(ImageNetScale.TINY, 3, false);
    private static final Query TENCH = Query.parse("label = 'tench'");

    private final MemoryBackend backend = new MemoryBackend();

    private void ingest(String layout, Map<String, String> options) {
        try (DatasetWriter writer = StorageLayouts.get(layout).create(backend, "ds", MetadataSchema.imageNet(),
                options)) {
            DATA.samples().limit(300).forEach(writer::add);
            writer.commit();
        }
    }

    private long count(String layout, Query query, RetrievalMode mode) {
        try (Dataset dataset = StorageLayouts.get(layout).open(backend, "ds");
             SampleStream samples = dataset.query(query, QueryOptions.defaults().withMode(mode))) {
            long[] n = {0};
            samples.forEachRemaining(s -> n[0]++);
            return n[0];
        }
    }

    private String metadataTable() {
        return DatasetManifest.read(backend, "ds").properties().get("metadata.key");
    }

    private byte[] bytes(String key) {
        ByteBuffer buffer = backend.readAll(key);
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }

    @ParameterizedTest
    @ValueSource(strings = {"l1", "l2"})
    void aFlippedByteAtTheTenchDictionaryEntryIsAnErrorNamingTheMetadataTable(String layout) {
        ingest(layout, Map.of());
        assertThat(count(layout, TENCH, RetrievalMode.OPTIMIZED)).isPositive();
        String table = metadataTable();
        byte[] bytes = bytes(table);
        bytes[indexOf(bytes, "tench", 0)] ^= 0x01;   // "tench" -> "uench", as the issue found
        backend.put(table, bytes);

        assertThatThrownBy(() -> count(layout, TENCH, RetrievalMode.OPTIMIZED))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("Checksum mismatch")
                .hasMessageContaining(table);
    }

    @ParameterizedTest
    @ValueSource(strings = {"l1", "l2"})
    void aChangedFooterOfTheMetadataTableIsNamed(String layout) {
        ingest(layout, Map.of());
        String table = metadataTable();
        byte[] bytes = bytes(table);
        bytes[bytes.length - 20] ^= 0x10;
        backend.put(table, bytes);
        assertThatThrownBy(() -> count(layout, TENCH, RetrievalMode.PAPER))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("footer region of " + table);
    }

    @ParameterizedTest
    @EnumSource(RetrievalMode.class)
    void aChangedLabelStatisticInAnL3FooterIsAnErrorNamingThePart(RetrievalMode mode) {
        ingest("l3", Map.of("file-size", "4MB", "row-group-size", "1MB"));
        ManifestObject part = DatasetManifest.read(backend, "ds").objects().get(0);
        ParquetFooter footer = ParquetObject.open(backend, part.key()).footer();
        String max = (String) footer.rowGroups().get(0).column("label").stats().orElseThrow().max();
        Query query = Query.parse("label = '" + max + "'");
        long expected = count("l3", query, mode);
        assertThat(expected).isPositive();
        // "zebra" to "aebra" in the statistics: a reader that trusted it would skip the row group and miss samples.
        byte[] bytes = bytes(part.key());
        int at = indexOf(bytes, max, footer.footerRange().offset());
        bytes[at] = 'a';
        backend.put(part.key(), bytes);

        assertThatThrownBy(() -> count("l3", query, mode))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("Checksum mismatch in the footer region of " + part.key());
    }

    @Test
    void aChangedL3PageIndexOrMetadataChunkIsNamedWithItsRegion() {
        ingest("l3", Map.of("file-size", "4MB", "row-group-size", "1MB"));
        ManifestObject part = DatasetManifest.read(backend, "ds").objects().get(0);
        ParquetFooter footer = ParquetObject.open(backend, part.key()).footer();
        byte[] original = bytes(part.key());

        ByteRange pageIndexes = footer.pageIndexRange().orElseThrow();
        byte[] damaged = original.clone();
        damaged[(int) (pageIndexes.offset() + pageIndexes.length() / 3)] ^= 0x04;
        backend.put(part.key(), damaged);
        assertThatThrownBy(() -> count("l3", TENCH, RetrievalMode.OPTIMIZED))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("page-index region of " + part.key());

        damaged = original.clone();
        ByteRange labels = footer.rowGroups().get(0).column("label").byteRange();
        damaged[indexOf(original, "tench", labels.offset())] ^= 0x01;
        backend.put(part.key(), damaged);
        assertThatThrownBy(() -> count("l3", TENCH, RetrievalMode.PAPER))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("metadata column chunks of row group 0 of " + part.key());
    }

    @ParameterizedTest
    @ValueSource(strings = {"l1", "l2", "l3"})
    void theManifestRecordsEachObjectsSizeAndCrc32c(String layout) {
        ingest(layout, Map.of());
        DatasetManifest manifest = DatasetManifest.read(backend, "ds");
        for (ManifestObject object : manifest.objects()) {
            byte[] bytes = bytes(object.key());
            CRC32C crc = new CRC32C();
            crc.update(bytes);
            assertThat(object.size()).as("size of %s", object.key()).isEqualTo(bytes.length);
            assertThat(object.crc32c()).as("CRC32C of %s", object.key()).isEqualTo((int) crc.getValue());
            assertThat(object.parquet().isPresent()).as("Parquet checksums of %s", object.key())
                    .isEqualTo(object.key().endsWith(".parquet"));
        }
        byte[] text = bytes(DatasetManifest.keyFor("ds"));
        String manifestText = new String(text, StandardCharsets.ISO_8859_1);
        assertThat(manifestText).startsWith(ChecksummedProperties.HEADER + "\n")
                .containsPattern("\n" + ChecksummedProperties.CHECKSUM_KEY + "=[0-9a-f]{8}\n$");
    }

    @ParameterizedTest
    @ValueSource(strings = {"l1", "l2", "l3"})
    void aFlippedOrTruncatedManifestIsAnErrorNamingIt(String layout) {
        ingest(layout, Map.of());
        String key = DatasetManifest.keyFor("ds");
        byte[] original = bytes(key);
        for (int at : new int[] {0, original.length / 2, original.length - 3}) {
            byte[] damaged = original.clone();
            damaged[at] ^= 0x02;
            backend.put(key, damaged);
            assertThatThrownBy(() -> StorageLayouts.get(layout).open(backend, "ds")).as("flip at %d", at)
                    .isInstanceOf(CorruptDataException.class)
                    .hasMessageContaining(key);
        }
        for (int cut : new int[] {2, 30, original.length / 2}) {   // (a lost last newline loses nothing)
            backend.put(key, Arrays.copyOf(original, original.length - cut));
            assertThatThrownBy(() -> StorageLayouts.get(layout).open(backend, "ds")).as("cut %d bytes", cut)
                    .isInstanceOf(CorruptDataException.class)
                    .hasMessageContaining(key);
        }
    }

    @Test
    void aManifestWithoutChecksumsIsRefusedSayingToReingest() throws Exception {
        ingest("l2", Map.of());
        String key = DatasetManifest.keyFor("ds");
        // The manifest as an older layoutbench wrote it: no checksum lines, no checksums of objects.
        Properties old = ChecksummedProperties.read(backend.readAll(key), key).properties();
        old.stringPropertyNames().stream().filter(n -> n.endsWith(".crc32c") || n.contains(".parquet."))
                .forEach(old::remove);
        java.io.ByteArrayOutputStream text = new java.io.ByteArrayOutputStream();
        old.store(text, "layoutbench dataset manifest");
        backend.put(key, text.toByteArray());

        assertThatThrownBy(() -> StorageLayouts.get("l2").open(backend, "ds"))
                .isInstanceOf(UnverifiedDatasetException.class)
                .hasMessageContaining("manifest without checksums")
                .hasMessageContaining(key)
                .hasMessageContaining("re-ingest");
    }

    @Test
    void aDatasetWithNoDamageReadsAsBefore() {
        ingest("l3", Map.of("file-size", "4MB", "row-group-size", "1MB"));
        long objects;
        try (Stream<ObjectInfo> listing = backend.list("ds/")) {
            objects = listing.count();
        }
        assertThat(objects).isGreaterThan(2);
        for (RetrievalMode mode : RetrievalMode.values()) {
            assertThat(count("l3", TENCH, mode)).isEqualTo(DATA.metadata().limit(300)
                    .filter(m -> "tench".equals(m.getString("label"))).count());
        }
    }

    private static int indexOf(byte[] haystack, String text, long from) {
        byte[] needle = text.getBytes(StandardCharsets.UTF_8);
        outer:
        for (int i = (int) from; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("'" + text + "' not found after offset " + from);
    }
}
