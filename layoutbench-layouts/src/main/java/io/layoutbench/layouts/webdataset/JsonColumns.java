package io.layoutbench.layouts.webdataset;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.PayloadFields;
import io.layoutbench.api.layout.RangeCoalescer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * Metadata columns read from one JSON payload field of each sample ({@code json} in most WebDataset shards): the
 * members' bytes are fetched by ranged reads, merged per shard with {@link RangeCoalescer}, and parsed with
 * Jackson into STRING, BIGINT, DOUBLE and BOOLEAN values; a value that is absent or JSON {@code null}, and every
 * value of a sample without the field, is null.
 *
 * <p>A value must fit its column: BIGINT takes integers that fit a {@code long}, DOUBLE any number, BOOLEAN
 * {@code true}/{@code false}, STRING any scalar (numbers and booleans as their JSON text); an object or array, or a
 * mismatch, fails. A document that is not a JSON object, is malformed, or repeats a key fails with a
 * {@link ShardFormatException} naming the shard, the member and the offset of the fault.
 *
 * <p>Columns are named ({@link #of}) or inferred ({@link #infer}) from the first samples' top-level scalar values:
 * integers give BIGINT, integers and fractions DOUBLE, booleans BOOLEAN, anything else or a mix STRING; nested
 * objects and arrays are left out (name them with a JSON Pointer). Keys that are not column names become ones:
 * characters other than letters, digits and {@code _} turn into {@code _}, and a leading digit gets a {@code _}.
 *
 * <p>Immutable and thread-safe.
 *
 * <pre>{@code
 * List<ShardSample> samples = SampleGrouping.WEBDATASET.samples(index);
 * JsonColumns json = JsonColumns.infer(backend, "json", samples, 100);
 * List<List<Object>> values = json.read(backend, samples);   // one row per sample, in json.columns() order
 * }</pre>
 */
public final class JsonColumns {

    /** Samples {@link #infer} looks at when asked through the {@link #infer(ObjectBackend, String, List)} form. */
    public static final int DEFAULT_INFER_SAMPLES = 100;
    /** The largest JSON member read: a metadata document, not a payload. */
    public static final long MAX_DOCUMENT_BYTES = 16L << 20;
    /** Member data of at most this many bytes between two JSON members is read through, not a second request. */
    public static final long COALESCE_GAP_BYTES = TarIndexOptions.DEFAULT_READ_THROUGH_BYTES;
    private static final int MAX_IN_FLIGHT = 16;

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private final String field;
    private final List<JsonColumn> columns;
    private final List<JsonPointer> pointers;

    private JsonColumns(String field, List<JsonColumn> columns) {
        this.field = PayloadFields.check(field);
        this.columns = List.copyOf(requireNonNull(columns, "columns is null"));
        Map<String, JsonColumn> byName = new HashMap<>();
        List<JsonPointer> compiled = new ArrayList<>(this.columns.size());
        for (JsonColumn column : this.columns) {
            JsonColumn clash = byName.putIfAbsent(column.column().name().toLowerCase(Locale.ROOT), column);
            if (clash != null) {
                throw new IllegalArgumentException("Columns '" + clash.column().name() + "' (" + clash.pointer()
                        + ") and '" + column.column().name() + "' (" + column.pointer()
                        + ") have the same name; name the columns with JsonColumns.of");
            }
            compiled.add(JsonPointer.compile(column.pointer()));
        }
        this.pointers = List.copyOf(compiled);
    }

    /** The columns {@code columns}, read from the payload field {@code field}. */
    public static JsonColumns of(String field, List<JsonColumn> columns) {
        return new JsonColumns(field, columns);
    }

    /** Columns inferred from the first {@value #DEFAULT_INFER_SAMPLES} samples that have the field. */
    public static JsonColumns infer(ObjectBackend backend, String field, List<ShardSample> samples) {
        return infer(backend, field, samples, DEFAULT_INFER_SAMPLES);
    }

    /**
     * Columns inferred from the top-level scalar values of the first {@code sampleCount} samples that have the
     * field {@code field}, in the order their keys first appear.
     *
     * @throws ShardFormatException     if a document read is not a JSON object
     * @throws IllegalArgumentException if two keys make the same column name
     */
    public static JsonColumns infer(ObjectBackend backend, String field, List<ShardSample> samples,
            int sampleCount) {
        PayloadFields.check(field);
        if (sampleCount < 1) {
            throw new IllegalArgumentException("sampleCount must be at least 1, got " + sampleCount);
        }
        List<ShardSample> first = samples.stream().filter(s -> s.fields().containsKey(field)).limit(sampleCount)
                .toList();
        Map<String, ColumnType> types = new LinkedHashMap<>();
        Map<String, Boolean> scalar = new HashMap<>();
        forEachDocument(backend, field, first, (index, location, document) -> {
            for (Map.Entry<String, JsonNode> property : document.properties()) {
                JsonNode value = property.getValue();
                String key = property.getKey();
                boolean isScalar = value.isValueNode();
                if (!scalar.merge(key, isScalar, Boolean::logicalAnd)) {
                    types.remove(key);
                } else if (!value.isNull()) {
                    types.merge(key, typeOf(value), JsonColumns::wider);
                } else {
                    types.putIfAbsent(key, null);
                }
            }
        });
        List<JsonColumn> columns = new ArrayList<>();
        types.forEach((key, type) -> columns.add(new JsonColumn(new Column(columnName(key),
                type == null ? ColumnType.STRING : type), JsonColumn.topLevel(key))));
        return new JsonColumns(field, columns);
    }

    /** The payload field the documents are read from. */
    public String field() {
        return field;
    }

    public List<JsonColumn> columns() {
        return columns;
    }

    /** The metadata columns, in order, for a {@link io.layoutbench.api.dataset.MetadataSchema}. */
    public List<Column> metadataColumns() {
        return columns.stream().map(JsonColumn::column).toList();
    }

    /**
     * The column values of every sample, in the order of {@code samples}: one list per sample, in
     * {@link #columns()} order, with nulls for absent values (all null when the sample has no such field).
     *
     * @throws ShardFormatException if a document is malformed, too large, or has a value that does not fit its
     *                              column
     */
    public List<List<Object>> read(ObjectBackend backend, List<ShardSample> samples) {
        List<List<Object>> rows = new ArrayList<>(Collections.nCopies(samples.size(), nulls()));
        forEachDocument(backend, field, samples, (index, location, document) ->
                rows.set(index, values(document, location)));
        return Collections.unmodifiableList(rows);
    }

    /**
     * The column values of one document, read from {@code location}.
     *
     * @param document the document's bytes (its remaining bytes)
     */
    public List<Object> values(ByteBuffer document, FieldLocation location) {
        return values(parse(document, location), location);
    }

    private List<Object> values(JsonNode document, FieldLocation location) {
        Object[] values = new Object[columns.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = value(document.at(pointers.get(i)), columns.get(i), location);
        }
        return Collections.unmodifiableList(Arrays.asList(values));
    }

    private List<Object> nulls() {
        return Collections.unmodifiableList(Arrays.asList(new Object[columns.size()]));
    }

    private static Object value(JsonNode node, JsonColumn column, FieldLocation location) {
        if (node.isMissingNode() || node.isNull()) {
            return null;
        }
        ColumnType type = column.column().type();
        Object value = switch (type) {
            case BIGINT -> node.isIntegralNumber() && node.canConvertToLong() ? node.longValue() : null;
            case DOUBLE -> node.isNumber() ? node.doubleValue() : null;
            case BOOLEAN -> node.isBoolean() ? node.booleanValue() : null;
            case STRING -> node.isValueNode() ? node.asText() : null;
        };
        if (value == null) {
            String shown = node.isValueNode() ? node.toString() : "a JSON " + node.getNodeType().name()
                    .toLowerCase(Locale.ROOT);
            throw new ShardFormatException(location.shardKey(), location.member(), location.offset(), "the value "
                    + abbreviate(shown) + " at " + column.pointer() + " does not fit column " + column.column());
        }
        return value;
    }

    /** What a document gives for each sample that has the field. */
    private interface DocumentConsumer {
        void accept(int sampleIndex, FieldLocation location, JsonNode document);
    }

    /**
     * Reads and parses the field {@code field} of each sample that has it, shard by shard, merging nearby members
     * into one request and keeping at most {@value #MAX_IN_FLIGHT} requests in flight.
     */
    private static void forEachDocument(ObjectBackend backend, String field, List<ShardSample> samples,
            DocumentConsumer consumer) {
        requireNonNull(backend, "backend is null");
        Map<String, List<Integer>> byShard = new LinkedHashMap<>();
        for (int i = 0; i < samples.size(); i++) {
            FieldLocation location = samples.get(i).fields().get(field);
            if (location == null) {
                continue;
            }
            if (location.size() > MAX_DOCUMENT_BYTES) {
                throw new ShardFormatException(location.shardKey(), location.member(), location.offset(),
                        "the JSON member is " + location.size() + " bytes, more than the "
                        + MAX_DOCUMENT_BYTES + " a metadata document may have");
            }
            byShard.computeIfAbsent(location.shardKey(), k -> new ArrayList<>()).add(i);
        }
        byShard.forEach((shardKey, indices) -> {
            List<FieldLocation> locations = indices.stream().map(i -> samples.get(i).fields().get(field)).toList();
            List<RangeCoalescer.Merged> requests = RangeCoalescer.coalesce(
                    locations.stream().map(FieldLocation::range).toList(), COALESCE_GAP_BYTES,
                    RangeCoalescer.DEFAULT_MAX_MERGED_BYTES);
            for (int start = 0; start < requests.size(); start += MAX_IN_FLIGHT) {
                List<RangeCoalescer.Merged> batch = requests.subList(start,
                        Math.min(requests.size(), start + MAX_IN_FLIGHT));
                List<CompletableFuture<ByteBuffer>> reads = batch.stream()
                        .map(request -> backend.readRangeAsync(shardKey, request.range())).toList();
                for (int r = 0; r < batch.size(); r++) {
                    ByteBuffer bytes = ObjectBackend.await(reads.get(r)).slice();
                    long base = batch.get(r).range().offset();
                    for (int member : batch.get(r).members()) {
                        FieldLocation location = locations.get(member);
                        ByteBuffer document = bytes.slice((int) (location.offset() - base), (int) location.size());
                        consumer.accept(indices.get(member), location, parse(document, location));
                    }
                }
            }
        });
    }

    private static JsonNode parse(ByteBuffer document, FieldLocation location) {
        byte[] bytes = new byte[document.remaining()];
        document.duplicate().get(bytes);
        JsonNode root;
        try {
            root = MAPPER.readTree(bytes);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            long byteOffset = at == null ? -1 : at.getByteOffset();
            String where = byteOffset >= 0 ? " at byte " + byteOffset + " of the member" : "";
            throw new ShardFormatException(location.shardKey(), location.member(),
                    location.offset() + Math.max(0, byteOffset), "malformed JSON" + where + ": "
                    + e.getOriginalMessage().replace('\n', ' '), e);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot parse JSON from memory", e);   // a byte array does not fail
        }
        if (root == null || root.isMissingNode()) {
            throw new ShardFormatException(location.shardKey(), location.member(), location.offset(),
                    "malformed JSON: the member is empty");
        }
        if (!root.isObject()) {
            throw new ShardFormatException(location.shardKey(), location.member(), location.offset(),
                    "the JSON document is " + abbreviate(root.toString()) + ", not an object");
        }
        return root;
    }

    private static ColumnType typeOf(JsonNode value) {
        if (value.isBoolean()) {
            return ColumnType.BOOLEAN;
        }
        if (value.isIntegralNumber() && value.canConvertToLong()) {
            return ColumnType.BIGINT;
        }
        return value.isNumber() ? ColumnType.DOUBLE : ColumnType.STRING;
    }

    private static ColumnType wider(ColumnType a, ColumnType b) {
        if (a == b) {
            return a;
        }
        if (a.isNumeric() && b.isNumeric()) {
            return ColumnType.DOUBLE;
        }
        return ColumnType.STRING;
    }

    private static String columnName(String key) {
        String name = key.replaceAll("[^A-Za-z0-9_]", "_");
        return name.isEmpty() || Character.isDigit(name.charAt(0)) ? "_" + name : name;
    }

    private static String abbreviate(String text) {
        return text.length() <= 60 ? text : text.substring(0, 57) + "...";
    }
}
