package io.layoutbench.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.s3.embedded.EmbeddedS3Server;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.DataFrameWriter;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Spark source over the S3 backend (the CRT client) against a real S3 server on 127.0.0.1. */
class SparkS3Test {

    @TempDir
    Path storage;

    @Test
    void writesAndReadsThroughS3() {
        try (EmbeddedS3Server s3 = EmbeddedS3Server.start(storage)) {
            s3.createBucket("datasets");
            org.apache.spark.sql.Dataset<Row> source = LocalSpark.read("l3").repartition(2);
            for (String layout : List.of("l2", "l3")) {
                DataFrameWriter<Row> writer = source.write().format("layoutbench").option("layout", layout)
                        .option("backend", "s3://datasets/spark").mode("overwrite");
                for (Map.Entry<String, String> property : s3.backendProperties().entrySet()) {
                    writer = writer.option("backend." + property.getKey(), property.getValue());
                }
                writer.save("tiny/" + layout);
                DataFrameReader reader = LocalSpark.session().read().format("layoutbench").option("layout", layout)
                        .option("backend", "s3://datasets/spark");
                for (Map.Entry<String, String> property : s3.backendProperties().entrySet()) {
                    reader = reader.option("backend." + property.getKey(), property.getValue());
                }
                org.apache.spark.sql.Dataset<Row> back = reader.load("tiny/" + layout);
                assertThat(back.count()).as(layout).isEqualTo(LocalSpark.TINY_SAMPLES);
                List<Row> cellos = back.filter("label = 'cello'").select("filename", "data").collectAsList();
                assertThat(cellos).as(layout).hasSize(4)
                        .allSatisfy(row -> assertThat((byte[]) row.get(1)).isNotEmpty());
            }
        }
    }
}
