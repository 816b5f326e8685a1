package io.layoutbench.layouts.equivalence;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.dataset.Blob;
import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.SampleStream;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.layouts.manifest.DatasetManifest;
import io.layoutbench.layouts.manifest.ManifestObject;
import io.layoutbench.parquet.testing.DuckDb;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A speech-like dataset of any schema (nullable columns of every type, two payload fields, some samples lacking
 * one) in every layout: DuckDB reads the metadata tables the layout wrote and, given the same WHERE text, counts
 * the rows the layout's query returns; the field sizes it sees add up to the bytes written; in l3 it reads each
 * field from its own blob column.
 */
class PayloadFieldsInDuckDbTest {

    static final MetadataSchema SPEECH = new MetadataSchema(List.of(
            new Column("filename", ColumnType.STRING),
            new Column("speaker", ColumnType.STRING),
            new Column("duration_seconds", ColumnType.DOUBLE),
            new Column("chapter", ColumnType.BIGINT),
            new Column("clean", ColumnType.BOOLEAN),
            new Column("transcript", ColumnType.STRING))).withPayloadFields(List.of("wav", "txt"));

    static final List<String> WHERE = List.of(
            "speaker = 'alice'",
            "duration_seconds >= 2.5 AND duration_seconds <= 7.5",
            "duration_seconds IS NULL OR chapter > 30",
            "clean AND transcript LIKE '%river%'",
            "NOT clean",
            "speaker IN ('bob', 'carol') AND duration_seconds < 4",
            "transcript IS NULL",
            "chapter * 2 >= 70 OR speaker IS NULL");

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"l1", "l2", "l3"})
    void duckDbCountsWhatTheLayoutReturns(String layout) throws Exception {
        List<Sample> samples = samples();
        MemoryBackend backend = new MemoryBackend();
        try (DatasetWriter writer = StorageLayouts.get(layout).create(backend, "speech", SPEECH, Map.of())) {
            samples.forEach(writer::add);
            writer.commit();
        }
        List<String> tables = new ArrayList<>();
        for (ManifestObject object : DatasetManifest.read(backend, "speech").objects()) {
            if (object.key().endsWith(".parquet")) {
                Path file = dir.resolve(object.key().replace('/', '_'));
                ByteBuffer bytes = backend.readAll(object.key());
                byte[] array = new byte[bytes.remaining()];
                bytes.get(array);
                Files.write(file, array);
                tables.add("'" + file + "'");
            }
        }
        String from = " FROM read_parquet([" + String.join(", ", tables) + "])";
        try (Dataset dataset = StorageLayouts.get(layout).open(backend, "speech");
                Connection duckdb = DuckDb.connect(dir);
                Statement statement = duckdb.createStatement()) {
            for (String where : WHERE) {
                long ours = 0;
                try (SampleStream stream = dataset.query(where)) {
                    while (stream.hasNext()) {
                        stream.next();
                        ours++;
                    }
                }
                try (ResultSet result = statement.executeQuery("SELECT count(*)" + from + " WHERE " + where)) {
                    result.next();
                    assertThat(result.getLong(1)).as("%s: %s", layout, where).isEqualTo(ours).isPositive();
                }
            }
            long wav = samples.stream().mapToLong(s -> s.field("wav").size()).sum();
            long txt = samples.stream().mapToLong(s -> s.findField("txt").map(Blob::size).orElse(0L)).sum();
            try (ResultSet result = statement.executeQuery("SELECT sum(wav_size), sum(txt_size), "
                    + "count(*) - count(txt_size)" + from)) {
                result.next();
                assertThat(result.getLong(1)).isEqualTo(wav);
                assertThat(result.getLong(2)).isEqualTo(txt);
                assertThat(result.getLong(3)).as("samples without a transcript file")
                        .isEqualTo(samples.stream().filter(s -> s.findField("txt").isEmpty()).count());
            }
            if (layout.equals("l3")) {
                // Each field is a blob column of its own: DuckDB reads a transcript file as text, the clips whole.
                try (ResultSet result = statement.executeQuery("SELECT count(*), sum(octet_length(wav_bytes))" + from
                        + " WHERE txt_size IS NOT NULL AND decode(txt_bytes) = coalesce(transcript, '')")) {
                    result.next();
                    assertThat(result.getLong(1)).isEqualTo(samples.stream()
                            .filter(s -> s.findField("txt").isPresent()).count());
                    assertThat(result.getLong(2)).isEqualTo(samples.stream().filter(s -> s.findField("txt")
                            .isPresent()).mapToLong(s -> s.field("wav").size()).sum());
                }
            }
        }
    }

    /** 200 clips: NULLs in four columns, a transcript file for nine in ten. */
    static List<Sample> samples() {
        Random random = new Random(42);
        String[] speakers = {"alice", "bob", "carol", "dan"};
        String[] words = {"the", "river", "ran", "north", "under", "a", "grey", "sky"};
        List<Sample> samples = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            String transcript = random.nextInt(8) == 0 ? null : String.join(" ", Arrays.asList(
                    words[random.nextInt(words.length)], words[random.nextInt(words.length)],
                    words[random.nextInt(words.length)]));
            Double seconds = random.nextInt(10) == 0 ? null : Math.round(random.nextDouble() * 1000) / 100.0;
            MetadataRow row = new MetadataRow(SPEECH, Arrays.asList(String.format("clip-%04d", i),
                    random.nextInt(9) == 0 ? null : speakers[random.nextInt(speakers.length)], seconds,
                    (long) random.nextInt(60), random.nextInt(6) == 0 ? null : random.nextBoolean(), transcript));
            byte[] wav = new byte[44 + random.nextInt(8000)];
            random.nextBytes(wav);
            Map<String, Blob> fields = new LinkedHashMap<>();
            fields.put("wav", Blob.of(wav));
            if (random.nextInt(10) != 0) {
                fields.put("txt", Blob.of((transcript == null ? "" : transcript).getBytes(StandardCharsets.UTF_8)));
            }
            samples.add(new Sample(row, fields));
        }
        return samples;
    }
}
