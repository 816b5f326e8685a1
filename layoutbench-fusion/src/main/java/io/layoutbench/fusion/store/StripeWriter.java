package io.layoutbench.fusion.store;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.StorageException;
import io.layoutbench.fusion.codec.CodeParameters;
import io.layoutbench.fusion.codec.ErasureCodecs;
import io.layoutbench.fusion.codec.ErasureCoder;
import io.layoutbench.fusion.coding.BlockPlan;
import io.layoutbench.fusion.coding.ChunkMap;
import io.layoutbench.fusion.coding.CodingPlan;
import io.layoutbench.fusion.coding.CodingPlanner;
import io.layoutbench.fusion.coding.ObjectSource;
import io.layoutbench.fusion.coding.ParquetChunkMaps;
import io.layoutbench.fusion.coding.StripePlan;

import java.io.InputStream;
import java.io.SequenceInputStream;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;

/**
 * Stores objects: reads the chunk map, plans the stripes ({@link FacOptions#planner()}), encodes each stripe in
 * windows of 1 MiB and writes its blocks to their nodes in parallel, under a generation of their own; then
 * publishes the manifest, which makes the new version the object, and deletes the blocks of the version it replaced.
 * Readers see the old object or the new one, never a mix. Data blocks are zero-padded to the stripe's block size for
 * coding only: padding is never stored, nor are empty data blocks. A put needs every node it writes to; when one
 * fails, the blocks written so far are deleted and the old object stays.
 *
 * <p>Thread-safe. Puts of different keys run independently; of the same key, the manifest published last wins, and
 * the losing put's blocks may stay as orphans until a delete of the key sweeps them. Generations increase within a
 * store.
 */
final class StripeWriter {

    /** Encoding window: bounds a put's memory to n windows, whatever the block size. */
    private static final int ENCODE_WINDOW = 1 << 20;

    private final FacNodes nodes;
    private final ManifestStore manifests;
    private final Deleter deleter;
    private final CodingPlanner planner;
    private final AtomicLong lastGeneration = new AtomicLong();
    private final SecureRandom random = new SecureRandom();

    StripeWriter(FacNodes nodes, ManifestStore manifests, Deleter deleter) {
        this.nodes = nodes;
        this.manifests = manifests;
        this.deleter = deleter;
        this.planner = nodes.options().planner();
    }

    /**
     * Stores {@code source} as {@code key} and returns its manifest.
     *
     * @throws StorageException naming the node and block when a block or manifest replica cannot be written
     */
    FacManifest store(String key, ObjectSource source) {
        FacOptions options = nodes.options();
        ChunkMap map = ParquetChunkMaps.read(source);
        CodingPlan plan = planner.plan(map);
        CodeParameters code = plan.code();
        ErasureCoder coder = ErasureCodecs.get(options.codec()).coder(code);
        String generation = newGeneration();
        int home = nodes.placement().home(key);
        int unit = options.checksumUnit();
        List<FacManifest.Stripe> stripes = new ArrayList<>();
        List<FacManifest.Segment> segments = new ArrayList<>();
        List<String> written = new ArrayList<>();
        List<Integer> writtenNodes = new ArrayList<>();
        try {
            for (int s = 0; s < plan.stripes().size(); s++) {
                StripePlan stripe = plan.stripes().get(s);
                int[] placement = new int[code.totalBlocks()];
                for (int b = 0; b < placement.length; b++) {
                    placement[b] = nodes.placement().blockNode(home, s, b);
                }
                stripes.add(encodeStripe(key, generation, s, stripe, placement, source, coder, unit, written,
                        writtenNodes));
                for (int b = 0; b < stripe.dataBlocks().size(); b++) {
                    long blockOffset = 0;
                    for (ByteRange segment : stripe.dataBlocks().get(b).segments()) {
                        segments.add(new FacManifest.Segment(segment.offset(), segment.length(), s, b, blockOffset));
                        blockOffset += segment.length();
                    }
                }
            }
            segments.sort(Comparator.comparingLong(FacManifest.Segment::objectOffset));
            FacManifest manifest = new FacManifest(key, generation, source.size(), options.codec(), code, unit,
                    nodes.count(), plan.strategy(), plan.constructor(), stripes, segments);
            Optional<FacManifest> previous = manifests.previousVersion(key);
            manifests.publish(manifest, previous);
            previous.ifPresent(deleter::deleteBlocks);
            return manifest;
        } catch (RuntimeException e) {
            for (int i = 0; i < written.size(); i++) {
                deleter.deleteQuietly(writtenNodes.get(i), written.get(i));
            }
            throw e;
        }
    }

    /**
     * A generation no earlier put of this store used, ordered by time: microseconds, and random bits so that two
     * stores writing the same key do not collide.
     */
    private String newGeneration() {
        long now = System.currentTimeMillis() * 1000;
        long generation = lastGeneration.updateAndGet(last -> Math.max(last + 1, now));
        return String.format(Locale.ROOT, "%016x-%08x", generation, random.nextInt());
    }

    /**
     * Encodes one stripe window by window, then writes its blocks in parallel; returns its manifest entry. Parity
     * is spooled (in memory or a temporary file) since it is complete only after the last window; data blocks are
     * streamed from the source again. Adds every block written to {@code written} and {@code writtenNodes}, so that
     * a failed put can delete them.
     */
    private FacManifest.Stripe encodeStripe(String key, String generation, int s, StripePlan stripe,
            int[] placement, ObjectSource source, ErasureCoder coder, int unit, List<String> written,
            List<Integer> writtenNodes) {
        FacOptions options = nodes.options();
        CodeParameters code = coder.parameters();
        int n = code.totalBlocks();
        int k = code.dataBlocks();
        long blockSize = stripe.blockSize();
        long[] lengths = new long[n];
        for (int b = 0; b < n; b++) {
            lengths[b] = b < k ? stripe.dataBlocks().get(b).length() : blockSize;
        }
        int window = (int) Math.min(Math.max(unit, (long) ENCODE_WINDOW / unit * unit), Math.max(1, blockSize));
        byte[][] shards = new byte[n][window];
        CRC32C[] blockCrcs = new CRC32C[n];
        int[][] unitCrcs = new int[n][];
        for (int b = 0; b < n; b++) {
            blockCrcs[b] = new CRC32C();
            unitCrcs[b] = new int[Math.toIntExact((lengths[b] + unit - 1) / unit)];
        }
        try (Spool parity = Spool.allocate(blockSize * code.parityBlocks(), options.memorySpoolLimit(),
                options.tempDirectory())) {
            for (long w = 0; w < blockSize; w += window) {
                int length = (int) Math.min(window, blockSize - w);
                for (int b = 0; b < k; b++) {
                    int available = (int) Math.max(0, Math.min(length, lengths[b] - w));
                    readBlock(stripe.dataBlocks().get(b), w, shards[b], available, source);
                    Arrays.fill(shards[b], available, length, (byte) 0);
                }
                coder.encode(shards, 0, length);
                for (int b = 0; b < n; b++) {
                    int real = (int) Math.max(0, Math.min(length, lengths[b] - w));
                    blockCrcs[b].update(shards[b], 0, real);
                    for (int offset = 0; offset < real; offset += unit) {
                        CRC32C crc = new CRC32C();
                        crc.update(shards[b], offset, Math.min(unit, real - offset));
                        unitCrcs[b][(int) ((w + offset) / unit)] = (int) crc.getValue();
                    }
                    if (b >= k) {
                        parity.write((b - k) * blockSize + w, shards[b], 0, length);
                    }
                }
            }
            List<Future<?>> uploads = new ArrayList<>();
            List<String> keys = new ArrayList<>();
            List<Integer> targets = new ArrayList<>();
            ObjectSource paritySource = parity.source();
            for (int b = 0; b < n; b++) {
                if (lengths[b] == 0) {
                    continue;   // an empty data block is all padding: never stored
                }
                int block = b;
                String blockKey = Placement.blockKey(key, generation, s, b);
                ObjectBackend node = nodes.get(placement[b]);
                keys.add(blockKey);
                targets.add(placement[b]);
                uploads.add(nodes.submitWrite(() -> {
                    try (InputStream in = block < k ? dataStream(stripe.dataBlocks().get(block), source)
                            : paritySource.stream((block - k) * blockSize, blockSize)) {
                        node.put(blockKey, in, lengths[block]);
                    }
                    return null;
                }));
            }
            List<String> failures = new ArrayList<>();
            for (int i = 0; i < uploads.size(); i++) {
                try {
                    uploads.get(i).get();
                    written.add(keys.get(i));
                    writtenNodes.add(targets.get(i));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new StorageException("Interrupted while storing " + key, e);
                } catch (ExecutionException e) {
                    failures.add(keys.get(i) + " on " + nodes.name(targets.get(i)) + ": "
                            + Futures.unwrap(e).getMessage());
                }
            }
            if (!failures.isEmpty()) {
                throw new StorageException("Cannot store " + key + ": writing stripe " + s + " failed: "
                        + String.join("; ", failures));
            }
        }
        List<FacManifest.Block> blocks = new ArrayList<>(n);
        for (int b = 0; b < n; b++) {
            blocks.add(new FacManifest.Block(s, b, placement[b], lengths[b], (int) blockCrcs[b].getValue(),
                    unitCrcs[b]));
        }
        return new FacManifest.Stripe(s, blockSize, blocks);
    }

    /** Copies {@code length} bytes of data block {@code block} from block offset {@code from}. */
    private static void readBlock(BlockPlan block, long from, byte[] target, int length, ObjectSource source) {
        long blockPosition = 0;
        int copied = 0;
        for (ByteRange segment : block.segments()) {
            if (copied == length) {
                return;
            }
            long segmentEnd = blockPosition + segment.length();
            long want = from + copied;
            if (want < segmentEnd) {
                long within = want - blockPosition;
                int n = (int) Math.min(length - copied, segment.length() - within);
                source.read(segment.offset() + within, target, copied, n);
                copied += n;
            }
            blockPosition = segmentEnd;
        }
    }

    /** The bytes of a data block: its segments of the object, in order. */
    private static InputStream dataStream(BlockPlan block, ObjectSource source) {
        List<InputStream> parts = block.segments().stream()
                .map(segment -> source.stream(segment.offset(), segment.length())).toList();
        return new SequenceInputStream(Collections.enumeration(parts));
    }
}
