package io.layoutbench.api.predicate;

import io.layoutbench.api.dataset.ColumnVector;
import io.layoutbench.api.dataset.StringDictionary;
import io.layoutbench.api.predicate.RowSets.Context;
import io.layoutbench.api.predicate.RowSets.IntList;
import io.layoutbench.api.predicate.RowSets.Rows;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;

/**
 * A test of a STRING column's values against constants, evaluated once per dictionary entry: equality and IN look
 * the constants up in the dictionary's hash index; ordering and LIKE run on each entry's UTF-8 bytes, decoding
 * nothing (see {@link LikePattern#matches(byte[], int, int)}).
 */
final class DictionaryFilter extends Filter {
    /**
     * Largest dictionary whose passing entries are listed for {@link Scans#intsIn}: counting them costs one step per
     * entry and call, small next to a scan of the rows when the dictionary is much smaller than the table (labels).
     */
    private static final int MAX_LISTED_DICTIONARY = 1 << 14;

    private final int column;
    private final EntryTest test;
    private final boolean negated;
    private final int slot;

    /** Sets {@code mask[id + 1]} to 1 for each dictionary entry {@code id} that passes, leaving the rest 0. */
    @FunctionalInterface
    interface EntryTest {
        void mark(StringDictionary dictionary, byte[] mask);
    }

    /**
     * The per-table mask: {@code mask[id + 1]} is 1 if entry id passes, 0 if not; {@code mask[0]} (NULL) 2. When at
     * most {@link Scans#maxInValues()} entries pass, {@code passing} lists them, so the rows are found by comparing
     * ids rather than by a lookup per row; else it is null.
     */
    private record Mask(byte[] mask, boolean anyPass, boolean anyFail, int[] passing) {
    }

    private DictionaryFilter(int column, EntryTest test, boolean negated, int slot) {
        this.column = column;
        this.test = test;
        this.negated = negated;
        this.slot = slot;
    }

    /** {@code column [NOT] IN (values)}; {@code column = value} is a one-value IN. */
    static DictionaryFilter in(int column, Collection<String> values, boolean negated, int slot) {
        List<String> constants = List.copyOf(values);
        return new DictionaryFilter(column, (dictionary, mask) -> {
            for (String value : constants) {
                int id = dictionary.idOf(value);
                if (id >= 0) {
                    mask[id + 1] = 1;
                }
            }
        }, negated, slot);
    }

    /** {@code column op constant} in the order of {@link String#compareTo}. */
    static DictionaryFilter compare(int column, ComparisonOperator op, String constant, int slot) {
        switch (op) {
            case EQUAL -> {
                return in(column, List.of(constant), false, slot);
            }
            case NOT_EQUAL -> {
                return in(column, List.of(constant), true, slot);
            }
            default -> {
                if (Scalars.hasSurrogate(constant)) {
                    // Its UTF-8 form may not exist (an unpaired surrogate); compare decoded strings instead.
                    return new DictionaryFilter(column, eachEntry((bytes, from, to) -> op.test(
                            new String(bytes, from, to - from, StandardCharsets.UTF_8).compareTo(constant))), false,
                            slot);
                }
                byte[] utf8 = constant.getBytes(StandardCharsets.UTF_8);
                return new DictionaryFilter(column, eachEntry((bytes, from, to) ->
                        op.test(Scalars.compareUtf8(bytes, from, to, utf8))), false, slot);
            }
        }
    }

    /** {@code column [NOT] LIKE pattern}. */
    static DictionaryFilter like(int column, LikePattern pattern, boolean negated, int slot) {
        if (pattern.isExact()) {
            return in(column, List.of(pattern.literalPrefix()), negated, slot);
        }
        return new DictionaryFilter(column, eachEntry(pattern::matches), negated, slot);
    }

    /** A test of every entry's UTF-8 bytes. */
    private static EntryTest eachEntry(StringDictionary.Utf8Predicate passes) {
        return (dictionary, mask) -> {
            for (int id = 0; id < dictionary.size(); id++) {
                mask[id + 1] = (byte) (dictionary.matches(id, passes) ? 1 : 0);
            }
        };
    }

    private Mask mask(Context ctx, StringDictionary dictionary) {
        Mask mask = (Mask) ctx.slots[slot];
        if (mask == null) {
            int size = dictionary.size();
            byte[] bytes = new byte[size + 1];
            test.mark(dictionary, bytes);
            if (negated) {
                for (int k = 1; k <= size; k++) {
                    bytes[k] ^= 1;
                }
            }
            bytes[0] = 2;
            boolean anyPass = false;
            boolean anyFail = false;
            for (int k = 1; k <= size && !(anyPass && anyFail); k++) {
                anyPass |= bytes[k] == 1;
                anyFail |= bytes[k] == 0;
            }
            mask = new Mask(bytes, anyPass, anyFail, size <= MAX_LISTED_DICTIONARY ? passing(bytes) : null);
            ctx.slots[slot] = mask;
        }
        return mask;
    }

    /** The entries that pass, if there are at most {@link Scans#maxInValues()}; else null. */
    private static int[] passing(byte[] mask) {
        int count = 0;
        for (int k = 1; k < mask.length; k++) {
            count += mask[k];
        }
        if (count > Scans.best().maxInValues()) {
            return null;
        }
        int[] passing = new int[count];
        for (int k = 1, i = 0; i < count; k++) {
            if (mask[k] == 1) {
                passing[i++] = k - 1;
            }
        }
        return passing;
    }

    @Override
    void select(Context ctx, Rows in, boolean want, IntList out) {
        ColumnVector.Strings data = (ColumnVector.Strings) ctx.table.column(column);
        Mask mask = mask(ctx, data.dictionary());
        if (want ? !mask.anyPass() : !mask.anyFail()) {
            return;
        }
        byte w = (byte) (want ? 1 : 0);
        byte[] m = mask.mask();
        int[] ids = data.ids();
        out.ensure(out.size + in.size);
        int[] o = out.values;
        int n = out.size;
        if (in.ids == null && want && mask.passing() != null) {
            n = Scans.best().intsIn(ids, in.start, in.start + in.size, mask.passing(), o, n);
        } else if (in.ids == null) {
            for (int r = in.start, end = in.start + in.size; r < end; r++) {
                if (m[ids[r] + 1] == w) {
                    o[n++] = r;
                }
            }
        } else {
            int[] selected = in.ids;
            for (int k = in.offset, end = in.offset + in.size; k < end; k++) {
                int r = selected[k];
                if (m[ids[r] + 1] == w) {
                    o[n++] = r;
                }
            }
        }
        out.size = n;
    }

    @Override
    int cost() {
        return 1;
    }
}
