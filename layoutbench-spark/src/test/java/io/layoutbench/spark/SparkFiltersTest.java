package io.layoutbench.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.layout.RetrievalMode;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.IsNotNull;
import org.apache.spark.sql.sources.Not;
import org.apache.spark.sql.sources.Or;
import org.apache.spark.sql.sources.StringContains;
import org.apache.spark.sql.sources.StringEndsWith;
import org.apache.spark.sql.sources.StringStartsWith;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/** Spark's filters into the predicate language, exact or not at all; schemas and options both ways. */
class SparkFiltersTest {

    private static final StructType IMAGENET = SparkSchemas.of(MetadataSchema.imageNet());

    private static Optional<String> sql(Filter filter) {
        return SparkFilters.toSql(filter, IMAGENET);
    }

    @Test
    void exactFiltersTranslate() {
        assertThat(sql(new EqualTo("label", "it's"))).contains("label = 'it''s'");
        assertThat(sql(new And(new GreaterThan("width", 1024L), new Not(new IsNotNull("height")))))
                .contains("(width > 1024) AND (NOT (height IS NOT NULL))");
        assertThat(sql(new In("label", new Object[] {"cello", "canoe"}))).contains("label IN ('cello', 'canoe')");
        assertThat(sql(new StringEndsWith("label", "snake"))).contains("label LIKE '%snake'");
        assertThat(sql(new StringStartsWith("filename", "n01"))).contains("filename LIKE 'n01%'");
        assertThat(sql(new Or(new EqualTo("width", 1), new StringContains("label", "dog"))))
                .contains("(width = 1) OR (label LIKE '%dog%')");
    }

    @Test
    void whatWouldNotBeExactStaysWithSpark() {
        assertThat(sql(new StringContains("label", "50%"))).as("a LIKE wildcard in the text").isEmpty();
        assertThat(sql(new StringStartsWith("label", "a_b"))).as("an underscore").isEmpty();
        assertThat(sql(new IsNotNull("data"))).as("a payload column").isEmpty();
        assertThat(sql(new EqualTo("nope", 1))).as("no such column").isEmpty();
        assertThat(sql(new GreaterThan("width", Double.NaN))).as("NaN").isEmpty();
        assertThat(sql(new And(new EqualTo("label", "x"), new IsNotNull("data")))).as("half of an AND").isEmpty();
        assertThat(sql(new GreaterThan("label", "\uE000"))).as("a range where UTF-16 and code point orders differ")
                .isEmpty();
        assertThat(sql(new EqualTo("label", "\uD83D\uDC31"))).as("equality is the same in both")
                .contains("label = '\uD83D\uDC31'");
    }

    @Test
    void schemasRoundTripWithAliases() {
        MetadataSchema back = SparkSchemas.toMetadata(IMAGENET);
        assertThat(back).isEqualTo(MetadataSchema.imageNet());
        assertThatThrownBy(() -> SparkSchemas.toMetadata(new StructType().add("when", DataTypes.DateType)
                .add("data", DataTypes.BinaryType))).hasMessageContaining("Column 'when' has type date");
        assertThatThrownBy(() -> SparkSchemas.toMetadata(new StructType().add("name", DataTypes.StringType)))
                .hasMessageContaining("no binary column");
        assertThat(SparkSchemas.toMetadata(new StructType().add("n", DataTypes.IntegerType)
                .add("x", DataTypes.FloatType).add("jpg", DataTypes.BinaryType).add("json", DataTypes.BinaryType))
                .payloadFields()).containsExactly("jpg", "json");
    }

    @Test
    void optionsSplitIntoTheSourcesTheBackendsAndTheLayouts() {
        SourceOptions options = SourceOptions.of(Map.of("backend", "s3://b", "Layout", "l2", "path", "x/l2",
                "backend.accessKeyId", "AK", "shard-size", "4MB", "Mode", "PAPER"));
        assertThat(options.backendProperties()).containsExactly(Map.entry("accessKeyId", "AK"));
        assertThat(options.layoutOptions()).containsExactly(Map.entry("shard-size", "4MB"));
        assertThat(options.mode()).isEqualTo(RetrievalMode.PAPER);
        assertThatThrownBy(() -> SourceOptions.of(Map.of("backend", "file:/x", "layout", "l2")))
                .hasMessageContaining("needs option 'path'");
        assertThatThrownBy(() -> SourceOptions.of(Map.of("backend", "file:/x", "layout", "l2", "path", "p",
                "mode", "fast"))).hasMessageContaining("optimized or paper");
    }
}
