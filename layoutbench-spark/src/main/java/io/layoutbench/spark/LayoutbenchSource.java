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
 * DataFrame, and a DataFrame written as a dataset by many tasks at once.
 *
 * <pre>{@code
 * Dataset<Row> cellos = spark.read().format("layoutbench").option("layout", "l2")
 *         .option("backend", "file:/data/objects").load("imagenet-mini/l2")
 *         .filter("human_label = 'cello'");          // pushed down: only the cellos' bytes are read
 * images.write().format("layoutbench").option("layout", "l3").option("backend", "s3://bucket")
 *         .option("file-size", "256MB").mode("overwrite").save("imagenet/l3");
 * }</pre>
 *
 * <p>Options: {@code backend} (a backend URI, required), {@code layout} ({@code l1}, {@code l2}, {@code l3},
 * {@code fac}; required), the path (the dataset's prefix), {@code mode} ({@code optimized} or {@code paper}, for
 * reads), {@code partition-bytes} (bytes a read task reads, default 128 MiB); on a write, every other option is the
 * layout's ({@code shard-size}, {@code file-size} ...). Columns: the metadata columns, then a binary column per
 * payload field ({@code data} for the paper's datasets). A write takes string, integer, floating-point and boolean
 * columns as metadata, binary columns as payload fields.
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

    /** Yes: a write hands over the DataFrame's schema, as there is no dataset yet to infer it from. */
    @Override
    public boolean supportsExternalMetadata() {
        return true;
    }

    @Override
    public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
        return new LayoutbenchTable(SourceOptions.of(properties), schema);
    }
}
