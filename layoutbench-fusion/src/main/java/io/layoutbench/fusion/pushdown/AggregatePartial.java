package io.layoutbench.fusion.pushdown;

import io.layoutbench.api.dataset.ColumnVector;

import java.math.BigInteger;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.roaringbitmap.IntIterator;
import org.roaringbitmap.RoaringBitmap;

/**
 * What a storage node returns for an aggregate pushed down to one column chunk, per group with GROUP BY: the count of
 * non-NULL selected values, their sum, minimum and maximum. Partials of all chunks merge into the aggregate. Integer
 * sums (BIGINT, and a DECIMAL's unscaled integers) are exact: a sum that leaves 64 bits carries into a
 * {@link BigInteger}, as DuckDB sums into 128 bits; double sums are added in row order within a chunk, chunk after
 * chunk.
 */
final class AggregatePartial {

    /**
     * Bytes a partial of numbers takes on the wire ({@link #encode}): count, double and 64-bit sums of 8 bytes each,
     * 4 for what the sum carried (none), and the minimum and maximum of a type byte and 8 bytes each.
     */
    static final int WIRE_BYTES = 46;

    private static final byte NONE = 0;
    private static final byte LONG = 1;
    private static final byte DOUBLE = 2;
    private static final byte BOOLEAN = 3;
    private static final byte STRING = 4;

    long count;
    long longSum;
    /** What the sum carried past 64 bits, or null. */
    BigInteger carry;
    double doubleSum;
    Comparable<Object> min;
    Comparable<Object> max;

    /** The partial of the rows of {@code values} in {@code rows}. */
    static AggregatePartial of(ColumnVector values, RoaringBitmap rows) {
        AggregatePartial partial = new AggregatePartial();
        for (IntIterator it = rows.getIntIterator(); it.hasNext(); ) {
            partial.add(values, it.next());
        }
        return partial;
    }

    /**
     * One partial per group of the rows of {@code values} in {@code rows}: the i-th selected row is in group
     * {@code groups[i]}, of {@code groupCount}.
     */
    static AggregatePartial[] ofGroups(ColumnVector values, RoaringBitmap rows, int[] groups, int groupCount) {
        AggregatePartial[] partials = new AggregatePartial[groupCount];
        for (int g = 0; g < groupCount; g++) {
            partials[g] = new AggregatePartial();
        }
        int i = 0;
        for (IntIterator it = rows.getIntIterator(); it.hasNext(); i++) {
            partials[groups[i]].add(values, it.next());
        }
        return partials;
    }

    /**
     * The partials as a node sends them: their number, then per partial its count and, if it counted a value, the
     * double and the 64-bit sums, what the sum carried (length and two's-complement bytes, 0 for none), and the
     * minimum and maximum, each a type byte and the value (8 bytes; 1 for a boolean; length and UTF-8 for a string).
     */
    static ByteBuffer encode(AggregatePartial... partials) {
        int bytes = 4;
        for (AggregatePartial p : partials) {
            bytes += 8;
            if (p.count > 0) {
                bytes += 8 + 8 + 4 + (p.carry == null ? 0 : p.carry.toByteArray().length)
                        + valueBytes(p.min) + valueBytes(p.max);
            }
        }
        ByteBuffer out = ByteBuffer.allocate(bytes).putInt(partials.length);
        for (AggregatePartial p : partials) {
            out.putLong(p.count);
            if (p.count > 0) {
                out.putDouble(p.doubleSum).putLong(p.longSum);
                byte[] carry = p.carry == null ? new byte[0] : p.carry.toByteArray();
                out.putInt(carry.length).put(carry);
                putValue(out, p.min);
                putValue(out, p.max);
            }
        }
        return out.flip();
    }

    /**
     * What {@link #encode} wrote.
     *
     * @throws IllegalArgumentException if {@code wire} is not that
     */
    static AggregatePartial[] decode(ByteBuffer wire) {
        ByteBuffer in = wire.duplicate();
        try {
            int count = in.getInt();
            if (count < 0 || count > in.remaining() / 8) {
                throw new IllegalArgumentException("Malformed aggregate partials: " + count + " announced in "
                        + wire.remaining() + " bytes");
            }
            AggregatePartial[] partials = new AggregatePartial[count];
            for (int i = 0; i < count; i++) {
                AggregatePartial p = new AggregatePartial();
                p.count = in.getLong();
                if (p.count > 0) {
                    p.doubleSum = in.getDouble();
                    p.longSum = in.getLong();
                    byte[] carry = new byte[checkedLength(in)];
                    in.get(carry);
                    p.carry = carry.length == 0 ? null : new BigInteger(carry);
                    p.min = getValue(in);
                    p.max = getValue(in);
                }
                partials[i] = p;
            }
            if (in.hasRemaining()) {
                throw new IllegalArgumentException("Malformed aggregate partials: " + in.remaining()
                        + " bytes after the last");
            }
            return partials;
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("Malformed aggregate partials: cut short at " + wire.remaining()
                    + " bytes", e);
        }
    }

    private static int valueBytes(Object value) {
        if (value instanceof String s) {
            return 1 + 4 + s.getBytes(StandardCharsets.UTF_8).length;
        }
        return value instanceof Boolean ? 2 : value == null ? 1 : 9;
    }

    private static void putValue(ByteBuffer out, Object value) {
        if (value == null) {
            out.put(NONE);
        } else if (value instanceof Long l) {
            out.put(LONG).putLong(l);
        } else if (value instanceof Double d) {
            out.put(DOUBLE).putDouble(d);
        } else if (value instanceof Boolean b) {
            out.put(BOOLEAN).put((byte) (b ? 1 : 0));
        } else {
            byte[] utf8 = ((String) value).getBytes(StandardCharsets.UTF_8);
            out.put(STRING).putInt(utf8.length).put(utf8);
        }
    }

    @SuppressWarnings("unchecked")
    private static Comparable<Object> getValue(ByteBuffer in) {
        byte type = in.get();
        Object value = switch (type) {
            case NONE -> null;
            case LONG -> in.getLong();
            case DOUBLE -> in.getDouble();
            case BOOLEAN -> in.get() != 0;
            case STRING -> {
                byte[] utf8 = new byte[checkedLength(in)];
                in.get(utf8);
                yield new String(utf8, StandardCharsets.UTF_8);
            }
            default -> throw new IllegalArgumentException("Malformed aggregate partials: value type " + type);
        };
        return (Comparable<Object>) value;
    }

    private static int checkedLength(ByteBuffer in) {
        int length = in.getInt();
        if (length < 0 || length > in.remaining()) {
            throw new BufferUnderflowException();
        }
        return length;
    }

    private void add(ColumnVector values, int row) {
        if (values.isNull(row)) {
            return;
        }
        count++;
        if (values instanceof ColumnVector.Longs l) {
            long v = l.values()[row];
            addExact(v);
            doubleSum += v;
            offer(v);
        } else if (values instanceof ColumnVector.Doubles d) {
            doubleSum += d.values()[row];
            offer(d.values()[row]);
        } else if (values instanceof ColumnVector.Booleans b) {
            offer(b.values()[row]);
        } else {
            ColumnVector.Strings s = (ColumnVector.Strings) values;
            offer(s.dictionary().get(s.ids()[row]));
        }
    }

    private void addExact(long v) {
        long sum = longSum + v;
        if (((longSum ^ sum) & (v ^ sum)) < 0) {   // overflow (Math.addExact's test): carry the 64-bit sum
            carry = (carry == null ? BigInteger.ZERO : carry).add(BigInteger.valueOf(longSum));
            sum = v;
        }
        longSum = sum;
    }

    /** The exact integer sum. */
    BigInteger exactSum() {
        BigInteger sum = BigInteger.valueOf(longSum);
        return carry == null ? sum : sum.add(carry);
    }

    @SuppressWarnings("unchecked")
    private void offer(Object value) {
        Comparable<Object> v = (Comparable<Object>) value;
        if (min == null || v.compareTo(min) < 0) {
            min = v;
        }
        if (max == null || v.compareTo(max) > 0) {
            max = v;
        }
    }

    void merge(AggregatePartial other) {
        count += other.count;
        addExact(other.longSum);
        if (other.carry != null) {
            carry = (carry == null ? BigInteger.ZERO : carry).add(other.carry);
        }
        doubleSum += other.doubleSum;
        if (other.min != null) {
            offer(other.min);
            offer(other.max);
        }
    }
}
