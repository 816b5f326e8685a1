package io.layoutbench.api.dataset;

import static java.util.Objects.requireNonNull;

/**
 * The names seen so far, to find a repeated one in a stream of any length: 8 bytes a name (a 64-bit hash of it in an
 * open-addressing table at most three quarters full), so 1.28 M names take 16 MiB, where a {@code HashSet} of the
 * names would take about 150 MiB. The price of not keeping the names: two different names whose hashes collide are
 * taken for one. With n names that happens with probability about n² / 2^65, one in 20 million at 1.28 M names, and
 * only in the safe direction: {@link #add} may report a new name as seen, never a seen name as new. Callers that
 * can look the earlier name up again confirm it before refusing anything.
 *
 * <pre>{@code
 * SampleNameSet seen = new SampleNameSet();
 * for (Sample sample : samples) {
 *     if (!seen.add(sample.filename())) {
 *         throw new IllegalArgumentException("Sample name '" + sample.filename() + "' repeats an earlier one");
 *     }
 * }
 * }</pre>
 *
 * <p>Not thread-safe.
 */
public final class SampleNameSet {

    private static final int INITIAL_CAPACITY = 1 << 10;
    private static final int MAX_CAPACITY = 1 << 30;

    /** Hashes, 0 marking a free slot (a name hashing to 0 is stored as 1). */
    private long[] slots = new long[INITIAL_CAPACITY];
    private int size;

    /**
     * Adds {@code name}; returns true if it was not seen before, false if it was (or, rarely, a name with the same
     * 64-bit hash was).
     */
    public boolean add(String name) {
        requireNonNull(name, "name is null");
        if (size >= slots.length - (slots.length >> 2)) {
            grow();
        }
        return insert(slots, hash(name));
    }

    /** Names added. */
    public int size() {
        return size;
    }

    /** Slots of the table: 8 bytes each. */
    int capacity() {
        return slots.length;
    }

    private boolean insert(long[] table, long hash) {
        int mask = table.length - 1;
        for (int i = (int) hash & mask; ; i = (i + 1) & mask) {
            if (table[i] == 0) {
                table[i] = hash;
                size++;
                return true;
            }
            if (table[i] == hash) {
                return false;
            }
        }
    }

    private void grow() {
        if (slots.length >= MAX_CAPACITY) {
            throw new IllegalStateException("A SampleNameSet holds at most " + (MAX_CAPACITY - (MAX_CAPACITY >> 2))
                    + " names");
        }
        long[] larger = new long[slots.length * 2];
        size = 0;
        for (long hash : slots) {
            if (hash != 0) {
                insert(larger, hash);
            }
        }
        slots = larger;
    }

    /** FNV-1a over the UTF-16 units, then MurmurHash3's finaliser so every bit of the name reaches every bit. */
    static long hash(String name) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < name.length(); i++) {
            h = (h ^ name.charAt(i)) * 0x100000001b3L;
        }
        h ^= name.length();
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h == 0 ? 1 : h;
    }
}
