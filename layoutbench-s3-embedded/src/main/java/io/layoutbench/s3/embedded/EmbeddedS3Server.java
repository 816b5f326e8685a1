package io.layoutbench.s3.embedded;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.BlobStoreContext;
import org.jclouds.blobstore.domain.Blob;
import org.jclouds.blobstore.domain.BlobMetadata;
import org.jclouds.blobstore.domain.MultipartPart;
import org.jclouds.blobstore.domain.MultipartUpload;
import org.jclouds.blobstore.options.CopyOptions;
import org.jclouds.blobstore.options.GetOptions;
import org.jclouds.blobstore.options.PutOptions;
import org.jclouds.blobstore.util.ForwardingBlobStore;
import org.gaul.s3proxy.nio2blob.FilesystemNio2BlobApiMetadata;
import org.jclouds.filesystem.reference.FilesystemConstants;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real S3 server in this JVM: <a href="https://github.com/gaul/s3proxy">s3proxy</a> on {@code 127.0.0.1} at an
 * ephemeral port, storing buckets as directories under a given directory (s3proxy's {@code filesystem-nio2}
 * store, so the heap stays small whatever the data size). It speaks the S3 REST protocol over HTTP with AWS
 * signature checks, so a client talking to it exercises the same code path as against AWS: signing, ranged GETs,
 * multipart uploads, listings, batch deletes.
 *
 * <p>For tests, benchmarks and a first run with no setup. It is not a production store: one process, no TLS, fixed
 * local credentials ({@link #accessKey()}, {@link #secretKey()}) that protect nothing but the loopback port.
 *
 * <pre>{@code
 * try (EmbeddedS3Server s3 = EmbeddedS3Server.start(Path.of("target/s3"))) {
 *     s3.createBucket("datasets");
 *     try (ObjectBackend backend = ObjectBackends.open(URI.create("s3://datasets/imagenet"),
 *             s3.backendProperties(), RequestMetrics.NONE)) {
 *         ...
 *     }
 * }
 * }</pre>
 *
 * <p>Thread-safe. {@link #close()} stops the server; the directory and its data stay.
 */
public final class EmbeddedS3Server implements AutoCloseable {

    /** The region the server reports and the backend properties name; s3proxy accepts any. */
    public static final String REGION = "us-east-1";

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedS3Server.class);
    private static final String ACCESS_KEY = "layoutbench-local";
    private static final String SECRET_KEY = "layoutbench-local-secret-not-for-aws";
    private static final long START_TIMEOUT_NANOS = 30_000_000_000L;

    private final S3Proxy proxy;
    private final BlobStoreContext context;
    private final Path storageDir;
    private final URI endpoint;

    private EmbeddedS3Server(S3Proxy proxy, BlobStoreContext context, Path storageDir, URI endpoint) {
        this.proxy = proxy;
        this.context = context;
        this.storageDir = storageDir;
        this.endpoint = endpoint;
    }

    /**
     * Starts a server that keeps its buckets under {@code storageDir} (created if missing; buckets already there
     * are served). Returns once the server accepts connections, usually within a second.
     *
     * @throws IllegalStateException if the server does not start
     */
    public static EmbeddedS3Server start(Path storageDir) {
        Path dir = requireNonNull(storageDir, "storageDir is null").toAbsolutePath().normalize();
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new IllegalStateException("Cannot create the embedded S3 storage directory " + dir + ": " + e, e);
        }
        Properties overrides = new Properties();
        overrides.setProperty(FilesystemConstants.PROPERTY_BASEDIR, dir.toString());
        // s3proxy's nio2 store, not jclouds' "filesystem": that one deletes the old file before renaming the new one
        // into place, so a reader racing an overwrite can get a 404, or one version's length with another's bytes.
        // Built from its metadata: a lookup by id would load every provider s3proxy registers.
        BlobStoreContext context = ContextBuilder.newBuilder(new FilesystemNio2BlobApiMetadata())
                .credentials(ACCESS_KEY, SECRET_KEY)
                .overrides(overrides)
                .build(BlobStoreContext.class);
        S3Proxy proxy = S3Proxy.builder()
                .blobStore(new S3Semantics(context.getBlobStore()))
                .endpoint(URI.create("http://127.0.0.1:0"))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
                // The CRT client sends headers s3proxy does not know (x-amz-mp-object-size on multipart uploads).
                .ignoreUnknownHeaders(true)
                .build();
        try {
            proxy.start();
            awaitStarted(proxy);
        } catch (Exception e) {
            stopQuietly(proxy, e);
            context.close();
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("Cannot start the embedded S3 server (s3proxy) over " + dir + ": " + e, e);
        }
        URI endpoint = URI.create("http://127.0.0.1:" + proxy.getPort());
        LOG.info("Embedded S3 server (s3proxy) at {} storing buckets under {}", endpoint, dir);
        return new EmbeddedS3Server(proxy, context, dir, endpoint);
    }

    /** The server's URL, {@code http://127.0.0.1:PORT}. */
    public URI endpoint() {
        return endpoint;
    }

    /** The access key id the server accepts. */
    public String accessKey() {
        return ACCESS_KEY;
    }

    /** The secret key the server accepts. */
    public String secretKey() {
        return SECRET_KEY;
    }

    /** The region to sign requests for. */
    public String region() {
        return REGION;
    }

    /** The directory the buckets are stored under. */
    public Path storageDir() {
        return storageDir;
    }

    /** Creates the bucket {@code name} if it does not exist. */
    public void createBucket(String name) {
        requireNonNull(name, "name is null");
        BlobStore store = context.getBlobStore();
        store.createContainerInLocation(null, name);
    }

    /**
     * The {@code S3Backend} properties that reach this server: endpoint, path-style addressing, region, the local
     * keys, and checksums only where S3 requires them (s3proxy rejects the SDK's default aws-chunked uploads with a
     * CRC32 trailer).
     */
    public Map<String, String> backendProperties() {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("endpoint", endpoint.toString());
        properties.put("pathStyle", "true");
        properties.put("region", REGION);
        properties.put("accessKeyId", ACCESS_KEY);
        properties.put("secretAccessKey", SECRET_KEY);
        properties.put("checksumMode", "when_required");
        return Map.copyOf(properties);
    }

    /** Stops the server. The stored data stays in {@link #storageDir()}. */
    @Override
    public void close() {
        try {
            proxy.stop();
        } catch (Exception e) {
            LOG.warn("Stopping the embedded S3 server at {} failed: {}", endpoint, e.toString());
        } finally {
            context.close();
        }
    }

    @Override
    public String toString() {
        return "EmbeddedS3Server[" + endpoint + ", " + storageDir + "]";
    }

    /**
     * The two places where s3proxy's filesystem store behaves unlike S3, made to behave like it.
     *
     * <p>Overwrites are atomic on S3: a GET sees the old object or the new one. The nio2 store reads an object's
     * size and ETag from the file's attributes and opens the file afterwards, by path; an overwrite renamed into
     * place in between gives one version's length with the other's bytes. Reads of a key therefore hold a read
     * lock until the file is open (an open file keeps its bytes when it is replaced), and writes of it hold the
     * write lock. Locks are striped by key: a read waits only for a write of a key in its stripe.
     *
     * <p>Deleting a key that is only a prefix of other keys ({@code a/b} when {@code a/b/c} exists) deletes nothing
     * and succeeds on S3; the filesystem store fails it with a 500, as {@code a/b} is a non-empty directory.
     */
    private static final class S3Semantics extends ForwardingBlobStore {
        private static final int STRIPES = 256;

        private final ReadWriteLock[] locks = new ReadWriteLock[STRIPES];

        S3Semantics(BlobStore delegate) {
            super(delegate);
            for (int i = 0; i < STRIPES; i++) {
                locks[i] = new ReentrantReadWriteLock();
            }
        }

        private ReadWriteLock lockFor(String container, String name) {
            return locks[Math.floorMod(31 * container.hashCode() + name.hashCode(), STRIPES)];
        }

        private <T> T locked(Lock lock, Supplier<T> action) {
            lock.lock();
            try {
                return action.get();
            } finally {
                lock.unlock();
            }
        }

        @Override
        public Blob getBlob(String container, String name) {
            return locked(lockFor(container, name).readLock(), () -> super.getBlob(container, name));
        }

        @Override
        public Blob getBlob(String container, String name, GetOptions options) {
            return locked(lockFor(container, name).readLock(), () -> super.getBlob(container, name, options));
        }

        @Override
        public BlobMetadata blobMetadata(String container, String name) {
            return locked(lockFor(container, name).readLock(), () -> super.blobMetadata(container, name));
        }

        @Override
        public String putBlob(String container, Blob blob) {
            String name = blob.getMetadata().getName();
            return locked(lockFor(container, name).writeLock(), () -> super.putBlob(container, blob));
        }

        @Override
        public String putBlob(String container, Blob blob, PutOptions options) {
            String name = blob.getMetadata().getName();
            return locked(lockFor(container, name).writeLock(), () -> super.putBlob(container, blob, options));
        }

        @Override
        public String completeMultipartUpload(MultipartUpload upload, List<MultipartPart> parts) {
            return locked(lockFor(upload.containerName(), upload.blobName()).writeLock(),
                    () -> super.completeMultipartUpload(upload, parts));
        }

        @Override
        public String copyBlob(String fromContainer, String fromName, String toContainer, String toName,
                CopyOptions options) {
            // The store reads the source through its own getBlob: only the target needs guarding here, and
            // taking one lock only cannot deadlock.
            return locked(lockFor(toContainer, toName).writeLock(),
                    () -> super.copyBlob(fromContainer, fromName, toContainer, toName, options));
        }

        @Override
        public void removeBlob(String container, String name) {
            locked(lockFor(container, name).writeLock(), () -> {
                try {
                    super.removeBlob(container, name);
                } catch (RuntimeException e) {
                    if (delegate().blobExists(container, name)) {
                        throw e;
                    }
                }
                return null;
            });
        }

        @Override
        public void removeBlobs(String container, Iterable<String> names) {
            for (String name : names) {
                removeBlob(container, name);
            }
        }
    }

    private static void awaitStarted(S3Proxy proxy) throws InterruptedException {
        // S3Proxy.start() returns once Jetty has started; the state check covers versions where it does not.
        long deadline = System.nanoTime() + START_TIMEOUT_NANOS;
        while (!"STARTED".equals(proxy.getState())) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("s3proxy did not start within 30 s (state " + proxy.getState() + ")");
            }
            Thread.sleep(5);
        }
    }

    private static void stopQuietly(S3Proxy proxy, Exception failure) {
        try {
            proxy.stop();
        } catch (Exception e) {
            failure.addSuppressed(e);
        }
    }
}
