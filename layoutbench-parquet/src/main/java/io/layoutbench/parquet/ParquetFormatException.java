package io.layoutbench.parquet;

import io.layoutbench.api.LayoutBenchException;

/**
 * A Parquet object is not what it must be to be read here: a bad magic, a truncated footer, a page header that
 * overruns its column chunk, or a feature this package does not read (a compressed or dictionary-encoded blob
 * column, a nested schema). The message names the object key and, where known, the offset, the row group and the
 * column at fault.
 *
 * <pre>{@code
 * try {
 *     ParquetObject.open(backend, "l3/part-00000.parquet");
 * } catch (ParquetFormatException e) {
 *     log.error("not a readable table: {}", e.getMessage());
 * }
 * }</pre>
 */
public class ParquetFormatException extends LayoutBenchException {
    private static final long serialVersionUID = 1L;

    public ParquetFormatException(String message) {
        super(message);
    }

    public ParquetFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
