package io.layoutbench.datasets.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.MetadataRow;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/** {@link ManifestSource} over CSV: the contract, and what only text without types does. */
class CsvManifestFormatTest extends ManifestSourceContractTest {

    @Override
    ManifestFormat format() {
        return ManifestFormat.CSV;
    }

    @Override
    void write(Path file, Table table) throws IOException {
        StringBuilder csv = new StringBuilder();
        csv.append(table.columns().stream().map(Col::name).collect(Collectors.joining(","))).append("\r\n");
        for (List<Object> row : table.rows()) {
            csv.append(row.stream().map(CsvManifestFormatTest::field).collect(Collectors.joining(","))).append("\r\n");
        }
        Files.writeString(file, csv, StandardCharsets.UTF_8);
    }

    @Override
    String origin(Path manifest, int row) {
        return manifest + " line " + (row + 2);
    }

    /** A value as CSV writes it: whole doubles as integers (so a column mixes both), quoted when it must be. */
    private static String field(Object value) {
        if (value == null) {
            return "";
        }
        String text = value instanceof Double d && d == Math.rint(d) ? String.valueOf(d.longValue())
                : String.valueOf(value);
        return text.matches(".*[,\"\r\n].*") ? "\"" + text.replace("\"", "\"\"") + "\"" : text;
    }

    private Path csv(String name, String text) throws IOException {
        Path file = dir.resolve("lists").resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }

    @Test
    void textIsClassifiedStrictlyAndBlankIsNull() throws IOException {
        Path manifest = csv("t.csv", "path,id,big,exp,flag,nan,blank\n"
                + "../clips/a.wav,007,99999999999999999999,1e3,TRUE,NaN, \n"
                + "../clips/b.wav,+5,1,.5,False,1,\n");
        ManifestSource source = ManifestSource.open(manifest);
        assertThat(source.schema().columns()).extracting(Column::toString).containsExactly("filename string",
                "id bigint", "big double", "exp double", "flag boolean", "nan string", "blank string",
                "filesize_bytes bigint");
        assertThat(rows(source)).extracting(MetadataRow::values).containsExactly(
                Arrays.asList("clips/a.wav", 7L, 1e20, 1000.0, true, "NaN", null, 100L),
                Arrays.asList("clips/b.wav", 5L, 1.0, 0.5, false, "1", null, 250L));
    }

    @Test
    void aValueThatIsNotOfItsDeclaredTypeFailsNamingLineAndColumn() throws IOException {
        Path manifest = csv("bad.csv", "path,speaker,duration,train\n../clips/a.wav,1,1.5,true\n"
                + "../clips/b.wav,1.5,x,yes\n");
        assertFirstBadRow(manifest, "speaker:bigint", "line 3, column speaker: '1.5' is not a whole number; the "
                + "column is bigint");
        assertFirstBadRow(manifest, "duration:double", "line 3, column duration: 'x' is not a number; the column "
                + "is double");
        assertFirstBadRow(manifest, "train:boolean", "line 3, column train: 'yes' is not true or false; the column "
                + "is boolean");
        assertFirstBadRow(csv("big.csv", "path,n\n../clips/a.wav,99999999999999999999\n"), "n:bigint",
                "line 2, column n: '99999999999999999999' is out of the range of a bigint; the column is bigint");
        assertFirstBadRow(csv("neg.csv", "path,filesize_bytes\n../clips/a.wav,-1\n"), "filesize_bytes:bigint",
                "line 2, column filesize_bytes: -1 is below 0");
    }

    private void assertFirstBadRow(Path manifest, String spec, String message) {
        ManifestSource source = ManifestSource.open(manifest, ManifestOptions.defaults().withSchema(spec)
                .withUndeclaredColumns(ManifestOptions.UndeclaredColumns.IGNORE));
        try (Stream<MetadataRow> rows = source.metadata()) {
            assertThatThrownBy(rows::count).isInstanceOf(IngestException.class).hasMessage(manifest + " " + message);
        }
    }

    @Test
    void malformedCsvFailsOnOpenWhenInferringAndWhileStreamingWhenDeclared() throws IOException {
        Path quote = csv("q.csv", "path,speaker\n../clips/a.wav,1\n\"../clips/b.wav,2\n");
        String open = quote + " line 3, column 1: quoted field is never closed (the input ends inside it)";
        assertThatThrownBy(() -> ManifestSource.open(quote)).isInstanceOf(CsvFormatException.class).hasMessage(open);
        ManifestSource declared = ManifestSource.open(quote, ManifestOptions.defaults().withSchema("speaker:bigint"));
        try (Stream<MetadataRow> rows = declared.metadata()) {
            assertThatThrownBy(rows::count).isInstanceOf(CsvFormatException.class).hasMessage(open);
        }
        Path fields = csv("f.csv", "path,speaker\n../clips/a.wav,1,extra\n");
        assertThatThrownBy(() -> ManifestSource.open(fields)).hasMessage(fields + " line 2: 3 fields, but the "
                + "header has 2");
        Path empty = csv("e.csv", "");
        assertThatThrownBy(() -> ManifestSource.open(empty)).hasMessage("Manifest " + empty + " is empty; expected "
                + "a header row such as 'path,label'");
    }

    @Test
    void invalidColumnNamesFailOrAreMappedDeterministically() throws IOException {
        Path manifest = csv("n.csv", "path,duration (s),2nd speaker,%\n../clips/a.wav,1.5,3,x\n");
        assertThatThrownBy(() -> ManifestSource.open(manifest)).isInstanceOf(IngestException.class)
                .hasMessage(manifest + " line 1: column 2 ('duration (s)') is not a valid column name (letters, "
                        + "digits and underscores, starting with a letter or underscore); rename it, or map such "
                        + "names with ColumnNaming.SANITIZE, which names it duration_s");
        ManifestSource sanitized = ManifestSource.open(manifest, ManifestOptions.defaults()
                .withColumnNaming(ManifestOptions.ColumnNaming.SANITIZE));
        assertThat(sanitized.schema().columns()).extracting(Column::toString).containsExactly("filename string",
                "duration_s double", "_2nd_speaker bigint", "column_4 string", "filesize_bytes bigint");
        ManifestSource renamed = ManifestSource.open(manifest, ManifestOptions.defaults()
                .withColumnNaming(ManifestOptions.ColumnNaming.SANITIZE)
                .withRenames(Map.of("DURATION (S)", "duration", "%", "flag")));
        assertThat(renamed.schema().columns()).extracting(Column::name)
                .containsExactly("filename", "duration", "_2nd_speaker", "flag", "filesize_bytes");

        Path clash = csv("c.csv", "path,duration (s),Duration_S\n../clips/a.wav,1,2\n");
        assertThatThrownBy(() -> ManifestSource.open(clash, ManifestOptions.defaults()
                .withColumnNaming(ManifestOptions.ColumnNaming.SANITIZE)))
                .hasMessage(clash + " line 1: columns 2 ('duration (s)') and 3 ('Duration_S') both give duration_s "
                        + "(as ColumnNaming.SANITIZE maps names); rename one (ManifestOptions.withRenames)");
        assertThatThrownBy(() -> ManifestSource.open(clash, ManifestOptions.defaults().withSchema("duration_s:double")))
                .hasMessage(clash + " line 1: column 'duration (s)' is not in the declared schema (filename, "
                        + "duration_s, filesize_bytes) (ColumnNaming.SANITIZE would map it to the declared "
                        + "duration_s); declare it, or leave such columns out with UndeclaredColumns.IGNORE");
    }

    @Test
    void aMissingPathColumnFailsOnOpenNamingTheColumnsFound() throws IOException {
        Path manifest = csv("p.csv", "file,speaker\n../clips/a.wav,1\n");
        assertThatThrownBy(() -> ManifestSource.open(manifest)).isInstanceOf(IngestException.class)
                .hasMessage(manifest + " line 1: the header has no 'path' or 'filename' column (found: file,speaker)");
        assertThatThrownBy(() -> ManifestSource.open(manifest, ManifestOptions.defaults()
                .withPayloadColumns("wav=audio,txt=file")))
                .hasMessage(manifest + " line 1: the header has no 'audio' column, the path of payload field wav "
                        + "(found: file,speaker)");
        ManifestSource byFilename = ManifestSource.open(csv("f.csv", "filename,speaker\n../clips/a.wav,1\n"));
        assertThat(rows(byFilename)).extracting(r -> r.getString("filename")).containsExactly("clips/a.wav");
    }
}
