package io.layoutbench.fusion.store;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Checked checksum units of small block reads, kept for the reads of the same client that follow or run beside them:
 * one node read per unit where the layer above asks for many small ranges that the store packed side by side.
 *
 * <p>Why: a cold L3 query over FAC reads the metadata chunks of every row group (about 2,800 at mini with the
 * {@code fac} layout's 512 KiB row groups), each a range of a few hundred bytes to a few KiB, and Algorithm 1 packs
 * those small chunks next to each other in the same data blocks. Each range read costs a node read of its whole
 * checksum units (16 KiB in that layout), so without sharing, one unit is read from its node once for every chunk
 * in it. With this cache a unit is read once: a read finds it here, waits for the read already fetching it (reads run
 * hundreds at a time), or fetches it.
 *
 * <p>Entries are futures of one unit's checked bytes, keyed by object, generation (so a rewritten object never meets
 * its old units), stripe, block and unit index. Completed entries are evicted least recently used
 * beyond {@code capacityBytes}; entries still being read are never evicted. A unit whose read fails or does not match
 * its checksum is dropped, and the caller falls back to the store's degraded path. Only reads of at most
 * {@link #MAX_READ_BYTES} bytes of whole units come here: larger ones (samples of 100 KB and more) are rarely read
 * twice, and keeping them would evict the metadata units that are. Units are kept as copies of their own, so the
 * cache holds what it counts, not the larger buffers they were read in.
 *
 * <p>Thread-safe: every method holds this cache's lock, briefly (no I/O under it).
 */
final class UnitCache {

    /** Reads of more bytes than this (whole units) bypass the cache. */
    static final int MAX_READ_BYTES = 64 << 10;

    /** Default capacity: 16 MiB of units, a thousand 16 KiB units of metadata. */
    static final long DEFAULT_CAPACITY_BYTES = 16L << 20;

    /**
     * One unit of one block: the object and its generation (whose strings are the manifest's own, so comparing them
     * is mostly a reference check), the stripe, the block and the unit's index in the block.
     */
    record UnitKey(String object, String generation, int stripe, int block, long unit) {
    }

    /**
     * What {@link #claim} found for a span of units {@code [first, ...]}: the futures of every unit, and the span of
     * units this claim registered ({@code firstToRead} to {@code lastToRead}, -1 when none), which the caller reads
     * from the node in one read and then completes or fails with {@link #complete} and {@link #fail}. Only the claim
     * that registered a unit completes or fails it: units in that span that others registered are read again and
     * left to them.
     */
    record Claim(long first, List<CompletableFuture<ByteBuffer>> units, BitSet owned, long firstToRead,
            long lastToRead) {
        boolean mustRead() {
            return firstToRead >= 0;
        }

        /** Whether this claim registered unit {@code unit}, and so must complete or fail it. */
        boolean owns(long unit) {
            return unit >= first && unit < first + units.size() && owned.get((int) (unit - first));
        }

        CompletableFuture<ByteBuffer> unit(long unit) {
            return units.get((int) (unit - first));
        }
    }

    /** A registered unit: its future, and the bytes counted for it once it completed (0 before). */
    private static final class Entry {
        final CompletableFuture<ByteBuffer> future;
        long countedBytes;

        Entry(CompletableFuture<ByteBuffer> future) {
            this.future = future;
        }
    }

    private final long capacityBytes;
    private final LinkedHashMap<UnitKey, Entry> units = new LinkedHashMap<>(256, 0.75f, true);
    private long cachedBytes;
    private long hits;
    private long misses;

    UnitCache(long capacityBytes) {
        if (capacityBytes < 0) {
            throw new IllegalArgumentException("capacityBytes must be >= 0, got " + capacityBytes);
        }
        this.capacityBytes = capacityBytes;
    }

    /**
     * The futures of units {@code [first, last]} of a block; units nobody holds or reads are registered to the
     * caller, who reads the span from the first of them to the last (units in between that are already here are read
     * again but keep their entries and owners).
     */
    synchronized Claim claim(FacManifest manifest, FacManifest.Block block, long first, long last) {
        List<CompletableFuture<ByteBuffer>> found = new ArrayList<>((int) (last - first + 1));
        BitSet owned = new BitSet();
        long firstToRead = -1;
        long lastToRead = -1;
        for (long u = first; u <= last; u++) {
            UnitKey key = key(manifest, block, u);
            Entry entry = units.get(key);
            if (entry == null) {
                entry = new Entry(new CompletableFuture<>());
                units.put(key, entry);
                owned.set((int) (u - first));
                if (firstToRead < 0) {
                    firstToRead = u;
                }
                lastToRead = u;
                misses++;
            } else {
                hits++;
            }
            found.add(entry.future);
        }
        return new Claim(first, found, owned, firstToRead, lastToRead);
    }

    /**
     * Unit {@code unit}, which {@code claim} registered, read and checked: its waiters get {@code bytes}, and it stays
     * for later reads, counted at {@code bytes.remaining()} (give it bytes of its own, not a slice of a larger
     * buffer, or the cache holds more than it counts).
     */
    void complete(Claim claim, FacManifest manifest, FacManifest.Block block, long unit, ByteBuffer bytes) {
        CompletableFuture<ByteBuffer> future = requireOwned(claim, manifest, block, unit);
        synchronized (this) {
            Entry entry = units.get(key(manifest, block, unit));
            if (entry != null && entry.future == future) {
                entry.countedBytes = bytes.remaining();
                cachedBytes += entry.countedBytes;
            }
        }
        future.complete(bytes); // outside the lock: waiters run on this thread
        synchronized (this) {
            evict();
        }
    }

    /**
     * Unit {@code unit}, which {@code claim} registered, could not be read or checked: its waiters fail with
     * {@code error}, and it is forgotten, so the next read of it tries again.
     */
    void fail(Claim claim, FacManifest manifest, FacManifest.Block block, long unit, Throwable error) {
        CompletableFuture<ByteBuffer> future = requireOwned(claim, manifest, block, unit);
        synchronized (this) {
            UnitKey key = key(manifest, block, unit);
            Entry entry = units.get(key);
            if (entry != null && entry.future == future) {
                units.remove(key);
                cachedBytes -= entry.countedBytes;
            }
        }
        future.completeExceptionally(error);
    }

    /** Units found here or being read when asked for. */
    synchronized long hits() {
        return hits;
    }

    /** Units a claim had to register and read. */
    synchronized long misses() {
        return misses;
    }

    /** Bytes of completed units held now. */
    synchronized long cachedBytes() {
        return cachedBytes;
    }

    private static CompletableFuture<ByteBuffer> requireOwned(Claim claim, FacManifest manifest,
            FacManifest.Block block, long unit) {
        if (!claim.owns(unit)) {
            throw new IllegalArgumentException("Unit " + unit + " of block " + block.index() + " of stripe "
                    + block.stripe() + " of " + manifest.key() + " is not one this claim registered (it registered "
                    + claim.owned().cardinality() + " of units " + claim.first() + " to "
                    + (claim.first() + claim.units().size() - 1) + ")");
        }
        return claim.unit(unit);
    }

    private static UnitKey key(FacManifest manifest, FacManifest.Block block, long unit) {
        return new UnitKey(manifest.key(), manifest.generation(), block.stripe(), block.index(), unit);
    }

    private void evict() {
        Iterator<Map.Entry<UnitKey, Entry>> eldest = units.entrySet().iterator();
        while (cachedBytes > capacityBytes && eldest.hasNext()) {
            Entry entry = eldest.next().getValue();
            if (entry.future.isDone()) {
                cachedBytes -= entry.countedBytes;
                eldest.remove();
            }
        }
    }
}
