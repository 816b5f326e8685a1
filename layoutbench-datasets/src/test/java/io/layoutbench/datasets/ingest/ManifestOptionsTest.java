package io.layoutbench.datasets.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataSchema;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ManifestOptionsTest {

    @TempDir
    Path dir;

    @Test
    void schemaSpecsParseTheFourTypes() {
        assertThat(ManifestOptions.parseSchema(" speaker:bigint, duration : DOUBLE,transcript:string,train:Boolean")
                .columns()).containsExactly(new Column("speaker", ColumnType.BIGINT),
                new Column("duration", ColumnType.DOUBLE), new Column("transcript", ColumnType.STRING),
                new Column("train", ColumnType.BOOLEAN));
        assertThatThrownBy(() -> ManifestOptions.parseSchema("speaker:int")).isInstanceOf(
                IllegalArgumentException.class).hasMessage("Schema spec 'speaker:int': column speaker has unknown type "
                + "'int'; use bigint, double, boolean or string");
        assertThatThrownBy(() -> ManifestOptions.parseSchema("speaker,x:string"))
                .hasMessage("Schema spec 'speaker,x:string': 'speaker' is not name:type (for example speaker:bigint)");
        assertThatThrownBy(() -> ManifestOptions.parseSchema("duration (s):double"))
                .hasMessageStartingWith("Schema spec 'duration (s):double': Invalid column name 'duration (s)'");
        assertThatThrownBy(() -> ManifestOptions.parseSchema("a:bigint,A:string"))
                .hasMessage("Schema spec 'a:bigint,A:string': Column name 'A' of column 'A' clashes with column 'a'");
    }

    @Test
    void payloadColumnSpecsNameOneColumnOrFieldColumnPairs() {
        assertThat(ManifestOptions.parsePayloadColumns(" audio_path ")).containsExactly(Map.entry("data",
                "audio_path"));
        assertThat(ManifestOptions.parsePayloadColumns("wav=audio_path, txt = text_path"))
                .containsExactly(Map.entry("wav", "audio_path"), Map.entry("txt", "text_path"));
        assertThatThrownBy(() -> ManifestOptions.parsePayloadColumns("wav=a,wav=b"))
                .hasMessage("Payload column spec 'wav=a,wav=b': field wav is given twice");
        assertThatThrownBy(() -> ManifestOptions.parsePayloadColumns("wav=a,txt=A"))
                .hasMessage("Payload column spec 'wav=a,txt=A': Path column 'A' is given for two payload fields: "
                        + "{wav=a, txt=A}");
        assertThatThrownBy(() -> ManifestOptions.parsePayloadColumns("../x=a"))
                .hasMessageStartingWith("Payload column spec '../x=a': Invalid payload field name '../x'");
        assertThatThrownBy(() -> ManifestOptions.parsePayloadColumns("wav=a,b"))
                .hasMessage("Payload column spec 'wav=a,b': 'b' is not field=column (for example wav=audio_path)");
    }

    @Test
    void sanitizedNamesAreDeterministic() {
        assertThat(ManifestOptions.sanitize("duration (s)", 1)).isEqualTo("duration_s");
        assertThat(ManifestOptions.sanitize("2nd speaker", 2)).isEqualTo("_2nd_speaker");
        assertThat(ManifestOptions.sanitize("(%)", 4)).isEqualTo("column_4");
        assertThat(ManifestOptions.sanitize("meta.speaker id", 1)).isEqualTo("meta_speaker_id");
        assertThat(ManifestOptions.sanitize("_id -- x", 1)).isEqualTo("_id_x");
        assertThat(ManifestOptions.sanitize("dur\u00e9e", 1)).isEqualTo("dur_e");
    }

    @Test
    void formatsAreToldFromExtensionsOrNamed() {
        assertThat(ManifestFormat.of(Path.of("a/train.CSV"))).isEqualTo(ManifestFormat.CSV);
        assertThat(ManifestFormat.of(Path.of("train.ndjson"))).isEqualTo(ManifestFormat.JSON_LINES);
        assertThat(ManifestFormat.of(Path.of("train.pq"))).isEqualTo(ManifestFormat.PARQUET);
        assertThatThrownBy(() -> ManifestFormat.of(Path.of("train.json"))).isInstanceOf(IngestException.class)
                .hasMessage("Cannot tell the format of manifest train.json from its name: expected .csv, .jsonl, "
                        + ".ndjson, .parquet, .pq; choose the format explicitly (ManifestOptions.withFormat)");
        assertThat(ManifestFormat.parse("JSON_LINES")).isEqualTo(ManifestFormat.JSON_LINES);
        assertThatThrownBy(() -> ManifestFormat.parse("tsv"))
                .hasMessage("Unknown manifest format 'tsv': use csv, jsonl or parquet");
    }

    @Test
    void aDeclaredSchemaMustAgreeWithThePathColumnsAndTheImplicitColumns() throws IOException {
        assertThatThrownBy(() -> ManifestOptions.defaults().withSchema("filename:bigint"))
                .hasMessage("The declared schema's column filename is BIGINT; a manifest's filename must be STRING");
        Path manifest = dir.resolve("m.txt");
        Files.writeString(manifest, "path\nx\n");
        MetadataSchema speech = ManifestOptions.parseSchema("speaker:bigint").withPayloadFields(List.of("wav", "txt"));
        ManifestOptions options = ManifestOptions.defaults().withFormat(ManifestFormat.CSV).withSchema(speech);
        assertThatThrownBy(() -> ManifestSource.open(manifest, options)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("The declared schema's payload fields [wav, txt] are not the fields the path columns "
                        + "give, [data]: map each field to its path column (ManifestOptions.withPayloadColumns)");
    }
}
