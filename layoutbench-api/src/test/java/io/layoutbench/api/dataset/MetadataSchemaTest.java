package io.layoutbench.api.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class MetadataSchemaTest {

    private final MetadataSchema schema = MetadataSchema.imageNet();

    @Test
    void paperColumnNamesAreAliases() {
        assertThat(schema.indexOf("human_label")).hasValue(1);
        assertThat(schema.indexOf("LABEL")).hasValue(1);
        assertThat(schema.indexOf("Width")).hasValue(3);
        assertThat(schema.indexOf("nope")).isEmpty();
    }

    @Test
    void unknownColumnListsTheKnownOnes() {
        assertThatThrownBy(() -> schema.column("size"))
                .hasMessage("Unknown column 'size'; known columns: filename, label (human_label), filesize_bytes,"
                        + " width, height");
    }

    @Test
    void clashingNamesAreRejected() {
        assertThatThrownBy(() -> schema.with(new Column("human_label", ColumnType.STRING)))
                .hasMessage("Column name 'human_label' of column 'human_label' clashes with column 'label'");
        assertThatThrownBy(() -> new Column("bad name", ColumnType.STRING))
                .hasMessageContaining("Invalid column name 'bad name'");
    }

    @Test
    void rowsAreTypeCheckedAndWidened() {
        MetadataRow row = MetadataRow.of(schema, Map.of("filename", "a.jpg", "human_label", "tench",
                "filesize_bytes", 10, "width", 5L, "height", 4L));

        assertThat(row.getLong("filesize_bytes")).isEqualTo(10L);
        assertThat(row.getString("label")).isEqualTo("tench");
        assertThatThrownBy(() -> MetadataRow.of(schema, Map.of("width", "wide")))
                .hasMessage("Column 'width' is BIGINT but the value wide is a String");
        assertThatThrownBy(() -> new MetadataRow(schema, List.of("a.jpg")))
                .hasMessageContaining("Expected 5 values");
    }

    @Test
    void nullsAreAllowedButNotReadAsPrimitives() {
        MetadataRow row = MetadataRow.of(schema, Map.of("filename", "a.jpg"));

        assertThat(row.get("width")).isNull();
        assertThatThrownBy(() -> row.getLong("width")).hasMessage("Column 'width' is null in this row");
    }

    @Test
    void sampleBytesAreReadOnly() {
        MetadataRow row = MetadataRow.of(schema, Map.of("filename", "a.jpg"));
        Sample sample = new Sample(row, ByteBuffer.wrap(new byte[] {1, 2, 3}));

        assertThat(sample.data().isReadOnly()).isTrue();
        assertThat(sample.toByteArray()).containsExactly(1, 2, 3);
        assertThat(sample.filename()).isEqualTo("a.jpg");
    }
}
