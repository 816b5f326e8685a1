package io.layoutbench.examples.fusion;

import io.layoutbench.examples.report.FileReports;
import io.layoutbench.examples.report.TextTable;
import io.layoutbench.fusion.pushdown.PushdownResult;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * How {@code fusion query} prints rows: an aligned table, CSV (RFC 4180) or JSON (an array of objects keyed by the
 * SELECT items). Values are printed from what each cell holds exactly ({@link PushdownResult#exact}: text, integers,
 * doubles, DECIMAL values as {@link BigDecimal} to their last digit, booleans, nulls), not from a fixed list of
 * column types, so results with new kinds of columns print unchanged. Decimals are written plainly, never in
 * E-notation.
 */
enum ResultFormat {
    TABLE, CSV, JSON;

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN).build();

    /** Prints the rows of {@code rows} under {@code labels}, one per column. */
    void print(List<String> labels, PushdownResult rows, PrintWriter out) {
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

    private static void table(List<String> labels, PushdownResult rows, PrintWriter out) {
        TextTable table = new TextTable(labels.toArray(String[]::new));
        for (int row = 0; row < rows.rows().rowCount(); row++) {
            table.row(cells(rows, row).toArray());
        }
        out.print(table.render());
    }

    private static void csv(List<String> labels, PushdownResult rows, PrintWriter out) throws IOException {
        FileReports.writeCsvLine(out, labels);
        for (int row = 0; row < rows.rows().rowCount(); row++) {
            FileReports.writeCsvLine(out, cells(rows, row));
        }
    }

    private static void json(List<String> labels, PushdownResult rows, PrintWriter out) throws IOException {
        JsonGenerator json = MAPPER.getFactory().createGenerator(out);
        json.writeStartArray();
        for (int row = 0; row < rows.rows().rowCount(); row++) {
            json.writeStartObject();
            for (int column = 0; column < labels.size(); column++) {
                json.writeFieldName(labels.get(column));
                Object value = rows.rows().isNull(column, row) ? null : rows.exact(column, row);
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

    private static List<String> cells(PushdownResult rows, int row) {
        List<String> cells = new ArrayList<>();
        for (int column = 0; column < rows.rows().schema().columns().size(); column++) {
            cells.add(rows.rows().isNull(column, row) ? "" : FileReports.format(rows.exact(column, row)));
        }
        return cells;
    }
}
