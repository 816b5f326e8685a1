package io.layoutbench.fusion.store;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.CorruptDataException;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectNotFoundException;
import io.layoutbench.api.backend.StorageException;
import io.layoutbench.fusion.codec.CodeParameters;
import io.layoutbench.fusion.codec.ErasureCodecs;
import io.layoutbench.fusion.codec.ErasureCoder;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.zip.CRC32C;

/**
 * Reads the bytes of coded objects, and owns their integrity on the way out: a range is read from the data blocks
 * that hold it, rounded out to checksum units whose CRC32Cs are checked, so wrong bytes are never returned. While
 * all nodes are up no parity is read and nothing is decoded. When a block cannot be read or fails a check, only the
 * units of the range it cannot serve are rebuilt (a {@link Reconstruction}), each unit from k other blocks of the
 * stripe whose same unit is intact, and checked against the lost block's own unit checksums: four damaged blocks of
 * an RS(9,6) stripe still read back when their damaged units differ. When a unit has more than n - k blocks that
 * are missing or damaged there, the read fails with {@link StripeUnavailableException} naming the stripe, the unit
 * and the nodes. Counts what reads do, for {@link FacBackend#statistics()}.
 *
 * <p>Thread-safe: it holds only atomic counters. Each reconstruction is a one-shot object that guards its state with
 * its own lock, since the block reads it starts complete on node threads.
 */
final class BlockReader {

    private final FacNodes nodes;
    private final AtomicLong blockReads = new AtomicLong();
    private final AtomicLong bytesFromNodes = new AtomicLong();
    private final AtomicLong degradedReads = new AtomicLong();
    private final AtomicLong decodedBytes = new AtomicLong();
    private final AtomicLong checksumFailures = new AtomicLong();
    private final AtomicLong failedBlockReads = new AtomicLong();
    private final Set<Integer> nodesRead = new ConcurrentSkipListSet<>();
    private final Map<Integer, String> nodesUnusable = new ConcurrentSkipListMap<>();

    BlockReader(FacNodes nodes) {
        this.nodes = nodes;
    }

    /** What reads have done so far. */
    FacStatistics statistics() {
        return new FacStatistics(blockReads.get(), bytesFromNodes.get(), degradedReads.get(), decodedBytes.get(),
                checksumFailures.get(), failedBlockReads.get(), nodesRead, nodesUnusable);
    }

    /**
     * The bytes of {@code range} of the object {@code manifest} describes; the range lies within the object.
     *
     * @param units  where small reads of one unit of work (a query) share checked units, or null to read every piece
     *               from its node
     * @param racing how to race the node reads (below the unit cache), or null to send each once
     */
    CompletableFuture<ByteBuffer> read(FacManifest manifest, ByteRange range, UnitCache units,
            RacedNodeReads racing) {
        List<FacManifest.Piece> pieces = manifest.locate(range);
        if (pieces.isEmpty()) {
            return CompletableFuture.completedFuture(ByteBuffer.allocate(0).asReadOnlyBuffer());
        }
        if (pieces.size() == 1) {
            return readPiece(manifest, pieces.get(0), units, racing);
        }
        byte[] out = new byte[(int) range.length()];
        CompletableFuture<?>[] parts = new CompletableFuture<?>[pieces.size()];
        for (int i = 0; i < pieces.size(); i++) {
            FacManifest.Piece piece = pieces.get(i);
            parts[i] = readPiece(manifest, piece, units, racing).thenAccept(buffer ->
                    buffer.duplicate().get(out, (int) piece.outputOffset(), (int) piece.length()));
        }
        return CompletableFuture.allOf(parts).thenApply(v -> ByteBuffer.wrap(out).asReadOnlyBuffer());
    }

    /**
     * Whether a read of {@code range} through a {@link UnitCache} that already holds (or is fetching) the units in
     * {@code fetched} sends no node read of its own: every piece of it is small enough for the cache and all its
     * units are there. The units its small pieces need are added to {@code fetched}, as the read would register them.
     * What the cost model asks of a plan; it follows {@link #readPiece} and reads nothing.
     */
    static boolean sharesUnits(FacManifest manifest, ByteRange range, Set<UnitCache.UnitKey> fetched) {
        int unit = manifest.checksumUnit();
        boolean shared = true;
        for (FacManifest.Piece piece : manifest.locate(range)) {
            UnitSpan span = UnitSpan.of(manifest, piece);
            if (!span.cached()) {
                shared = false;   // read from the node, and not kept
                continue;
            }
            for (long u = span.from() / unit; u <= (span.to() - 1) / unit; u++) {
                shared &= !fetched.add(new UnitCache.UnitKey(manifest.key(), manifest.generation(),
                        span.block().stripe(), span.block().index(), u));
            }
        }
        return shared;
    }

    /**
     * The whole checksum units {@code [from, to)} of {@code block} a piece is read in, and whether a read of that
     * many bytes goes through the {@link UnitCache}: one rule for {@link #readPiece} and {@link #sharesUnits}.
     */
    private record UnitSpan(FacManifest.Block block, long from, long to) {
        static UnitSpan of(FacManifest manifest, FacManifest.Piece piece) {
            FacManifest.Block block = manifest.block(piece.stripe(), piece.block());
            int unit = manifest.checksumUnit();
            return new UnitSpan(block, piece.blockOffset() / unit * unit,
                    Math.min(block.length(), ceilTo(piece.blockOffset() + piece.length(), unit)));
        }

        boolean cached() {
            return to - from <= UnitCache.MAX_READ_BYTES;
        }
    }

    /**
     * The bytes of one piece: from its data block, or, for the units of it that fail, rebuilt. A piece of at most
     * {@link UnitCache#MAX_READ_BYTES} goes through the {@link UnitCache} first: units another read holds or is
     * fetching are not read again.
     */
    private CompletableFuture<ByteBuffer> readPiece(FacManifest manifest, FacManifest.Piece piece, UnitCache units,
            RacedNodeReads racing) {
        UnitSpan span = UnitSpan.of(manifest, piece);
        FacManifest.Block block = span.block();
        long from = span.from();
        long to = span.to();
        if (units != null && span.cached()) {
            return readCached(manifest, piece, block, from, to, units, racing).exceptionallyCompose(error -> {
                Throwable cause = Futures.unwrap(error);
                if (cause instanceof BlockChecksumException) {
                    // Damaged units: read the piece alone, so that its intact units serve and only the others are
                    // rebuilt.
                    return readPieceFromNode(manifest, piece, block, from, to, null);
                }
                // The node failed: rebuild now rather than wait for it again.
                degradedReads.incrementAndGet();
                return reconstruct(manifest, piece.stripe(), piece.block(), piece.blockOffset(), piece.length(),
                        null, describe(block, cause));
            });
        }
        return readPieceFromNode(manifest, piece, block, from, to, racing);
    }

    /**
     * The piece from units of the cache: those nobody holds are read from the node in one read (and shared), the
     * others awaited. Fails when a unit cannot be read or checked; the caller then takes the degraded path.
     */
    private CompletableFuture<ByteBuffer> readCached(FacManifest manifest, FacManifest.Piece piece,
            FacManifest.Block block, long from, long to, UnitCache unitCache, RacedNodeReads racing) {
        int unit = manifest.checksumUnit();
        long first = from / unit;
        long last = (to - 1) / unit;
        UnitCache.Claim claim = unitCache.claim(manifest, block, first, last);
        CompletableFuture<UnitRead> own = null;
        if (claim.mustRead()) {
            long readFrom = claim.firstToRead() * unit;
            long readTo = Math.min(block.length(), (claim.lastToRead() + 1) * unit);
            own = readUnits(manifest, block, readFrom, readTo, racing);
            own.whenComplete((read, error) -> {
                for (long u = claim.firstToRead(); u <= claim.lastToRead(); u++) {
                    if (!claim.owns(u)) {
                        continue; // another read registered it and completes it
                    }
                    int i = (int) (u - claim.firstToRead());
                    BlockChecksumException damaged = error == null ? read.failure(i) : null;
                    if (error != null) {
                        unitCache.fail(claim, manifest, block, u, error);
                    } else if (damaged != null) {   // a truncated read marks every unit
                        unitCache.fail(claim, manifest, block, u, damaged);
                    } else {
                        int length = (int) (Math.min(readTo, (u + 1) * unit) - u * unit);
                        unitCache.complete(claim, manifest, block, u, copy(read.bytes(), i * unit, length));
                    }
                }
            });
        }
        int offset = (int) (piece.blockOffset() - from);
        if (own != null && claim.firstToRead() == first && claim.lastToRead() == last) {
            // This read fetches every unit of the piece (no other read had any): hand out a slice of it, no copy.
            return own.thenApply(read -> {
                read.requireIntact();
                return slice(read.bytes(), offset, (int) piece.length());
            });
        }
        CompletableFuture<?>[] units = claim.units().toArray(CompletableFuture<?>[]::new);
        return CompletableFuture.allOf(units).thenApply(done -> {
            if (units.length == 1) {
                return slice(claim.units().get(0).join(), offset, (int) piece.length());
            }
            byte[] out = new byte[(int) piece.length()];
            long at = piece.blockOffset();
            int written = 0;
            while (written < out.length) {
                ByteBuffer bytes = claim.units().get((int) (at / unit - first)).join().duplicate();
                int within = (int) (at % unit);
                int length = Math.min(out.length - written, bytes.remaining() - within);
                bytes.position(bytes.position() + within);
                bytes.get(out, written, length);
                written += length;
                at += length;
            }
            return ByteBuffer.wrap(out).asReadOnlyBuffer();
        });
    }

    /** The piece read from its block's node, or, for the units of it that fail, rebuilt. */
    private CompletableFuture<ByteBuffer> readPieceFromNode(FacManifest manifest, FacManifest.Piece piece,
            FacManifest.Block block, long from, long to, RacedNodeReads racing) {
        return readUnits(manifest, block, from, to, racing).handle((read, error) -> {
            if (error == null && read.intact()) {
                return CompletableFuture.completedFuture(slice(read.bytes(), (int) (piece.blockOffset() - from),
                        (int) piece.length()));
            }
            degradedReads.incrementAndGet();
            return reconstruct(manifest, piece.stripe(), piece.block(), piece.blockOffset(), piece.length(),
                    error == null ? read : null, error == null ? null : describe(block, Futures.unwrap(error)));
        }).thenCompose(rebuilt -> rebuilt);
    }

    /**
     * Reads {@code [from, to)} of a block, {@code from} unit-aligned and {@code to} a unit boundary or the block's
     * end, and checks its units. Fails with the node's error, or with a {@link CorruptDataException} saying where
     * the bytes do not match.
     */
    CompletableFuture<ByteBuffer> readVerified(FacManifest manifest, FacManifest.Block block, long from, long to) {
        return readUnits(manifest, block, from, to).thenApply(read -> {
            read.requireIntact();
            return read.bytes();
        });
    }

    /**
     * Reads {@code [from, to)} of a block as {@link #readVerified} does, but reports which checksum units are
     * damaged instead of failing on the first: a block damaged in one unit still serves the others. Fails only
     * with the node's error.
     */
    CompletableFuture<UnitRead> readUnits(FacManifest manifest, FacManifest.Block block, long from, long to) {
        return readUnits(manifest, block, from, to, null);
    }

    /** {@link #readUnits(FacManifest, FacManifest.Block, long, long)}, raced to the node as {@code racing} says. */
    private CompletableFuture<UnitRead> readUnits(FacManifest manifest, FacManifest.Block block, long from, long to,
            RacedNodeReads racing) {
        blockReads.incrementAndGet();
        CompletableFuture<ByteBuffer> raw;
        try {
            ObjectBackend node = nodes.get(block.node());
            String key = Placement.blockKey(manifest, block.stripe(), block.index());
            ByteRange range = ByteRange.between(from, to);
            raw = racing == null ? node.readRangeAsync(key, range) : racing.readRange(node, key, range);
        } catch (RuntimeException e) {
            raw = CompletableFuture.failedFuture(e);
        }
        return raw.handle((buffer, error) -> {
            if (error != null) {
                failedBlockReads.incrementAndGet();
                unusable(block, reason(Futures.unwrap(error)));
                throw error instanceof CompletionException c ? c : new CompletionException(error);
            }
            bytesFromNodes.addAndGet(buffer.remaining());
            nodesRead.add(block.node());
            UnitRead read = check(manifest, block, from, to, buffer);
            if (!read.intact()) {
                unusable(block, read.firstDamage());
            }
            return read;
        });
    }

    /**
     * Rebuilds {@code [offset, offset + length)} of block {@code target} of stripe {@code stripe}, unit by unit:
     * each checksum unit the target cannot serve is decoded from k other blocks whose same unit is intact, so
     * blocks damaged in different units do not add up. The rebuilt units are checked against the target's
     * checksums.
     *
     * @param targetRead      what reading the target found, to keep its intact units; null when it was not read or
     *                        the read failed
     * @param whyTargetFailed why the target cannot be read, when {@code targetRead} is null, for the error when a
     *                        unit cannot be rebuilt
     */
    CompletableFuture<ByteBuffer> reconstruct(FacManifest manifest, int stripe, int target, long offset, long length,
            UnitRead targetRead, String whyTargetFailed) {
        return new Reconstruction(this, manifest, stripe, target, offset, length, targetRead, whyTargetFailed)
                .start();
    }

    /** Which units of {@code [from, to)} of {@code block} in {@code buffer} match their checksums. */
    private UnitRead check(FacManifest manifest, FacManifest.Block block, long from, long to, ByteBuffer buffer) {
        int unit = manifest.checksumUnit();
        String[] damage = new String[(int) ((to - from + unit - 1) / unit)];
        if (buffer.remaining() != to - from) {
            checksumFailures.incrementAndGet();
            Arrays.fill(damage, "truncated (" + buffer.remaining() + " bytes for [" + from + ", " + to + "))");
            return new UnitRead(manifest, nodes.name(block.node()), block, from, to, buffer, damage);
        }
        boolean damaged = false;
        for (int i = 0; i < damage.length; i++) {
            long start = from + (long) i * unit;
            int length = (int) Math.min(unit, to - start);
            CRC32C crc = new CRC32C();
            ByteBuffer part = buffer.duplicate();
            part.position(buffer.position() + (int) (start - from)).limit(part.position() + length);
            crc.update(part);
            if ((int) crc.getValue() != block.unitCrc((int) (start / unit))) {
                checksumFailures.incrementAndGet();
                damage[i] = "fails its checksum in [" + start + ", " + (start + length) + ")";
                damaged = true;
            }
        }
        // The node is named for errors only: naming it builds its URI, which took 17% of the client's CPU in a
        // paper-mode query over fac (mini, Q8: thousands of unit reads, all intact).
        return new UnitRead(manifest, damaged ? nodes.name(block.node()) : null, block, from, to, buffer, damage);
    }

    private void unusable(FacManifest.Block block, String why) {
        nodesUnusable.putIfAbsent(block.node(), "block " + block.index() + " of stripe " + block.stripe() + ": "
                + why);
    }

    /** "block 2 on node 5: missing": why a block cannot be used. */
    static String describe(FacManifest.Block block, Throwable error) {
        return "block " + block.index() + " on node " + block.node() + ": " + reason(error);
    }

    /** Why a block could not be used, in a few words: what a {@link StripeUnavailableException} lists per block. */
    private static String reason(Throwable error) {
        if (error instanceof ObjectNotFoundException) {
            return "missing";
        }
        if (error instanceof BlockChecksumException checksum) {
            return checksum.reason;
        }
        String message = error.getMessage() == null ? "failed without a message" : error.getMessage();
        if (message.length() > 160) {
            message = message.substring(0, 157) + "...";
        }
        return error instanceof StorageException storage && storage.isTransient() ? "unreachable: " + message
                : message;
    }

    private static long ceilTo(long value, int unit) {
        return (value + unit - 1) / unit * unit;
    }

    /** {@code length} bytes of {@code buffer} from {@code offset}, in an array of their own. */
    private static ByteBuffer copy(ByteBuffer buffer, int offset, int length) {
        byte[] bytes = new byte[length];
        buffer.duplicate().position(buffer.position() + offset).get(bytes);
        return ByteBuffer.wrap(bytes).asReadOnlyBuffer();
    }

    private static ByteBuffer slice(ByteBuffer buffer, int offset, int length) {
        ByteBuffer slice = buffer.duplicate();
        slice.position(buffer.position() + offset).limit(buffer.position() + offset + length);
        return slice.slice().asReadOnlyBuffer();
    }

    /**
     * What a read of {@code [from, to)} of a block found: its bytes, and per checksum unit from {@code from} on,
     * null when the unit matches its checksum, or why it does not.
     */
    static final class UnitRead {
        private final FacManifest manifest;
        /** "node 3 (file:/d3/)" when a unit is damaged, for its error; null when all are intact. */
        private final String node;
        private final FacManifest.Block block;
        private final long from;
        private final long to;
        private final ByteBuffer bytes;
        private final String[] damage;

        UnitRead(FacManifest manifest, String node, FacManifest.Block block, long from, long to, ByteBuffer bytes,
                String[] damage) {
            this.manifest = manifest;
            this.node = node;
            this.block = block;
            this.from = from;
            this.to = to;
            this.bytes = bytes;
            this.damage = damage;
        }

        ByteBuffer bytes() {
            return bytes;
        }

        /** Units read: {@code [from, to)} in whole units, the last one possibly short. */
        int units() {
            return damage.length;
        }

        /** Why unit {@code i} (counted from {@code from}) is damaged, or null when it is intact. */
        String damage(int i) {
            return damage[i];
        }

        boolean intact() {
            return firstDamage() == null;
        }

        /** Why the first damaged unit is damaged, or null when all are intact. */
        String firstDamage() {
            for (String why : damage) {
                if (why != null) {
                    return why;
                }
            }
            return null;
        }

        /** Throws for the first damaged unit. */
        void requireIntact() {
            for (int i = 0; i < damage.length; i++) {
                BlockChecksumException failure = failure(i);
                if (failure != null) {
                    throw failure;
                }
            }
        }

        /** What is wrong with unit {@code i}, naming the block, stripe, object and node; null when it is intact. */
        BlockChecksumException failure(int i) {
            String why = damage[i];
            return why == null ? null : new BlockChecksumException("Block " + block.index() + " of stripe "
                    + block.stripe() + " of " + manifest.key() + " on " + node + " " + why, why);
        }

        /** Whether the node returned another number of bytes than asked for, so that none can be placed. */
        boolean truncated() {
            return bytes.remaining() != to - from;
        }
    }

    /**
     * Rebuilds {@code [offset, offset + length)} of one block, checksum unit by checksum unit: a unit the target
     * cannot serve is decoded from k other blocks whose same unit is intact. Data blocks that end before the range
     * are known zeros (padding) and cost no read. Reads the fewest blocks it can, data blocks first, and reads the
     * next whenever a unit still lacks k intact blocks; fails, naming the unit, only when a unit has more than
     * n - k blocks that are missing or damaged there.
     */
    private static final class Reconstruction {
        private final BlockReader reader;
        private final FacManifest manifest;
        private final int stripe;
        private final int target;
        private final long offset;
        private final long length;
        private final int unit;
        private final long from;
        private final long to;
        private final int units;
        private final int n;
        private final int k;
        private final byte[][] shards;
        /** Per block and unit: intact (known good bytes in {@code shards}, or padding). */
        private final boolean[][] intact;
        /** Per block and unit: why it cannot be used, once known. */
        private final String[][] why;
        /** Units the target cannot serve itself, which are decoded. */
        private final List<Integer> needed = new ArrayList<>();
        private final List<Integer> candidates = new ArrayList<>();
        private final CompletableFuture<ByteBuffer> result = new CompletableFuture<>();
        private int next;
        private int inFlight;
        private boolean done;

        Reconstruction(BlockReader reader, FacManifest manifest, int stripe, int target, long offset, long length,
                UnitRead targetRead, String whyTargetFailed) {
            this.reader = reader;
            this.manifest = manifest;
            this.stripe = stripe;
            this.target = target;
            this.offset = offset;
            this.length = length;
            this.unit = manifest.checksumUnit();
            FacManifest.Stripe entry = manifest.stripes().get(stripe);
            this.from = offset / unit * unit;
            this.to = Math.min(entry.blockSize(), ceilTo(offset + length, unit));
            this.units = (int) ((to - from + unit - 1) / unit);
            this.n = manifest.code().totalBlocks();
            this.k = manifest.code().dataBlocks();
            this.shards = new byte[n][(int) (to - from)];
            this.intact = new boolean[n][units];
            this.why = new String[n][units];
            if (targetRead != null && !targetRead.truncated()) {
                accept(target, targetRead);
            } else {
                String reason = targetRead != null ? describeUnit(target, targetRead.damage(0))
                        : whyTargetFailed;
                Arrays.fill(why[target], reason);
            }
            for (int u = 0; u < units; u++) {
                if (!intact[target][u]) {
                    needed.add(u);
                }
            }
        }

        CompletableFuture<ByteBuffer> start() {
            synchronized (this) {
                for (int b = 0; b < n; b++) {
                    if (b == target) {
                        continue;
                    }
                    if (b < k && manifest.block(stripe, b).length() <= from) {
                        Arrays.fill(intact[b], true);   // all padding here: zeros, known without a read
                    } else {
                        candidates.add(b);
                    }
                }
                if (covered()) {
                    finish();
                } else {
                    launchMore();
                }
            }
            return result;
        }

        /** Records what reading block {@code b} found; units past its end are padding, so intact. */
        private void accept(int b, UnitRead read) {
            ByteBuffer bytes = read.bytes().duplicate();
            bytes.get(shards[b], 0, bytes.remaining());   // the rest stays zero: padding
            for (int u = 0; u < units; u++) {
                String damage = u < read.units() ? read.damage(u) : null;
                intact[b][u] = damage == null;
                why[b][u] = damage == null ? null : describeUnit(b, damage);
            }
        }

        private String describeUnit(int b, String damage) {
            return "block " + b + " on node " + manifest.block(stripe, b).node() + ": " + damage;
        }

        /** Blocks other than the target that can serve unit {@code u}. */
        private int usable(int u) {
            int count = 0;
            for (int b = 0; b < n; b++) {
                if (b != target && intact[b][u]) {
                    count++;
                }
            }
            return count;
        }

        /** Whether every needed unit has k blocks that can serve it. */
        private boolean covered() {
            return needed.stream().allMatch(u -> usable(u) >= k);
        }

        /** Whether some needed unit would lack k blocks even if every read in flight served it. */
        private boolean lacking() {
            return needed.stream().anyMatch(u -> usable(u) + inFlight < k);
        }

        /**
         * Reads more candidate blocks while some unit may still lack k; fails when none are left. Called holding
         * the lock. A read may complete at once, on this thread, and call back in here.
         */
        private void launchMore() {
            while (!done && lacking() && next < candidates.size()) {
                int b = candidates.get(next++);
                FacManifest.Block block = manifest.block(stripe, b);
                inFlight++;
                reader.readUnits(manifest, block, from, Math.min(to, block.length()))
                        .whenComplete((read, error) -> completed(b, read, error));
            }
            if (!done && inFlight == 0) {
                if (covered()) {
                    finish();
                } else {
                    fail();
                }
            }
        }

        private synchronized void completed(int b, UnitRead read, Throwable error) {
            inFlight--;
            if (done) {
                return;
            }
            if (error != null || read.truncated()) {
                String reason = error != null ? describe(manifest.block(stripe, b), Futures.unwrap(error))
                        : describeUnit(b, read.damage(0));
                Arrays.fill(why[b], reason);
            } else {
                accept(b, read);
            }
            if (covered()) {
                finish();
                return;
            }
            // Whichever read ends last decides: read another block, or give up when none is left.
            launchMore();
        }

        /**
         * Decodes the needed units, each from the blocks intact there (runs of units that share the same blocks in
         * one call), and checks them against the target's checksums. Called holding the lock.
         */
        private void finish() {
            done = true;
            try {
                ErasureCoder coder = needed.isEmpty() ? null
                        : ErasureCodecs.get(manifest.codec()).coder(manifest.code());
                FacManifest.Block lost = manifest.block(stripe, target);
                for (int i = 0; i < needed.size(); ) {
                    int first = needed.get(i);
                    boolean[] present = present(first);
                    int last = first;
                    while (i + 1 < needed.size() && needed.get(i + 1) == last + 1
                            && Arrays.equals(present(needed.get(i + 1)), present)) {
                        last = needed.get(++i);
                    }
                    i++;
                    int start = first * unit;
                    int end = (int) Math.min(to - from, (long) (last + 1) * unit);
                    coder.decode(shards, present, start, end - start);
                    reader.decodedBytes.addAndGet(end - start);
                    long checkedEnd = Math.min(from + end, lost.length());
                    if (checkedEnd > from + start) {
                        reader.check(manifest, lost, from + start, checkedEnd,
                                ByteBuffer.wrap(shards[target], start, (int) (checkedEnd - from - start)).slice())
                                .requireIntact();
                    }
                }
                result.complete(ByteBuffer.wrap(shards[target], (int) (offset - from), (int) length).slice()
                        .asReadOnlyBuffer());
            } catch (RuntimeException e) {
                result.completeExceptionally(e instanceof CorruptDataException ? new CorruptDataException(
                        "Rebuilt bytes of block " + target + " of stripe " + stripe + " of " + manifest.key()
                                + " do not match its checksums: " + e.getMessage(), e) : e);
            }
        }

        /** The blocks that serve unit {@code u}: every intact one but the target. */
        private boolean[] present(int u) {
            boolean[] present = new boolean[n];
            for (int b = 0; b < n; b++) {
                present[b] = b != target && intact[b][u];
            }
            return present;
        }

        /** Fails naming the first unit that lacks k intact blocks, and why each of the others cannot serve it. */
        private void fail() {
            done = true;
            int u = needed.stream().filter(x -> usable(x) < k).findFirst().orElseThrow();
            List<Integer> unusable = new ArrayList<>();
            for (int b = 0; b < n; b++) {
                if (!intact[b][u]) {
                    unusable.add(b);
                }
            }
            List<Integer> missingNodes = unusable.stream().map(b -> manifest.block(stripe, b).node())
                    .collect(Collectors.toList());
            String details = unusable.stream().map(b -> why[b][u] != null ? why[b][u]
                    : "block " + b + " on node " + manifest.block(stripe, b).node() + ": not read")
                    .collect(Collectors.joining("; "));
            long unitStart = from + (long) u * unit;
            long unitEnd = Math.min(to, unitStart + unit);
            CodeParameters code = manifest.code();
            result.completeExceptionally(new StripeUnavailableException("Cannot read [" + offset + ", "
                    + (offset + length) + ") of block " + target + " of stripe " + stripe + " of " + manifest.key()
                    + ": checksum unit " + (unitStart / unit) + " ([" + unitStart + ", " + unitEnd + ") of the"
                    + " stripe's blocks) cannot be used in " + unusable.size() + " of its " + n + " blocks, on nodes "
                    + missingNodes + " (" + details + "); " + code + " rebuilds each unit of a stripe from any " + k
                    + " of its " + n + " blocks, so it survives the loss of at most " + code.parityBlocks()
                    + " per unit", manifest.key(), stripe, (int) (unitStart / unit), missingNodes));
        }
    }

    /** A block's bytes do not match its checksums; {@code reason} says where, in a few words. */
    private static final class BlockChecksumException extends CorruptDataException {
        private static final long serialVersionUID = 1L;
        private final String reason;

        BlockChecksumException(String message, String reason) {
            super(message);
            this.reason = reason;
        }
    }
}
