package io.layoutbench.examples.fusion;

import io.layoutbench.api.predicate.ColumnarTable;
import io.layoutbench.examples.report.FileReports;
import io.layoutbench.examples.report.TextTable;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * How {@code fusion query} prints rows: an aligned table, CSV (RFC 4180) or JSON (an array of objects keyed by the
 * SELECT items). Values are printed from what each cell holds (text, integers, doubles, decimals, booleans, nulls),
 * not from a fixed list of column types, so results with new kinds of columns print unchanged.
 */
enum ResultFormat {
    TABLE, CSV, JSON;

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** Prints {@code rows} under {@code labels}, one per column. */
    void print(List<String> labels, ColumnarTable rows, PrintWriter out) {
        try {
            switch (this) {
                case TABLE -> table(labels, rows, out);
                case CSV -> csv(labels, rows, out);
                case JSON -> json(labels, rows, out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot print the query's rows: " + e.getMessage(), e);
        }
        out.flush();
    }

    private static void table(List<String> labels, ColumnarTable rows, PrintWriter out) {
        TextTable table = new TextTable(labels.toArray(String[]::new));
        for (int row = 0; row < rows.rowCount(); row++) {
            table.row(cells(rows, row).toArray());
        }
        out.print(table.render());
    }

    private static void csv(List<String> labels, ColumnarTable rows, PrintWriter out) throws IOException {
        FileReports.writeCsvLine(out, labels);
        for (int row = 0; row < rows.rowCount(); row++) {
            FileReports.writeCsvLine(out, cells(rows, row));
        }
    }

    private static void json(List<String> labels, ColumnarTable rows, PrintWriter out) throws IOException {
        JsonGenerator json = MAPPER.getFactory().createGenerator(out);
        json.writeStartArray();
        for (int row = 0; row < rows.rowCount(); row++) {
            json.writeStartObject();
            for (int column = 0; column < labels.size(); column++) {
                json.writeFieldName(labels.get(column));
                Object value = rows.isNull(column, row) ? null : rows.get(column, row);
                if (value instanceof Double d && !Double.isFinite(d)) {
                    json.writeString(d.toString());   // NaN and infinities are not JSON numbers
                } else if (value instanceof Double d) {
                    json.writeNumber(new BigDecimal(Double.toString(d)));
                } else {
                    MAPPER.writeValue(json, value);
                }
            }
            json.writeEndObject();
        }
        json.writeEndArray();
        json.flush();
        out.println();
    }

    private static List<String> cells(ColumnarTable rows, int row) {
        List<String> cells = new ArrayList<>();
        for (int column = 0; column < rows.schema().columns().size(); column++) {
            cells.add(rows.isNull(column, row) ? "" : FileReports.format(rows.get(column, row)));
        }
        return cells;
    }
}
