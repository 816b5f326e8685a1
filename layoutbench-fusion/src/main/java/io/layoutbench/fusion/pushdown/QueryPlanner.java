package io.layoutbench.fusion.pushdown;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.predicate.And;
import io.layoutbench.api.predicate.Cast;
import io.layoutbench.api.predicate.ColumnRef;
import io.layoutbench.api.predicate.Comparison;
import io.layoutbench.api.predicate.ComparisonOperator;
import io.layoutbench.api.predicate.Expression;
import io.layoutbench.api.predicate.In;
import io.layoutbench.api.predicate.IsNull;
import io.layoutbench.api.predicate.Like;
import io.layoutbench.api.predicate.Literal;
import io.layoutbench.api.predicate.Not;
import io.layoutbench.api.predicate.Or;
import io.layoutbench.parquet.ColumnChunkInfo;
import io.layoutbench.parquet.ColumnStats;
import io.layoutbench.parquet.RowGroupInfo;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.ToIntFunction;

/**
 * Chooses, per query and before it runs, between Fusion's pushdown plan (a filter round on the nodes, then
 * projections pushed or fetched per the {@link CostEquation}) and the fetch plan (every needed chunk fetched whole
 * and compressed, everything evaluated at the coordinator), by pricing both with the same model the engine reports
 * latency with: one RPC per round, the bytes over the links of the {@link ClusterModel}, and the work of decoding and
 * evaluating each chunk where it happens (on the node holding it, in parallel with other nodes, or at the
 * coordinator, one chunk after another).
 *
 * <p>Selectivity is not known before the filter round, so it is estimated per row group from the footer: min and
 * max of each filtered column, interpolated (integers and dates as the integers in between, strings on their bytes
 * after the prefix min and max share), equality as one of the distinct values (the integer range, or the entries a
 * dictionary page holds), AND as a product across columns and an intersection of ranges on one column, OR as a
 * union of independent terms, and one third for what it cannot read (terms on several columns, LIKE without a
 * prefix). The work per chunk is a rough model, {@value #VALUE_NANOS} ns a
 * value plus {@value #BYTE_NANOS} ns a decoded byte; both plans do the same decoding but for the chunks Fusion's
 * plan decodes twice (on a node to filter, at the coordinator after fetching the projection), so the model mostly
 * decides where the work runs, not how long it takes.
 *
 * <p>Not thread-safe; one planner serves one query.
 */
final class QueryPlanner {

    /** Modelled work of decoding and evaluating one value of a chunk, or appending one selected value. */
    static final long VALUE_NANOS = 10;
    /** Modelled work per decoded byte of a chunk. */
    static final long BYTE_NANOS = 1;
    /** Selectivity assumed for a term the footer says nothing about (System R's guess for a range). */
    static final double UNKNOWN_SELECTIVITY = 1.0 / 3;
    /**
     * How much faster the pushdown plan must be estimated to be chosen. The fetch plan is the baseline's own
     * algorithm on the same bytes, so it cannot lose to the baseline by more than noise; pushdown's estimate comes
     * from footer statistics and a rough work model. Plans estimated within this of each other measure either way
     * ({@code l_orderkey}: pushdown 37.88 ms against fetch 37.99 ms estimated, 8% slower than the baseline measured,
     * docs/FUSION.md), while the pushdown plans that pay are estimated 3-10 times faster.
     */
    static final double PUSHDOWN_MARGIN = 0.10;
    private static final int REQUEST_BYTES = 64;
    private static final int PARTIAL_BYTES = AggregatePartial.WIRE_BYTES;

    private final ObjectColumns columns;
    private final ClusterModel network;
    private final int nodeCount;
    private final ToIntFunction<ColumnChunkInfo> homeNode;

    /**
     * @param homeNode the node holding (most of) a chunk, from the chunk location map
     */
    QueryPlanner(ObjectColumns columns, ClusterModel network, int nodeCount, ToIntFunction<ColumnChunkInfo> homeNode) {
        this.columns = requireNonNull(columns, "columns is null");
        this.network = requireNonNull(network, "network is null");
        this.nodeCount = nodeCount;
        this.homeNode = requireNonNull(homeNode, "homeNode is null");
    }

    /**
     * Prices both plans for the row groups left after pruning and picks pushdown only when it is estimated at least
     * {@link #PUSHDOWN_MARGIN} faster; otherwise the fetch plan, the simpler one (it is the same plan when there is no
     * filter and nothing would be pushed).
     *
     * @param groups     row groups not pruned by footer statistics
     * @param predicate  the bound WHERE clause ({@code TRUE} when there is none)
     * @param projected  columns the query returns
     * @param aggregated columns the query aggregates ({@code COUNT(*)} needs none)
     * @param pushAll    whether projections are pushed whatever the cost equation says ({@link PushdownMode#PUSH_ALL})
     */
    QueryPlan choose(List<RowGroupInfo> groups, Expression predicate, List<String> projected, List<String> aggregated,
            boolean pushAll) {
        return choose(groups, predicate, projected, aggregated, List.of(), pushAll);
    }

    /**
     * As {@link #choose(List, Expression, List, List, boolean)}, for a query with GROUP BY {@code keys}: the pushdown
     * plan then has a key round (each key's distinct values and bit-packed ids of the selected rows, or its chunk
     * when that is smaller) and its aggregates return a partial per group, sent the rows' group ids.
     */
    QueryPlan choose(List<RowGroupInfo> groups, Expression predicate, List<String> projected, List<String> aggregated,
            List<String> keys, boolean pushAll) {
        Terms terms = Terms.of(predicate);
        Cost pushdown = new Cost();
        Cost fetch = new Cost();
        double rows = 0;
        double selected = 0;
        Set<String> fetchedAnyway = new LinkedHashSet<>();
        for (RowGroupInfo group : groups) {
            double n = group.rowCount();
            Map<String, Double> perColumn = new LinkedHashMap<>();
            terms.perColumn().forEach((column, list) -> perColumn.put(column, conjunction(list, group)));
            double s = perColumn.values().stream().reduce(1.0, (a, b) -> a * b);
            for (Expression term : terms.atCoordinator()) {
                s *= estimate(term, group);
            }
            rows += n;
            selected += s * n;
            pricePushdown(pushdown, group, terms, perColumn, s, projected, aggregated, keys, pushAll, fetchedAnyway);
            List<String> needed = new ArrayList<>(keys);
            needed.addAll(projected);
            priceFetch(fetch, group, terms, s, needed, aggregated);
        }
        pushdown.close();
        fetch.close();
        long a = pushdown.nanos;
        long b = fetch.nanos;
        QueryPlan.Kind kind = pick(a, b);
        String why = fetchedAnyway.isEmpty() ? "" : "; filtered and projected, but fetched anyway: "
                + String.join(", ", fetchedAnyway);
        String reason = String.format(Locale.ROOT, "estimated fetch %.2f ms (%d %s, %.2f MB) %s pushdown %.2f ms "
                + "(%d %s, %.2f MB) at selectivity %.2f%%%s", b / 1e6, fetch.rounds, rounds(fetch.rounds),
                fetch.bytes / 1e6, kind == QueryPlan.Kind.PUSHDOWN ? ">" : b <= a ? "<=" : "near", a / 1e6,
                pushdown.rounds, rounds(pushdown.rounds), pushdown.bytes / 1e6, rows == 0 ? 0 : 100 * selected / rows,
                why);
        return new QueryPlan(kind, Duration.ofNanos(a), Duration.ofNanos(b), reason);
    }

    /** Pushdown when its estimate is at least {@link #PUSHDOWN_MARGIN} below the fetch plan's, else fetch. */
    static QueryPlan.Kind pick(long pushdownNanos, long fetchNanos) {
        return pushdownNanos < fetchNanos * (1 - PUSHDOWN_MARGIN) ? QueryPlan.Kind.PUSHDOWN : QueryPlan.Kind.FETCH;
    }

    private static String rounds(int rounds) {
        return rounds == 1 ? "round" : "rounds";
    }

    /** Fusion's plan, as {@code PushdownEngine} runs it: filter round, then projection round. */
    private void pricePushdown(Cost cost, RowGroupInfo group, Terms terms, Map<String, Double> perColumn, double s,
            List<String> projected, List<String> aggregated, List<String> keys, boolean pushAll,
            Set<String> fetchedAnyway) {
        Set<String> onCoordinator = terms.coordinatorColumns();
        Set<String> decodedOnNodes = new LinkedHashSet<>();
        for (Map.Entry<String, Double> column : perColumn.entrySet()) {
            ColumnChunkInfo chunk = group.column(column.getKey());
            int node = homeNode.applyAsInt(chunk);
            cost.filter.busy[node] += work(chunk);
            cost.filter.in[node] += REQUEST_BYTES;
            cost.filter.out[node] += bitmapBytes(column.getValue(), group.rowCount());
            cost.filter.rpcs++;
            decodedOnNodes.add(column.getKey());
        }
        for (String column : onCoordinator) {
            fetch(cost.filter, group.column(column));
        }
        long bitmap = bitmapBytes(s, group.rowCount());
        double values = s * group.rowCount();
        long selectedRows = (long) Math.ceil(values);
        long groups = 1;
        for (String column : keys) {
            ColumnChunkInfo chunk = group.column(column);
            groups = Math.min(Math.max(1, selectedRows), groups * estimatedDistinct(chunk));
            long reply = groupKeyBytes(chunk, selectedRows);
            if (onCoordinator.contains(column)) {
                cost.keys.coordinatorNanos += (long) (VALUE_NANOS * values);
            } else if (pushAll || REQUEST_BYTES + bitmap + reply < chunk.byteRange().length()) {
                int node = homeNode.applyAsInt(chunk);
                cost.keys.busy[node] += (decodedOnNodes.contains(column) ? 0 : work(chunk))
                        + (long) (VALUE_NANOS * values);
                cost.keys.in[node] += REQUEST_BYTES + bitmap;
                cost.keys.out[node] += reply;
                cost.keys.rpcs++;
                cost.keys.coordinatorNanos += (long) (VALUE_NANOS * values);
                decodedOnNodes.add(column);
            } else {
                fetch(cost.keys, chunk);
                onCoordinator.add(column);
            }
        }
        long groupIds = keys.isEmpty() ? 0 : GroupKeys.packedIdBytes((int) Math.min(Integer.MAX_VALUE, selectedRows),
                (int) groups);
        for (String column : projected) {
            ColumnChunkInfo chunk = group.column(column);
            if (onCoordinator.contains(column)) {
                cost.project.coordinatorNanos += (long) (VALUE_NANOS * values);
            } else if (pushAll || CostEquation.pushesProjection(Math.min(1, s), chunk.compressibility())) {
                int node = homeNode.applyAsInt(chunk);
                cost.project.busy[node] += (decodedOnNodes.contains(column) ? 0 : work(chunk))
                        + (long) (VALUE_NANOS * values);
                cost.project.in[node] += REQUEST_BYTES + bitmap;
                cost.project.out[node] += (long) (s * chunk.decodedSize());
                cost.project.rpcs++;
                cost.project.coordinatorNanos += (long) (VALUE_NANOS * values);
            } else {
                fetch(cost.project, chunk);
                cost.project.coordinatorNanos += (long) (VALUE_NANOS * values);
                if (decodedOnNodes.contains(column)) {
                    fetchedAnyway.add(column);
                }
                onCoordinator.add(column);
            }
        }
        for (String column : aggregated) {
            ColumnChunkInfo chunk = group.column(column);
            if (onCoordinator.contains(column)) {
                cost.project.coordinatorNanos += (long) (VALUE_NANOS * values);
                continue;
            }
            int node = homeNode.applyAsInt(chunk);
            cost.project.busy[node] += (decodedOnNodes.contains(column) ? 0 : work(chunk))
                    + (long) (VALUE_NANOS * values);
            cost.project.in[node] += REQUEST_BYTES + bitmap + groupIds;
            cost.project.out[node] += PARTIAL_BYTES * groups;
            cost.project.rpcs++;
            decodedOnNodes.add(column);
        }
    }

    /** The fetch plan, as the baseline runs it: predicate columns fetched first, then the other needed columns. */
    private void priceFetch(Cost cost, RowGroupInfo group, Terms terms, double s, List<String> projected,
            List<String> aggregated) {
        Set<String> fetched = new LinkedHashSet<>(terms.columns());
        for (String column : fetched) {
            fetch(cost.filter, group.column(column));
        }
        double values = s * group.rowCount();
        List<String> needed = new ArrayList<>(projected);
        needed.addAll(aggregated);
        for (String column : needed) {
            if (fetched.add(column)) {
                fetch(cost.project, group.column(column));
            }
            cost.project.coordinatorNanos += (long) (VALUE_NANOS * values);
        }
    }

    private void fetch(Stage stage, ColumnChunkInfo chunk) {
        stage.out[homeNode.applyAsInt(chunk)] += chunk.byteRange().length();
        stage.coordinatorNanos += work(chunk);
        stage.rpcs++;
    }

    /**
     * Estimated bytes of a group-key reply ({@link GroupKeys}) for {@code selectedRows} rows of {@code chunk}: the
     * ids bit-packed for the distinct values the chunk is estimated to hold, and those values.
     */
    static long groupKeyBytes(ColumnChunkInfo chunk, long selectedRows) {
        long distinct = Math.max(1, Math.min(selectedRows, estimatedDistinct(chunk)));
        long width = Math.max(1, chunk.decodedSize() / Math.max(1, chunk.valueCount()));
        return GroupKeys.packedIdBytes((int) Math.min(Integer.MAX_VALUE, selectedRows), (int) Math.min(
                Integer.MAX_VALUE, distinct)) + 6 + distinct * width;
    }

    /** Distinct values of a chunk, estimated as {@link #distinct} does without its statistics' bounds. */
    static long estimatedDistinct(ColumnChunkInfo chunk) {
        return distinct(chunk, null);
    }

    /** Modelled nanoseconds to decode a chunk and evaluate a term on it. */
    static long work(ColumnChunkInfo chunk) {
        return VALUE_NANOS * chunk.valueCount() + BYTE_NANOS * chunk.decodedSize();
    }

    /**
     * Bytes of a run-optimized Roaring bitmap selecting a fraction of {@code rows} spread evenly: per container of
     * 65,536 rows an array of 2 bytes a row, or a bitmap of 8 KiB, whichever is smaller (runs only make it smaller).
     */
    static long bitmapBytes(double selectivity, long rows) {
        long containers = (rows + 65_535) / 65_536;
        double perContainer = Math.min(2 * Math.min(1, selectivity) * Math.min(rows, 65_536), 8192);
        return 8 + containers * (8 + (long) Math.ceil(perContainer));
    }

    // ---- selectivity

    /** Estimated fraction of {@code group}'s rows for which {@code term} holds, in [0, 1]. */
    double estimate(Expression term, RowGroupInfo group) {
        double s;
        if (term instanceof And and) {
            s = conjunction(and.operands(), group);
        } else if (term instanceof Or or) {
            s = 1 - or.operands().stream().mapToDouble(t -> 1 - estimate(t, group)).reduce(1, (a, b) -> a * b);
        } else if (term instanceof Not not) {
            s = 1 - estimate(not.operand(), group);
        } else if (term instanceof Comparison c) {
            s = comparison(c, group);
        } else if (term instanceof In in) {
            s = in(in, group);
        } else if (term instanceof Like like) {
            s = like(like, group);
        } else if (term instanceof IsNull isNull) {
            s = isNull(isNull, group);
        } else if (term instanceof Literal literal) {
            s = Boolean.TRUE.equals(literal.value()) ? 1 : 0;
        } else {
            s = UNKNOWN_SELECTIVITY;
        }
        return Math.max(0, Math.min(1, s));
    }

    /**
     * Terms ANDed: independent across columns (a product), but ranges on one column intersect (a >= lo AND a < hi
     * is P(a < hi) - P(a < lo), that is the sum of the two minus one).
     */
    private double conjunction(List<Expression> terms, RowGroupInfo group) {
        Map<String, List<Double>> ranges = new LinkedHashMap<>();
        double s = 1;
        for (Expression term : terms) {
            Optional<String> column = term instanceof Comparison c && isRange(c.operator())
                    && (c.left() instanceof Literal || c.right() instanceof Literal)
                    ? column(c.left()).or(() -> column(c.right())) : Optional.empty();
            if (column.isPresent()) {
                ranges.computeIfAbsent(column.get(), k -> new ArrayList<>()).add(estimate(term, group));
            } else {
                s *= estimate(term, group);
            }
        }
        for (List<Double> onColumn : ranges.values()) {
            double sum = onColumn.stream().mapToDouble(Double::doubleValue).sum();
            s *= Math.max(0, sum - (onColumn.size() - 1));
        }
        return s;
    }

    private static boolean isRange(ComparisonOperator operator) {
        return operator != ComparisonOperator.EQUAL && operator != ComparisonOperator.NOT_EQUAL;
    }

    private double comparison(Comparison c, RowGroupInfo group) {
        Optional<String> left = column(c.left());
        Optional<String> right = column(c.right());
        if (left.isPresent() && c.right() instanceof Literal literal) {
            return compare(left.get(), c.operator(), literal.value(), group);
        }
        if (right.isPresent() && c.left() instanceof Literal literal) {
            return compare(right.get(), c.operator().flip(), literal.value(), group);
        }
        return UNKNOWN_SELECTIVITY;
    }

    /** Selectivity of {@code column operator value}. */
    private double compare(String column, ComparisonOperator operator, Object value, RowGroupInfo group) {
        ColumnChunkInfo chunk = group.column(column);
        Optional<Domain> domain = domain(column, chunk);
        if (domain.isEmpty()) {
            return operator == ComparisonOperator.EQUAL ? 1.0 / Math.max(1, distinct(chunk, null))
                    : UNKNOWN_SELECTIVITY;
        }
        Domain d = domain.get();
        Position at = d.position(value);
        if (at == null) {
            return UNKNOWN_SELECTIVITY;
        }
        double nonNull = nonNullFraction(chunk);
        double equal = at.inside ? 1.0 / Math.max(1, distinct(chunk, d)) : 0;
        // at.below: fraction of values < value (for an integer domain, counting the integers below it).
        double below = at.below;
        double s = switch (operator) {
            case EQUAL -> equal;
            case NOT_EQUAL -> 1 - equal;
            case LESS_THAN -> below;
            case LESS_THAN_OR_EQUAL -> below + equal;
            case GREATER_THAN -> 1 - below - equal;
            case GREATER_THAN_OR_EQUAL -> 1 - below;
        };
        return nonNull * Math.max(0, Math.min(1, s));
    }

    private double in(In in, RowGroupInfo group) {
        Optional<String> column = column(in.operand());
        if (column.isEmpty()) {
            return UNKNOWN_SELECTIVITY;
        }
        double s = 0;
        for (Literal value : in.values()) {
            s += compare(column.get(), ComparisonOperator.EQUAL, value.value(), group);
        }
        s = Math.min(1, s);
        return in.negated() ? nonNullFraction(group.column(column.get())) - s : s;
    }

    private double like(Like like, RowGroupInfo group) {
        Optional<String> column = column(like.operand());
        String pattern = like.pattern();
        int wildcard = firstWildcard(pattern);
        if (column.isEmpty() || wildcard <= 0 || columns.isDate(column.get())) {
            return like.negated() ? 1 - UNKNOWN_SELECTIVITY : UNKNOWN_SELECTIVITY;
        }
        String prefix = pattern.substring(0, wildcard);
        String after = prefix.substring(0, prefix.length() - 1) + (char) (prefix.charAt(prefix.length() - 1) + 1);
        double s = compare(column.get(), ComparisonOperator.GREATER_THAN_OR_EQUAL, prefix, group)
                - compare(column.get(), ComparisonOperator.GREATER_THAN_OR_EQUAL, after, group);
        s = Math.max(s, 0);
        return like.negated() ? nonNullFraction(group.column(column.get())) - s : s;
    }

    private static int firstWildcard(String pattern) {
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '%' || c == '_' || c == '\\') {
                return i;
            }
        }
        return pattern.length();
    }

    private double isNull(IsNull isNull, RowGroupInfo group) {
        Optional<String> column = column(isNull.operand());
        if (column.isEmpty()) {
            return UNKNOWN_SELECTIVITY;
        }
        double nulls = 1 - nonNullFraction(group.column(column.get()));
        return isNull.negated() ? 1 - nulls : nulls;
    }

    private static double nonNullFraction(ColumnChunkInfo chunk) {
        long nulls = chunk.stats().map(ColumnStats::nullCount).orElse(-1L);
        return nulls < 0 || chunk.valueCount() == 0 ? 1 : 1 - (double) nulls / chunk.valueCount();
    }

    private static Optional<String> column(Expression expression) {
        Expression e = expression;
        while (e instanceof Cast cast) {
            e = cast.operand();
        }
        return e instanceof ColumnRef ref ? Optional.of(ref.name()) : Optional.empty();
    }

    /**
     * Distinct values of a chunk: the integers between min and max for an integer or date domain, the entries its
     * dictionary page holds (its size over the mean decoded width; a dictionary that overflowed counts only those it
     * kept) when it has one, else every value.
     */
    private static long distinct(ColumnChunkInfo chunk, Domain domain) {
        long count = Math.max(1, chunk.valueCount());
        if (domain != null && domain.integral()) {
            return Math.max(1, Math.min(count, (long) (domain.max() - domain.min()) + 1));
        }
        if (chunk.hasDictionaryPage() && count > 0) {
            long dictionaryBytes = chunk.dataPageOffset() - chunk.byteRange().offset();
            double width = Math.max(1, (double) chunk.decodedSize() / count);
            return Math.max(1, Math.min(count, Math.round(dictionaryBytes / width)));
        }
        return count;
    }

    /** The chunk's values as a line between min and max, when its statistics have bounds. */
    private Optional<Domain> domain(String column, ColumnChunkInfo chunk) {
        Optional<ColumnStats> stats = chunk.stats().filter(ColumnStats::hasBounds);
        if (stats.isEmpty()) {
            return Optional.empty();
        }
        Object min = stats.get().min();
        Object max = stats.get().max();
        boolean date = columns.isDate(column);
        if (min instanceof Long lo && max instanceof Long hi) {
            return Optional.of(new Domain(lo, hi, true, date, null, null));
        }
        if (min instanceof Double lo && max instanceof Double hi && !lo.isNaN() && !hi.isNaN()) {
            return Optional.of(new Domain(lo, hi, false, false, null, null));
        }
        if (min instanceof String lo && max instanceof String hi) {
            return Optional.of(new Domain(0, 1, false, false, lo, hi));
        }
        return Optional.empty();
    }

    /** Where a literal lies in a domain: the fraction of the domain below it, and whether it is inside. */
    private record Position(double below, boolean inside) {
    }

    /**
     * A chunk's values spread evenly between {@code min} and {@code max}: numbers (integral ones counted as the
     * integers in between, dates as day numbers) or strings (then {@code low} and {@code high} are the bounds and
     * positions are interpolated on the bytes after the prefix the bounds share).
     */
    private record Domain(double min, double max, boolean integral, boolean date, String low, String high) {

        /** Where {@code value} lies, or null when it is not comparable with the domain. */
        Position position(Object value) {
            if (low != null) {
                return value instanceof String s ? stringPosition(s) : null;
            }
            double v;
            if (date && value instanceof String iso) {
                try {
                    v = LocalDate.parse(iso).toEpochDay();
                } catch (DateTimeParseException e) {
                    return null;
                }
            } else if (value instanceof Number number) {
                v = number.doubleValue();
            } else {
                return null;
            }
            if (v < min) {
                return new Position(0, false);
            }
            if (v > max) {
                return new Position(1, false);
            }
            if (integral) {
                double below = Math.ceil(v) - min;
                boolean inside = v == Math.rint(v);
                return new Position(below / (max - min + 1), inside);
            }
            return new Position(max == min ? 0 : (v - min) / (max - min), true);
        }

        private Position stringPosition(String value) {
            if (value.compareTo(low) < 0) {
                return new Position(0, false);
            }
            if (value.compareTo(high) > 0) {
                return new Position(1, false);
            }
            byte[] lo = low.getBytes(StandardCharsets.UTF_8);
            byte[] hi = high.getBytes(StandardCharsets.UTF_8);
            byte[] v = value.getBytes(StandardCharsets.UTF_8);
            int prefix = 0;
            while (prefix < lo.length && prefix < hi.length && lo[prefix] == hi[prefix]) {
                prefix++;
            }
            double l = scalar(lo, prefix);
            double h = scalar(hi, prefix);
            double x = scalar(v, prefix);
            return new Position(h <= l ? 0 : Math.max(0, Math.min(1, (x - l) / (h - l))), true);
        }

        /** The six bytes after {@code from} as a fraction in [0, 1), base 256 (missing bytes are 0). */
        private static double scalar(byte[] bytes, int from) {
            double value = 0;
            double scale = 1;
            for (int i = from; i < from + 6; i++) {
                scale /= 256;
                value += (i < bytes.length ? bytes[i] & 0xff : 0) * scale;
            }
            return value;
        }
    }

    // ---- the query's terms and the modelled cost

    /** The WHERE clause split as the engine splits it: single-column terms go to nodes, the rest stay here. */
    private record Terms(Map<String, List<Expression>> perColumn, List<Expression> atCoordinator) {

        static Terms of(Expression predicate) {
            Map<String, List<Expression>> perColumn = new LinkedHashMap<>();
            List<Expression> atCoordinator = new ArrayList<>();
            if (!(predicate instanceof Literal)) {
                for (Expression term : predicate instanceof And and ? and.operands() : List.of(predicate)) {
                    Set<String> used = PushdownEngine.columnsOf(term);
                    if (used.size() == 1) {
                        perColumn.computeIfAbsent(used.iterator().next(), c -> new ArrayList<>()).add(term);
                    } else {
                        atCoordinator.add(term);
                    }
                }
            }
            return new Terms(perColumn, atCoordinator);
        }

        Set<String> coordinatorColumns() {
            Set<String> used = new LinkedHashSet<>();
            atCoordinator.forEach(term -> used.addAll(PushdownEngine.columnsOf(term)));
            return used;
        }

        Set<String> columns() {
            Set<String> used = new LinkedHashSet<>(perColumn.keySet());
            used.addAll(coordinatorColumns());
            return used;
        }
    }

    /** A plan's two rounds. */
    private final class Cost {
        final Stage filter = new Stage();
        final Stage keys = new Stage();
        final Stage project = new Stage();
        long nanos;
        long bytes;
        int rounds;

        void close() {
            for (Stage stage : List.of(filter, keys, project)) {
                nanos += stage.nanos();
                bytes += stage.bytes();
                rounds += stage.rpcs > 0 ? 1 : 0;
            }
        }
    }

    /** One round, modelled as {@code PushdownEngine} models it. */
    private final class Stage {
        final long[] busy = new long[nodeCount];
        final long[] out = new long[nodeCount];
        final long[] in = new long[nodeCount];
        long coordinatorNanos;
        long rpcs;

        long nanos() {
            if (rpcs == 0) {
                return coordinatorNanos;
            }
            long slowest = 0;
            long fromNodes = 0;
            long toNodes = 0;
            for (int n = 0; n < nodeCount; n++) {
                slowest = Math.max(slowest, busy[n] + network.transferNanos(out[n]) + network.transferNanos(in[n]));
                fromNodes += out[n];
                toNodes += in[n];
            }
            long link = network.transferNanos(fromNodes) + network.transferNanos(toNodes);
            return network.rpc().toNanos() + Math.max(slowest, link) + coordinatorNanos;
        }

        long bytes() {
            long total = 0;
            for (int n = 0; n < nodeCount; n++) {
                total += out[n] + in[n];
            }
            return total;
        }
    }
}
