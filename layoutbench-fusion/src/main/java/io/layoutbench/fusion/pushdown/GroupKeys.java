package io.layoutbench.fusion.pushdown;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.ColumnVector;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

import org.roaringbitmap.IntIterator;
import org.roaringbitmap.RoaringBitmap;

/**
 * The wire form of a group-key column's selected rows, as the node holding the key chunk sends it to the coordinator:
 * the distinct values of the selected rows (a dictionary, in order of first appearance, as {@link ProjectedValues}
 * encodes values, a NULL being an entry of its own), and per selected row its dictionary id, bit-packed in the
 * fewest bits that hold the largest id (none when every row has the same key). A key of seven values costs 3 bits a
 * row, against 1 to 4 bytes a row for its values; the coordinator needs nothing more to tell groups apart.
 *
 * <p>The same form, packed the same way, carries the coordinator's per-row group ids to the nodes that aggregate
 * ({@link #packIds}).
 */
final class GroupKeys {

    /** Bytes before the ids: selected rows, distinct values, bits per id. */
    private static final int HEADER_BYTES = 9;

    private GroupKeys() {
    }

    /**
     * The dictionary of a key and the id of each selected row.
     *
     * @param dictionary the distinct values (raw: a date as its day number, a DECIMAL as its unscaled integer)
     * @param ids        per selected row, in row order, its value's index in {@code dictionary}
     */
    record Decoded(ColumnVector dictionary, int[] ids) {
        Decoded {
            requireNonNull(dictionary, "dictionary is null");
            requireNonNull(ids, "ids is null");
        }
    }

    /** The rows of {@code values} in {@code rows}, as ids into their distinct values; {@code narrow}: 4-byte ints. */
    static ByteBuffer encode(ColumnVector values, RoaringBitmap rows, boolean narrow) {
        int count = rows.getCardinality();
        int[] ids = new int[count];
        Map<Object, Integer> seen = new HashMap<>();
        RoaringBitmap firstRows = new RoaringBitmap();
        int i = 0;
        for (IntIterator it = rows.getIntIterator(); it.hasNext(); i++) {
            int row = it.next();
            Object value = values.isNull(row) ? NullKey.NULL : values.get(row);
            Integer id = seen.get(value);
            if (id == null) {
                id = seen.size();
                seen.put(value, id);
                firstRows.add(row);
            }
            ids[i] = id;
        }
        ByteBuffer dictionary = ProjectedValues.encode(values, firstRows, narrow);
        int bits = bitsFor(seen.size());
        ByteBuffer out = ByteBuffer.allocate(HEADER_BYTES + packedBytes(count, bits) + dictionary.remaining());
        out.putInt(count).putInt(seen.size()).put((byte) bits);
        pack(ids, bits, out);
        return out.put(dictionary).flip();
    }

    /** What {@link #encode} wrote. */
    static Decoded decode(String column, ByteBuffer wire) {
        ByteBuffer in = wire.duplicate();
        int count = in.getInt();
        int distinct = in.getInt();
        int bits = in.get();
        int[] ids = unpack(in, count, bits);
        ColumnVector dictionary = ProjectedValues.decode(column, in.slice());
        if (dictionary.size() != distinct) {
            throw new IllegalArgumentException("Group keys of " + column + " announce " + distinct
                    + " distinct values but hold " + dictionary.size());
        }
        return new Decoded(dictionary, ids);
    }

    /** Bytes of {@code ids} (each below {@code groups}) packed as {@link #packIds} packs them. */
    static long packedIdBytes(int count, int groups) {
        return HEADER_BYTES + packedBytes(count, bitsFor(groups));
    }

    /** {@code ids}, each below {@code groups}, packed for the wire. */
    static ByteBuffer packIds(int[] ids, int groups) {
        int bits = bitsFor(groups);
        ByteBuffer out = ByteBuffer.allocate(HEADER_BYTES + packedBytes(ids.length, bits));
        out.putInt(ids.length).putInt(groups).put((byte) bits);
        pack(ids, bits, out);
        return out.flip();
    }

    /** What {@link #packIds} wrote. */
    static int[] unpackIds(ByteBuffer wire) {
        ByteBuffer in = wire.duplicate();
        int count = in.getInt();
        in.getInt();
        int bits = in.get();
        return unpack(in, count, bits);
    }

    /** Bits that hold the ids {@code 0 .. distinct - 1}: 0 for one value, 1 for two, 3 for seven. */
    static int bitsFor(int distinct) {
        return distinct <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(distinct - 1);
    }

    private static int packedBytes(int count, int bits) {
        return Math.toIntExact(((long) count * bits + 7) / 8);
    }

    private static void pack(int[] ids, int bits, ByteBuffer out) {
        long buffer = 0;
        int held = 0;
        for (int id : ids) {
            buffer |= (long) id << held;
            held += bits;
            while (held >= 8) {
                out.put((byte) buffer);
                buffer >>>= 8;
                held -= 8;
            }
        }
        if (held > 0) {
            out.put((byte) buffer);
        }
    }

    private static int[] unpack(ByteBuffer in, int count, int bits) {
        int[] ids = new int[count];
        long buffer = 0;
        int held = 0;
        int mask = bits == 0 ? 0 : (int) ((1L << bits) - 1);
        for (int i = 0; i < count; i++) {
            while (held < bits) {
                buffer |= (long) (in.get() & 0xff) << held;
                held += 8;
            }
            ids[i] = (int) buffer & mask;
            buffer >>>= bits;
            held -= bits;
        }
        return ids;
    }

    /** NULL as a key of its own (a map takes no null key in a way that reads clearly). */
    private enum NullKey { NULL }
}
