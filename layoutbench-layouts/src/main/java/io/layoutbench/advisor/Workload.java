package io.layoutbench.advisor;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.predicate.PredicateException;
import io.layoutbench.api.predicate.Query;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The queries a dataset will serve and how much each counts: the advisor ranks layouts by the weighted sum of their
 * predicted outcomes. A weight is how often the query runs (or how much it matters) relative to the others.
 *
 * <pre>{@code
 * Map<String, String> named = Map.of("cats", "label = 'cat'", "big", "filesize_bytes > 1000000");
 * Workload all = Workload.of(named);                                 // every named query, weight 1 each
 * Workload mix = Workload.parse("cats=5,big=0.5", named);            // some of them, weighted
 * Workload mine = Workload.read(Path.of("workload.tsv"));            // lines: weight<TAB>SQL predicate
 * }</pre>
 *
 * @param queries the queries, at least one
 */
public record Workload(List<WorkloadQuery> queries) {

    /**
     * One query of a workload.
     *
     * @param id     the query's name ({@code Q8}), or {@code W1}, {@code W2} ... for a file's
     * @param sql    the predicate, with an optional LIMIT
     * @param weight how much it counts, finite and positive
     */
    public record WorkloadQuery(String id, String sql, double weight) {
        public WorkloadQuery {
            requireNonNull(id, "id is null");
            requireNonNull(sql, "sql is null");
            if (!(weight > 0) || Double.isInfinite(weight)) {
                throw new IllegalArgumentException("Weight of query " + id + " must be a finite number > 0, got "
                        + weight);
            }
        }
    }

    public Workload {
        queries = List.copyOf(requireNonNull(queries, "queries is null"));
        if (queries.isEmpty()) {
            throw new IllegalArgumentException("A workload needs at least one query");
        }
    }

    /** Every query of {@code named} (name to predicate, in its iteration order), weight 1 each. */
    public static Workload of(Map<String, String> named) {
        List<WorkloadQuery> queries = new ArrayList<>();
        named.forEach((id, sql) -> queries.add(new WorkloadQuery(id, sql, 1)));
        return new Workload(queries);
    }

    /**
     * Named queries with weights: {@code Q1=1,Q3=5,Q8=0.5} picks from {@code named} (name to predicate, names
     * compared ignoring case); a query without {@code =weight} has weight 1.
     *
     * @throws IllegalArgumentException naming the entry that is not a known query or weight, or a repeated query
     */
    public static Workload parse(String spec, Map<String, String> named) {
        requireNonNull(spec, "spec is null");
        Map<String, String> byName = new LinkedHashMap<>();
        named.forEach((id, sql) -> byName.put(id.toUpperCase(Locale.ROOT), id));
        List<WorkloadQuery> queries = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (String raw : spec.split(",")) {
            String entry = raw.strip();
            if (entry.isEmpty()) {
                continue;
            }
            int equals = entry.indexOf('=');
            String given = (equals < 0 ? entry : entry.substring(0, equals)).strip();
            String id = byName.get(given.toUpperCase(Locale.ROOT));
            if (id == null) {
                throw new IllegalArgumentException("Unknown query '" + given + "' in workload '" + spec
                        + "'; known queries: " + String.join(", ", named.keySet())
                        + " (or give a file of weight<TAB>predicate lines)");
            }
            double weight = equals < 0 ? 1 : weight(entry.substring(equals + 1), "query " + id);
            if (!seen.add(id)) {
                throw new IllegalArgumentException("Query " + id + " appears twice in workload '" + spec + "'");
            }
            queries.add(new WorkloadQuery(id, named.get(id), weight));
        }
        if (queries.isEmpty()) {
            throw new IllegalArgumentException("Workload '" + spec + "' names no query; write "
                    + named.keySet().stream().limit(2).map(q -> q + "=1").reduce((a, b) -> a + "," + b).orElse("Q=1")
                    + " or a file");
        }
        return new Workload(queries);
    }

    /**
     * A workload file: one query per line, {@code weight<TAB>predicate} (spaces may separate them too); blank
     * lines and lines starting with {@code #} are skipped. Queries are named {@code W1}, {@code W2} ... in order.
     *
     * @throws IllegalArgumentException naming the line that has no weight or whose predicate does not parse
     * @throws UncheckedIOException     if the file cannot be read
     */
    public static Workload read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read workload file " + file + ": " + e.getMessage(), e);
        }
        List<WorkloadQuery> queries = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String where = file + " line " + (i + 1);
            String[] parts = line.split("\\s+", 2);
            if (parts.length < 2) {
                throw new IllegalArgumentException(where + " must be 'weight<TAB>predicate', got '" + line + "'");
            }
            double weight = weight(parts[0], where);
            String sql = parts[1].strip();
            try {
                Query.parse(sql);
            } catch (PredicateException e) {
                throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
            }
            queries.add(new WorkloadQuery("W" + (queries.size() + 1), sql, weight));
        }
        if (queries.isEmpty()) {
            throw new IllegalArgumentException("Workload file " + file + " holds no query (lines: weight<TAB>"
                    + "predicate)");
        }
        return new Workload(queries);
    }

    /** A file if {@code value} names one, else a list of weighted queries from {@code named}. */
    public static Workload fromArgument(String value, Map<String, String> named) {
        requireNonNull(value, "value is null");
        Path path = Path.of(value.strip());
        if (Files.isRegularFile(path)) {
            return read(path);
        }
        if (value.contains("/") || value.contains("\\") || value.endsWith(".tsv") || value.endsWith(".txt")) {
            throw new IllegalArgumentException("Workload file " + value + " does not exist");
        }
        return parse(value, named);
    }

    /** Sum of the weights. */
    public double totalWeight() {
        return queries.stream().mapToDouble(WorkloadQuery::weight).sum();
    }

    /** For people: {@code Q1..Q11, weight 1 each} or {@code Q1 x1, Q3 x5}. */
    public String describe() {
        boolean unit = queries.stream().allMatch(q -> q.weight() == 1);
        if (unit) {
            return queries.size() + (queries.size() == 1 ? " query (" : " queries (")
                    + String.join(", ", queries.stream().map(WorkloadQuery::id).toList()) + "), weight 1 each";
        }
        List<String> parts = new ArrayList<>();
        for (WorkloadQuery q : queries) {
            parts.add(q.id() + " x" + format(q.weight()));
        }
        return queries.size() + (queries.size() == 1 ? " query (" : " queries (") + String.join(", ", parts) + ")";
    }

    private static String format(double weight) {
        return weight == Math.rint(weight) && Math.abs(weight) < 1e15 ? Long.toString((long) weight)
                : Double.toString(weight);
    }

    private static double weight(String text, String what) {
        try {
            double weight = Double.parseDouble(text.strip());
            if (weight > 0 && !Double.isInfinite(weight)) {
                return weight;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("Weight of " + what + " must be a number > 0, got '" + text.strip() + "'");
    }
}
