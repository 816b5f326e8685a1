package io.layoutbench.layouts.common;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.Blob;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.ColumnVector;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.parquet.ParquetTableSchema;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the layouts keep each payload field's size and checksum (and, in L2, offset) beside a sample's metadata,
 * and how they name its stored copy, for any schema's {@link MetadataSchema#payloadFields() payload fields}.
 *
 * <p>A dataset with the one field {@value Sample#DATA} (the LayoutBench datasets) keeps the paper's tables column for
 * column: {@code crc32c}, the size in {@code filesize_bytes} (or {@code data_size}), L2's {@code data_offset}, and
 * a sample stored under its name. With several fields each field {@code f} has columns {@code f_crc32c},
 * {@code f_size} (NULL where a sample lacks the field) and {@code f_offset} (l3: {@code f_bytes} and
 * {@code f_blob_offset}), {@code f} written with every character but letters, digits and {@code _} as {@code _}
 * ({@code seg.png} gives {@code seg_png_size}; a name starting with a digit gets an {@code f} in front: {@code 3d}
 * gives {@code f3d_size}); a field's stored copy is named {@code <sample name>.<field>}, as WebDataset names tar
 * members.
 *
 * <pre>{@code
 * PayloadColumns payload = PayloadColumns.of(schema);
 * for (int f = 0; f < payload.count(); f++) table.extraColumn(payload.size(f), ColumnType.BIGINT);
 * String member = key + payload.suffix(f);            // "0001.jpg", or "0001" for the one field "data"
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 */
public final class PayloadColumns {

    /** L2's offset column of the one field {@value Sample#DATA}, the paper's name. */
    public static final String DATA_OFFSET = "data_offset";

    private final MetadataSchema schema;
    private final boolean single;
    private final List<String> bases;

    private PayloadColumns(MetadataSchema schema) {
        this.schema = schema;
        this.single = schema.singleDataField();
        this.bases = new ArrayList<>();
        for (String field : schema.payloadFields()) {
            String base = field.replaceAll("[^A-Za-z0-9_]", "_");
            if (Character.isDigit(base.charAt(0))) {
                base = "f" + base;   // a column name starts with a letter or underscore
            }
            for (int i = 0; i < bases.size(); i++) {
                if (bases.get(i).equalsIgnoreCase(base)) {
                    throw new IllegalArgumentException("Payload fields '" + schema.payloadFields().get(i) + "' and '"
                            + field + "' would share the column names " + base + "_*: rename one");
                }
            }
            bases.add(base);
        }
    }

    /** The payload columns of datasets of {@code schema}. */
    public static PayloadColumns of(MetadataSchema schema) {
        return new PayloadColumns(requireNonNull(schema, "schema is null"));
    }

    /**
     * Checks that a layout's model can plan datasets of {@code schema}: the models plan samples of one payload field.
     *
     * @throws IllegalArgumentException naming the layout and the fields otherwise
     */
    public static void requireSingleField(MetadataSchema schema, String layout) {
        if (schema.payloadFields().size() != 1) {
            throw new IllegalArgumentException("The " + layout + " model plans datasets whose samples have one payload"
                    + " field; this one has " + schema.payloadFields());
        }
    }

    /** Whether the dataset has the one field {@value Sample#DATA} and the paper's column names. */
    public boolean single() {
        return single;
    }

    /** Number of payload fields. */
    public int count() {
        return bases.size();
    }

    /** The name of field {@code field}. */
    public String field(int field) {
        return schema.payloadFields().get(field);
    }

    /** The position of field {@code name} among the schema's fields. */
    public int indexOf(String name) {
        int index = schema.payloadFields().indexOf(name);
        if (index < 0) {
            throw new IllegalArgumentException("The dataset has no payload field '" + name + "'; its fields are "
                    + schema.payloadFields());
        }
        return index;
    }

    /** The positions of fields {@code names}, in the order given. */
    public int[] indexesOf(List<String> names) {
        return names.stream().mapToInt(this::indexOf).toArray();
    }

    /** Column of field {@code field}'s CRC32C (unsigned, in a BIGINT). */
    public String checksum(int field) {
        return single ? MetadataParquet.CRC32C : bases.get(field) + "_crc32c";
    }

    /** Column of field {@code field}'s size in bytes, NULL where a sample lacks it. */
    public String size(int field) {
        return single ? MetadataParquet.sizeColumn(schema) : bases.get(field) + "_size";
    }

    /** Whether {@link #size} is a column the layout adds (else it is the schema's own {@code filesize_bytes}). */
    public boolean sizeIsExtra(int field) {
        return !single || !MetadataParquet.schemaHoldsSize(schema);
    }

    /** L2's column of where field {@code field}'s bytes start in the sample's shard. */
    public String offset(int field) {
        return single ? DATA_OFFSET : bases.get(field) + "_offset";
    }

    /**
     * L3's column of where field {@code field}'s bytes start in its part's blob file, for a field stored out of
     * line (NULL for a field in the row's blob).
     */
    public String blobOffset(int field) {
        return (single ? Sample.DATA : bases.get(field)) + "_blob_offset";
    }

    /** L3's blob column of field {@code field} in a dataset of several fields: {@code <f>_bytes}. */
    public String blobColumn(int field) {
        return bases.get(field) + "_bytes";
    }

    /** What follows a sample's name in the name of field {@code field}'s stored copy: "" or ".field". */
    public String suffix(int field) {
        return single ? "" : "." + field(field);
    }

    /** Adds each field's checksum and (where extra) size column to {@code table}, in field order. */
    public ParquetTableSchema.Builder addChecksumsAndSizes(ParquetTableSchema.Builder table) {
        for (int f = 0; f < count(); f++) {
            table.extraColumn(checksum(f), ColumnType.BIGINT);
            if (sizeIsExtra(f)) {
                table.extraColumn(size(f), ColumnType.BIGINT);
            }
        }
        return table;
    }

    /** The values of {@link #addChecksumsAndSizes}'s columns for one sample, NULL for a field it lacks. */
    public List<Object> checksumsAndSizes(Sample sample, int[] checksums) {
        List<Object> values = new ArrayList<>(2 * count());
        for (int f = 0; f < count(); f++) {
            Blob blob = sample.fields().get(field(f));
            values.add(blob == null ? null : MetadataParquet.stored(checksums[f]));
            if (sizeIsExtra(f)) {
                values.add(blob == null ? null : blob.size());
            }
        }
        return values;
    }

    /**
     * Each field's sizes from a metadata table, {@code -1} where a row lacks the field: {@code sizes[field][row]}.
     */
    public long[][] sizes(ColumnsOfTable table) {
        long[][] sizes = new long[count()][];
        for (int f = 0; f < count(); f++) {
            sizes[f] = table.longsOrMinusOne(size(f));
        }
        return sizes;
    }

    /**
     * Each field's checksums from a metadata table as stored (unsigned, what {@link
     * io.layoutbench.layouts.retrieval.FieldRead#crc32c()} takes), {@code -1} where a row lacks the field:
     * {@code checksums[field][row]}. The table's arrays, not copies, where they hold no NULL.
     */
    public long[][] checksums(ColumnsOfTable table) {
        long[][] checksums = new long[count()][];
        for (int f = 0; f < count(); f++) {
            checksums[f] = table.longsOrMinusOne(checksum(f));
        }
        return checksums;
    }

    /**
     * A BIGINT column's values with NULL (a field a row lacks) as -1: its own array where it holds no NULL, else a
     * copy. Sizes, offsets and stored checksums are never negative, so -1 is free.
     */
    public static long[] orMinusOne(ColumnVector.Longs values) {
        if (!values.hasNulls()) {
            return values.values();
        }
        long[] copy = values.values().clone();
        for (int row = 0; row < copy.length; row++) {
            if (values.isNull(row)) {
                copy[row] = -1;
            }
        }
        return copy;
    }

    /** A table's BIGINT columns by name, NULL read as -1: a metadata table or an L3 row group. */
    public interface ColumnsOfTable {
        long[] longsOrMinusOne(String column);
    }
}
