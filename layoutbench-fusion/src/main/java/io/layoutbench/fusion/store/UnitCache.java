package io.layoutbench.fusion.store;

import java.nio.ByteBuffer;
import java.util.ArrayList;
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
 * {@link #MAX_UNITS_PER_READ} units come here: larger ones (samples of 100 KB and more) are rarely read twice, and
 * keeping them would evict the metadata units that are.
 *
 * <p>Thread-safe: every method holds this cache's lock, briefly (no I/O under it).
 */
final class UnitCache {

    /** Reads of more units than this bypass the cache. */
    static final int MAX_UNITS_PER_READ = 4;

    /** Default capacity: 16 MiB of units, a thousand 16 KiB units of metadata. */
    static final long DEFAULT_CAPACITY_BYTES = 16L << 20;

    /**
     * One unit of one block: the object and its generation (whose strings are the manifest's own, so comparing them
     * is mostly a reference check), the stripe, the block and the unit's index in the block.
     */
    record UnitKey(String object, String generation, int stripe, int block, long unit) {
    }

    /**
     * What {@link #claim} found for a span of units: the futures of every unit, and the units of it that nobody is
     * reading yet, which the caller must now read and then {@link #complete} or {@link #fail}.
     */
    record Claim(List<CompletableFuture<ByteBuffer>> units, long firstToRead, long lastToRead) {
        boolean mustRead() {
            return firstToRead >= 0;
        }
    }

    private final long capacityBytes;
    private final LinkedHashMap<UnitKey, CompletableFuture<ByteBuffer>> units = new LinkedHashMap<>(256, 0.75f, true);
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
     * The futures of units {@code [first, last]} of a block; units nobody holds or reads are registered as being
     * read by the caller, who reads the span from the first of them to the last (units in between that are already
     * here are read again but keep their entries).
     */
    synchronized Claim claim(FacManifest manifest, FacManifest.Block block, long first, long last) {
        List<CompletableFuture<ByteBuffer>> found = new ArrayList<>((int) (last - first + 1));
        long firstToRead = -1;
        long lastToRead = -1;
        for (long u = first; u <= last; u++) {
            UnitKey key = key(manifest, block, u);
            CompletableFuture<ByteBuffer> unit = units.get(key);
            if (unit == null) {
                unit = new CompletableFuture<>();
                units.put(key, unit);
                if (firstToRead < 0) {
                    firstToRead = u;
                }
                lastToRead = u;
                misses++;
            } else {
                hits++;
            }
            found.add(unit);
        }
        return new Claim(found, firstToRead, lastToRead);
    }

    /** Unit {@code unit} of the block, read and checked: its waiters get it, and it stays for later reads. */
    void complete(FacManifest manifest, FacManifest.Block block, long unit, ByteBuffer bytes) {
        CompletableFuture<ByteBuffer> entry;
        synchronized (this) {
            entry = units.get(key(manifest, block, unit));
            if (entry == null || entry.isDone()) {
                return; // evicted or failed meanwhile, or a re-read of a unit already here
            }
            cachedBytes += bytes.remaining();
            evict();
        }
        entry.complete(bytes); // outside the lock: waiters run on this thread
    }

    /** Unit {@code unit} could not be read or checked: its waiters fail with {@code error}, and it is forgotten. */
    void fail(FacManifest manifest, FacManifest.Block block, long unit, Throwable error) {
        CompletableFuture<ByteBuffer> entry;
        synchronized (this) {
            UnitKey key = key(manifest, block, unit);
            entry = units.get(key);
            if (entry == null || entry.isDone()) {
                return;
            }
            units.remove(key);
        }
        entry.completeExceptionally(error);
    }

    /** Units found here or being read when asked for, against units a caller had to read. */
    synchronized long hits() {
        return hits;
    }

    synchronized long misses() {
        return misses;
    }

    /** Bytes of completed units held now. */
    synchronized long cachedBytes() {
        return cachedBytes;
    }

    private static UnitKey key(FacManifest manifest, FacManifest.Block block, long unit) {
        return new UnitKey(manifest.key(), manifest.generation(), block.stripe(), block.index(), unit);
    }

    private void evict() {
        Iterator<Map.Entry<UnitKey, CompletableFuture<ByteBuffer>>> eldest = units.entrySet().iterator();
        while (cachedBytes > capacityBytes && eldest.hasNext()) {
            CompletableFuture<ByteBuffer> unit = eldest.next().getValue();
            if (unit.isDone() && !unit.isCompletedExceptionally()) {
                cachedBytes -= unit.join().remaining();
                eldest.remove();
            }
        }
    }
}
