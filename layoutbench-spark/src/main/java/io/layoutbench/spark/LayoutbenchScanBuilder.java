package io.layoutbench.spark;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.connector.read.SupportsPushDownV2Filters;
import org.apache.spark.sql.types.StructType;

/**
 * Takes the filters that translate into the predicate language (they choose which samples are read) and the
 * columns Spark needs (payload fields not asked for are not read). Spark still evaluates every filter on the rows
 * it gets: the translated ones select exactly, so that costs a little CPU and no bytes.
 */
final class LayoutbenchScanBuilder implements ScanBuilder, SupportsPushDownV2Filters, SupportsPushDownRequiredColumns {

    private final SourceOptions options;
    private final StructType schema;
    private StructType required;
    private Predicate[] pushed = new Predicate[0];
    private final List<String> where = new ArrayList<>();

    LayoutbenchScanBuilder(SourceOptions options, StructType schema) {
        this.options = options;
        this.schema = schema;
        this.required = schema;
    }

    @Override
    public Predicate[] pushPredicates(Predicate[] predicates) {
        List<Predicate> taken = new ArrayList<>();
        for (Predicate predicate : predicates) {
            Optional<String> sql = SparkPredicates.toSql(predicate, schema);
            if (sql.isPresent()) {
                taken.add(predicate);
                where.add("(" + sql.get() + ")");
            }
        }
        pushed = taken.toArray(Predicate[]::new);
        return predicates;
    }

    @Override
    public Predicate[] pushedPredicates() {
        return pushed;
    }

    @Override
    public void pruneColumns(StructType requiredSchema) {
        this.required = requiredSchema;
    }

    @Override
    public Scan build() {
        return new LayoutbenchScan(options, required, where.isEmpty() ? "TRUE" : String.join(" AND ", where));
    }
}
