package io.layoutbench.datasets.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.MetadataRow;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/** {@link ManifestSource} over JSON Lines: the contract, and what only typed JSON values and keys do. */
class JsonLinesManifestFormatTest extends ManifestSourceContractTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    ManifestFormat format() {
        return ManifestFormat.JSON_LINES;
    }

    /**
     * One object a line. A NULL is {@code null} on even rows and a missing key on odd ones (both are NULL); whole
     * doubles are written as integers, so a column mixes both.
     */
    @Override
    void write(Path file, Table table) throws IOException {
        StringBuilder lines = new StringBuilder();
        for (int r = 0; r < table.rows().size(); r++) {
            ObjectNode object = JSON.createObjectNode();
            for (int c = 0; c < table.columns().size(); c++) {
                String key = table.columns().get(c).name();
                Object value = table.rows().get(r).get(c);
                if (value == null) {
                    if (r % 2 == 0) {
                        object.putNull(key);
                    }
                } else if (value instanceof Double d && d == Math.rint(d)) {
                    object.put(key, d.longValue());
                } else {
                    object.set(key, JSON.valueToTree(value));
                }
            }
            lines.append(JSON.writeValueAsString(object)).append('\n');
        }
        Files.writeString(file, lines, StandardCharsets.UTF_8);
    }

    @Override
    String origin(Path manifest, int row) {
        return manifest + " line " + (row + 1);
    }

    private Path jsonl(String name, String text) throws IOException {
        Path file = dir.resolve("lists").resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }

    @Test
    void jsonStringsStayStringsNestedObjectsAreFlattenedAndKeysMayComeLate() throws IOException {
        Path manifest = jsonl("t.jsonl", "\uFEFF{\"path\": \"../clips/a.wav\", \"id\": \"007\", \"big\": "
                + "99999999999999999999, \"meta\": {\"speaker\": 1, \"lang\": {\"code\": \"en\"}}}\n"
                + "\n"
                + "{\"path\": \"../clips/b.wav\", \"id\": \"8\", \"big\": 1, \"late\": true}\n");
        ManifestSource source = ManifestSource.open(manifest);
        assertThat(source.schema().columns()).extracting(Column::toString).containsExactly("filename string",
                "id string", "big double", "meta_speaker bigint", "meta_lang_code string", "late boolean",
                "filesize_bytes bigint");
        assertThat(rows(source)).extracting(MetadataRow::values).containsExactly(
                Arrays.asList("clips/a.wav", "007", 1e20, 1L, "en", null, 100L),
                Arrays.asList("clips/b.wav", "8", 1.0, null, null, true, 250L));
    }

    @Test
    void aValueThatIsNotOfItsDeclaredTypeFailsNamingLineAndColumn() throws IOException {
        Path manifest = jsonl("bad.jsonl", "{\"path\": \"../clips/a.wav\", \"speaker\": \"12\", \"train\": "
                + "\"TRUE\"}\n{\"path\": \"../clips/b.wav\", \"speaker\": 1.5, \"train\": 1}\n");
        assertFirstBadRow(manifest, "speaker:bigint", "line 2, column speaker: 1.5 (a number) is not a whole number; "
                + "the column is bigint");
        assertFirstBadRow(manifest, "train:boolean", "line 2, column train: 1 (a whole number) is not true or false; "
                + "the column is boolean");
        assertFirstBadRow(jsonl("s.jsonl", "{\"path\": \"../clips/a.wav\", \"speaker\": \"x\"}\n"), "speaker:double",
                "line 1, column speaker: 'x' is not a number; the column is double");
        assertFirstBadRow(jsonl("p.jsonl", "{\"path\": 3}\n"), "speaker:double",
                "line 1, column path: 3 is not a path; a path column holds text");
        ManifestSource lenient = ManifestSource.open(manifest, ManifestOptions.defaults()
                .withSchema("speaker:bigint,train:boolean"));
        try (Stream<MetadataRow> rows = lenient.metadata()) {
            assertThat(rows.limit(1).map(MetadataRow::values)).as("strings that spell a value of the type")
                    .containsExactly(Arrays.asList("clips/a.wav", 12L, true, 100L));
        }
    }

    private void assertFirstBadRow(Path manifest, String spec, String message) {
        ManifestSource source = ManifestSource.open(manifest, ManifestOptions.defaults().withSchema(spec)
                .withUndeclaredColumns(ManifestOptions.UndeclaredColumns.IGNORE));
        try (Stream<MetadataRow> rows = source.metadata()) {
            assertThatThrownBy(rows::count).isInstanceOf(IngestException.class).hasMessage(manifest + " " + message);
        }
    }

    @Test
    void malformedLinesFailNamingLineAndColumn() throws IOException {
        assertOpenFails("{\"path\": \"../clips/a.wav\"}\n{\"path\": \"b\",}\n", "line 2, column 14: malformed "
                + "JSON: Unexpected character ('}' (code 125)): was expecting double-quote to start field name");
        assertOpenFails("{\"path\": \"../clips/a.wav\"}\n[\"b\"]\n", "line 2: expected a JSON object, found an array");
        assertOpenFails("{\"path\": \"a\", \"path\": \"b\"}\n", "line 1, column 21: malformed JSON: Duplicate "
                + "field 'path'");
        assertOpenFails("{\"path\": \"a\"} {\"path\": \"b\"}\n", "line 1, column 15: malformed JSON: text "
                + "after the object; a line holds one JSON object");
        assertOpenFails("{\"path\": \"a\", \"tags\": {\"x\": [1, 2]}}\n", "line 1, key 'tags.x': an array; a "
                + "manifest value is a string, number, boolean or null (nested objects are flattened to a_b columns, "
                + "arrays are not)");
        assertOpenFails("{\"path\": \"a\", \"a_b\": 1, \"a\": {\"b\": 2}}\n", "line 1: keys 'a_b' and 'a.b' both "
                + "flatten to column a_b");
        Path empty = jsonl("empty.jsonl", "\n");
        assertThatThrownBy(() -> ManifestSource.open(empty)).hasMessage("Manifest " + empty + " has no rows to infer "
                + "a schema from; declare one (ManifestOptions.withSchema)");
    }

    private void assertOpenFails(String text, String message) throws IOException {
        Path manifest = jsonl("bad.jsonl", text);
        assertThatThrownBy(() -> ManifestSource.open(manifest)).isInstanceOf(IngestException.class)
                .hasMessage(manifest + " " + message);
        ManifestSource declared = ManifestSource.open(manifest, ManifestOptions.defaults().withSchema("x:string")
                .withUndeclaredColumns(ManifestOptions.UndeclaredColumns.IGNORE));
        try (Stream<MetadataRow> rows = declared.metadata()) {
            assertThatThrownBy(rows::count).as("while streaming").hasMessage(manifest + " " + message);
        }
    }

    @Test
    void keysAreNamedLikeColumnsAndAnUndeclaredKeyFailsAtItsLine() throws IOException {
        Path manifest = jsonl("k.jsonl", "{\"path\": \"../clips/a.wav\", \"duration (s)\": 1.5}\n"
                + "{\"path\": \"../clips/b.wav\", \"duration (s)\": 2, \"Speaker\": 4}\n");
        assertThatThrownBy(() -> ManifestSource.open(manifest)).hasMessage(manifest + ": column ('duration (s)') is "
                + "not a valid column name (letters, digits and underscores, starting with a letter or underscore); "
                + "rename it, or map such names with ColumnNaming.SANITIZE, which names it duration_s");
        ManifestSource sanitized = ManifestSource.open(manifest, ManifestOptions.defaults()
                .withColumnNaming(ManifestOptions.ColumnNaming.SANITIZE));
        assertThat(sanitized.schema().columns()).extracting(Column::toString).containsExactly("filename string",
                "duration_s double", "Speaker bigint", "filesize_bytes bigint");

        ManifestSource declared = ManifestSource.open(manifest, ManifestOptions.defaults()
                .withSchema("duration_s:double").withColumnNaming(ManifestOptions.ColumnNaming.SANITIZE));
        try (Stream<MetadataRow> rows = declared.metadata()) {
            assertThatThrownBy(rows::count).hasMessage(manifest + " line 2: column 'Speaker' is not in the declared "
                    + "schema (filename, duration_s, filesize_bytes); declare it, or leave such columns out with "
                    + "UndeclaredColumns.IGNORE");
        }
        Path twice = jsonl("twice.jsonl", "{\"path\": \"../clips/a.wav\", \"Path\": \"../clips/b.wav\"}\n");
        ManifestSource cased = ManifestSource.open(twice, ManifestOptions.defaults().withSchema("x:string")
                .withUndeclaredColumns(ManifestOptions.UndeclaredColumns.IGNORE));
        try (Stream<MetadataRow> rows = cased.metadata()) {
            assertThatThrownBy(rows::count).hasMessage(twice + " line 1: columns 'path' and 'Path' both give the path "
                    + "of payload field data");
        }
        assertThat(List.of(sanitized.toString())).allMatch(s -> s.startsWith("ManifestSource[" + manifest));
    }
}
