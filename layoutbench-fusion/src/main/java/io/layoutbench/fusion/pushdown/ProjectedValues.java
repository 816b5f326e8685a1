package io.layoutbench.fusion.pushdown;

import io.layoutbench.parquet.ColumnValues;
import io.layoutbench.parquet.StringDictionary;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;

import org.roaringbitmap.IntIterator;
import org.roaringbitmap.RoaringBitmap;

/**
 * The wire form of a pushed-down projection: the selected values of one column chunk, uncompressed, as a storage
 * node sends them to the coordinator. Values are plain: 4 bytes for 32-bit integers and dates, 8 for 64-bit integers
 * and doubles, 1 for booleans, a 4-byte length and UTF-8 for strings; a chunk with NULLs among the selected rows
 * adds one byte per value. Decoding gives the values densely, row i of the result being the i-th selected row.
 */
final class ProjectedValues {

    private static final byte LONGS = 1;
    private static final byte INTS = 2;
    private static final byte DOUBLES = 3;
    private static final byte BOOLEANS = 4;
    private static final byte STRINGS = 5;

    private ProjectedValues() {
    }

    /** The rows of {@code values} in {@code rows}; {@code narrow} stores integers in 4 bytes (INT32, DATE). */
    static ByteBuffer encode(ColumnValues values, RoaringBitmap rows, boolean narrow) {
        int count = rows.getCardinality();
        boolean hasNulls = false;
        for (IntIterator it = rows.getIntIterator(); it.hasNext() && !hasNulls; ) {
            hasNulls = values.isNull(it.next());
        }
        long valueBytes;
        byte tag;
        if (values instanceof ColumnValues.Longs) {
            tag = narrow ? INTS : LONGS;
            valueBytes = (long) count * (narrow ? 4 : 8);
        } else if (values instanceof ColumnValues.Doubles) {
            tag = DOUBLES;
            valueBytes = (long) count * 8;
        } else if (values instanceof ColumnValues.Booleans) {
            tag = BOOLEANS;
            valueBytes = count;
        } else {
            tag = STRINGS;
            valueBytes = stringBytes((ColumnValues.Strings) values, rows);
        }
        ByteBuffer out = ByteBuffer.allocate(Math.toIntExact(6L + (hasNulls ? count : 0) + valueBytes));
        out.put(tag).put((byte) (hasNulls ? 1 : 0)).putInt(count);
        for (IntIterator it = rows.getIntIterator(); it.hasNext(); ) {
            int row = it.next();
            if (hasNulls) {
                out.put((byte) (values.isNull(row) ? 1 : 0));
            }
            switch (tag) {
                case INTS -> out.putInt((int) ((ColumnValues.Longs) values).values()[row]);
                case LONGS -> out.putLong(((ColumnValues.Longs) values).values()[row]);
                case DOUBLES -> out.putDouble(((ColumnValues.Doubles) values).values()[row]);
                case BOOLEANS -> out.put((byte) (((ColumnValues.Booleans) values).values()[row] ? 1 : 0));
                default -> {
                    ColumnValues.Strings strings = (ColumnValues.Strings) values;
                    int id = strings.ids()[row];
                    byte[] utf8 = id < 0 ? new byte[0]
                            : strings.dictionary().get(id).getBytes(StandardCharsets.UTF_8);
                    out.putInt(utf8.length).put(utf8);
                }
            }
        }
        return out.flip();
    }

    /** The values {@link #encode} wrote, densely, named {@code column}. */
    static ColumnValues decode(String column, ByteBuffer wire) {
        ByteBuffer in = wire.duplicate();
        byte tag = in.get();
        boolean hasNulls = in.get() == 1;
        int count = in.getInt();
        BitSet nulls = new BitSet();
        switch (tag) {
            case LONGS, INTS -> {
                long[] values = new long[count];
                for (int i = 0; i < count; i++) {
                    readNull(in, hasNulls, nulls, i);
                    values[i] = tag == INTS ? in.getInt() : in.getLong();
                }
                return new ColumnValues.Longs(column, values, nulls);
            }
            case DOUBLES -> {
                double[] values = new double[count];
                for (int i = 0; i < count; i++) {
                    readNull(in, hasNulls, nulls, i);
                    values[i] = in.getDouble();
                }
                return new ColumnValues.Doubles(column, values, nulls);
            }
            case BOOLEANS -> {
                boolean[] values = new boolean[count];
                for (int i = 0; i < count; i++) {
                    readNull(in, hasNulls, nulls, i);
                    values[i] = in.get() == 1;
                }
                return new ColumnValues.Booleans(column, values, nulls);
            }
            case STRINGS -> {
                StringDictionary.Builder dictionary = StringDictionary.builder();
                int[] ids = new int[count];
                for (int i = 0; i < count; i++) {
                    boolean isNull = readNull(in, hasNulls, nulls, i);
                    int length = in.getInt();
                    ids[i] = isNull ? -1 : dictionary.add(in.array(), in.arrayOffset() + in.position(), length);
                    in.position(in.position() + length);
                }
                return new ColumnValues.Strings(column, ids, dictionary.build());
            }
            default -> throw new IllegalArgumentException("Not a projection of " + column + ": unknown tag " + tag);
        }
    }

    private static boolean readNull(ByteBuffer in, boolean hasNulls, BitSet nulls, int i) {
        if (hasNulls && in.get() == 1) {
            nulls.set(i);
            return true;
        }
        return false;
    }

    private static long stringBytes(ColumnValues.Strings strings, RoaringBitmap rows) {
        long bytes = 0;
        int[] lengths = new int[strings.dictionary().size()];
        java.util.Arrays.fill(lengths, -1);
        for (IntIterator it = rows.getIntIterator(); it.hasNext(); ) {
            int id = strings.ids()[it.next()];
            if (id >= 0 && lengths[id] < 0) {
                lengths[id] = strings.dictionary().get(id).getBytes(StandardCharsets.UTF_8).length;
            }
            bytes += 4 + (id < 0 ? 0 : lengths[id]);
        }
        return bytes;
    }
}
