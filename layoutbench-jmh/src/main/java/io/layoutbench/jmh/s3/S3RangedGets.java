package io.layoutbench.jmh.s3;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.backend.s3.S3Backend;
import io.layoutbench.backend.s3.S3Options;
import io.layoutbench.s3.embedded.EmbeddedS3Server;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.CompletableFuture;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import org.apache.commons.io.file.PathUtils;

/**
 * An embedded S3 server (s3proxy on loopback) holding one 32 MiB object, and two ways to GET 100 KB ranges of it:
 * through {@link S3Backend#readRangeAsync} and directly on a CRT {@link S3AsyncClient} configured alike (with the
 * SDK's usual {@link AsyncResponseTransformer#toBytes()}). Both walk the same 4,096 random offsets.
 *
 * <pre>{@code
 * try (S3RangedGets gets = S3RangedGets.start()) {
 *     boolean rightLength = gets.backendGet().join();
 * }
 * }</pre>
 *
 * <p>Not thread-safe for starting GETs: call from one thread (completions may run anywhere).
 */
final class S3RangedGets implements AutoCloseable {

    static final String BUCKET = "bench";
    static final String KEY = "ranged/object.bin";
    static final int OBJECT_SIZE = 32 << 20;
    static final int RANGE = 100_000;
    static final int OFFSETS = 4096;

    private final Path dir;
    private final EmbeddedS3Server server;
    private final S3Backend backend;
    private final S3AsyncClient client;
    private final long[] offsets = new long[OFFSETS];
    private int next;

    private S3RangedGets(Path dir) {
        this.dir = dir;
        this.server = EmbeddedS3Server.start(dir);
        server.createBucket(BUCKET);
        this.backend = new S3Backend(URI.create("s3://" + BUCKET), S3Options.fromProperties(server.backendProperties()),
                RequestMetrics.NONE);
        byte[] data = new byte[OBJECT_SIZE];
        new Random(1).nextBytes(data);
        backend.put(KEY, data);
        this.client = S3AsyncClient.crtBuilder()
                .region(Region.of(server.region()))
                .endpointOverride(server.endpoint())
                .forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(server.accessKey(), server.secretKey())))
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .retryConfiguration(retry -> retry.numRetries(1))
                .build();
        Random random = new Random(2);
        for (int i = 0; i < OFFSETS; i++) {
            offsets[i] = random.nextInt(OBJECT_SIZE - RANGE);
        }
    }

    /** Starts the server in a fresh temporary directory and uploads the object. */
    static S3RangedGets start() throws IOException {
        return new S3RangedGets(Files.createTempDirectory("layoutbench-s3-bench"));
    }

    private long nextOffset() {
        next = (next + 1) & (OFFSETS - 1);
        return offsets[next];
    }

    /** One ranged GET through the backend; completes with whether it returned {@link #RANGE} bytes. */
    CompletableFuture<Boolean> backendGet() {
        return backend.readRangeAsync(KEY, ByteRange.of(nextOffset(), RANGE))
                .thenApply(buffer -> buffer.remaining() == RANGE);
    }

    /** The same GET on the bare SDK client. */
    CompletableFuture<Boolean> sdkGet() {
        long offset = nextOffset();
        GetObjectRequest request = GetObjectRequest.builder()
                .bucket(BUCKET)
                .key(KEY)
                .range("bytes=" + offset + "-" + (offset + RANGE - 1))
                .build();
        return client.getObject(request, AsyncResponseTransformer.toBytes())
                .thenApply(bytes -> bytes.asByteArrayUnsafe().length == RANGE);
    }

    @Override
    public void close() throws IOException {
        client.close();
        backend.close();
        server.close();
        PathUtils.deleteDirectory(dir);
    }
}
