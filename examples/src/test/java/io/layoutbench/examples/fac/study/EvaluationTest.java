package io.layoutbench.examples.fac.study;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.backend.file.FileBackend;
import io.layoutbench.evaluation.fac.ZipfChunkSizes;
import io.layoutbench.evaluation.tpch.TpchParquet;
import io.layoutbench.fusion.codec.CodeParameters;
import io.layoutbench.fusion.coding.ChunkMap;
import io.layoutbench.fusion.coding.ObjectRegion;
import io.layoutbench.fusion.coding.ObjectSource;
import io.layoutbench.fusion.coding.ParquetChunkMaps;
import io.layoutbench.fusion.coding.RegionKind;
import io.layoutbench.parquet.ParquetObject;
import io.layoutbench.parquet.testing.DuckDb;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EvaluationTest {

    private static final long MIB = 1 << 20;

    @Test
    void zipfSizesLieBetweenOneAndOneHundredMegabytesAndSkewSmall() {
        long[] uniform = new ZipfChunkSizes(0).draw(20_000, new SplittableRandom(1));
        long[] skewed = new ZipfChunkSizes(0.99).draw(20_000, new SplittableRandom(1));

        assertThat(Arrays.stream(uniform).min().orElseThrow()).isGreaterThanOrEqualTo(MIB);
        assertThat(Arrays.stream(uniform).max().orElseThrow()).isLessThan(100 * MIB);
        assertThat(Arrays.stream(uniform).average().orElseThrow() / MIB).isBetween(48.0, 52.0);
        assertThat(Arrays.stream(skewed).average().orElseThrow() / MIB).isBetween(15.0, 25.0);
        assertThat(Arrays.stream(skewed).filter(s -> s < 2 * MIB).count()).isGreaterThan(3_000);
    }

    @Test
    void theSyntheticStudyRunsAndTheRefinementNeverLoses() {
        SyntheticOverheadStudy.Report report = SyntheticOverheadStudy.run(SyntheticOverheadStudy.Config.quick(),
                line -> { });

        for (SyntheticOverheadStudy.Cell cell : report.cells()) {
            if (cell.constructor().equals("fac-refined")) {
                SyntheticOverheadStudy.Cell fac = report.cell(cell.code(), cell.exponent(), cell.chunks(), "fac");
                assertThat(cell.meanExtra()).isLessThanOrEqualTo(fac.meanExtra());
                assertThat(cell.maxExtra()).isLessThanOrEqualTo(fac.maxExtra());
            }
        }
        assertThat(report.cell(CodeParameters.rs(9, 6), 0.0, 200, "fac").meanExtra()).isBetween(0.005, 0.05);
        assertThat(report.optimum()).allSatisfy(o -> {
            assertThat(o.optimumExtra()).isLessThanOrEqualTo(o.refinedExtra());
            assertThat(o.lowerBoundExtra()).isLessThanOrEqualTo(o.optimumExtra());
        });
        String json = Json.write(report.toJson());
        assertThat(json).contains("\"mean_extra_overhead_pct\"", "\"RS(9,6)\"", "\"optimum\"");
        assertThat(report.toMarkdown()).contains("| 50 |", "Zipf 0.99");
    }

    @Test
    void fixedBlocksSplitAndPaddingMovesChunks() {
        // magic [0, 4), chunks [4, 10), [10, 30), [30, 35), footer [35, 40); blocks of 16 bytes.
        ChunkMap map = new ChunkMap(40, List.of(
                new ObjectRegion(ByteRange.of(0, 4), RegionKind.MAGIC, "magic"),
                new ObjectRegion(ByteRange.of(4, 6), RegionKind.COLUMN_CHUNK, "a"),
                new ObjectRegion(ByteRange.of(10, 20), RegionKind.COLUMN_CHUNK, "b"),
                new ObjectRegion(ByteRange.of(30, 5), RegionKind.COLUMN_CHUNK, "c"),
                new ObjectRegion(ByteRange.of(35, 5), RegionKind.FOOTER, "footer")), Optional.empty());

        assertThat(BaselineLayouts.splitFraction(map, 16)).isEqualTo(2.0 / 3);   // b crosses 16, c crosses 32
        // a fits [4, 10); b (20 > 16) moves to 16 and spans to 36; c fits [36, 41); the footer follows: 46 bytes.
        assertThat(BaselineLayouts.paddedLength(map, 16)).isEqualTo(46);
        // With 12-byte blocks: a [4, 10); b moves to 12, to 32; c would cross 36: moves to 36, to 41; footer: 46.
        assertThat(BaselineLayouts.paddedLength(map, 12)).isEqualTo(46);
        // With 8-byte blocks: a moves to 8, to 14; b to 16, to 36; c would cross 40: to 40, to 45; footer: 50.
        assertThat(BaselineLayouts.paddedLength(map, 8)).isEqualTo(50);
        assertThat(BaselineLayouts.paddedLength(map, 1000)).isEqualTo(40);
    }

    @Test
    void tpchTablesAreSnappyParquetThatDuckDbReads(@TempDir Path dir) throws Exception {
        assertThat(TpchParquet.available()).isTrue();
        TpchParquet.Written lineitem = TpchParquet.write("lineitem", 0.002, 2_000, dir.resolve("lineitem.parquet"));
        TpchParquet.Written orders = TpchParquet.write("orders", 0.002, 1_000, dir.resolve("orders.parquet"));

        assertThat(lineitem.rows()).isGreaterThan(10_000);
        assertThat(orders.rows()).isEqualTo(3_000);
        ChunkMap map;
        try (ObjectSource source = ObjectSource.of(lineitem.file())) {
            map = ParquetChunkMaps.read(source);
        }
        assertThat(map.chunks()).hasSize(16 * (int) ((lineitem.rows() + 1_999) / 2_000));
        try (FileBackend files = new FileBackend(dir)) {
            assertThat(ParquetObject.open(files, "lineitem.parquet").footer().rowGroups().get(0).columns().get(0)
                    .codec().name()).isEqualTo("SNAPPY");
        }
        try (Connection duckdb = DuckDb.connect(dir);
                Statement statement = duckdb.createStatement();
                ResultSet rows = statement.executeQuery("SELECT count(*), sum(l_quantity), max(l_shipdate) FROM "
                        + "read_parquet('" + lineitem.file() + "')")) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getLong(1)).isEqualTo(lineitem.rows());
            assertThat(rows.getDouble(2)).isGreaterThan(lineitem.rows());
            assertThat(rows.getString(3)).startsWith("199");
        }

        List<FileCodingStudy.Result> results = FileCodingStudy.run(
                List.of(new FileCodingStudy.Input(lineitem.file(), "tpch"), new FileCodingStudy.Input(orders.file(),
                        "tpch")),
                new FileCodingStudy.Config(List.of(CodeParameters.rs(9, 6)), List.of(16L << 10, 1L << 20), 100_000, 5,
                        true, dir.resolve("scratch")), line -> { });
        assertThat(results).hasSize(2);
        FileCodingStudy.Result first = results.get(0);
        assertThat(first.refinedExtra()).isLessThanOrEqualTo(first.facExtra());
        assertThat(first.optimumExtra()).isLessThanOrEqualTo(first.refinedExtra());
        assertThat(first.splitFraction().get(16L << 10)).isPositive();
        assertThat(first.putMillis()).isPositive();
        Map<String, Object> json = FileCodingStudy.toJson(results, Map.of("test", true));
        assertThat(Json.write(json)).contains("chunks_split_by_fixed_blocks_pct", "fac_refined");
        assertThat(FileCodingStudy.toMarkdown(results)).contains("lineitem.parquet");
    }
}
