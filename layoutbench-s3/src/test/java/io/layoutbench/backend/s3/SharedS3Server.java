package io.layoutbench.backend.s3;

import io.layoutbench.s3.embedded.EmbeddedS3Server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * One embedded S3 server for all the tests of this module (it takes about a second to start), over a temporary
 * directory deleted when the JVM exits. Tests keep apart by using a fresh key prefix each: {@link #freshUri}.
 */
final class SharedS3Server {

    static final String BUCKET = "layoutbench-test";
    private static final AtomicInteger PREFIXES = new AtomicInteger();

    private SharedS3Server() {
    }

    /** The server, started on first use. */
    static EmbeddedS3Server get() {
        return Holder.SERVER;
    }

    /** {@code s3://layoutbench-test/<name>-<n>/}: a prefix no other test uses. */
    static URI freshUri(String name) {
        return URI.create("s3://" + BUCKET + "/" + name + "-" + PREFIXES.incrementAndGet());
    }

    /** Options that reach the server (or {@code endpoint}, a proxy in front of it). */
    static S3Options options(URI endpoint) {
        return S3Options.fromProperties(get().backendProperties()).withEndpoint(endpoint, true);
    }

    /** Options that reach the server directly. */
    static S3Options options() {
        return S3Options.fromProperties(get().backendProperties());
    }

    static Map<String, String> properties() {
        return get().backendProperties();
    }

    private static final class Holder {
        static final EmbeddedS3Server SERVER = start();

        private static EmbeddedS3Server start() {
            try {
                Path dir = Files.createTempDirectory("layoutbench-s3-test");
                EmbeddedS3Server server = EmbeddedS3Server.start(dir);
                server.createBucket(BUCKET);
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    server.close();
                    deleteRecursively(dir);
                }, "layoutbench-s3-test-cleanup"));
                return server;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private static void deleteRecursively(Path dir) {
            try (Stream<Path> paths = Files.walk(dir)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException ignored) {
                // best effort at exit
            }
        }
    }
}
