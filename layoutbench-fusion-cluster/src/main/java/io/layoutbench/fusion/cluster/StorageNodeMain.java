package io.layoutbench.fusion.cluster;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.StorageException;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * One storage node as a process: serves a directory over Arrow Flight in the foreground until the process is asked
 * to stop (SIGTERM, Ctrl-C), then closes the server cleanly from a shutdown hook. It prints one line when it
 * accepts calls, {@value #READY} followed by its URI, so whoever started it can tell it is up. {@code layoutbench
 * fusion node} runs it; {@link NodeProcess} starts it in a JVM of its own (needs no command-line library).
 *
 * <pre>
 * java --add-opens=java.base/java.nio=ALL-UNNAMED -cp CLASSPATH io.layoutbench.fusion.cluster.StorageNodeMain \
 *     --dir /data/node-3 --port 47003 [--host 127.0.0.1]
 * storage node ready flight://127.0.0.1:47003 serving /data/node-3
 * </pre>
 *
 * <p>Exit codes: the JVM's for the signal that stopped it after its shutdown hook ran (143 after SIGTERM, 130 after
 * Ctrl-C's SIGINT), 1 if the node cannot start (its port is taken, its directory cannot be created), 2 for a wrong
 * command line.
 */
public final class StorageNodeMain {

    /** The start of the line a node prints once it accepts calls. */
    public static final String READY = "storage node ready ";

    private StorageNodeMain() {
    }

    /**
     * What one node serves, and where.
     *
     * @param dir  the directory of the node's objects, created if missing
     * @param host the address to bind and to name in the URI
     * @param port the port, 0 for any free one
     */
    public record Settings(Path dir, String host, int port) {
        public Settings {
            requireNonNull(dir, "dir is null");
            requireNonNull(host, "host is null");
            // Validated here so that a wrong port is a command-line error, not a failure to start.
            StorageNodeServer.Options.defaults().withHost(host).withPort(port);
        }

        /**
         * Parses {@code --dir DIR --port P [--host H]}.
         *
         * @throws IllegalArgumentException naming the option that is missing, unknown or wrong
         */
        public static Settings parse(String... args) {
            Path dir = null;
            String host = "127.0.0.1";
            Integer port = null;
            for (int i = 0; i < args.length; i++) {
                String option = args[i];
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("Option " + option + " needs a value");
                }
                String value = args[++i];
                switch (option) {
                    case "--dir" -> dir = Path.of(value);
                    case "--host" -> host = value;
                    case "--port" -> port = parsePort(value);
                    default -> throw new IllegalArgumentException("Unknown option " + option
                            + ": a storage node takes --dir DIR --port P [--host H]");
                }
            }
            if (dir == null || port == null) {
                throw new IllegalArgumentException("A storage node needs --dir DIR and --port P (0: any free port)");
            }
            return new Settings(dir, host, port);
        }

        private static int parsePort(String value) {
            try {
                return Integer.parseInt(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--port must be a number, got '" + value + "'", e);
            }
        }
    }

    /** Runs a node until the process is stopped; see the class comment for arguments and exit codes. */
    public static void main(String[] args) throws InterruptedException {
        Settings settings;
        try {
            settings = Settings.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("storage node: " + e.getMessage());
            System.exit(2);
            return;
        }
        PrintStream out = System.out;
        try {
            serve(settings, line -> {
                out.println(line);
                out.flush();
            });
        } catch (StorageException e) {
            System.err.println("storage node: " + e.getMessage());
            System.exit(1);
        }
    }

    /**
     * Serves {@code settings.dir()} until the JVM shuts down: announces {@value #READY}{@code flight://host:port
     * serving DIR} through {@code announce} once the node accepts calls, and returns once the shutdown hook closed
     * the server (calls in progress drained, Arrow memory released).
     *
     * @throws StorageException if the server cannot start (port taken, directory not writable)
     */
    public static void serve(Settings settings, Consumer<String> announce) throws InterruptedException {
        StorageNodeServer server = StorageNodeServer.open(settings.dir().toAbsolutePath(),
                StorageNodeServer.Options.defaults().withHost(settings.host()).withPort(settings.port()));
        // The hook runs on SIGTERM and Ctrl-C; the JVM waits for it, so the node stops as close() describes.
        Thread hook = new Thread(server::close, "layoutbench-node-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        announce.accept(READY + server.uri() + " serving " + settings.dir().toAbsolutePath());
        server.awaitTermination();
    }
}
