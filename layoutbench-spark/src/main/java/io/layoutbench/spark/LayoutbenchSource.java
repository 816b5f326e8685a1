package io.layoutbench.spark;

import java.util.Map;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The {@code layoutbench} Spark data source (DataSource V2): a dataset's metadata columns and payload fields as a
 * DataFrame.
 *
 * <pre>{@code
 * Dataset<Row> cellos = spark.read().format("layoutbench").option("layout", "l2")
 *         .option("backend", "file:/data/objects").load("imagenet-mini/l2")
 *         .filter("label = 'cello'");
 * }</pre>
 */
public final class LayoutbenchSource implements TableProvider, DataSourceRegister {

    @Override
    public String shortName() {
        return "layoutbench";
    }

    @Override
    public StructType inferSchema(CaseInsensitiveStringMap options) {
        try (SourceOptions.Opened opened = SourceOptions.of(options.asCaseSensitiveMap()).open()) {
            return SparkSchemas.of(opened.dataset().schema());
        }
    }

    @Override
    public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
        return new LayoutbenchTable(SourceOptions.of(properties), schema);
    }
}
