package io.layoutbench.loader;

import java.util.Arrays;

/**
 * The second level of the shuffle: a buffer of up to {@code capacity} items of a stream, from which a seeded
 * generator draws the next item to hand out, each draw refilled from the stream (as WebDataset's and tf.data's
 * shuffle buffers). Items are numbered by their position in the input stream.
 *
 * <p>The order depends only on the capacity, the seed and the input's length, never on the items, so a buffer can be
 * replayed on positions alone: {@link #replay} runs the first k draws without any data and gives the buffer a
 * resumed loader must rebuild (the positions it held, re-read) and where its input continues. That makes resume
 * exact at the price of re-reading at most {@code capacity} items.
 *
 * @param <T> the items
 */
final class ShuffleBuffer<T> {

    private final int capacity;
    private final long total;
    private final SplitMix64 random;
    private final long[] positions;
    private final Object[] items;
    private int size;
    private long nextInput;

    /** A buffer over an input of {@code total} items; {@code capacity} 0 or 1 hands items out in input order. */
    ShuffleBuffer(int capacity, long total, SplitMix64 random) {
        this.capacity = Math.max(1, capacity);
        this.total = total;
        this.random = random;
        // The buffer never holds more than the input: a large capacity over a small share allocates the share.
        int slots = (int) Math.max(1, Math.min(this.capacity, total));
        this.positions = new long[slots];
        this.items = new Object[slots];
    }

    /**
     * A buffer after its first {@code steps} draws, holding the positions (and no items) it would hold then, and
     * expecting input from {@link #nextInput()} on.
     */
    static <T> ShuffleBuffer<T> replay(int capacity, long total, SplitMix64 random, long steps) {
        if (steps < 0 || steps > total) {
            throw new IllegalArgumentException("Cannot resume after " + steps + " of " + total + " samples");
        }
        ShuffleBuffer<T> buffer = new ShuffleBuffer<>(capacity, total, random);
        for (long step = 0; step < steps; step++) {
            while (buffer.needsInput()) {
                buffer.add(buffer.nextInput, null);
            }
            buffer.takeSlot();
        }
        return buffer;
    }

    /** Whether the buffer takes another input item before the next draw. */
    boolean needsInput() {
        return size < capacity && nextInput < total;
    }

    /** The input position the buffer takes next. */
    long nextInput() {
        return nextInput;
    }

    /** Adds input item {@code position} (which must be {@link #nextInput()}). */
    void add(long position, T item) {
        if (position != nextInput || size == capacity) {
            throw new IllegalStateException("Expected input " + nextInput + " into a buffer of " + size + "/"
                    + capacity + ", got " + position);
        }
        positions[size] = position;
        items[size++] = item;
        nextInput++;
    }

    /** Whether a draw is possible: the buffer holds an item. */
    boolean hasItems() {
        return size > 0;
    }

    /** Draws the next item; call once {@link #needsInput()} is false. */
    @SuppressWarnings("unchecked")
    T take() {
        takeSlot();
        T item = (T) items[size];
        items[size] = null;
        if (item == null) {
            throw new IllegalStateException("Input position " + positions[size] + " was never filled");
        }
        return item;
    }

    /** Draws the next item's input position, without items (a replay of the order alone). */
    long takePosition() {
        takeSlot();
        return positions[size];
    }

    /** Draws a slot, moves its item past the end (at index {@code size}), and returns the slot. */
    private int takeSlot() {
        if (size == 0) {
            throw new IllegalStateException("The shuffle buffer is empty");
        }
        int slot = capacity == 1 ? 0 : random.nextInt(size);
        size--;
        long position = positions[slot];
        Object item = items[slot];
        positions[slot] = positions[size];
        items[slot] = items[size];
        positions[size] = position;
        items[size] = item;
        return slot;
    }

    /** The input positions held, in slot order (after a replay: the items to re-read). */
    long[] heldPositions() {
        return Arrays.copyOf(positions, size);
    }

    /** The slot of each held input position (after a replay), to {@link #fill} them. */
    java.util.Map<Long, Integer> slots() {
        java.util.Map<Long, Integer> slots = new java.util.HashMap<>(size * 2);
        for (int slot = 0; slot < size; slot++) {
            slots.put(positions[slot], slot);
        }
        return slots;
    }

    /** Fills slot {@code slot} (of {@link #slots()}) with {@code item}. */
    void fill(int slot, T item) {
        items[slot] = item;
    }
}
