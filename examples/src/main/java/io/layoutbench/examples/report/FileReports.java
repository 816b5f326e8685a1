package io.layoutbench.examples.report;

import io.layoutbench.examples.bench.RunRow;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a {@link BenchReport} as JSON ({@code {"settings": {...}, "rows": [...], "ingest": [...]}}) and the rows
 * as CSV (RFC 4180, a header of {@link Columns#RUN}, UTF-8). Parent directories are created.
 *
 * <pre>{@code
 * FileReports.writeJson(report, Path.of("results/bench.json"));
 * FileReports.writeCsv(report.rows(), Path.of("results/bench.csv"));
 * }</pre>
 */
public final class FileReports {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private FileReports() {
    }

    /** The report as a JSON tree of maps and lists, in column order. */
    public static Map<String, Object> toJsonTree(BenchReport report) {
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("settings", report.settings());
        tree.put("rows", report.rows().stream().map(row -> Columns.toMap(Columns.RUN, row)).toList());
        tree.put("ingest", report.ingest().stream().map(row -> Columns.toMap(Columns.INGEST, row)).toList());
        return tree;
    }

    public static void writeJson(BenchReport report, Path file) {
        try {
            createParent(file);
            JSON.writeValue(file.toFile(), toJsonTree(report));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write JSON report " + file + ": " + e.getMessage(), e);
        }
    }

    public static void writeCsv(List<RunRow> rows, Path file) {
        try {
            createParent(file);
            try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                writeCsv(rows, out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write CSV report " + file + ": " + e.getMessage(), e);
        }
    }

    /** Writes the CSV header and one line per row, lines ending in CRLF as RFC 4180 says. */
    public static void writeCsv(List<RunRow> rows, Writer out) throws IOException {
        writeCsvLine(out, Columns.names(Columns.RUN));
        for (RunRow row : rows) {
            writeCsvLine(out, Columns.RUN.stream().map(column -> format(column.value(row))).toList());
        }
    }

    /** Writes one CSV line of {@code fields}, quoted where needed, ending in CRLF. */
    public static void writeCsvLine(Writer out, List<String> fields) throws IOException {
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) {
                out.write(',');
            }
            out.write(quote(fields.get(i)));
        }
        out.write("\r\n");
    }

    /**
     * A value as CSV (and plain tables) show it: doubles and {@link java.math.BigDecimal}s in plain decimals (every
     * digit of a BigDecimal, no exponent), null as an empty field.
     */
    public static String format(Object value) {
        if (value instanceof Double d) {
            // Shortest decimal that reads back as the same double; no locale, no exponent surprises in Excel.
            return Double.isFinite(d) ? new java.math.BigDecimal(Double.toString(d)).toPlainString() : "";
        }
        if (value instanceof java.math.BigDecimal decimal) {
            return decimal.toPlainString();
        }
        return value == null ? "" : value.toString();
    }

    private static String quote(String field) {
        boolean needsQuotes = field.indexOf(',') >= 0 || field.indexOf('"') >= 0 || field.indexOf('\n') >= 0
                || field.indexOf('\r') >= 0;
        return needsQuotes ? '"' + field.replace("\"", "\"\"") + '"' : field;
    }

    private static void createParent(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
    }
}
