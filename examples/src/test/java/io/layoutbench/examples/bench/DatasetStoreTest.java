package io.layoutbench.examples.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.cost.CostModel;
import io.layoutbench.api.cost.Prices;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.network.NetworkProfiles;
import io.layoutbench.backend.file.FileBackend;
import io.layoutbench.datasets.synthetic.ImageNetScale;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Datasets are ingested once per (dataset, layout, options) and reused afterwards, with their ingest record. */
class DatasetStoreTest {

    @TempDir
    Path root;

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
