package io.layoutbench.datasets.ingest;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A pass over a JSON Lines manifest: one JSON object a line (UTF-8, blank lines skipped, a byte order mark dropped),
 * parsed with Jackson. A key a line lacks is NULL, as is a JSON {@code null}. A line that is not one object, an
 * object with a repeated key, and text after the object are errors naming the line and column.
 *
 * <p>Nested objects are flattened, their keys joined by {@code _}: {@code {"meta": {"speaker": 7}}} gives the column
 * {@code meta_speaker}; a flattened key that repeats another ({@code meta_speaker} beside {@code meta.speaker}) is
 * an error naming both. Arrays are refused, naming the line and key: a manifest value is one string, number,
 * boolean or null.
 */
final class JsonLinesManifestReader implements ManifestReader {

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private final Path manifest;
    private final BufferedReader in;
    private long line;

    private JsonLinesManifestReader(Path manifest, BufferedReader in) {
        this.manifest = manifest;
        this.in = in;
    }

    static JsonLinesManifestReader open(Path manifest) {
        try {
            return new JsonLinesManifestReader(manifest, Files.newBufferedReader(manifest, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IngestException("Cannot read manifest " + manifest + ": " + e, e);
        }
    }

    @Override
    public Optional<List<SourceColumn>> columns() {
        return Optional.empty();
    }

    @Override
    public String columnsOrigin() {
        return manifest.toString();
    }

    @Override
    public boolean typedText() {
        return true;
    }

    @Override
    public Record next() {
        String text;
        do {
            try {
                text = in.readLine();
            } catch (IOException e) {
                throw new IngestException("Cannot read manifest " + manifest + " after line " + line + ": " + e, e);
            }
            if (text == null) {
                return null;
            }
            line++;
            if (line == 1 && text.startsWith("\uFEFF")) {
                text = text.substring(1);
            }
        } while (text.isBlank());
        String origin = manifest + " line " + line;
        JsonNode node;
        try {
            node = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            String column = at == null || at.getColumnNr() < 1 ? "" : ", column " + at.getColumnNr();
            String reason = e.getOriginalMessage().startsWith("Trailing token")
                    ? "text after the object; a line holds one JSON object"
                    : e.getOriginalMessage().replaceAll("\\s*\\R\\s*", " ");
            throw new IngestException(origin + column + ": malformed JSON: " + reason, e);
        }
        if (!node.isObject()) {
            throw new IngestException(origin + ": expected a JSON object, found " + describe(node));
        }
        Map<String, Object> cells = new LinkedHashMap<>();
        flatten(node, "", "", cells, new HashMap<>(), origin);
        return new Record(origin, cells);
    }

    @Override
    public void close() {
        try {
            in.close();
        } catch (IOException e) {
            throw new IngestException("Cannot close manifest " + manifest + ": " + e, e);
        }
    }

    /** Puts the scalars of {@code object} into {@code cells} under flattened keys; {@code paths} has their paths. */
    private static void flatten(JsonNode object, String prefix, String path, Map<String, Object> cells,
                                Map<String, String> paths, String origin) {
        for (Map.Entry<String, JsonNode> field : object.properties()) {
            String key = prefix.isEmpty() ? field.getKey() : prefix + "_" + field.getKey();
            String keyPath = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
            JsonNode value = field.getValue();
            if (value.isObject()) {
                flatten(value, key, keyPath, cells, paths, origin);
                continue;
            }
            if (value.isArray()) {
                throw new IngestException(origin + ", key '" + keyPath + "': an array; a manifest value is a string, "
                        + "number, boolean or null (nested objects are flattened to a_b columns, arrays are not)");
            }
            String earlier = paths.putIfAbsent(key, keyPath);
            if (earlier != null) {
                throw new IngestException(origin + ": keys '" + earlier + "' and '" + keyPath + "' both flatten to "
                        + "column " + key);
            }
            cells.put(key, scalar(value));
        }
    }

    private static Object scalar(JsonNode value) {
        if (value.isNull()) {
            return null;
        }
        if (value.isTextual()) {
            return value.textValue();
        }
        if (value.isBoolean()) {
            return value.booleanValue();
        }
        if (value.isIntegralNumber()) {
            return value.canConvertToLong() ? (Object) value.longValue() : value.bigIntegerValue();
        }
        if (value.isNumber()) {
            return value.doubleValue();
        }
        throw new IllegalStateException("Unexpected JSON value " + value.getNodeType());
    }

    private static String describe(JsonNode node) {
        String type = node.getNodeType().name().toLowerCase(Locale.ROOT);
        return node.isArray() || node.isObject() ? "an " + type
                : "a " + type + " (" + abbreviate(node.toString()) + ")";
    }

    private static String abbreviate(String text) {
        return text.length() <= 40 ? text : text.substring(0, 37) + "...";
    }
}
