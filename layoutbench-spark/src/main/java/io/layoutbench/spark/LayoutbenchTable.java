package io.layoutbench.spark;

import java.util.EnumSet;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A layoutbench dataset as a Spark table: read ({@link LayoutbenchScanBuilder}) and written ({@link LayoutbenchWrite}).
 */
final class LayoutbenchTable implements SupportsRead, SupportsWrite {

    private final SourceOptions options;
    private final StructType schema;

    LayoutbenchTable(SourceOptions options, StructType schema) {
        this.options = options;
        this.schema = schema;
    }

    @Override
    public String name() {
        return "layoutbench " + options.layout() + " " + options.prefix();
    }

    @Override
    public StructType schema() {
        return schema;
    }

    @Override
    public Set<TableCapability> capabilities() {
        return EnumSet.of(TableCapability.BATCH_READ, TableCapability.BATCH_WRITE, TableCapability.TRUNCATE);
    }

    @Override
    public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
        return new LayoutbenchWrite(options, info.schema());
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap ignored) {
        return new LayoutbenchScanBuilder(options, schema);
    }
}
