package io.layoutbench.spark;

import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.MetadataSchema;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/** A dataset's schema as Spark's: its metadata columns, then a binary column per payload field, named after it. */
final class SparkSchemas {

    private SparkSchemas() {
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
            fields.add(DataTypes.createStructField(column.name(), type, true));
        }
        for (String field : schema.payloadFields()) {
            fields.add(DataTypes.createStructField(field, DataTypes.BinaryType, true));
        }
        return DataTypes.createStructType(fields);
    }
}
