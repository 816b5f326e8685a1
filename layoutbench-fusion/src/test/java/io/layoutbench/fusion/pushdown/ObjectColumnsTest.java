package io.layoutbench.fusion.pushdown;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.parquet.ParquetObject;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.apache.parquet.format.ConvertedType;
import org.apache.parquet.format.DecimalType;
import org.apache.parquet.format.FieldRepetitionType;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.LogicalType;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.Type;
import org.apache.parquet.format.Util;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ObjectColumnsTest {

    @Test
    void anUnreadDecimalSaysWhyItIsUnread(@TempDir Path dir) throws Exception {
        // No writer at hand stores a DECIMAL of 18 digits or fewer in more than 8 bytes (DuckDB writes INT64), so
        // the footer is written directly: no row groups, only the schema matters.
        ObjectColumns columns = columns(dir, decimal("padded", 16, 10, 2), decimal("wide", 16, 38, 2),
                decimal("fixed", 5, 9, 2));
        assertThatThrownBy(() -> columns.checkSupported(Set.of("padded")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Column padded of footer.parquet is DECIMAL(10,2) stored in 16-byte FIXED_LEN_BYTE_ARRAY"
                        + " values (wider than the 8 bytes of a 64-bit integer, although its 10 digits fit one),"
                        + " which pushdown does not read (it reads integers, floating point, strings, booleans,"
                        + " dates and decimals)");
        assertThatThrownBy(() -> columns.checkSupported(Set.of("wide")))
                .hasMessageStartingWith("Column wide of footer.parquet is DECIMAL(38,2) (wider than the 18 digits a"
                        + " 64-bit integer holds), which pushdown does not read");
        columns.checkSupported(Set.of("fixed"));   // 5 bytes: read as its unscaled integers
    }

    private static SchemaElement decimal(String name, int bytes, int precision, int scale) {
        SchemaElement element = new SchemaElement(name);
        element.setType(Type.FIXED_LEN_BYTE_ARRAY);
        element.setType_length(bytes);
        element.setRepetition_type(FieldRepetitionType.REQUIRED);
        element.setConverted_type(ConvertedType.DECIMAL);
        element.setPrecision(precision);
        element.setScale(scale);
        element.setLogicalType(LogicalType.DECIMAL(new DecimalType(scale, precision)));
        return element;
    }

    /** The columns of a Parquet file of no rows with {@code fields}: magic, footer, footer length, magic. */
    private static ObjectColumns columns(Path dir, SchemaElement... fields) throws Exception {
        SchemaElement root = new SchemaElement("schema");
        root.setNum_children(fields.length);
        List<SchemaElement> schema = new ArrayList<>(List.of(root));
        schema.addAll(List.of(fields));
        ByteArrayOutputStream footer = new ByteArrayOutputStream();
        Util.writeFileMetaData(new FileMetaData(1, schema, 0, List.of()), footer);
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        byte[] magic = "PAR1".getBytes(StandardCharsets.US_ASCII);
        file.write(magic);
        footer.writeTo(file);
        file.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(footer.size()).array());
        file.write(magic);
        Path path = dir.resolve("footer.parquet");
        Files.write(path, file.toByteArray());
        MemoryBackend backend = new MemoryBackend();
        backend.put("footer.parquet", path);
        return new ObjectColumns(ParquetObject.open(backend, "footer.parquet").footer());
    }
}
