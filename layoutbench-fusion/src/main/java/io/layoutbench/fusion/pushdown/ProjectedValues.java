package io.layoutbench.fusion.pushdown;

import io.layoutbench.api.dataset.ColumnVector;
import io.layoutbench.api.dataset.ColumnVectorBuilder;

import java.nio.ByteBuffer;

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
    static ByteBuffer encode(ColumnVector values, RoaringBitmap rows, boolean narrow) {
        int count = rows.getCardinality();
        boolean hasNulls = false;
        for (IntIterator it = rows.getIntIterator(); it.hasNext() && !hasNulls; ) {
            hasNulls = values.isNull(it.next());
        }
        long valueBytes;
        byte tag;
        if (values instanceof ColumnVector.Longs) {
            tag = narrow ? INTS : LONGS;
            valueBytes = (long) count * (narrow ? 4 : 8);
        } else if (values instanceof ColumnVector.Doubles) {
            tag = DOUBLES;
            valueBytes = (long) count * 8;
        } else if (values instanceof ColumnVector.Booleans) {
            tag = BOOLEANS;
            valueBytes = count;
        } else {
            tag = STRINGS;
            valueBytes = stringBytes((ColumnVector.Strings) values, rows);
        }
        ByteBuffer out = ByteBuffer.allocate(Math.toIntExact(6L + (hasNulls ? count : 0) + valueBytes));
        out.put(tag).put((byte) (hasNulls ? 1 : 0)).putInt(count);
        for (IntIterator it = rows.getIntIterator(); it.hasNext(); ) {
            int row = it.next();
            if (hasNulls) {
                out.put((byte) (values.isNull(row) ? 1 : 0));
            }
            switch (tag) {
                case INTS -> out.putInt((int) ((ColumnVector.Longs) values).values()[row]);
                case LONGS -> out.putLong(((ColumnVector.Longs) values).values()[row]);
                case DOUBLES -> out.putDouble(((ColumnVector.Doubles) values).values()[row]);
                case BOOLEANS -> out.put((byte) (((ColumnVector.Booleans) values).values()[row] ? 1 : 0));
                default -> {
                    ColumnVector.Strings strings = (ColumnVector.Strings) values;
                    int id = strings.ids()[row];
                    if (id < 0) {
                        out.putInt(0);
                    } else {
                        out.putInt(strings.dictionary().utf8Length(id)).put(strings.dictionary().utf8(id));
                    }
                }
            }
        }
        return out.flip();
    }

    /** The values {@link #encode} wrote, densely: row i is the i-th selected row. */
    static ColumnVector decode(String column, ByteBuffer wire) {
        ByteBuffer in = wire.duplicate();
        byte tag = in.get();
        boolean hasNulls = in.get() == 1;
        int count = in.getInt();
        ColumnVectorBuilder values = switch (tag) {
            case LONGS, INTS -> ColumnVectorBuilder.longs(count);
            case DOUBLES -> ColumnVectorBuilder.doubles(count);
            case BOOLEANS -> ColumnVectorBuilder.booleans(count);
            case STRINGS -> ColumnVectorBuilder.strings(count);
            default -> throw new IllegalArgumentException("Not a projection of " + column + ": unknown tag " + tag);
        };
        for (int i = 0; i < count; i++) {
            boolean isNull = hasNulls && in.get() == 1;
            // A NULL has a value on the wire too (0, false or the empty string): read past it.
            switch (tag) {
                case INTS -> append((ColumnVectorBuilder.Longs) values, isNull, in.getInt());
                case LONGS -> append((ColumnVectorBuilder.Longs) values, isNull, in.getLong());
                case DOUBLES -> {
                    double value = in.getDouble();
                    if (isNull) {
                        values.appendNull();
                    } else {
                        ((ColumnVectorBuilder.Doubles) values).append(value);
                    }
                }
                case BOOLEANS -> {
                    boolean value = in.get() == 1;
                    if (isNull) {
                        values.appendNull();
                    } else {
                        ((ColumnVectorBuilder.Booleans) values).append(value);
                    }
                }
                default -> {
                    int length = in.getInt();
                    if (isNull) {
                        values.appendNull();
                    } else {
                        ((ColumnVectorBuilder.Strings) values).append(in.array(), in.arrayOffset() + in.position(),
                                length);
                    }
                    in.position(in.position() + length);
                }
            }
        }
        return values.build();
    }

    private static void append(ColumnVectorBuilder.Longs values, boolean isNull, long value) {
        if (isNull) {
            values.appendNull();
        } else {
            values.append(value);
        }
    }

    private static long stringBytes(ColumnVector.Strings strings, RoaringBitmap rows) {
        long bytes = 0;
        for (IntIterator it = rows.getIntIterator(); it.hasNext(); ) {
            int id = strings.ids()[it.next()];
            bytes += 4 + (id < 0 ? 0 : strings.dictionary().utf8Length(id));
        }
        return bytes;
    }
}
