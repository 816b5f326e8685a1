package io.layoutbench.fusion.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackends;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.SampleStream;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.api.testing.FaultInjectingBackend;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.datasets.synthetic.SyntheticImageNet;
import io.layoutbench.fusion.FusionTestFiles;
import io.layoutbench.fusion.coding.CodingPlan;
import io.layoutbench.fusion.coding.ObjectRegion;
import io.layoutbench.fusion.coding.ObjectSource;
import io.layoutbench.fusion.coding.ParquetChunkMaps;
import io.layoutbench.fusion.layout.FacLayout;
import io.layoutbench.fusion.store.FacBackend;
import io.layoutbench.fusion.store.FacManifest;
import io.layoutbench.fusion.store.FacOptions;
import io.layoutbench.fusion.store.FacStatistics;
import io.layoutbench.fusion.store.StripeUnavailableException;
import io.layoutbench.layouts.common.SampleChecksum;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * A FAC store over nine storage nodes, each a Flight server in this JVM on 127.0.0.1: a multi-stripe Parquet object
 * put and read back byte for byte, read with three servers stopped, refused naming the stripe and nodes with four,
 * and read from a stopped server again once it is restarted on its port; and the {@code fac} layout over the nodes'
 * {@code flight://} URIs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FlightFacClusterTest {

    private static final String KEY = "tables/l3.parquet";
    private static final int UNIT = 4 << 10;

    private final List<FaultInjectingBackend> disks = new ArrayList<>();
    private final StorageNodeServer[] servers = new StorageNodeServer[9];
    private final int[] ports = new int[9];
    private final Set<Integer> stopped = new TreeSet<>();
    private byte[] table;
    private FacBackend fac;
    private FacManifest manifest;

    @BeforeAll
    void startNodesAndPut() {
        for (int i = 0; i < 9; i++) {
            // The node's objects outlive its server, as a disk outlives its process; the wrapper counts reads.
            disks.add(FaultInjectingBackend.wrap(new MemoryBackend()));
            servers[i] = StorageNodeServer.start(disks.get(i), StorageNodeServer.Options.defaults());
            ports[i] = servers[i].port();
        }
        List<ObjectBackend> nodes = Arrays.stream(servers).map(s -> ObjectBackends.open(s.uri().toString()))
                .toList();
        assertThat(nodes).allSatisfy(node -> assertThat(node).isInstanceOf(FlightNodeBackend.class));
        fac = FacBackend.create(nodes, FacOptions.builder().checksumUnit(UNIT).build(), true);
        table = FusionTestFiles.l3Table(72, 128 << 10, 16 << 10);
        manifest = fac.put(KEY, ObjectSource.of(table));
    }

    @AfterEach
    void restartStoppedNodes() {
        List.copyOf(stopped).forEach(this::restart);
    }

    @AfterAll
    void stopNodes() {
        fac.close();
        for (StorageNodeServer server : servers) {
            server.close();
            assertThat(server.allocator().getAllocatedMemory()).isZero();
        }
        disks.forEach(ObjectBackend::close);
    }

    @Test
    void aMultiStripeParquetObjectIsStoredAcrossTheNodesAndReadBackByteIdentical() {
        assertThat(manifest.strategy()).isEqualTo(CodingPlan.Strategy.FAC);
        assertThat(manifest.stripes().size()).isGreaterThanOrEqualTo(3);
        for (int i = 0; i < 9; i++) {
            assertThat(disks.get(i).list("blocks/").count()).as("blocks on node %d", i).isPositive();
        }

        FacStatistics before = fac.statistics();
        assertThat(bytes(fac.readAll(KEY))).isEqualTo(table);
        Random random = new Random(3);
        for (int i = 0; i < 20; i++) {
            long offset = random.nextInt(table.length);
            ByteRange range = ByteRange.of(offset, random.nextInt((int) Math.min(400_000, table.length - offset)));
            assertThat(bytes(fac.readRange(KEY, range))).as("range %s", range).isEqualTo(slice(range));
        }
        assertThat(fac.statistics().degradedReads() - before.degradedReads()).isZero();
    }

    @Test
    void withThreeServersStoppedReadsAreDecodedFromTheOthers() {
        FacStatistics before = fac.statistics();
        stop(1, 4, 8);

        assertThat(bytes(fac.readAll(KEY))).isEqualTo(table);
        for (ObjectRegion chunk : ParquetChunkMaps.read(ObjectSource.of(table)).chunks().subList(0, 16)) {
            assertThat(bytes(fac.readRange(KEY, chunk.range()))).as(chunk.label()).isEqualTo(slice(chunk.range()));
        }

        FacStatistics after = fac.statistics();
        assertThat(after.degradedReads() - before.degradedReads()).isPositive();
        assertThat(after.decodedBytes() - before.decodedBytes()).isPositive();
    }

    @Test
    void withFourServersStoppedAReadFailsNamingTheStripeAndTheNodes() {
        stop(0, 2, 4, 6);

        assertThatThrownBy(() -> fac.readAll(KEY))
                .isInstanceOfSatisfying(StripeUnavailableException.class, e -> {
                    assertThat(e.key()).isEqualTo(KEY);
                    assertThat(e.missingNodes()).hasSizeGreaterThanOrEqualTo(4).isSubsetOf(0, 2, 4, 6);
                    assertThat(e.getMessage())
                            .contains("of stripe " + e.stripe() + " of " + KEY)
                            .contains("on nodes " + e.missingNodes())
                            .contains("survives the loss of at most 3")
                            .contains("unreachable: GET flight://127.0.0.1:")
                            .contains("the node could not be reached");
                });
    }

    @Test
    void aStoppedServerRestartedOnItsPortIsReadFromAgain() {
        ObjectRegion chunk = ParquetChunkMaps.read(ObjectSource.of(table)).chunks().stream()
                .filter(c -> c.range().length() > 1000).findFirst().orElseThrow();
        int holder = manifest.nodesHolding(chunk.range()).get(0);
        stop(holder);
        FacStatistics whileStopped = fac.statistics();
        assertThat(bytes(fac.readRange(KEY, chunk.range()))).isEqualTo(slice(chunk.range()));
        assertThat(fac.statistics().degradedReads() - whileStopped.degradedReads()).isOne();

        restart(holder);
        assertThat(servers[holder].uri().toString()).isEqualTo("flight://127.0.0.1:" + ports[holder]);
        long readsBefore = disks.get(holder).calls(RequestKind.RANGE_GET);
        FacStatistics restarted = fac.statistics();

        assertThat(bytes(fac.readRange(KEY, chunk.range()))).isEqualTo(slice(chunk.range()));

        assertThat(disks.get(holder).calls(RequestKind.RANGE_GET) - readsBefore).isOne();
        assertThat(fac.statistics().degradedReads() - restarted.degradedReads()).isZero();
    }

    @Test
    void theFacLayoutWritesAndQueriesADatasetThroughNineFlightNodes() {
        SyntheticImageNet data = SyntheticImageNet.of(ImageNetScale.TINY, 42, false);
        String uris = Arrays.stream(servers).map(s -> s.uri().toString()).collect(Collectors.joining(","));
        StorageLayout layout = StorageLayouts.get(FacLayout.NAME);
        try (MemoryBackend descriptors = new MemoryBackend()) {
            try (DatasetWriter writer = layout.create(descriptors, "tiny", MetadataSchema.imageNet(),
                    Map.of("file-size", "1MB", FacLayout.NODE_URIS, uris))) {
                data.samples().limit(40).forEach(writer::add);
                writer.commit();
            }
            TreeSet<Integer> withManifests = new TreeSet<>();
            for (int i = 0; i < 9; i++) {
                if (disks.get(i).list("manifests/tiny/").findAny().isPresent()) {
                    withManifests.add(i);
                }
            }
            assertThat(withManifests).as("nodes holding location maps of the dataset").hasSizeGreaterThanOrEqualTo(4);

            Sample third = data.sample(3);
            String label = third.metadata().getString(MetadataSchema.LABEL);
            List<String> expected = new ArrayList<>();
            for (long i = 0; i < 40; i++) {
                if (data.metadata(i).getString(MetadataSchema.LABEL).equals(label)) {
                    expected.add(fingerprint(data.sample(i)));
                }
            }
            try (Dataset dataset = layout.open(descriptors, "tiny")) {
                assertThat(dataset.summary().sampleCount()).isEqualTo(40);
                assertThat(query(dataset, "label = '" + label + "'")).containsExactlyElementsOf(expected)
                        .contains(fingerprint(third));
                stop(2, 5, 7);
                assertThat(query(dataset, "label = '" + label + "'")).as("three nodes down")
                        .containsExactlyElementsOf(expected);
                assertThat(query(dataset, "width > 0 LIMIT 5")).hasSize(5);
            }
        }
    }

    private static List<String> query(Dataset dataset, String sql) {
        List<String> got = new ArrayList<>();
        try (SampleStream samples = dataset.query(Query.parse(sql), QueryOptions.defaults())) {
            samples.forEachRemaining(sample -> got.add(fingerprint(sample)));
        }
        return got;
    }

    private static String fingerprint(Sample sample) {
        return sample.filename() + ":" + sample.size() + ":" + Integer.toHexString(SampleChecksum.of(sample.data()));
    }

    private void stop(int... nodes) {
        for (int node : nodes) {
            servers[node].close();
            stopped.add(node);
        }
    }

    /** A new server over the node's objects, on the port of the one stopped. */
    private void restart(int node) {
        servers[node] = Restarts.startOn(disks.get(node), ports[node]);
        stopped.remove(node);
    }

    private byte[] slice(ByteRange range) {
        return Arrays.copyOfRange(table, (int) range.offset(), (int) range.end());
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }
}
