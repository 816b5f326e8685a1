package io.layoutbench.fusion.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.metrics.QueryMetrics;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.testing.FaultInjectingBackend;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.fusion.FusionTestFiles;
import io.layoutbench.fusion.coding.ChunkMap;
import io.layoutbench.fusion.coding.CodingPlan;
import io.layoutbench.fusion.coding.ObjectRegion;
import io.layoutbench.fusion.coding.ObjectSource;
import io.layoutbench.fusion.coding.ParquetChunkMaps;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A multi-stripe Parquet object under RS(9,6) on nine nodes, read with nodes down and blocks damaged. */
class FacBackendFailureTest {

    private static final String KEY = "tables/l3.parquet";
    private static final int UNIT = 4 << 10;
    private static byte[] table;
    private static ChunkMap chunkMap;

    private List<FaultInjectingBackend> nodes;
    private FacBackend fac;
    private FacManifest manifest;

    @BeforeAll
    static void writeTable() {
        table = FusionTestFiles.l3Table(72, 128 << 10, 16 << 10);
        chunkMap = ParquetChunkMaps.read(ObjectSource.of(table));
    }

    @BeforeEach
    void store() {
        nodes = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            nodes.add(FaultInjectingBackend.wrap(new MemoryBackend()));
        }
        fac = FacBackend.create(nodes, FacOptions.builder().checksumUnit(UNIT).build(), true);
        fac.put(KEY, table);
        manifest = fac.manifest(KEY);
    }

    @AfterEach
    void close() {
        fac.close();
    }

    @Test
    void theObjectIsFacCodedOverSeveralStripesWithNoChunkSplit() {
        assertThat(manifest.strategy()).isEqualTo(CodingPlan.Strategy.FAC);
        assertThat(manifest.constructor()).isEqualTo("fac-refined");
        assertThat(manifest.stripes().size()).isGreaterThanOrEqualTo(3);
        assertThat(chunkMap.chunks().size()).isGreaterThan(100);
        for (ObjectRegion chunk : chunkMap.chunks()) {
            long holders = manifest.segments().stream().filter(s -> s.objectRange().contains(chunk.range())).count();
            assertThat(holders).as("data blocks holding %s", chunk.label()).isOne();
            assertThat(manifest.nodesHolding(chunk.range())).hasSize(1);
        }
        for (FacManifest.Stripe stripe : manifest.stripes()) {
            assertThat(stripe.blocks().stream().map(FacManifest.Block::node).distinct().count())
                    .as("stripe %d on distinct nodes", stripe.index()).isEqualTo(9);
        }
        assertThat(manifest.extraOverhead()).isLessThan(0.05);
        assertThat(manifest.parityBytes()).isLessThan(table.length);
    }

    @Test
    void withAllNodesUpAChunkIsReadFromItsOneDataBlockWithoutDecoding() {
        ObjectRegion chunk = chunkMap.chunks().get(17);
        FacStatistics before = fac.statistics();

        ByteBuffer got = fac.readRange(KEY, chunk.range());

        assertThat(bytes(got)).isEqualTo(slice(chunk.range()));
        FacStatistics after = fac.statistics();
        assertThat(after.blockReads() - before.blockReads()).isOne();
        assertThat(after.degradedReads() - before.degradedReads()).isZero();
        assertThat(after.decodedBytes() - before.decodedBytes()).isZero();
        assertThat(after.bytesFromNodes() - before.bytesFromNodes()).isLessThanOrEqualTo(chunk.range().length() + 2L * UNIT);
        assertThat(bytes(fac.readAll(KEY))).isEqualTo(table);
    }

    @Test
    void aSmallObjectUnderTheSingleBlockLimitIsReadWholeWithOneNodeReadAndSurvivesThreeLostNodes() {
        byte[] small = new byte[150_000];
        new Random(7).nextBytes(small);
        try (FacBackend single = FacBackend.create(nodes, FacOptions.builder().checksumUnit(UNIT)
                .singleBlockLimit(1 << 20).build(), false)) {
            single.put("small.bin", small);
            FacManifest stored = single.manifest("small.bin");
            assertThat(stored.strategy()).isEqualTo(CodingPlan.Strategy.SINGLE_BLOCK);
            assertThat(stored.stripes()).hasSize(1);
            assertThat(stored.nodesHolding(ByteRange.of(0, small.length))).hasSize(1);
            assertThat(stored.parityBytes()).isEqualTo(3L * small.length);

            FacStatistics before = single.statistics();
            assertThat(bytes(single.readAll("small.bin"))).isEqualTo(small);
            assertThat(single.statistics().blockReads() - before.blockReads()).isOne();

            // Any three nodes down, the holder among them: rebuilt from the parity (and empty blocks).
            int holder = stored.nodesHolding(ByteRange.of(0, small.length)).get(0);
            for (int other = 0; other < 9; other++) {
                if (other == holder) {
                    continue;
                }
                int third = (other + 1) % 9 == holder ? (other + 2) % 9 : (other + 1) % 9;
                nodes.get(holder).down();
                nodes.get(other).down();
                nodes.get(third).down();
                assertThat(bytes(single.readAll("small.bin"))).as("nodes %d, %d, %d down", holder, other, third)
                        .isEqualTo(small);
                nodes.get(holder).up();
                nodes.get(other).up();
                nodes.get(third).up();
            }
        }
        // Without the limit (the store's default) it is spread over the data blocks as before.
        fac.put("small.bin", small);
        assertThat(fac.manifest("small.bin").strategy()).isEqualTo(CodingPlan.Strategy.FIXED_BLOCKS);
        assertThat(fac.manifest("small.bin").nodesHolding(ByteRange.of(0, small.length))).hasSize(6);
    }

    @Test
    void everyCombinationOfThreeLostNodesReadsBackByteIdentical() {
        Random random = new Random(1);
        int combinations = 0;
        for (int a = 0; a < 9; a++) {
            for (int b = a + 1; b < 9; b++) {
                for (int c = b + 1; c < 9; c++) {
                    nodes.get(a).down();
                    nodes.get(b).down();
                    nodes.get(c).down();
                    assertThat(bytes(fac.readAll(KEY))).as("nodes %d, %d, %d down", a, b, c).isEqualTo(table);
                    long offset = random.nextInt(table.length);
                    ByteRange range = ByteRange.of(offset, random.nextInt((int) Math.min(300_000, table.length - offset)));
                    assertThat(bytes(fac.readRange(KEY, range))).isEqualTo(slice(range));
                    nodes.get(a).up();
                    nodes.get(b).up();
                    nodes.get(c).up();
                    combinations++;
                }
            }
        }
        assertThat(combinations).isEqualTo(84);
        assertThat(fac.statistics().degradedReads()).isPositive();
    }

    @Test
    void aDegradedReadDecodesOnlyTheUnitsOfTheRange() {
        ObjectRegion chunk = chunkMap.chunks().stream().filter(c -> c.range().length() > 8 * UNIT).findFirst()
                .orElseThrow();
        ByteRange small = ByteRange.of(chunk.range().offset() + 3 * UNIT + 100, 200);
        int node = manifest.nodesHolding(small).get(0);
        nodes.get(node).down();
        FacStatistics before = fac.statistics();

        assertThat(bytes(fac.readRange(KEY, small))).isEqualTo(slice(small));

        FacStatistics after = fac.statistics();
        assertThat(after.degradedReads() - before.degradedReads()).isOne();
        assertThat(after.decodedBytes() - before.decodedBytes()).isEqualTo(UNIT);
        assertThat(after.bytesFromNodes() - before.bytesFromNodes()).isLessThanOrEqualTo(6L * UNIT);
    }

    @Test
    void fourLostNodesFailNamingTheStripeAndTheNodes() {
        for (int i : new int[] {0, 2, 4, 6}) {
            nodes.get(i).down();
        }

        assertThatThrownBy(() -> fac.readAll(KEY))
                .isInstanceOf(StripeUnavailableException.class)
                .hasMessageContaining("stripe")
                .hasMessageContaining("on nodes")
                .hasMessageContaining("RS(9,6)")
                .hasMessageContaining("at most 3")
                .satisfies(e -> {
                    StripeUnavailableException unavailable = (StripeUnavailableException) e;
                    assertThat(unavailable.key()).isEqualTo(KEY);
                    assertThat(unavailable.missingNodes()).hasSizeGreaterThanOrEqualTo(4)
                            .containsAnyOf(0, 2, 4, 6).isSubsetOf(0, 2, 4, 6);
                    assertThat(unavailable.getMessage()).contains("stripe " + unavailable.stripe());
                });
    }

    @Test
    void aFlippedByteIsDetectedReadAroundAndRepaired() {
        FacManifest.Block block = manifest.block(1, 2);
        ObjectBackend node = nodes.get(block.node());
        String blockKey = "blocks/" + KEY + ".fac/" + manifest.generation() + "-s1-b2";
        byte[] original = bytes(node.readAll(blockKey));
        byte[] damaged = original.clone();
        damaged[damaged.length / 2] ^= 0x10;
        node.put(blockKey, damaged);

        assertThat(bytes(fac.readAll(KEY))).isEqualTo(table);
        assertThat(fac.statistics().checksumFailures()).isPositive();

        RepairReport report = fac.repair(KEY);

        assertThat(report.blocksRebuilt()).isOne();
        assertThat(report.complete()).isTrue();
        assertThat(bytes(node.readAll(blockKey))).isEqualTo(original);
        assertThat(fac.repair(KEY).blocksRebuilt()).isZero();
    }

    @Test
    void fourBlocksDamagedInDisjointUnitsAreDecodedUnitByUnitAndRepaired() {
        int stripe = 1;
        int[] blocks = {0, 2, 6, 7};   // data and parity blocks, each damaged in its own checksum unit
        List<byte[]> originals = new ArrayList<>();
        for (int i = 0; i < blocks.length; i++) {
            originals.add(damage(stripe, blocks[i], i));
        }

        assertThat(bytes(fac.readAll(KEY))).isEqualTo(table);
        try (FacBackend fresh = FacBackend.create(nodes, FacOptions.builder().checksumUnit(UNIT).build(), false)) {
            for (FacManifest.Piece piece : manifest.locate(ByteRange.of(0, table.length))) {
                if (piece.stripe() == stripe) {
                    ByteRange range = ByteRange.of(piece.outputOffset(), piece.length());
                    assertThat(bytes(fresh.readRange(KEY, range))).as("piece %s", piece).isEqualTo(slice(range));
                }
            }
        }
        assertThat(fac.statistics().checksumFailures()).isGreaterThanOrEqualTo(4);

        RepairReport report = fac.repair(KEY);

        assertThat(report.blocksRebuilt()).isEqualTo(4);
        assertThat(report.complete()).isTrue();
        for (int i = 0; i < blocks.length; i++) {
            FacManifest.Block block = manifest.block(stripe, blocks[i]);
            assertThat(bytes(nodes.get(block.node()).readAll(blockKey(stripe, blocks[i])))).isEqualTo(originals.get(i));
        }
    }

    @Test
    void fourBlocksDamagedInTheSameUnitFailNamingTheStripeTheUnitAndTheNodes() {
        int stripe = 1;
        int[] blocks = {0, 2, 6, 7};
        List<Integer> damagedNodes = new ArrayList<>();
        for (int b : blocks) {
            damage(stripe, b, 1);
            damagedNodes.add(manifest.block(stripe, b).node());
        }

        assertThatThrownBy(() -> fac.readAll(KEY))
                .isInstanceOf(StripeUnavailableException.class)
                .hasMessageContaining("of stripe " + stripe + " of " + KEY)
                .hasMessageContaining("checksum unit 1 ([" + UNIT + ", " + 2 * UNIT + ") of the stripe's blocks)"
                        + " cannot be used in 4 of its 9 blocks, on nodes " + damagedNodes)
                .hasMessageContaining("block 2 on node " + damagedNodes.get(1) + ": fails its checksum in ["
                        + UNIT + ", ")
                .hasMessageContaining("survives the loss of at most 3 per unit")
                .satisfies(e -> {
                    StripeUnavailableException unavailable = (StripeUnavailableException) e;
                    assertThat(unavailable.stripe()).isEqualTo(stripe);
                    assertThat(unavailable.unit()).isEqualTo(1);
                    assertThat(unavailable.missingNodes()).containsExactlyElementsOf(damagedNodes);
                });
        RepairReport report = fac.repair(KEY);
        assertThat(report.complete()).isFalse();
        assertThat(report.failures()).allSatisfy(failure -> assertThat(failure).contains("checksum unit 1"));
    }

    @Test
    void aLostNodeIsRebuiltOntoAReplacement() {
        int lost = 4;
        long held = manifest.stripes().stream().flatMap(s -> s.blocks().stream())
                .filter(b -> b.node() == lost && b.length() > 0).count();

        RepairReport report = fac.repairNode(lost, FaultInjectingBackend.wrap(new MemoryBackend()));

        assertThat(report.blocksRebuilt()).isEqualTo(held);
        assertThat(report.complete()).isTrue();
        // With three other nodes down, the rebuilt node's blocks are needed, and must be right.
        nodes.get(0).down();
        nodes.get(1).down();
        nodes.get(2).down();
        assertThat(bytes(fac.readAll(KEY))).isEqualTo(table);
    }

    @Test
    void aDamagedManifestReplicaIsSkippedAndRepaired() {
        int home = -1;
        for (int i = 0; i < 9; i++) {
            if (nodes.get(i).exists("manifests/" + KEY + ".facm")) {
                home = home < 0 ? i : home;
            }
        }
        nodes.get(home).put("manifests/" + KEY + ".facm", new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});

        // A second backend over the same nodes has no cached manifest: it must read past the damaged replica.
        try (FacBackend fresh = FacBackend.create(nodes, FacOptions.builder().checksumUnit(UNIT).build(), false)) {
            assertThat(bytes(fresh.readAll(KEY))).isEqualTo(table);
            assertThat(fresh.repair(KEY).manifestsWritten()).isOne();
        }
        assertThat(FacManifest.decode(nodes.get(home).readAll("manifests/" + KEY + ".facm"), "test").generation())
                .isEqualTo(manifest.generation());
    }

    @Test
    void aPutWithANodeDownFailsAndKeepsTheOldObject() {
        nodes.get(3).down();

        assertThatThrownBy(() -> fac.put(KEY, new byte[5_000_000]))
                .isInstanceOf(io.layoutbench.api.backend.StorageException.class)
                .hasMessageContaining(KEY).hasMessageContaining("node 3");

        nodes.get(3).up();
        assertThat(bytes(fac.readAll(KEY))).isEqualTo(table);
    }

    @Test
    void withMoreNodesThanBlocksStripesRotateOverAllNodes() {
        List<FaultInjectingBackend> twelve = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            twelve.add(FaultInjectingBackend.wrap(new MemoryBackend()));
        }
        try (FacBackend wide = FacBackend.create(twelve, FacOptions.builder().checksumUnit(UNIT).build(), true)) {
            FacManifest placed = wide.put(KEY, ObjectSource.of(table));

            java.util.Set<Integer> used = new java.util.TreeSet<>();
            for (FacManifest.Stripe stripe : placed.stripes()) {
                List<Integer> stripeNodes = stripe.blocks().stream().map(FacManifest.Block::node).toList();
                assertThat(stripeNodes).doesNotHaveDuplicates().hasSize(9);
                used.addAll(stripeNodes);
            }
            assertThat(used).hasSize(12);
            twelve.get(1).down();
            twelve.get(5).down();
            twelve.get(10).down();
            assertThat(bytes(wide.readAll(KEY))).isEqualTo(table);
        }
    }

    @Test
    void theLocationMapHoldsOffsetsBeyondFourGigabytes() {
        long big = 5L << 30;
        List<FacManifest.Segment> segments = List.of(new FacManifest.Segment(0, big, 0, 0, 0),
                new FacManifest.Segment(big, 10, 0, 1, 0));
        int[] none = new int[0];
        List<FacManifest.Block> blocks = new ArrayList<>();
        for (int b = 0; b < 9; b++) {
            blocks.add(new FacManifest.Block(0, b, b, b == 0 ? big : b == 1 ? 10 : b < 6 ? 0 : big, 0, none));
        }
        FacManifest huge = new FacManifest("huge", "g", big + 10, "backblaze-rs",
                io.layoutbench.fusion.codec.CodeParameters.rs(9, 6), UNIT, 9, CodingPlan.Strategy.FAC, "fac",
                List.of(new FacManifest.Stripe(0, big, blocks)), segments);

        FacManifest decoded = FacManifest.decode(ByteBuffer.wrap(huge.encode()), "test");

        assertThat(decoded.objectSize()).isEqualTo(big + 10);
        assertThat(decoded.locate(ByteRange.of(big - 5, 10))).containsExactly(
                new FacManifest.Piece(0, 0, big - 5, 5, 0), new FacManifest.Piece(0, 1, 0, 5, 5));
        assertThat(decoded.nodesHolding(ByteRange.of(big + 2, 3))).containsExactly(1);
    }

    @Test
    void aQuerysViewReadsEachUnitOfItsSmallReadsFromItsNodeOnce() {
        List<ByteRange> small = smallChunks();
        Set<List<Long>> units = new HashSet<>();
        for (ByteRange range : small) {
            for (FacManifest.Piece piece : manifest.locate(range)) {
                for (long u = piece.blockOffset() / UNIT; u <= (piece.blockOffset() + piece.length() - 1) / UNIT; u++) {
                    units.add(List.of((long) piece.stripe(), (long) piece.block(), u));
                }
            }
        }
        assertThat(units.size()).as("the small chunks share units").isLessThan(small.size() / 2);

        FacStatistics before = fac.statistics();
        FacBackend query = fac.withMetrics(new QueryMetrics());
        List<CompletableFuture<ByteBuffer>> reads = new ArrayList<>();
        for (ByteRange range : small) {
            reads.add(query.readRangeAsync(KEY, range));   // all at once, as a query's metadata reads run
        }
        for (int i = 0; i < small.size(); i++) {
            assertThat(bytes(reads.get(i).join())).isEqualTo(slice(small.get(i)));
        }
        long viewReads = fac.statistics().blockReads() - before.blockReads();
        assertThat(viewReads).as("node reads of %d small chunks", small.size()).isLessThanOrEqualTo(units.size());

        FacStatistics beforeBase = fac.statistics();
        for (ByteRange range : small) {
            assertThat(bytes(fac.readRange(KEY, range))).isEqualTo(slice(range));
        }
        assertThat(fac.statistics().blockReads() - beforeBase.blockReads())
                .as("the backend itself keeps no unit: a read after another writer's put sees the new object")
                .isGreaterThanOrEqualTo(small.size());
    }

    @Test
    void sharedReadsNamesTheRequestsAQuerysViewAnswersWithoutANodeRead() {
        List<PlannedRequest> requests = new ArrayList<>();
        smallChunks().forEach(r -> requests.add(new PlannedRequest(RequestKind.RANGE_GET, KEY, r)));
        requests.add(requests.get(0));   // the same small chunk again
        requests.add(new PlannedRequest(RequestKind.RANGE_GET, KEY, ByteRange.of(0, table.length / 2)));

        BitSet shared = fac.sharedReads(requests);

        assertThat(shared.get(0)).as("the first small read fetches its units").isFalse();
        assertThat(shared.get(requests.size() - 2)).isTrue();
        assertThat(shared.get(requests.size() - 1)).as("a read of more than 64 KiB goes to its nodes").isFalse();
        assertThat(shared.cardinality()).as("small chunks packed side by side").isGreaterThan(requests.size() / 2);
        FacBackend query = fac.withMetrics(new QueryMetrics());
        for (int i = 0; i < requests.size(); i++) {   // one after another, so each read's node reads are its own
            long before = fac.statistics().blockReads();
            assertThat(bytes(query.readRange(KEY, requests.get(i).range()))).isEqualTo(slice(requests.get(i).range()));
            assertThat(fac.statistics().blockReads() == before).as("request %d: %s", i, requests.get(i))
                    .isEqualTo(shared.get(i));
        }
        try (FacBackend reopened = FacBackend.create(nodes, fac.options(), false)) {
            assertThat(reopened.sharedReads(requests).isEmpty()).as("no manifest cached: nothing known shared")
                    .isTrue();
        }
    }

    @Test
    void aQuerysViewReadsAroundADamagedUnitAndADownNode() {
        List<ByteRange> small = smallChunks();
        FacManifest.Piece first = manifest.locate(small.get(0)).get(0);
        damage(first.stripe(), first.block(), (int) (first.blockOffset() / UNIT));
        int down = manifest.nodesHolding(small.get(small.size() - 1)).get(0);
        nodes.get(down).down();
        FacStatistics before = fac.statistics();

        FacBackend query = fac.withMetrics(new QueryMetrics());
        List<CompletableFuture<ByteBuffer>> reads = new ArrayList<>();
        for (ByteRange range : small) {
            reads.add(query.readRangeAsync(KEY, range));
        }
        for (int i = 0; i < small.size(); i++) {
            assertThat(bytes(reads.get(i).join())).as("chunk %s", small.get(i)).isEqualTo(slice(small.get(i)));
        }
        assertThat(fac.statistics().degradedReads() - before.degradedReads()).isPositive();
        assertThat(fac.statistics().checksumFailures() - before.checksumFailures()).isPositive();
    }

    /** The ranges of the table's chunks of at most a unit: metadata columns, packed side by side. */
    private static List<ByteRange> smallChunks() {
        List<ByteRange> small = chunkMap.chunks().stream().map(ObjectRegion::range)
                .filter(r -> r.length() > 0 && r.length() <= UNIT).toList();
        assertThat(small).hasSizeGreaterThan(50);
        return small;
    }

    /** Flips a byte in checksum unit {@code unit} of a block; returns the block as it was. */
    private byte[] damage(int stripe, int block, int unit) {
        ObjectBackend node = nodes.get(manifest.block(stripe, block).node());
        byte[] original = bytes(node.readAll(blockKey(stripe, block)));
        assertThat(original.length).as("block %d of stripe %d", block, stripe).isGreaterThan((unit + 1) * UNIT);
        byte[] damaged = original.clone();
        damaged[unit * UNIT + UNIT / 2] ^= 0x10;
        node.put(blockKey(stripe, block), damaged);
        return original;
    }

    private String blockKey(int stripe, int block) {
        return "blocks/" + KEY + ".fac/" + manifest.generation() + "-s" + stripe + "-b" + block;
    }

    private static byte[] slice(ByteRange range) {
        return java.util.Arrays.copyOfRange(table, (int) range.offset(), (int) range.end());
    }

    static byte[] bytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }
}
