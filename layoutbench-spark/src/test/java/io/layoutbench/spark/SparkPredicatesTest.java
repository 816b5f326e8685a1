package io.layoutbench.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.layout.RetrievalMode;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.connector.expressions.Cast;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.GeneralScalarExpression;
import org.apache.spark.sql.connector.expressions.LiteralValue;
import org.apache.spark.sql.connector.expressions.filter.And;
import org.apache.spark.sql.connector.expressions.filter.Not;
import org.apache.spark.sql.connector.expressions.filter.Or;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/** Spark's predicates into the predicate language, exact or not at all; schemas and options both ways. */
class SparkPredicatesTest {

    private static final StructType IMAGENET = SparkSchemas.of(MetadataSchema.imageNet());

    private static Optional<String> sql(Predicate predicate) {
        return SparkPredicates.toSql(predicate, IMAGENET);
    }

    private static Expression column(String name) {
        return Expressions.column(name);
    }

    private static Expression text(String value) {
        return new LiteralValue<>(UTF8String.fromString(value), DataTypes.StringType);
    }

    private static Expression number(long value) {
        return new LiteralValue<>(value, DataTypes.LongType);
    }

    private static Predicate p(String name, Expression... children) {
        return new Predicate(name, children);
    }

    @Test
    void exactPredicatesTranslate() {
        assertThat(sql(p("=", column("label"), text("it's")))).contains("label = 'it''s'");
        assertThat(sql(new And(p(">", column("width"), number(1024)), new Not(p("IS_NOT_NULL", column("height"))))))
                .contains("(width > 1024) AND (NOT (height IS NOT NULL))");
        assertThat(sql(p("IN", column("label"), text("cello"), text("canoe")))).contains("label IN ('cello', 'canoe')");
        assertThat(sql(p("ENDS_WITH", column("label"), text("snake")))).contains("label LIKE '%snake'");
        assertThat(sql(new Or(p("=", column("width"), number(1)), p("CONTAINS", column("label"), text("dog")))))
                .contains("(width = 1) OR (label LIKE '%dog%')");
        Expression ratio = new GeneralScalarExpression("/", new Expression[] {
                new Cast(column("width"), DataTypes.LongType, DataTypes.DoubleType),
                new Cast(column("height"), DataTypes.LongType, DataTypes.DoubleType)});
        assertThat(sql(p(">", ratio, new LiteralValue<>(1.5, DataTypes.DoubleType))))
                .as("the paper's Q8").contains("(CAST(width AS DOUBLE) / CAST(height AS DOUBLE)) > 1.5");
    }

    @Test
    void whatWouldNotBeExactStaysWithSpark() {
        assertThat(sql(p("CONTAINS", column("label"), text("50%")))).as("a LIKE wildcard in the text").isEmpty();
        assertThat(sql(p("STARTS_WITH", column("label"), text("a_b")))).as("an underscore").isEmpty();
        assertThat(sql(p("IS_NOT_NULL", column("data")))).as("a payload column").isEmpty();
        assertThat(sql(p("=", column("nope"), number(1)))).as("no such column").isEmpty();
        assertThat(sql(p(">", column("width"), new LiteralValue<>(Double.NaN, DataTypes.DoubleType)))).as("NaN")
                .isEmpty();
        assertThat(sql(new And(p("=", column("label"), text("x")), p("IS_NOT_NULL", column("data")))))
                .as("half of an AND").isEmpty();
        assertThat(sql(p(">", column("label"), text("\uE000")))).as("a range where UTF-16 and code point orders differ")
                .isEmpty();
        assertThat(sql(p("=", column("label"), text("\uD83D\uDC31")))).as("equality is the same in both")
                .contains("label = '\uD83D\uDC31'");
        assertThat(sql(p(">", new Cast(column("width"), DataTypes.LongType, DataTypes.IntegerType), number(1))))
                .as("a cast to another type than DOUBLE").isEmpty();
        assertThat(sql(p(">", new GeneralScalarExpression("ABS", new Expression[] {column("width")}), number(1))))
                .as("a function").isEmpty();
        assertThat(sql(p("<=>", column("width"), number(1)))).as("null-safe equality").isEmpty();
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
