package io.layoutbench.spark;

import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataSchema;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A dataset's schema as Spark's, and a DataFrame's as a dataset's: metadata columns, then a binary column per payload
 * field, named after it; a column's aliases ride in its field metadata.
 */
final class SparkSchemas {

    private SparkSchemas() {
    }

    /**
     * Field metadata key: a column's other names in predicates (ImageNet's {@code label} is also {@code human_label},
     * the paper's name), kept through Spark so that a dataset read and written again keeps them.
     */
    static final String ALIASES = "layoutbench.aliases";

    private static List<String> aliases(StructField field) {
        return field.metadata().contains(ALIASES) ? List.of(field.metadata().getStringArray(ALIASES)) : List.of();
    }

    /**
     * A DataFrame's schema as a dataset's: string, integer (widened to BIGINT), floating-point (widened to DOUBLE) and
     * boolean columns are metadata columns, binary columns payload fields, in order.
     *
     * @throws IllegalArgumentException naming the column for any other type, or if no column is binary
     */
    static MetadataSchema toMetadata(StructType schema) {
        List<Column> columns = new ArrayList<>();
        List<String> payload = new ArrayList<>();
        for (StructField field : schema.fields()) {
            DataType type = field.dataType();
            if (type.equals(DataTypes.BinaryType)) {
                payload.add(field.name());
            } else if (type.equals(DataTypes.StringType)) {
                columns.add(new Column(field.name(), ColumnType.STRING, aliases(field)));
            } else if (type.equals(DataTypes.LongType) || type.equals(DataTypes.IntegerType)
                    || type.equals(DataTypes.ShortType) || type.equals(DataTypes.ByteType)) {
                columns.add(new Column(field.name(), ColumnType.BIGINT, aliases(field)));
            } else if (type.equals(DataTypes.DoubleType) || type.equals(DataTypes.FloatType)) {
                columns.add(new Column(field.name(), ColumnType.DOUBLE, aliases(field)));
            } else if (type.equals(DataTypes.BooleanType)) {
                columns.add(new Column(field.name(), ColumnType.BOOLEAN, aliases(field)));
            } else {
                throw new IllegalArgumentException("Column '" + field.name() + "' has type " + type.simpleString()
                        + ": a layoutbench dataset's metadata columns are string, integer, floating-point or boolean "
                        + "(the predicate language's types), its payload fields binary; cast or drop it");
            }
        }
        if (payload.isEmpty()) {
            throw new IllegalArgumentException("The DataFrame has no binary column: a layoutbench dataset stores each "
                    + "sample's payload in binary columns (one named 'data' for the paper's single field); columns: "
                    + String.join(", ", schema.fieldNames()));
        }
        return new MetadataSchema(columns, payload);
    }

    static StructType of(MetadataSchema schema) {
        List<StructField> fields = new ArrayList<>();
        for (Column column : schema.columns()) {
            DataType type = switch (column.type()) {
                case STRING -> DataTypes.StringType;
                case BIGINT -> DataTypes.LongType;
                case DOUBLE -> DataTypes.DoubleType;
                case BOOLEAN -> DataTypes.BooleanType;
            };
            Metadata aliases = column.aliases().isEmpty() ? Metadata.empty() : new MetadataBuilder()
                    .putStringArray(ALIASES, column.aliases().toArray(String[]::new)).build();
            fields.add(DataTypes.createStructField(column.name(), type, true, aliases));
        }
        for (String field : schema.payloadFields()) {
            fields.add(DataTypes.createStructField(field, DataTypes.BinaryType, true));
        }
        return DataTypes.createStructType(fields);
    }
}
