package io.layoutbench.parquet;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The distinct values of a string column, each once, numbered from 0 in order of first appearance; rows hold ids.
 * Values are kept as UTF-8 bytes in one array with an offset table and a hash table of ids, so a column of 1.28 M
 * distinct file names costs about 45 bytes a value instead of a {@code String} each, and a column of 1,000 labels
 * costs almost nothing. Compare ids, not strings: look the constant up once with {@link #idOf}.
 *
 * <pre>{@code
 * ColumnValues.Strings labels = (ColumnValues.Strings) columns.column("human_label");
 * int streetcar = labels.dictionary().idOf("streetcar");        // -1 if no row has it
 * for (int row = 0; row < labels.size(); row++) {
 *     if (labels.ids()[row] == streetcar) { ... }
 * }
 * }</pre>
 *
 * <p>Immutable and thread-safe once built; {@link Builder} is for one thread.
 */
public final class StringDictionary {

    private final byte[] bytes;
    private final int[] offsets;
    private final int[] hashes;
    private final int[] slots;
    private final int size;

    private StringDictionary(byte[] bytes, int[] offsets, int[] hashes, int[] slots, int size) {
        this.bytes = bytes;
        this.offsets = offsets;
        this.hashes = hashes;
        this.slots = slots;
        this.size = size;
    }

    /** A dictionary of the distinct {@code values}, numbered in order of first appearance. */
    public static StringDictionary of(String... values) {
        Builder builder = builder();
        for (String value : values) {
            builder.add(value);
        }
        return builder.build();
    }

    /** An empty builder. */
    public static Builder builder() {
        return new Builder();
    }

    /** Number of distinct values. */
    public int size() {
        return size;
    }

    /** The value numbered {@code id}. */
    public String get(int id) {
        java.util.Objects.checkIndex(id, size);
        return new String(bytes, offsets[id], offsets[id + 1] - offsets[id], StandardCharsets.UTF_8);
    }

    /** Every value, indexed by id (decoded once; for handing the dictionary to an evaluator). */
    public String[] toArray() {
        String[] values = new String[size];
        for (int id = 0; id < size; id++) {
            values[id] = new String(bytes, offsets[id], offsets[id + 1] - offsets[id], StandardCharsets.UTF_8);
        }
        return values;
    }

    /** The id of {@code value}, or -1 when no row has it. */
    public int idOf(String value) {
        byte[] utf8 = requireNonNull(value, "value is null").getBytes(StandardCharsets.UTF_8);
        return find(bytes, offsets, slots, hashes, utf8, 0, utf8.length, hash(utf8, 0, utf8.length));
    }

    /** Bytes held by this dictionary's arrays, for memory accounting. */
    public long retainedBytes() {
        return (long) bytes.length + 4L * (offsets.length + hashes.length + slots.length);
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("StringDictionary[").append(size).append(" values");
        for (int id = 0; id < Math.min(size, 5); id++) {
            text.append(id == 0 ? ": " : ", ").append(get(id));
        }
        return text.append(size > 5 ? ", ...]" : "]").toString();
    }

    private static int hash(byte[] data, int offset, int length) {
        int h = 0x811c9dc5;
        for (int i = offset; i < offset + length; i++) {
            h = (h ^ data[i]) * 0x01000193;
        }
        return h ^ (h >>> 16);
    }

    /** The id of the value, or -1. {@code slots} holds id + 1, 0 for empty, at a power-of-two capacity. */
    private static int find(byte[] bytes, int[] offsets, int[] slots, int[] hashes, byte[] data, int offset,
            int length, int hash) {
        int mask = slots.length - 1;
        for (int slot = hash & mask; ; slot = (slot + 1) & mask) {
            int entry = slots[slot];
            if (entry == 0) {
                return -1;
            }
            int id = entry - 1;
            if (hashes[id] == hash && Arrays.equals(bytes, offsets[id], offsets[id + 1], data, offset,
                    offset + length)) {
                return id;
            }
        }
    }

    /** Collects distinct values; {@link #add} returns each value's id. Not thread-safe. */
    public static final class Builder {
        private byte[] bytes = new byte[1024];
        private int[] offsets = new int[65];
        private int[] hashes = new int[64];
        private int[] slots = new int[128];
        private int size;
        private byte[] scratch = new byte[256];
        private boolean built;

        private Builder() {
        }

        /** Number of distinct values so far. */
        public int size() {
            return size;
        }

        /** Adds {@code value} if new. @return its id */
        public int add(String value) {
            byte[] utf8 = requireNonNull(value, "value is null").getBytes(StandardCharsets.UTF_8);
            return add(utf8, 0, utf8.length);
        }

        /** Adds the UTF-8 value in {@code utf8}'s remaining bytes (not consumed) if new. @return its id */
        public int add(ByteBuffer utf8) {
            int length = utf8.remaining();
            if (utf8.hasArray()) {
                return add(utf8.array(), utf8.arrayOffset() + utf8.position(), length);
            }
            if (scratch.length < length) {
                scratch = new byte[Math.max(length, scratch.length * 2)];
            }
            utf8.get(utf8.position(), scratch, 0, length);
            return add(scratch, 0, length);
        }

        /** Adds the UTF-8 value in {@code data[offset, offset + length)} if new. @return its id */
        public int add(byte[] data, int offset, int length) {
            if (built) {
                throw new IllegalStateException("StringDictionary.Builder used after build()");
            }
            int hash = hash(data, offset, length);
            int found = find(bytes, offsets, slots, hashes, data, offset, length, hash);
            if (found >= 0) {
                return found;
            }
            int id = size;
            if (id == Integer.MAX_VALUE - 8) {
                throw new IllegalStateException("A string dictionary holds at most " + id + " values");
            }
            int start = offsets[id];
            if (bytes.length - start < length) {
                long grown = Math.max((long) start + length, Math.min((long) bytes.length * 2,
                        Integer.MAX_VALUE - 8));
                if (grown > Integer.MAX_VALUE - 8) {
                    throw new IllegalStateException("A string dictionary holds at most 2 GB of UTF-8");
                }
                bytes = Arrays.copyOf(bytes, (int) grown);
            }
            System.arraycopy(data, offset, bytes, start, length);
            if (id + 1 >= offsets.length - 1) {
                offsets = Arrays.copyOf(offsets, offsets.length * 2);
                hashes = Arrays.copyOf(hashes, offsets.length - 1);
            }
            offsets[id + 1] = start + length;
            hashes[id] = hash;
            size = id + 1;
            if (size > slots.length * 0.7) {
                rehash(slots.length * 2);
            } else {
                insert(slots, id, hash);
            }
            return id;
        }

        /** The dictionary; the builder cannot be used afterwards. */
        public StringDictionary build() {
            built = true;
            // Trim what doubling left unused, when it is worth a copy.
            StringDictionary dictionary = new StringDictionary(
                    bytes.length - offsets[size] > 4096 ? Arrays.copyOf(bytes, offsets[size]) : bytes,
                    offsets.length - size > 1024 ? Arrays.copyOf(offsets, size + 1) : offsets,
                    hashes.length - size > 1024 ? Arrays.copyOf(hashes, size) : hashes,
                    slots, size);
            bytes = null;
            return dictionary;
        }

        private void rehash(int capacity) {
            int[] larger = new int[capacity];
            for (int id = 0; id < size; id++) {
                insert(larger, id, hashes[id]);
            }
            slots = larger;
        }

        private static void insert(int[] slots, int id, int hash) {
            int mask = slots.length - 1;
            int slot = hash & mask;
            while (slots[slot] != 0) {
                slot = (slot + 1) & mask;
            }
            slots[slot] = id + 1;
        }
    }
}
