package io.layoutbench.layouts.webdataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.metrics.QueryMetrics;
import io.layoutbench.backend.memory.MemoryBackend;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class JsonColumnsTest {

    private static final String SHARD = "data/shard-000001.tar";

    private final MemoryBackend backend = new MemoryBackend();

    @AfterEach
    void close() {
        backend.close();
    }

    @Test
    void namedColumnsReadTheirValuesAndNullWhereAbsent() {
        Map<Integer, String> documents = new HashMap<>();
        documents.put(1, "{\"label\": \"dog\", \"width\": 480, \"score\": 1, \"ok\": false, "
                + "\"size\": {\"w\": 7}}");
        documents.put(2, null);
        documents.put(3, "{\"label\": null, \"extra\": [1, 2]}");
        List<ShardSample> samples = store(1000, documents);
        JsonColumns json = JsonColumns.of("json", List.of(JsonColumn.of("label", ColumnType.STRING),
                JsonColumn.of("width", ColumnType.BIGINT), JsonColumn.of("score", ColumnType.DOUBLE),
                JsonColumn.of("ok", ColumnType.BOOLEAN),
                new JsonColumn(new Column("w", ColumnType.BIGINT), "/size/w")));

        List<List<Object>> rows = json.read(backend, samples);

        assertThat(rows).hasSize(4);
        assertThat(rows.get(0)).containsExactly("cat", 640L, 0.5, true, null);
        assertThat(rows.get(1)).containsExactly("dog", 480L, 1.0, false, 7L);
        assertThat(rows.get(2)).containsExactly(null, null, null, null, null);   // no json member
        assertThat(rows.get(3)).containsExactly(null, null, null, null, null);
        assertThat(json.metadataColumns()).extracting(Column::name).containsExactly("label", "width", "score", "ok",
                "w");
    }

    @Test
    void columnsAreInferredFromTheFirstSamplesScalarValues() {
        List<ShardSample> samples = store(1000, Map.of(
                1, "{\"label\": \"dog\", \"width\": 480, \"score\": 1, \"ok\": false, \"size\": {\"w\": 7}, "
                        + "\"weird-key\": 3, \"2nd\": \"x\", \"mixed\": true}",
                2, "{\"label\": null, \"only_null\": null, \"mixed\": 5}",
                3, "{\"late\": 1}"));

        JsonColumns json = JsonColumns.infer(backend, "json", samples, 3);

        assertThat(json.metadataColumns()).containsExactly(new Column("label", ColumnType.STRING),
                new Column("width", ColumnType.BIGINT), new Column("score", ColumnType.DOUBLE),
                new Column("ok", ColumnType.BOOLEAN), new Column("weird_key", ColumnType.BIGINT),
                new Column("_2nd", ColumnType.STRING), new Column("mixed", ColumnType.STRING),
                new Column("only_null", ColumnType.STRING));
        assertThat(json.columns().get(4).pointer()).isEqualTo("/weird-key");
        assertThat(json.read(backend, samples).get(2)).containsExactly(null, null, null, null, null, null, "5",
                null);
    }

    @Test
    void malformedJsonNamesTheShardMemberAndOffset() {
        List<ShardSample> samples = store(1000, Map.of(1, "{\"label\": \"dog\",, \"width\": 1}"));
        FieldLocation bad = samples.get(1).field("json");   // byte 16 is the second ','

        assertThatThrownBy(() -> JsonColumns.of("json", List.of(JsonColumn.of("label", ColumnType.STRING)))
                .read(backend, samples))
                .isInstanceOf(ShardFormatException.class)
                .hasMessageStartingWith("Tar shard 'data/shard-000001.tar', member '0001.json', offset "
                        + (bad.offset() + 16) + ": malformed JSON at byte 16 of the member: Unexpected character")
                .satisfies(e -> assertThat(((ShardFormatException) e).offset()).isEqualTo(bad.offset() + 16));
    }

    @Test
    void aValueThatDoesNotFitItsColumnOrADocumentThatIsNoObjectIsAnError() {
        List<ShardSample> samples = store(1000, Map.of(1, "{\"width\": \"wide\"}", 2, "[1, 2]"));
        JsonColumns json = JsonColumns.of("json", List.of(JsonColumn.of("width", ColumnType.BIGINT)));

        assertThatThrownBy(() -> json.read(backend, samples.subList(0, 2)))
                .isInstanceOf(ShardFormatException.class)
                .hasMessage("Tar shard 'data/shard-000001.tar', member '0001.json', offset "
                        + samples.get(1).field("json").offset()
                        + ": the value \"wide\" at /width does not fit column width bigint");
        assertThatThrownBy(() -> json.read(backend, samples.subList(2, 3)))
                .isInstanceOf(ShardFormatException.class)
                .hasMessageEndingWith(": the JSON document is [1,2], not an object");
    }

    @Test
    void nearbyJsonMembersAreReadInOneRequestAndFarOnesInOneEach() {
        List<ShardSample> near = store(1000, Map.of());
        QueryMetrics metrics = new QueryMetrics();
        JsonColumns json = JsonColumns.of("json", List.of(JsonColumn.of("width", ColumnType.BIGINT)));
        json.read(backend.withMetrics(metrics), near);
        assertThat(metrics.snapshot().totalRequests()).isEqualTo(1);

        List<ShardSample> far = store(200_000, Map.of());
        QueryMetrics farMetrics = new QueryMetrics();
        assertThat(json.read(backend.withMetrics(farMetrics), far)).allSatisfy(row -> assertThat(row)
                .containsExactly(640L));
        assertThat(farMetrics.snapshot().totalRequests()).isEqualTo(far.size());
        assertThat(farMetrics.snapshot().bytesReceived()).isLessThan(far.size() * 100L);
    }

    /**
     * Stores a shard of four samples, each a jpg of {@code jpgSize} bytes and a json document: the default one
     * unless {@code documents} gives another (null: no json member), and groups it.
     */
    private List<ShardSample> store(int jpgSize, Map<Integer, String> documents) {
        Map<String, byte[]> members = new LinkedHashMap<>();
        for (int i = 0; i < 4; i++) {
            byte[] jpg = new byte[jpgSize];
            Arrays.fill(jpg, (byte) i);
            members.put(String.format("%04d.jpg", i), jpg);
            String document = documents.containsKey(i) ? documents.get(i)
                    : "{\"label\": \"cat\", \"width\": 640, \"score\": 0.5, \"ok\": true}";
            if (document != null) {
                members.put(String.format("%04d.json", i), document.getBytes(StandardCharsets.UTF_8));
            }
        }
        backend.put(SHARD, TarShards.commons(members, TarArchiveOutputStream.LONGFILE_POSIX));
        return SampleGrouping.WEBDATASET.samples(new TarIndexer(backend).index(SHARD));
    }
}
