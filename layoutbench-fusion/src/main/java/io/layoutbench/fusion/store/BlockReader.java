package io.layoutbench.fusion.store;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.CorruptDataException;
import io.layoutbench.api.backend.ObjectNotFoundException;
import io.layoutbench.api.backend.StorageException;
import io.layoutbench.fusion.codec.CodeParameters;
import io.layoutbench.fusion.codec.ErasureCodecs;
import io.layoutbench.fusion.codec.ErasureCoder;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.zip.CRC32C;

/**
 * Reads the bytes of coded objects, and owns their integrity on the way out: a range is read from the data blocks
 * that hold it, rounded out to checksum units whose CRC32Cs are checked, so wrong bytes are never returned. While
 * all nodes are up no parity is read and nothing is decoded. When a block cannot be read or fails a check, only the
 * units of the range are rebuilt from k other blocks of the stripe (a {@link Reconstruction}) and checked against
 * the lost block's own unit checksums; when more than n - k blocks of the stripe cannot be used, the read fails
 * with {@link StripeUnavailableException}. Counts what reads do, for {@link FacBackend#statistics()}.
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

    BlockReader(FacNodes nodes) {
        this.nodes = nodes;
    }

    /** What reads have done so far. */
    FacStatistics statistics() {
        return new FacStatistics(blockReads.get(), bytesFromNodes.get(), degradedReads.get(), decodedBytes.get(),
                checksumFailures.get(), failedBlockReads.get());
    }

    /** The bytes of {@code range} of the object {@code manifest} describes; the range lies within the object. */
    CompletableFuture<ByteBuffer> read(FacManifest manifest, ByteRange range) {
        List<FacManifest.Piece> pieces = manifest.locate(range);
        if (pieces.isEmpty()) {
            return CompletableFuture.completedFuture(ByteBuffer.allocate(0).asReadOnlyBuffer());
        }
        if (pieces.size() == 1) {
            return readPiece(manifest, pieces.get(0));
        }
        byte[] out = new byte[(int) range.length()];
        CompletableFuture<?>[] parts = new CompletableFuture<?>[pieces.size()];
        for (int i = 0; i < pieces.size(); i++) {
            FacManifest.Piece piece = pieces.get(i);
            parts[i] = readPiece(manifest, piece).thenAccept(buffer ->
                    buffer.duplicate().get(out, (int) piece.outputOffset(), (int) piece.length()));
        }
        return CompletableFuture.allOf(parts).thenApply(v -> ByteBuffer.wrap(out).asReadOnlyBuffer());
    }

    /** The bytes of one piece: from its data block, or rebuilt when that fails. */
    private CompletableFuture<ByteBuffer> readPiece(FacManifest manifest, FacManifest.Piece piece) {
        FacManifest.Block block = manifest.block(piece.stripe(), piece.block());
        int unit = manifest.checksumUnit();
        long from = piece.blockOffset() / unit * unit;
        long to = Math.min(block.length(), ceilTo(piece.blockOffset() + piece.length(), unit));
        return readVerified(manifest, block, from, to).thenApply(buffer -> slice(buffer,
                (int) (piece.blockOffset() - from), (int) piece.length()))
                .exceptionallyCompose(error -> {
                    degradedReads.incrementAndGet();
                    return reconstruct(manifest, piece.stripe(), piece.block(), piece.blockOffset(), piece.length(),
                            describe(block, Futures.unwrap(error)));
                });
    }

    /**
     * Reads {@code [from, to)} of a block, {@code from} unit-aligned and {@code to} a unit boundary or the block's
     * end, and checks its units. Fails with the node's error, or with a {@link CorruptDataException} saying where
     * the bytes do not match.
     */
    CompletableFuture<ByteBuffer> readVerified(FacManifest manifest, FacManifest.Block block, long from, long to) {
        blockReads.incrementAndGet();
        CompletableFuture<ByteBuffer> raw;
        try {
            raw = nodes.get(block.node()).readRangeAsync(Placement.blockKey(manifest, block.stripe(), block.index()),
                    ByteRange.between(from, to));
        } catch (RuntimeException e) {
            raw = CompletableFuture.failedFuture(e);
        }
        return raw.handle((buffer, error) -> {
            if (error != null) {
                failedBlockReads.incrementAndGet();
                throw error instanceof CompletionException c ? c : new CompletionException(error);
            }
            bytesFromNodes.addAndGet(buffer.remaining());
            verify(manifest, block, from, to, buffer);
            return buffer;
        });
    }

    /**
     * Rebuilds {@code [offset, offset + length)} of block {@code target} of stripe {@code stripe} from k other blocks
     * of the stripe, and checks the rebuilt units against the target's checksums.
     *
     * @param whyTargetFailed why the target itself cannot be used, for the error when the stripe cannot be rebuilt
     */
    CompletableFuture<ByteBuffer> reconstruct(FacManifest manifest, int stripe, int target, long offset, long length,
            String whyTargetFailed) {
        return new Reconstruction(this, manifest, stripe, target, offset, length, whyTargetFailed).start();
    }

    /** Checks the units of {@code [from, to)} of {@code block} in {@code buffer}. */
    private void verify(FacManifest manifest, FacManifest.Block block, long from, long to, ByteBuffer buffer) {
        if (buffer.remaining() != to - from) {
            checksumFailures.incrementAndGet();
            throw new BlockChecksumException("Block " + block.index() + " of stripe " + block.stripe() + " of "
                    + manifest.key() + " on " + nodes.name(block.node()) + " returned " + buffer.remaining()
                    + " bytes for [" + from + ", " + to + "): truncated", "truncated");
        }
        int unit = manifest.checksumUnit();
        for (long start = from; start < to; start += unit) {
            int length = (int) Math.min(unit, to - start);
            CRC32C crc = new CRC32C();
            ByteBuffer part = buffer.duplicate();
            part.position(buffer.position() + (int) (start - from)).limit(part.position() + length);
            crc.update(part);
            int u = (int) (start / unit);
            if ((int) crc.getValue() != block.unitCrc(u)) {
                checksumFailures.incrementAndGet();
                String where = "[" + start + ", " + (start + length) + ")";
                throw new BlockChecksumException("Block " + block.index() + " of stripe " + block.stripe()
                        + " of " + manifest.key() + " on " + nodes.name(block.node()) + " fails its checksum in "
                        + where, "fails its checksum in " + where);
            }
        }
    }

    private static String describe(FacManifest.Block block, Throwable error) {
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
        String message = error.getMessage() == null ? error.getClass().getSimpleName() : error.getMessage();
        if (message.length() > 160) {
            message = message.substring(0, 157) + "...";
        }
        return error instanceof StorageException storage && storage.isTransient() ? "unreachable: " + message
                : message;
    }

    private static long ceilTo(long value, int unit) {
        return (value + unit - 1) / unit * unit;
    }

    private static ByteBuffer slice(ByteBuffer buffer, int offset, int length) {
        ByteBuffer slice = buffer.duplicate();
        slice.position(buffer.position() + offset).limit(buffer.position() + offset + length);
        return slice.slice().asReadOnlyBuffer();
    }

    /**
     * Rebuilds {@code [offset, offset + length)} of one block from k other blocks of its stripe, decoding only the
     * checksum units that hold the range. Data blocks that end before the range are known zeros (padding) and cost
     * no read. Reads the fewest blocks it can, data blocks first, and replaces any that fail with the next.
     */
    private static final class Reconstruction {
        private final BlockReader reader;
        private final FacManifest manifest;
        private final int stripe;
        private final int target;
        private final long offset;
        private final long length;
        private final long from;
        private final long to;
        private final int n;
        private final int k;
        private final byte[][] shards;
        private final boolean[] present;
        private final List<Integer> candidates = new ArrayList<>();
        private final Map<Integer, String> failures = new LinkedHashMap<>();
        private final CompletableFuture<ByteBuffer> result = new CompletableFuture<>();
        private int presentCount;
        private int next;
        private int inFlight;
        private boolean done;

        Reconstruction(BlockReader reader, FacManifest manifest, int stripe, int target, long offset, long length,
                String whyTargetFailed) {
            this.reader = reader;
            this.manifest = manifest;
            this.stripe = stripe;
            this.target = target;
            this.offset = offset;
            this.length = length;
            int unit = manifest.checksumUnit();
            FacManifest.Stripe entry = manifest.stripes().get(stripe);
            this.from = offset / unit * unit;
            this.to = Math.min(entry.blockSize(), ceilTo(offset + length, unit));
            this.n = manifest.code().totalBlocks();
            this.k = manifest.code().dataBlocks();
            this.shards = new byte[n][(int) (to - from)];
            this.present = new boolean[n];
            failures.put(target, whyTargetFailed);
        }

        CompletableFuture<ByteBuffer> start() {
            synchronized (this) {
                for (int b = 0; b < n; b++) {
                    if (b == target) {
                        continue;
                    }
                    if (b < k && manifest.block(stripe, b).length() <= from) {
                        present[b] = true;   // all padding here: zeros, known without a read
                        presentCount++;
                    } else {
                        candidates.add(b);
                    }
                }
                if (presentCount >= k) {
                    finish();
                } else {
                    launchMore();
                }
            }
            return result;
        }

        /**
         * Reads more candidate blocks until enough are present or being read; fails when none are left. Called
         * holding the lock. A read may complete at once, on this thread, and call back in here.
         */
        private void launchMore() {
            while (!done && presentCount + inFlight < k && next < candidates.size()) {
                int b = candidates.get(next++);
                FacManifest.Block block = manifest.block(stripe, b);
                long end = Math.min(to, block.length());
                inFlight++;
                reader.readVerified(manifest, block, from, end).whenComplete((buffer, error) -> completed(b, buffer,
                        error));
            }
            if (!done && inFlight == 0 && presentCount < k) {
                fail();
            }
        }

        private synchronized void completed(int b, ByteBuffer buffer, Throwable error) {
            inFlight--;
            if (done) {
                return;
            }
            if (error == null) {
                buffer.duplicate().get(shards[b], 0, buffer.remaining());   // the rest stays zero: padding
                present[b] = true;
                presentCount++;
                if (presentCount >= k) {
                    finish();
                    return;
                }
            } else {
                Throwable cause = Futures.unwrap(error);
                FacManifest.Block block = manifest.block(stripe, b);
                failures.put(b, "block " + b + " on node " + block.node() + ": " + reason(cause));
            }
            // Whichever read ends last decides: read another block, or give up when none is left.
            launchMore();
        }

        /** Decodes and checks the target's units. Called holding the lock. */
        private void finish() {
            done = true;
            try {
                ErasureCoder coder = ErasureCodecs.get(manifest.codec()).coder(manifest.code());
                coder.decode(shards, present, 0, shards[0].length);
                reader.decodedBytes.addAndGet(to - from);
                FacManifest.Block lost = manifest.block(stripe, target);
                long checkedEnd = Math.min(to, lost.length());
                if (checkedEnd > from) {
                    reader.verify(manifest, lost, from, checkedEnd,
                            ByteBuffer.wrap(shards[target], 0, (int) (checkedEnd - from)));
                }
                result.complete(ByteBuffer.wrap(shards[target], (int) (offset - from), (int) length).slice()
                        .asReadOnlyBuffer());
            } catch (RuntimeException e) {
                result.completeExceptionally(e instanceof CorruptDataException ? new CorruptDataException(
                        "Rebuilt bytes of block " + target + " of stripe " + stripe + " of " + manifest.key()
                                + " do not match its checksums: " + e.getMessage(), e) : e);
            }
        }

        private void fail() {
            done = true;
            List<Integer> missingNodes = failures.keySet().stream().sorted()
                    .map(b -> manifest.block(stripe, b).node()).collect(Collectors.toList());
            CodeParameters code = manifest.code();
            String details = failures.entrySet().stream().sorted(Map.Entry.comparingByKey())
                    .map(Map.Entry::getValue).collect(Collectors.joining("; "));
            result.completeExceptionally(new StripeUnavailableException("Cannot read [" + offset + ", "
                    + (offset + length) + ") of block " + target + " of stripe " + stripe + " of " + manifest.key()
                    + ": " + failures.size() + " of its " + n + " blocks cannot be used, on nodes " + missingNodes
                    + " (" + details + "); " + code + " rebuilds a stripe from any " + k + " of its " + n
                    + " blocks, so it survives the loss of at most " + code.parityBlocks(),
                    manifest.key(), stripe, missingNodes));
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
