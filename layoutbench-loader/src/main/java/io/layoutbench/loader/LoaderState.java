package io.layoutbench.loader;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Where one rank is in an epoch: a small token to save with a training checkpoint. A loader resumed from it
 * ({@link DataLoader#resume(LoaderState)}) yields exactly the samples an uninterrupted loader would have yielded
 * next, in the same order. It names everything the order depends on (the result, the seed, the epoch, the world
 * size and rank, the shuffle, drop-last and the block boundaries), so a resume that would yield another order is
 * refused, saying which setting differs.
 *
 * <p>Its text form is a Java properties file of a dozen lines ({@link #toText()}, {@link #parse(String)}); it is
 * written atomically ({@link #write(Path)}: a temporary file moved over the old one), so a process killed while
 * writing leaves the previous state whole.
 *
 * <pre>{@code
 * LoaderState state = epoch.state();
 * state.write(checkpointDir.resolve("loader-rank-" + rank + ".state"));
 * // ... after a restart:
 * try (Epoch epoch = loader.resume(LoaderState.read(path))) { ... }
 * }</pre>
 *
 * @param layout            the dataset's layout ({@link io.layoutbench.api.layout.DatasetSummary#layout()})
 * @param prefix            where the dataset lives in its store
 *                          ({@link io.layoutbench.api.layout.DatasetSummary#prefix()})
 * @param resultId          the prepared result ({@link io.layoutbench.api.layout.PreparedQuery#resultId()}):
 *                          dataset generation, query and fields
 * @param query             the query's SQL text, with its LIMIT
 * @param fields            the payload fields read (empty: all)
 * @param seed              the shuffles' seed
 * @param epoch             the epoch
 * @param worldSize         ranks in the job
 * @param rank              this rank
 * @param shuffle           the shuffle settings
 * @param dropLast          whether the tail is dropped
 * @param blocksFingerprint a checksum of the block boundaries (they follow from the query options)
 * @param position          samples this rank has yielded in the epoch
 * @param elasticFrom       for a rank of an elastic resume ({@link DataLoader#resumeElastic}): the positions the
 *                          ranks of the earlier world size had reached, by rank (the earlier world size is its
 *                          size); empty otherwise
 */
public record LoaderState(String layout, String prefix, String resultId, String query, List<String> fields, long seed,
        int epoch, int worldSize, int rank, Shuffle shuffle, boolean dropLast, long blocksFingerprint, long position,
        List<Long> elasticFrom) {

    /** Version of the text form; a newer one is refused by name. */
    public static final int FORMAT = 1;

    public LoaderState {
        requireNonNull(layout, "layout is null");
        requireNonNull(prefix, "prefix is null");
        requireNonNull(resultId, "resultId is null");
        requireNonNull(query, "query is null");
        fields = List.copyOf(fields);
        requireNonNull(shuffle, "shuffle is null");
        if (epoch < 0 || position < 0) {
            throw new IllegalArgumentException("epoch and position must be >= 0, got " + epoch + ", " + position);
        }
        if (worldSize < 1 || rank < 0 || rank >= worldSize) {
            throw new IllegalArgumentException("rank must be in [0, worldSize), got " + rank + " of " + worldSize);
        }
        elasticFrom = List.copyOf(elasticFrom);
    }

    /** Whether this is a rank of an elastic resume. */
    public boolean elastic() {
        return !elasticFrom.isEmpty();
    }

    /** The state as properties text. */
    public String toText() {
        TreeMap<String, String> values = new TreeMap<>();
        values.put("format", Integer.toString(FORMAT));
        values.put("layout", layout);
        values.put("prefix", prefix);
        values.put("result", resultId);
        values.put("query", query);
        values.put("fields", String.join(",", fields));
        values.put("seed", Long.toString(seed));
        values.put("epoch", Integer.toString(epoch));
        values.put("world-size", Integer.toString(worldSize));
        values.put("rank", Integer.toString(rank));
        values.put("shuffle", Boolean.toString(shuffle.enabled()));
        values.put("shuffle.block-bytes", Long.toString(shuffle.blockBytes()));
        values.put("shuffle.buffer-samples", Integer.toString(shuffle.bufferSamples()));
        values.put("shuffle.sticky", Boolean.toString(shuffle.sticky()));
        values.put("drop-last", Boolean.toString(dropLast));
        values.put("blocks", Long.toHexString(blocksFingerprint));
        values.put("position", Long.toString(position));
        if (elastic()) {
            values.put("elastic.from", elasticFrom.stream().map(String::valueOf)
                    .collect(java.util.stream.Collectors.joining(",")));
        }
        Properties properties = new Properties();
        properties.putAll(values);
        StringWriter text = new StringWriter();
        StringBuilder sorted = new StringBuilder("# layoutbench loader state\n");
        try {
            properties.store(text, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // Properties.store writes in hash order and a date line: keep the lines, sorted, without the date.
        text.toString().lines().filter(line -> !line.startsWith("#")).sorted()
                .forEach(line -> sorted.append(line).append('\n'));
        return sorted.toString();
    }

    /**
     * Parses {@link #toText()}'s form.
     *
     * @throws IllegalArgumentException naming the missing or malformed key, or a format newer than this version
     */
    public static LoaderState parse(String text) {
        Properties p = new Properties();
        try {
            p.load(new StringReader(requireNonNull(text, "text is null")));
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("Not a loader state: " + e.getMessage(), e);
        }
        int format = integer(p, "format");
        if (format != FORMAT) {
            throw new IllegalArgumentException("Loader state format " + format + " is not the format " + FORMAT
                    + " this version reads");
        }
        String fields = string(p, "fields");
        boolean shuffled = bool(p, "shuffle");
        Shuffle shuffle = shuffled ? Shuffle.blocks(number(p, "shuffle.block-bytes"),
                integer(p, "shuffle.buffer-samples")).withStickyShares(bool(p, "shuffle.sticky"))
                : Shuffle.none();
        long blocks;
        try {
            blocks = Long.parseUnsignedLong(string(p, "blocks"), 16);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Loader state key 'blocks' is not a hex number: " + p.get("blocks"));
        }
        return new LoaderState(string(p, "layout"), string(p, "prefix"), string(p, "result"), string(p, "query"),
                fields.isEmpty() ? List.of() : List.of(fields.split(",")), number(p, "seed"),
                integer(p, "epoch"), integer(p, "world-size"), integer(p, "rank"), shuffle,
                bool(p, "drop-last"), blocks, number(p, "position"), elasticFrom(p));
    }

    /** Writes the state to {@code file} atomically: a reader sees the old state or the new one, whole. */
    public void write(Path file) {
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            Files.writeString(temporary, toText(), StandardCharsets.UTF_8);
            try {
                Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the loader state to " + file + ": " + e.getMessage(), e);
        }
    }

    /** Reads a state {@link #write} wrote. */
    public static LoaderState read(Path file) {
        try {
            return parse(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the loader state " + file + ": " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    private static List<Long> elasticFrom(Properties p) {
        String value = p.getProperty("elastic.from");
        if (value == null || value.isBlank()) {
            return List.of();
        }
        try {
            return java.util.Arrays.stream(value.split(",")).map(v -> Long.parseLong(v.strip())).toList();
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Loader state key 'elastic.from' is not a list of numbers: '" + value
                    + "'");
        }
    }

    private static String string(Properties p, String key) {
        String value = p.getProperty(key);
        if (value == null) {
            throw new IllegalArgumentException("Loader state has no key '" + key + "'");
        }
        return value;
    }

    private static long number(Properties p, String key) {
        String value = string(p, key);
        try {
            return Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Loader state key '" + key + "' is not a number: '" + value + "'");
        }
    }

    private static int integer(Properties p, String key) {
        long value = number(p, key);
        if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("Loader state key '" + key + "' is out of range: " + value);
        }
        return (int) value;
    }

    private static boolean bool(Properties p, String key) {
        String value = string(p, key).strip();
        if (!value.equals("true") && !value.equals("false")) {
            throw new IllegalArgumentException("Loader state key '" + key + "' is not true or false: '" + value
                    + "'");
        }
        return Boolean.parseBoolean(value);
    }
}
