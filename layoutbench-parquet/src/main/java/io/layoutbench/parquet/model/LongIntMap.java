package io.layoutbench.parquet.model;

import java.util.Arrays;

/**
 * An open-addressing map from {@code long} keys to dense ids {@code 0, 1, 2, ...} in order of first appearance: the
 * ids a Parquet dictionary gives its values. Not thread-safe.
 */
final class LongIntMap {

    private static final int EMPTY = -1;

    private long[] keys;
    private int[] ids;
    private int size;

    LongIntMap() {
        keys = new long[16];
        ids = new int[16];
        Arrays.fill(ids, EMPTY);
    }

    /** The id of {@code key}, giving it the next id if it is new. */
    int idOf(long key) {
        int slot = slot(key, keys.length);
        while (ids[slot] != EMPTY) {
            if (keys[slot] == key) {
                return ids[slot];
            }
            slot = (slot + 1) & (keys.length - 1);
        }
        keys[slot] = key;
        ids[slot] = size;
        size++;
        if (size * 2 > keys.length) {
            grow();
        }
        return size - 1;
    }

    /** Number of distinct keys. */
    int size() {
        return size;
    }

    private void grow() {
        long[] oldKeys = keys;
        int[] oldIds = ids;
        keys = new long[oldKeys.length * 2];
        ids = new int[oldIds.length * 2];
        Arrays.fill(ids, EMPTY);
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldIds[i] != EMPTY) {
                int slot = slot(oldKeys[i], keys.length);
                while (ids[slot] != EMPTY) {
                    slot = (slot + 1) & (keys.length - 1);
                }
                keys[slot] = oldKeys[i];
                ids[slot] = oldIds[i];
            }
        }
    }

    private static int slot(long key, int capacity) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 29)) & (capacity - 1);
    }
}
