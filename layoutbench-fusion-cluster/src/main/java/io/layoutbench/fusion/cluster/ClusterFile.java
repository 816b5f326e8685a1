package io.layoutbench.fusion.cluster;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.ConfigurationException;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * The cluster file of local node processes, {@value #NAME} in the cluster's directory: where each node serves, its
 * process id and directory, and the erasure code new objects get. {@code fusion cluster start} writes it; {@code
 * fusion cluster stop|status}, {@code fusion put} and {@code fusion query} read it. Node i of the file is node i of
 * the FAC store (its blocks' placement), so the order never changes.
 *
 * <pre>
 * # Fusion cluster: 9 storage node processes, written 2026-12-02T08:10:00Z
 * code=RS(9,6)
 * nodes=9
 * node.0.uri=flight://127.0.0.1:41234
 * node.0.pid=12345
 * node.0.started=2026-12-02T08:09:58.120Z
 * node.0.dir=/data/cluster/node-0
 * ...
 * </pre>
 *
 * <pre>{@code
 * ClusterFile cluster = ClusterFile.read(Path.of("cluster"));
 * List<ObjectBackend> nodes = cluster.uris().stream().map(ObjectBackends::open).toList();
 * }</pre>
 *
 * @param code  the erasure code of new objects, as {@code FacOptions} parses it ({@code RS(9,6)})
 * @param nodes the nodes, in the store's order; at least one
 */
public record ClusterFile(String code, List<Node> nodes) {

    /** The file's name in a cluster's directory. */
    public static final String NAME = "cluster.properties";

    /**
     * One node of the cluster.
     *
     * @param uri its address, {@code flight://host:port}
     * @param pid     its process id when it was started (it may have ended since)
     * @param started when that process started ({@link Instant#EPOCH}: not known); with the pid, it names the
     *                process, so a pid reused by another program is told apart
     * @param dir     the directory it serves
     */
    public record Node(URI uri, long pid, Instant started, Path dir) {
        public Node {
            requireNonNull(uri, "uri is null");
            requireNonNull(started, "started is null");
            requireNonNull(dir, "dir is null");
            if (!StorageNodeServer.SCHEME.equals(uri.getScheme()) || uri.getHost() == null || uri.getPort() < 1) {
                throw new IllegalArgumentException("A node's URI is flight://host:port, got " + uri);
            }
            if (pid < 1) {
                throw new IllegalArgumentException("A node's process id is positive, got " + pid + " for " + uri);
            }
        }
    }

    public ClusterFile {
        requireNonNull(code, "code is null");
        nodes = List.copyOf(requireNonNull(nodes, "nodes is null"));
        if (code.isBlank()) {
            throw new IllegalArgumentException("A cluster file needs the code of new objects, got an empty one");
        }
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("A cluster has at least one node");
        }
    }

    /** The cluster file of the cluster in {@code dir}. */
    public static Path in(Path dir) {
        return dir.resolve(NAME);
    }

    /** Writes this file into {@code dir}, replacing the one there at once (never half written). */
    public void write(Path dir) {
        StringBuilder text = new StringBuilder();
        text.append("# Fusion cluster: ").append(nodes.size()).append(" storage node processes, written ")
                .append(Instant.now()).append('\n');
        text.append("code=").append(escape(code)).append('\n');
        text.append("nodes=").append(nodes.size()).append('\n');
        for (int i = 0; i < nodes.size(); i++) {
            Node node = nodes.get(i);
            text.append("node.").append(i).append(".uri=").append(node.uri()).append('\n');
            text.append("node.").append(i).append(".pid=").append(node.pid()).append('\n');
            text.append("node.").append(i).append(".started=").append(node.started()).append('\n');
            text.append("node.").append(i).append(".dir=").append(escape(node.dir().toAbsolutePath().toString()))
                    .append('\n');
        }
        Path file = in(dir);
        Path temporary = null;
        try {
            Files.createDirectories(dir);
            temporary = Files.createTempFile(dir, NAME, ".tmp");
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer bytes = StandardCharsets.UTF_8.encode(CharBuffer.wrap(text));
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
                // On disk before the rename: after a crash the file is the old one or the whole new one, not empty.
                channel.force(true);
            }
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            temporary = null;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the cluster file " + file + ": " + e.getMessage(), e);
        } finally {
            if (temporary != null) {
                deleteQuietly(temporary);
            }
        }
    }

    private static void deleteQuietly(Path temporary) {
        try {
            Files.deleteIfExists(temporary);
        } catch (IOException e) {
            // The write failed already, and says so; a stray .tmp file next to the cluster file is harmless.
        }
    }

    /** Properties read backslashes as escapes: a path that holds one keeps it. */
    private static String escape(String value) {
        return value.replace("\\", "\\\\");
    }

    /**
     * Reads the cluster file in {@code dir}.
     *
     * @throws ConfigurationException if there is none ("no cluster file ..."), or it is malformed, naming the
     *                                file and the entry
     */
    public static ClusterFile read(Path dir) {
        Path file = in(dir);
        if (!Files.isRegularFile(file)) {
            throw new ConfigurationException("No cluster in " + dir + ": its cluster file " + file
                    + " does not exist");
        }
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the cluster file " + file + ": " + e.getMessage(), e);
        }
        try {
            int count = Integer.parseInt(required(properties, "nodes"));
            List<Node> nodes = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                nodes.add(new Node(URI.create(required(properties, "node." + i + ".uri")),
                        Long.parseLong(required(properties, "node." + i + ".pid")),
                        started(required(properties, "node." + i + ".started")),
                        Path.of(required(properties, "node." + i + ".dir"))));
            }
            return new ClusterFile(required(properties, "code"), nodes);
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException("Malformed cluster file " + file + ": " + e.getMessage(), e);
        }
    }

    private static Instant started(String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("a start time is an ISO-8601 instant, got '" + text + "'", e);
        }
    }

    private static String required(Properties properties, String key) {
        String value = properties.getProperty(key);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("no entry " + key);
        }
        return value.strip();
    }

    /** The nodes' URIs as strings, in order. */
    public List<String> uris() {
        return nodes.stream().map(node -> node.uri().toString()).toList();
    }
}
