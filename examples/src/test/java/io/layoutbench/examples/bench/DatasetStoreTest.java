package io.layoutbench.examples.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.cost.CostModel;
import io.layoutbench.api.cost.Prices;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.network.NetworkProfiles;
import io.layoutbench.backend.file.FileBackend;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.datasets.synthetic.SyntheticJpeg;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Datasets are ingested once per (dataset, layout, options) and reused afterwards, with their ingest record. */
class DatasetStoreTest {

    private static final StorageLayout L1 = StorageLayouts.get("l1");
    private static final CostModel MODEL = new CostModel(Prices.s3Standard(), NetworkProfiles.T3_MEDIUM);

    @TempDir
    Path root;

    private int clock;

    @Test
    void aCommittedDatasetIsReusedWithItsIngestMeasurements() {
        StorageLayout l2 = StorageLayouts.get("l2");
        DatasetSource tiny = DatasetSource.synthetic(ImageNetScale.TINY, 42, false);
        Map<String, String> options = LayoutSettings.paperDefaults("l2", ImageNetScale.TINY);
        CostModel model = new CostModel(Prices.s3Standard(), NetworkProfiles.T3_MEDIUM);
        try (ObjectBackend backend = new FileBackend(root)) {
            DatasetStore store = new DatasetStore(backend, "file");

            IngestRow first = store.ensure(tiny, l2, options, false, model, Progress.Factory.NONE);
            IngestRow second = store.ensure(tiny, l2, options, false, model, Progress.Factory.NONE);
            IngestRow otherOptions = store.ensure(tiny, l2, Map.of("shard-size", "16MB"), false, model,
                    Progress.Factory.NONE);

            assertThat(first.reused()).isFalse();
            assertThat(first.prefix()).isEqualTo("imagenet-tiny-seed42/l2.shard-size=64MB");
            assertThat(first.samples()).isEqualTo(1030);
            assertThat(first.putRequests()).isPositive();
            assertThat(first.bytes()).isGreaterThanOrEqualTo(first.payloadBytes());
            assertThat(first.costUsd()).isPositive();

            assertThat(second.reused()).isTrue();
            assertThat(second.prefix()).isEqualTo(first.prefix());
            assertThat(second.seconds()).isEqualTo(first.seconds());
            assertThat(second.putRequests()).isEqualTo(first.putRequests());
            assertThat(second.storedBytes()).isEqualTo(first.storedBytes());

            assertThat(otherOptions.reused()).isFalse();
            assertThat(otherOptions.prefix()).isEqualTo("imagenet-tiny-seed42/l2.shard-size=16MB");
        }
    }

    @Test
    void aFolderIsReusedUntilItsFilesChangeAndEveryReingestSaysWhy() throws IOException {
        Path pets = root.resolve("pets");
        image(pets.resolve("cat/a.jpg"), 1000);
        image(pets.resolve("dog/b.jpg"), 1100);
        String folder = "image folder " + pets.toAbsolutePath();
        try (ObjectBackend backend = new FileBackend(root.resolve("store"))) {
            DatasetStore store = new DatasetStore(backend, "file");

            assertThat(ensure(store, DatasetSource.imageFolder(pets, null))).isEqualTo("ingested 2");
            assertThat(ensure(store, DatasetSource.imageFolder(pets, null))).isEqualTo("reused 2");

            image(pets.resolve("cat/c.jpg"), 1200);
            image(pets.resolve("dog/d.jpg"), 1300);
            image(pets.resolve("dog/e.jpg"), 1400);
            assertThat(ensure(store, DatasetSource.imageFolder(pets, null))).isEqualTo("re-ingesting pets/l1: 3 more "
                    + "files in " + folder + " than at the last ingest (2 then, 5 now); ingested 5");
            assertThat(ensure(store, DatasetSource.imageFolder(pets, null))).isEqualTo("reused 5");

            Files.delete(pets.resolve("dog/e.jpg"));
            assertThat(ensure(store, DatasetSource.imageFolder(pets, null))).isEqualTo("re-ingesting pets/l1: 1 fewer "
                    + "file in " + folder + " than at the last ingest (5 then, 4 now); ingested 4");

            Files.move(pets.resolve("dog/d.jpg"), pets.resolve("dog/f.jpg"));
            assertThat(ensure(store, DatasetSource.imageFolder(pets, null))).isEqualTo("re-ingesting pets/l1: files "
                    + "in " + folder + " were renamed, added or removed since the last ingest (4 files then and "
                    + "now); ingested 4");

            image(pets.resolve("cat/a.jpg"), 999);
            assertThat(ensure(store, DatasetSource.imageFolder(pets, null))).isEqualTo("re-ingesting pets/l1: files "
                    + "in " + folder + " changed since the last ingest (sizes or modification times; 4,600 bytes "
                    + "then, 4,599 now); ingested 4");
        }
    }

    @Test
    void anotherSourceUnderTheSameNameReplacesTheDatasetSayingWhy() throws IOException {
        image(root.resolve("a/cat/x.jpg"), 1000);
        image(root.resolve("b/dog/y.jpg"), 1000);
        image(root.resolve("b/dog/z.jpg"), 1000);
        try (ObjectBackend backend = new FileBackend(root.resolve("store"))) {
            DatasetStore store = new DatasetStore(backend, "file");

            assertThat(ensure(store, DatasetSource.imageFolder(root.resolve("a"), "pets"))).isEqualTo("ingested 1");
            assertThat(ensure(store, DatasetSource.imageFolder(root.resolve("b"), "pets"))).isEqualTo("re-ingesting "
                    + "pets/l1: it was ingested from image folder " + root.resolve("a") + ", not image folder "
                    + root.resolve("b") + "; ingested 2");
        }
    }

    @Test
    void namesThatShareAPrefixAreToldApartAndReplacedOnlyWhenForced() throws IOException {
        image(root.resolve("a/cat/x.jpg"), 1000);
        image(root.resolve("b/dog/y.jpg"), 1000);
        try (ObjectBackend backend = new FileBackend(root.resolve("store"))) {
            DatasetStore store = new DatasetStore(backend, "file");
            assertThat(ensure(store, DatasetSource.imageFolder(root.resolve("a"), "a/b"))).isEqualTo("ingested 1");

            DatasetSource other = DatasetSource.imageFolder(root.resolve("b"), "a_b");
            assertThatThrownBy(() -> ensure(store, other)).isInstanceOf(DatasetStore.NameTakenException.class)
                    .hasMessage("Dataset name 'a_b' is stored at a_b/l1, which holds dataset 'a/b' (from image folder "
                            + root.resolve("a") + "): in a prefix, characters other than letters, digits, '.', '_' "
                            + "and '-' become '_'");
            assertThat(store.datasetName("a_b/l1")).contains("a/b");

            List<String> notes = new ArrayList<>();
            IngestRow forced = store.ensure(other, L1, Map.of(), true, MODEL, Progress.Factory.NONE, notes::add);
            assertThat(notes).containsExactly("replacing a_b/l1, which held dataset 'a/b'");
            assertThat(forced.reused()).isFalse();
            assertThat(store.datasetName("a_b/l1")).contains("a_b");
        }
    }

    @Test
    void aManifestIsIngestedAgainWhenItOrTheFilesItListsChange() throws IOException {
        image(root.resolve("img/x.jpg"), 1000);
        Path manifest = root.resolve("lists/m.csv");
        Files.createDirectories(manifest.getParent());
        Files.writeString(manifest, "path,label\n../img/x.jpg,cat\n");
        try (ObjectBackend backend = new FileBackend(root.resolve("store"))) {
            DatasetStore store = new DatasetStore(backend, "file");
            assertThat(ensure(store, DatasetSource.csvManifest(manifest, null))).isEqualTo("ingested 1");
            assertThat(ensure(store, DatasetSource.csvManifest(manifest, null))).isEqualTo("reused 1");

            Files.writeString(manifest, "path,label\n../img/x.jpg,dog\n");
            assertThat(ensure(store, DatasetSource.csvManifest(manifest, null))).isEqualTo("re-ingesting m/l1: CSV "
                    + "manifest " + manifest + " changed since the last ingest; ingested 1");

            image(root.resolve("img/x.jpg"), 1001);
            assertThat(ensure(store, DatasetSource.csvManifest(manifest, null))).startsWith("re-ingesting m/l1: "
                    + "files listed by CSV manifest " + manifest + " changed since the last ingest");
        }
    }

    @Test
    void aDatasetWhoseRecordHasNoFingerprintIsIngestedAgain() throws IOException {
        try (ObjectBackend backend = new FileBackend(root.resolve("store"))) {
            DatasetStore store = new DatasetStore(backend, "file");
            DatasetSource tiny = DatasetSource.synthetic(ImageNetScale.TINY, 42, false);
            Map<String, String> options = LayoutSettings.paperDefaults("l1", ImageNetScale.TINY);
            store.ensure(tiny, L1, options, false, MODEL, Progress.Factory.NONE);
            String key = DatasetStore.RECORDS + "imagenet-tiny-seed42/l1.json";
            String record = StandardCharsets.UTF_8.decode(backend.readAll(key)).toString();
            // As an older version wrote it: the row's fields only.
            String older = record.replaceAll("(?s),\\s*\"dataset_name\".*", "\n}");
            assertThat(older).doesNotContain("fingerprint").contains("\"layout\"");
            backend.put(key, older.getBytes(StandardCharsets.UTF_8));

            List<String> notes = new ArrayList<>();
            IngestRow again = store.ensure(tiny, L1, options, false, MODEL, Progress.Factory.NONE, notes::add);
            assertThat(again.reused()).isFalse();
            assertThat(notes).containsExactly("re-ingesting imagenet-tiny-seed42/l1: its ingest record has no source "
                    + "fingerprint (written by an older version, or the ingest stopped before writing it)");
            assertThat(store.ensure(tiny, L1, options, false, MODEL, Progress.Factory.NONE).reused()).isTrue();
        }
    }

    /** Ensures {@code source} in l1: the notes, then "ingested N" or "reused N". */
    private static String ensure(DatasetStore store, DatasetSource source) {
        List<String> notes = new ArrayList<>();
        IngestRow row = store.ensure(source, L1, Map.of(), false, MODEL, Progress.Factory.NONE, notes::add);
        notes.add((row.reused() ? "reused " : "ingested ") + row.samples());
        return String.join("; ", notes);
    }

    /** A JPEG-like file of {@code length} bytes, with a modification time that differs from the last one's. */
    private void image(Path file, int length) throws IOException {
        Files.createDirectories(file.getParent());
        Files.write(file, SyntheticJpeg.generate(length, 20, 10, length));
        Files.setLastModifiedTime(file, FileTime.fromMillis(1_700_000_000_000L + 1000L * ++clock));
    }

    @Test
    void prefixesNameDatasetLayoutAndOptions() {
        assertThat(DatasetStore.prefix("imagenet-mini-seed42", "l1", Map.of())).isEqualTo("imagenet-mini-seed42/l1");
        assertThat(DatasetStore.prefix("pets", "l3", Map.of("row-group-size", "128MB", "file-size", "64MB")))
                .isEqualTo("pets/l3.file-size=64MB.row-group-size=128MB");
        assertThat(DatasetStore.prefix("x", "l2", Map.of("shard-size", "a/b c"))).isEqualTo("x/l2.shard-size=a_b_c");
    }

    @Test
    void paperDefaultsFollowTheScale() {
        assertThat(LayoutSettings.paperDefaults("l2", ImageNetScale.MINI)).containsExactly(
                Map.entry("shard-size", "64MB"));
        assertThat(LayoutSettings.paperDefaults("l3", ImageNetScale.MEDIUM)).containsExactly(
                Map.entry("file-size", "512MB"), Map.entry("page-size", "4KB"), Map.entry("row-group-size", "128MB"));
        assertThat(LayoutSettings.paperDefaults("l1", ImageNetScale.FULL)).isEmpty();
        assertThat(LayoutSettings.withOverrides("l2", LayoutSettings.paperDefaults("l2", ImageNetScale.TINY),
                LayoutSettings.parseOverrides(java.util.List.of("l2.shard-size=8MB", "l3.file-size=1MB"))))
                .containsExactly(Map.entry("shard-size", "8MB"));
    }
}
