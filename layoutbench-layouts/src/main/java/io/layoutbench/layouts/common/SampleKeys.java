package io.layoutbench.layouts.common;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.CorruptDataException;
import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.predicate.ColumnarTable;

import java.util.Locale;
import java.util.Optional;

/**
 * How the layouts name a sample, whatever the schema: the object key of an L1 sample, the member name in an L2
 * shard, the name errors give. A schema with a STRING column {@code filename} (the LayoutBench schema) names each
 * sample by it; any other schema names a sample by its position in the dataset, zero-padded to twelve digits
 * ({@code 000000000042}), so a name is known from the metadata alone and sorts as the samples do.
 *
 * <pre>{@code
 * SampleKeys keys = SampleKeys.of(schema);
 * String name = keys.key(sample.metadata(), position);   // "n01440764_10026.JPEG", or "000000000042"
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 */
public final class SampleKeys {

    private final int filenameColumn;

    private SampleKeys(int filenameColumn) {
        this.filenameColumn = filenameColumn;
    }

    /** The naming of samples of {@code schema}. */
    public static SampleKeys of(MetadataSchema schema) {
        requireNonNull(schema, "schema is null");
        Optional<Column> filename = schema.find(MetadataSchema.FILENAME)
                .filter(c -> c.name().equals(MetadataSchema.FILENAME) && c.type() == ColumnType.STRING);
        return new SampleKeys(filename.isPresent() ? schema.indexOf(MetadataSchema.FILENAME).getAsInt() : -1);
    }

    /** Whether samples are named by their {@code filename} column (else by position). */
    public boolean byFilename() {
        return filenameColumn >= 0;
    }

    /**
     * The name of the sample at {@code position} with metadata {@code row}.
     *
     * @throws IllegalArgumentException if the sample's {@code filename} is NULL
     */
    public String key(MetadataRow row, long position) {
        if (filenameColumn < 0) {
            return positional(position);
        }
        Object name = row.get(filenameColumn);
        if (name == null) {
            throw new IllegalArgumentException("Sample " + position + " has no filename (NULL): the layouts name "
                    + "samples by it");
        }
        return (String) name;
    }

    /**
     * The name of row {@code row} of a dataset's metadata table.
     *
     * @throws CorruptDataException naming the row if its {@code filename} is NULL
     */
    public String key(ColumnarTable table, int row) {
        if (filenameColumn < 0) {
            return positional(row);
        }
        String name = table.getString(filenameColumn, row);
        if (name == null) {
            throw new CorruptDataException("Row " + row + " of the metadata table has no filename (NULL)");
        }
        return name;
    }

    /** A sample's name for errors: its filename, or "row N" of {@code table} when it has none. */
    public String describe(ColumnarTable table, int row) {
        if (filenameColumn < 0 || table.isNull(filenameColumn, row)) {
            return "row " + row;
        }
        return table.getString(filenameColumn, row);
    }

    /** The name of the sample at {@code position} of a schema without a filename column: {@code 000000000042}. */
    public static String positional(long position) {
        return String.format(Locale.ROOT, "%012d", position);
    }

    @Override
    public String toString() {
        return filenameColumn >= 0 ? "SampleKeys[filename]" : "SampleKeys[position]";
    }
}
