package io.layoutbench.api.predicate;

import io.layoutbench.api.predicate.RowSets.Context;
import io.layoutbench.api.predicate.RowSets.IntList;
import io.layoutbench.api.predicate.RowSets.Rows;

import java.util.function.Predicate;

/** A test of a STRING column's values, evaluated once per dictionary entry. */
final class DictionaryFilter extends Filter {
    private final int column;
    private final Predicate<String> test;
    private final int slot;

    /** The per-table mask: {@code mask[id + 1]} is 1 if entry id passes, 0 if not; {@code mask[0]} (NULL) 2. */
    private record Mask(byte[] mask, boolean anyPass, boolean anyFail) {
    }

    DictionaryFilter(int column, Predicate<String> test, int slot) {
        this.column = column;
        this.test = test;
        this.slot = slot;
    }

    private Mask mask(Context ctx, ColumnData.Strings data) {
        Mask mask = (Mask) ctx.slots[slot];
        if (mask == null) {
            String[] dictionary = data.dictionary;
            byte[] bytes = new byte[dictionary.length + 1];
            bytes[0] = 2;
            boolean anyPass = false;
            boolean anyFail = false;
            for (int id = 0; id < dictionary.length; id++) {
                boolean pass = test.test(dictionary[id]);
                bytes[id + 1] = (byte) (pass ? 1 : 0);
                anyPass |= pass;
                anyFail |= !pass;
            }
            mask = new Mask(bytes, anyPass, anyFail);
            ctx.slots[slot] = mask;
        }
        return mask;
    }

    @Override
    void select(Context ctx, Rows in, boolean want, IntList out) {
        ColumnData.Strings data = (ColumnData.Strings) ctx.table.data(column);
        Mask mask = mask(ctx, data);
        if (want ? !mask.anyPass() : !mask.anyFail()) {
            return;
        }
        byte w = (byte) (want ? 1 : 0);
        byte[] m = mask.mask();
        int[] ids = data.ids;
        out.ensure(out.size + in.size);
        int[] o = out.values;
        int n = out.size;
        if (in.ids == null) {
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
