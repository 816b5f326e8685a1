package io.layoutbench.api.dataset;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;

/**
 * The distinct values of a STRING column, each once, numbered from 0 in order of first appearance; rows hold ids
 * ({@link ColumnVector.Strings}). Values are kept as UTF-8 bytes in one array with an offset table and a hash table
 * of ids, so a column of 1.28 M distinct file names costs about 40 bytes a value instead of a {@code String} each
 * (about 70), and a column of 1,000 labels costs almost nothing. Compare ids, not strings: look a constant up once
 * with {@link #idOf}. Tests that need the characters (LIKE, ordering) run on the bytes with {@link #matches}, which
 * decodes nothing; {@link #get} decodes a new {@code String} on every call.
 *
 * <p>Every value is well-formed UTF-8, so byte-wise matching agrees with matching the decoded strings: bytes that
 * are not well-formed (a damaged file) are stored as Java decodes them, each bad sequence as U+FFFD, and a
 * {@code String} with an unpaired surrogate (which has no UTF-8 form) is refused.
 *
 * <pre>{@code
 * ColumnVector.Strings labels = (ColumnVector.Strings) table.column(table.columnIndex("human_label"));
 * int streetcar = labels.dictionary().idOf("streetcar");        // -1 if no row has it
 * for (int row = 0; row < labels.size(); row++) {
 *     if (labels.ids()[row] == streetcar) { ... }
 * }
 * }</pre>
 *
 * <p>Immutable and thread-safe once built; {@link Builder} is for one thread.
 */
public final class StringDictionary {

    private static final StringDictionary EMPTY = new Builder().build();

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
        if (values.length == 0) {
            return EMPTY;
        }
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

    /** The value numbered {@code id}, decoded into a new {@code String}. */
    public String get(int id) {
        Objects.checkIndex(id, size);
        return new String(bytes, offsets[id], offsets[id + 1] - offsets[id], StandardCharsets.UTF_8);
    }

    /** Length in bytes of the UTF-8 form of the value numbered {@code id}. */
    public int utf8Length(int id) {
        Objects.checkIndex(id, size);
        return offsets[id + 1] - offsets[id];
    }

    /** The UTF-8 bytes of the value numbered {@code id}, as a read-only buffer over the dictionary's array. */
    public ByteBuffer utf8(int id) {
        Objects.checkIndex(id, size);
        return ByteBuffer.wrap(bytes, offsets[id], offsets[id + 1] - offsets[id]).slice().asReadOnlyBuffer();
    }

    /**
     * Tests the value numbered {@code id} on its UTF-8 bytes, without decoding it: {@code predicate} gets the
     * dictionary's array and the value's range in it, and must not change the array.
     */
    public boolean matches(int id, Utf8Predicate predicate) {
        Objects.checkIndex(id, size);
        return predicate.test(bytes, offsets[id], offsets[id + 1]);
    }

    /** The id of {@code value}, or -1 when no row has it (as for a string with an unpaired surrogate). */
    public int idOf(String value) {
        byte[] utf8 = requireNonNull(value, "value is null").getBytes(StandardCharsets.UTF_8);
        if (unpairedSurrogate(value, utf8) >= 0) {
            return -1;
        }
        return find(bytes, offsets, slots, hashes, utf8, 0, utf8.length, hash(utf8, 0, utf8.length));
    }

    /** Approximate heap footprint: the arrays (with their headers) and this object. */
    public long estimatedBytes() {
        return 32 + arrayBytes(bytes.length, 1) + arrayBytes(offsets.length, 4) + arrayBytes(hashes.length, 4)
                + arrayBytes(slots.length, 4);
    }

    /** Bytes of an array of {@code length} elements of {@code elementBytes}: a 16-byte header, 8-byte aligned. */
    static long arrayBytes(int length, int elementBytes) {
        return (16 + (long) length * elementBytes + 7) & ~7L;
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

    /** Whether {@code data[from, to)} is well-formed UTF-8 (Unicode table 3-7: no overlong forms, no surrogates). */
    static boolean isWellFormedUtf8(byte[] data, int from, int to) {
        int i = from;
        while (i < to && data[i] >= 0) {
            i++;
        }
        while (i < to) {
            int b = data[i] & 0xFF;
            if (b < 0x80) {
                i++;
            } else if (b < 0xC2 || b > 0xF4) {
                return false;
            } else if (b < 0xE0) {
                if (i + 1 >= to || !isContinuation(data[i + 1] & 0xFF)) {
                    return false;
                }
                i += 2;
            } else if (b < 0xF0) {
                if (i + 2 >= to) {
                    return false;
                }
                int b1 = data[i + 1] & 0xFF;
                boolean second = b == 0xE0 ? b1 >= 0xA0 && b1 <= 0xBF : b == 0xED ? b1 >= 0x80 && b1 <= 0x9F
                        : isContinuation(b1);
                if (!second || !isContinuation(data[i + 2] & 0xFF)) {
                    return false;
                }
                i += 3;
            } else {
                if (i + 3 >= to) {
                    return false;
                }
                int b1 = data[i + 1] & 0xFF;
                boolean second = b == 0xF0 ? b1 >= 0x90 && b1 <= 0xBF : b == 0xF4 ? b1 >= 0x80 && b1 <= 0x8F
                        : isContinuation(b1);
                if (!second || !isContinuation(data[i + 2] & 0xFF) || !isContinuation(data[i + 3] & 0xFF)) {
                    return false;
                }
                i += 4;
            }
        }
        return true;
    }

    /**
     * The index of the first unpaired surrogate of {@code value}, or -1. {@code utf8} is its UTF-8 encoding, where
     * the encoder wrote {@code '?'} for each unpaired surrogate: only a string with a {@code '?'} is looked at.
     */
    private static int unpairedSurrogate(String value, byte[] utf8) {
        boolean question = false;
        for (byte b : utf8) {
            if (b == '?') {
                question = true;
                break;
            }
        }
        if (!question) {
            return -1;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < value.length()
                    && Character.isLowSurrogate(value.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean isContinuation(int b) {
        return (b & 0xC0) == 0x80;
    }

    /** A test of one value's UTF-8 bytes, {@code utf8[from, to)}; see {@link #matches}. */
    @FunctionalInterface
    public interface Utf8Predicate {
        boolean test(byte[] utf8, int from, int to);
    }

    /**
     * Collects distinct values; each {@code add} returns the value's id. {@link #build()} copies, so the builder can
     * keep adding and build again. Not thread-safe.
     */
    public static final class Builder {
        private byte[] bytes = new byte[1024];
        private int[] offsets = new int[65];
        private int[] hashes = new int[64];
        private int[] slots = new int[128];
        private int size;
        private byte[] scratch = new byte[256];

        private Builder() {
        }

        /** Number of distinct values so far. */
        public int size() {
            return size;
        }

        /**
         * Adds {@code value} if new.
         *
         * @return its id
         * @throws IllegalArgumentException if {@code value} holds an unpaired surrogate, which UTF-8 cannot store
         */
        public int add(String value) {
            byte[] utf8 = requireNonNull(value, "value is null").getBytes(StandardCharsets.UTF_8);
            int surrogate = unpairedSurrogate(value, utf8);
            if (surrogate >= 0) {
                throw new IllegalArgumentException("Cannot store the string \"" + value + "\": the unpaired "
                        + "surrogate U+" + Integer.toHexString(value.charAt(surrogate)).toUpperCase(Locale.ROOT)
                        + " at index " + surrogate + " has no UTF-8 form");
            }
            return addWellFormed(utf8, 0, utf8.length);
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
            Objects.checkFromIndexSize(offset, length, data.length);
            if (!isWellFormedUtf8(data, offset, offset + length)) {
                byte[] replaced = new String(data, offset, length, StandardCharsets.UTF_8)
                        .getBytes(StandardCharsets.UTF_8);
                return addWellFormed(replaced, 0, replaced.length);
            }
            return addWellFormed(data, offset, length);
        }

        /** Adds the value numbered {@code id} of {@code source} if new, copying its bytes. @return its id here */
        public int add(StringDictionary source, int id) {
            Objects.checkIndex(id, source.size);
            int from = source.offsets[id];
            return addWellFormed(source.bytes, from, source.offsets[id + 1] - from);
        }

        private int addWellFormed(byte[] data, int offset, int length) {
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

        /** The values added so far, copied: the builder can go on adding. */
        public StringDictionary build() {
            return new StringDictionary(Arrays.copyOf(bytes, offsets[size]), Arrays.copyOf(offsets, size + 1),
                    Arrays.copyOf(hashes, size), slots.clone(), size);
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
