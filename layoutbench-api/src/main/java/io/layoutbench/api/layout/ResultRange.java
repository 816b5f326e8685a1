package io.layoutbench.api.layout;

import java.util.List;

/**
 * Positions {@code [from, to)} of a query's result: the result's samples are numbered 0 to n - 1 in dataset order,
 * the order a plain query returns them. A loader splits a result into ranges and reads each rank's own
 * ({@link PreparedQuery#read(List)}).
 *
 * <pre>{@code
 * ResultRange firstHundred = new ResultRange(0, 100);
 * try (SampleStream samples = prepared.read(List.of(firstHundred))) { ... }
 * }</pre>
 *
 * @param from the first position, at least 0
 * @param to   one past the last position, more than {@code from}
 */
public record ResultRange(long from, long to) {

    public ResultRange {
        if (from < 0 || to <= from) {
            throw new IllegalArgumentException("A result range needs 0 <= from < to, got [" + from + ", " + to + ")");
        }
    }

    /** Positions in the range. */
    public long size() {
        return to - from;
    }

    /**
     * Checks that {@code ranges} are ascending, apart and within a result of {@code samples} samples.
     *
     * @throws IllegalArgumentException naming the first range out of order, overlapping, or past the end
     */
    public static List<ResultRange> checkSorted(List<ResultRange> ranges, long samples) {
        List<ResultRange> copy = List.copyOf(ranges);
        long end = 0;
        for (int i = 0; i < copy.size(); i++) {
            ResultRange range = copy.get(i);
            if (range.from < end) {
                throw new IllegalArgumentException("Result ranges must be ascending and apart: range " + i + " "
                        + range + " starts before " + end);
            }
            if (range.to > samples) {
                throw new IllegalArgumentException("Result range " + i + " " + range + " ends past the result's "
                        + samples + " samples");
            }
            end = range.to;
        }
        return copy;
    }

    /**
     * {@code ranges} (apart, in any order) sorted by position, neighbours joined: the ranges one reader of the same
     * samples in dataset order reads.
     */
    public static List<ResultRange> sortedAndJoined(java.util.Collection<ResultRange> ranges) {
        List<ResultRange> sorted = new java.util.ArrayList<>(ranges);
        sorted.sort(java.util.Comparator.comparingLong(ResultRange::from));
        List<ResultRange> joined = new java.util.ArrayList<>(sorted.size());
        for (ResultRange range : sorted) {
            ResultRange last = joined.isEmpty() ? null : joined.get(joined.size() - 1);
            if (last != null && last.to == range.from) {
                joined.set(joined.size() - 1, new ResultRange(last.from, range.to));
            } else {
                joined.add(range);
            }
        }
        return joined;
    }

    @Override
    public String toString() {
        return "[" + from + ", " + to + ")";
    }
}
