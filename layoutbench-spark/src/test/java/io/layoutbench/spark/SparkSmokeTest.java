package io.layoutbench.spark;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/** Spike: a local SparkSession starts on this classpath (Jackson, Arrow and Parquet of layoutbench beside Spark's). */
class SparkSmokeTest {

    @Test
    void aLocalSessionCounts() throws Exception {
        try (SparkSession spark = SparkSession.builder().master("local[2]").appName("smoke")
                .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate()) {
            assertThat(spark.range(1000).filter("id % 7 = 0").count()).isEqualTo(143);
        }
    }
}
