package io.layoutbench.datasets.ingest;

import static java.util.Objects.requireNonNull;

import java.io.Closeable;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;

/**
 * A streaming reader of RFC 4180 CSV: comma-separated fields, records ended by CRLF or LF (the last one may be
 * unterminated), fields in double quotes may hold commas, line breaks and doubled quotes ({@code ""}). A UTF-8 byte
 * order mark before the first field is dropped and blank lines are skipped, as spreadsheet exports need.
 *
 * <p>Stricter than lenient readers on purpose, since a manifest that parses wrongly puts files under wrong labels: a
 * quote inside an unquoted field, text after a closing quote and a quote left open at the end of input are errors
 * naming the source, line and column.
 *
 * <pre>{@code
 * try (CsvReader csv = new CsvReader(Files.newBufferedReader(path), path.toString())) {
 *     for (List<String> record = csv.next(); record != null; record = csv.next()) {
 *         System.out.println("line " + csv.recordLine() + ": " + record);
 *     }
 * }
 * }</pre>
 *
 * <p>Not thread-safe.
 */
public final class CsvReader implements Closeable {

    private final Reader in;
    private final String source;
    private int line = 1;
    private int column = 0;
    private int recordLine;
    private int peeked = -2;
    private boolean started;

    /**
     * @param in     the text; buffered by the caller if it is a file (this reader reads one char at a time)
     * @param source names the input in error messages, for example the manifest's path
     */
    public CsvReader(Reader in, String source) {
        this.in = requireNonNull(in, "in is null");
        this.source = requireNonNull(source, "source is null");
    }

    /**
     * The next record's fields, or null at the end of input.
     *
     * @throws CsvFormatException if the record is not valid RFC 4180
     * @throws IOException        if reading fails
     */
    public List<String> next() throws IOException {
        if (!started) {
            started = true;
            if (peek() == '\uFEFF') {
                read();
                column = 0;
            }
        }
        // Blank lines carry no record.
        while (peek() == '\r' || peek() == '\n') {
            readLineBreak();
        }
        if (peek() < 0) {
            return null;
        }
        recordLine = line;
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        while (true) {
            int c = peek();
            if (c == '"') {
                if (field.length() > 0) {
                    throw error(line, column + 1, "quote inside an unquoted field; quote the whole field and "
                            + "double the quotes inside it");
                }
                readQuoted(field);
                c = peek();
                if (c != ',' && c != '\r' && c != '\n' && c >= 0) {
                    throw error(line, column + 1, "'" + (char) c + "' after a closing quote; expected a comma or "
                            + "the end of the line");
                }
                continue;
            }
            if (c == ',') {
                read();
                fields.add(field.toString());
                field.setLength(0);
                continue;
            }
            if (c < 0 || c == '\r' || c == '\n') {
                fields.add(field.toString());
                if (c >= 0) {
                    readLineBreak();
                }
                return fields;
            }
            field.append((char) read());
        }
    }

    /** The line on which the last record returned by {@link #next()} started (1-based). */
    public int recordLine() {
        return recordLine;
    }

    /** Names the input in error messages. */
    public String source() {
        return source;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    private void readQuoted(StringBuilder field) throws IOException {
        int startLine = line;
        int startColumn = column + 1;
        read(); // opening quote
        while (true) {
            int c = read();
            if (c < 0) {
                throw error(startLine, startColumn, "quoted field is never closed (the input ends inside it)");
            }
            if (c == '"') {
                if (peek() == '"') {
                    read();
                    field.append('"');
                    continue;
                }
                return;
            }
            if (c == '\r' && peek() == '\n') {
                read();
                field.append("\r\n");
                newLine();
                continue;
            }
            field.append((char) c);
            if (c == '\n' || c == '\r') {
                newLine();
            }
        }
    }

    private void readLineBreak() throws IOException {
        int c = read();
        if (c == '\r' && peek() == '\n') {
            read();
        }
        newLine();
    }

    private void newLine() {
        line++;
        column = 0;
    }

    private int peek() throws IOException {
        if (peeked == -2) {
            peeked = in.read();
        }
        return peeked;
    }

    private int read() throws IOException {
        int c = peek();
        peeked = -2;
        if (c >= 0) {
            column++;
        }
        return c;
    }

    private CsvFormatException error(int atLine, int atColumn, String reason) {
        return new CsvFormatException(source + " line " + atLine + ", column " + atColumn + ": " + reason);
    }
}
