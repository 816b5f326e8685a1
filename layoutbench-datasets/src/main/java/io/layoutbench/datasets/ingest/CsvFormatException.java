package io.layoutbench.datasets.ingest;

/**
 * CSV text that is not valid RFC 4180, with the source, line and column in the message.
 *
 * <pre>{@code
 * try {
 *     csv.next();
 * } catch (CsvFormatException e) {
 *     // "labels.csv line 7, column 12: quoted field is never closed (the input ends inside it)"
 * }
 * }</pre>
 */
public class CsvFormatException extends IngestException {
    private static final long serialVersionUID = 1L;

    public CsvFormatException(String message) {
        super(message);
    }
}
