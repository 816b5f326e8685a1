package io.layoutbench.layouts.webdataset;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;

import com.fasterxml.jackson.core.JsonPointer;

/**
 * A metadata column read from a sample's JSON member: the column, and the JSON Pointer (RFC 6901) of its value in
 * the document.
 *
 * <pre>{@code
 * JsonColumn label = JsonColumn.of("label", ColumnType.STRING);                        // {"label": "cello"}
 * JsonColumn width = new JsonColumn(new Column("width", ColumnType.BIGINT), "/size/w"); // {"size": {"w": 640}}
 * }</pre>
 *
 * @param column  the metadata column the values go to
 * @param pointer where the value lies in the document, e.g. {@code /label} or {@code /size/w}
 */
public record JsonColumn(Column column, String pointer) {

    public JsonColumn {
        requireNonNull(column, "column is null");
        requireNonNull(pointer, "pointer is null");
        try {
            JsonPointer.compile(pointer);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Invalid JSON Pointer '" + pointer + "' for column " + column.name()
                    + ": " + e.getMessage(), e);
        }
    }

    /** The column {@code name} holding the document's top-level value of the same name. */
    public static JsonColumn of(String name, ColumnType type) {
        return new JsonColumn(new Column(name, type), topLevel(name));
    }

    /** The pointer to the top-level member {@code key} of a JSON object. */
    static String topLevel(String key) {
        return "/" + key.replace("~", "~0").replace("/", "~1");
    }
}
