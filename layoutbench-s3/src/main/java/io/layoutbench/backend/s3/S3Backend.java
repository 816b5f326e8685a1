package io.layoutbench.backend.s3;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.ConfigurationException;
import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.backend.ObjectKeys;
import io.layoutbench.api.backend.ObjectNotFoundException;
import io.layoutbench.api.backend.RangeNotSatisfiableException;
import io.layoutbench.api.backend.Retrier;
import io.layoutbench.api.backend.RetryPolicy;
import io.layoutbench.api.backend.StorageException;
import io.layoutbench.api.internal.SlicedIo;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.metrics.RequestMetrics;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.profiles.ProfileFile;
import software.amazon.awssdk.profiles.ProfileFileLocation;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3CrtAsyncClientBuilder;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Error;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * An {@link ObjectBackend} over an S3 bucket and key prefix, {@code s3://bucket/prefix}, on the AWS SDK v2
 * asynchronous CRT client ({@link S3AsyncClient#crtBuilder()}). Works with AWS S3 and S3-compatible stores (set an
 * endpoint and path-style addressing); {@link S3Options} lists the settings.
 *
 * <ul>
 *   <li><b>Ranged reads</b> are one GET with a {@code Range} header per part: a range up to the part size (8 MiB by
 *       default) is exactly one HTTP request; a longer one is split into part-sized GETs that run in parallel. The
 *       body is written straight into one heap buffer of exactly the range as the client delivers it, with no
 *       other copy. Bytes are counted into the metrics as they are consumed, requests as they are sent.
 *   <li><b>Whole reads</b> GET the first part with a range, learn the size from {@code Content-Range}, then fetch
 *       the rest in parts pinned to the first part's ETag ({@code If-Match}), so a concurrent overwrite fails the
 *       read instead of mixing versions.
 *   <li><b>Writes</b> up to the part size are one PUT. Larger ones are multipart uploads, a few parts in flight;
 *       a failed upload is aborted, so the object appears whole or not at all.
 *   <li><b>Listing</b> pages through ListObjectsV2 lazily, 1,000 keys a page. <b>Batch delete</b> sends
 *       DeleteObjects of up to 1,000 keys.
 *   <li><b>Errors</b> become this library's exceptions, naming the bucket, key and range: 404 is
 *       {@link ObjectNotFoundException}, 403 {@code AccessDeniedException}, 416 {@link RangeNotSatisfiableException};
 *       429, 500, 502, 503, 504, resets and timeouts are {@code TransientStorageException}s.
 *   <li><b>Retries</b>: every request, reads included, is retried on transient failures by this backend under its
 *       {@link RetryPolicy} with the api's {@link Retrier}, and each attempt and retry is counted; the failures
 *       the list above calls transient are the ones retried. The CRT client also retries 500, 503 and I/O errors
 *       inside one request, and it cannot be told not to: its retry count 0 means "the default", 3. This backend
 *       sets it to 1, the least it allows, so one request counted here may be up to two HTTP requests on the wire
 *       when the store fails; without failures the counts are exact.
 *   <li><b>Cancelling</b> a read's future cancels its GETs in flight, which closes their connections before they
 *       bring the rest of their bodies, and starts no retry: a hedged read's loser stops there. This backend does
 *       not say when a response starts ({@link io.layoutbench.api.backend.SupportsFirstByteSignal}), so retrieval
 *       does not race its reads: the SDK's CRT client hands a response's headers over only with its first body
 *       part, once that part is all in (aws-sdk-java-v2's {@code S3CrtResponseHandlerAdapter} waits for the body
 *       before it calls {@code onHeaders}), by which time a loser would have moved its bytes.
 *   <li><b>Credentials</b> never appear in {@link #uri()}, {@link #toString()}, log lines or exception messages.
 * </ul>
 *
 * <p>Thread-safe; one backend serves any number of concurrent reads over its connection pool. {@link #close()}
 * releases the client; {@link #withMetrics} views share it.
 *
 * <pre>{@code
 * try (ObjectBackend s3 = ObjectBackends.open(URI.create("s3://my-bucket/datasets"),
 *         Map.of("region", "eu-west-1"), metrics)) {
 *     ByteBuffer header = s3.readRange("l2/shard-000001.tar", ByteRange.of(0, 512));
 * }
 * }</pre>
 */
public final class S3Backend implements ObjectBackend {

    /** The most bytes one read returns: the largest heap buffer a JVM reliably allocates. */
    public static final int MAX_READ_BYTES = Integer.MAX_VALUE - 8;

    /**
     * Retries the CRT client makes inside one request, invisible to this backend. Zero would mean the CRT's default
     * of 3 (aws-c-io's standard retry strategy); one is the least it allows.
     */
    static final int CRT_INTERNAL_RETRIES = 1;
    static final int LIST_PAGE_SIZE = 1000;
    static final int DELETE_BATCH_SIZE = 1000;

    /**
     * How often a read of several parts that raced an overwrite is read again. Each try fails only if an overwrite
     * lands within its few milliseconds; eight in a row means the key is rewritten without pause.
     */
    static final int VERSION_MIX_RETRIES = 8;
    /** The most bytes a streamed read has in flight ({@link #streamRangeAsync}), two parts at least. */
    static final long STREAM_BUFFER_BYTES = 32L << 20;
    static final int UPLOAD_PARTS_IN_FLIGHT = 4;
    static final int MAX_PARTS = 10_000;

    private static final Logger LOG = LoggerFactory.getLogger(S3Backend.class);
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0).asReadOnlyBuffer();
    private static final AtomicInteger THREAD_IDS = new AtomicInteger();

    private final Shared shared;
    private final RequestMetrics metrics;
    private final boolean view;

    /**
     * Opens a backend over {@code uri}, {@code s3://bucket} or {@code s3://bucket/prefix}.
     *
     * @throws IllegalArgumentException if the URI or an option is invalid, or no region can be found
     */
    public S3Backend(URI uri, S3Options options, RequestMetrics metrics) {
        this(new Shared(S3Location.parse(uri), requireNonNull(options, "options is null")), metrics, false);
    }

    private S3Backend(Shared shared, RequestMetrics metrics, boolean view) {
        this.shared = shared;
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.view = view;
    }

    /** {@code s3://bucket/prefix/}, with no credentials. */
    @Override
    public URI uri() {
        return shared.location.uri();
    }

    /** The bucket. */
    public String bucket() {
        return shared.location.bucket();
    }

    /** The key prefix every key is stored under: empty, or ending in {@code /}. */
    public String prefix() {
        return shared.location.prefix();
    }

    /** The settings this backend was opened with. */
    public S3Options options() {
        return shared.options;
    }

    /**
     * {@inheritDoc}
     *
     * <p>A zero-length range is answered with a HEAD (S3 cannot GET zero bytes).
     *
     * @throws IllegalArgumentException if the key is invalid or the range is longer than {@value #MAX_READ_BYTES}
     */
    @Override
    public CompletableFuture<ByteBuffer> readRangeAsync(String key, ByteRange range) {
        String fullKey = shared.location.fullKey(key);
        requireNonNull(range, "range is null");
        if (range.length() > MAX_READ_BYTES) {
            throw new IllegalArgumentException("Cannot read range " + range + " of " + key + " in one request: it is "
                    + range.length() + " bytes and one read returns at most " + MAX_READ_BYTES + "; split it");
        }
        checkOpen();
        if (range.length() == 0) {
            return sizeAsync(key, fullKey).thenApply(size -> {
                if (range.offset() > size) {
                    throw new RangeNotSatisfiableException(key, range, size);
                }
                return EMPTY;
            });
        }
        ReadRequests requests = new ReadRequests();
        return requests.cancelledWith(readRangeInParts(key, fullKey, range, VERSION_MIX_RETRIES, requests)
                .exceptionallyCompose(failure -> whenInvalidRange(failure, key, fullKey, range)));
    }

    /**
     * Streamed a part at a time: the range's GETs are those {@link #readRangeAsync} sends (one per part of
     * {@code partSize}), at most {@value #STREAM_BUFFER_BYTES} bytes of them in flight (two parts at least), each
     * handed over in order once it has arrived and then dropped; a range of one part is read as one. A part whose
     * ETag differs from the first's fails the read before its bytes are handed over (the object was overwritten
     * meanwhile: the parts handed over so far are one version, and the rest cannot be). A range past the end fails
     * as a read does, naming the object's size (at most one HEAD). No range is too long.
     */
    @Override
    public CompletableFuture<Void> streamRangeAsync(String key, ByteRange range, Consumer<ByteBuffer> pieces) {
        String fullKey = shared.location.fullKey(key);
        requireNonNull(range, "range is null");
        requireNonNull(pieces, "pieces is null");
        checkOpen();
        if (range.length() <= shared.options.partSize()) {
            return ObjectBackend.inOnePiece(readRangeAsync(key, range), pieces);
        }
        return new PartStream(key, fullKey, range, pieces).start();
    }

    /** One streamed read of several parts: its GETs, the parts fetched ahead, and the next one to hand over. */
    private final class PartStream {
        private final String key;
        private final String fullKey;
        private final ByteRange range;
        private final Consumer<ByteBuffer> pieces;
        private final ReadRequests requests = new ReadRequests();
        private final CompletableFuture<Void> result = new CompletableFuture<>();
        private final List<ByteRange> parts = new ArrayList<>();
        private final List<CompletableFuture<FetchedPart>> fetched = new ArrayList<>();
        private final int ahead;
        /** The first part's ETag, which every other part must have; set when the first is handed over. */
        private String version;
        /** Parts handed over so far: the index of the next. */
        private int handedOver;

        /** A part's bytes and the ETag of the version they came from. */
        private record FetchedPart(ByteBuffer bytes, String eTag) {
        }

        PartStream(String key, String fullKey, ByteRange range, Consumer<ByteBuffer> pieces) {
            this.key = key;
            this.fullKey = fullKey;
            this.range = range;
            this.pieces = pieces;
            long partSize = shared.options.partSize();
            for (long offset = range.offset(); offset < range.end(); offset += partSize) {
                parts.add(ByteRange.between(offset, Math.min(range.end(), offset + partSize)));
            }
            this.ahead = (int) Math.max(2, STREAM_BUFFER_BYTES / partSize);
        }

        CompletableFuture<Void> start() {
            requests.cancelledWith(result);
            try {
                for (int i = 0; i < Math.min(ahead, parts.size()); i++) {
                    fetch(i);
                }
            } catch (Throwable t) {   // a part's buffer cannot be allocated, say: cancel those sent
                fail(t);
                return result;
            }
            handOverArrived();
            return result;
        }

        private void fetch(int index) {
            ByteRange part = parts.get(index);
            AtomicReference<GetObjectResponse> response = new AtomicReference<>();
            byte[] bytes = new byte[(int) part.length()];
            fetched.add(requests.add(readPart(RequestKind.RANGE_GET, key, fullKey, range, part, null, answer -> {
                response.set(answer);
                return checkedSlice(key, range, part, answer, ByteBuffer.wrap(bytes), 0);
            })).thenApply(done -> new FetchedPart(ByteBuffer.wrap(bytes).asReadOnlyBuffer(),
                    String.valueOf(response.get().eTag()))));
        }

        /**
         * Hands over, in order and one at a time, every part that has arrived, then waits for the next. A loop, not
         * a chain of callbacks: a part handed over is dropped before the next one is taken, so the read holds the
         * parts in flight, not those before them (a callback run inside the previous hand-over would keep its part
         * on the stack).
         */
        private void handOverArrived() {
            try {
                while (!result.isDone()) {
                    int index;
                    CompletableFuture<FetchedPart> next;
                    synchronized (this) {
                        index = handedOver;
                        next = fetched.get(index);
                        if (next.isDone()) {
                            fetched.set(index, null);
                            handedOver++;
                        }
                    }
                    if (!next.isDone()) {
                        next.whenComplete((part, failure) -> handOverArrived());
                        return;
                    }
                    FetchedPart part;
                    try {
                        part = next.join();
                    } catch (CompletionException | CancellationException e) {
                        failWith(Retrier.unwrap(e));
                        return;
                    }
                    handOver(index, part);
                }
            } catch (Throwable t) {   // a part's buffer cannot be allocated, say: the read fails, never hangs
                fail(t);
            }
        }

        private void handOver(int index, FetchedPart part) {
            if (index == 0) {
                version = part.eTag();
            } else if (!version.equals(part.eTag())) {
                fail(new StorageException("Cannot stream range " + range + " of " + describe(fullKey, null)
                        + ": it was overwritten while being read (part " + parts.get(index) + " is version "
                        + part.eTag() + ", the parts before it " + version + ")"));
                return;
            }
            pieces.accept(part.bytes());
            if (index + 1 == parts.size()) {
                result.complete(null);
                return;
            }
            synchronized (this) {
                if (index + ahead < parts.size() && !result.isDone()) {
                    fetch(index + ahead);
                }
            }
        }

        /** Fails the read with {@code cause}; a 416 is first turned into the error naming the object's size. */
        private void failWith(Throwable cause) {
            if (cause instanceof S3Errors.InvalidRange) {
                requests.cancelAll();
                whenInvalidRange(cause, key, fullKey, range).whenComplete((never, named) -> fail(named == null
                        ? cause : Retrier.unwrap(named)));
                return;
            }
            fail(cause);
        }

        /** Ends the read with {@code failure}, and cancels the GETs still in flight. */
        private void fail(Throwable failure) {
            if (result.completeExceptionally(failure)) {
                requests.cancelAll();
            }
        }
    }

    /**
     * One GET per part, all in flight at once. A range longer than a part could mix two versions of an object
     * overwritten meanwhile; the parts' ETags tell, and a mix is read again (S3 overwrites are rare next to reads,
     * so pinning every read to its first part's ETag would cost a round trip for nothing).
     */
    private CompletableFuture<ByteBuffer> readRangeInParts(String key, String fullKey, ByteRange range,
            int retriesLeft, ReadRequests requests) {
        ByteBuffer buffer = ByteBuffer.allocate((int) range.length());
        List<CompletableFuture<GetObjectResponse>> parts = new ArrayList<>();
        for (long offset = range.offset(); offset < range.end(); offset += shared.options.partSize()) {
            ByteRange part = ByteRange.between(offset, Math.min(range.end(), offset + shared.options.partSize()));
            int at = (int) (part.offset() - range.offset());
            parts.add(requests.add(readPart(RequestKind.RANGE_GET, key, fullKey, range, part, null,
                    response -> checkedSlice(key, range, part, response, buffer, at))));
        }
        if (parts.size() == 1) {
            // One GET is one version: the common case of the ranged-read path needs no check.
            return parts.get(0).thenApply(ignored -> buffer.asReadOnlyBuffer());
        }
        return allOf(parts).thenCompose(ignored -> {
            Set<String> versions = new LinkedHashSet<>();
            for (CompletableFuture<GetObjectResponse> part : parts) {
                versions.add(String.valueOf(part.join().eTag()));
            }
            if (versions.size() == 1) {
                return CompletableFuture.completedFuture(buffer.asReadOnlyBuffer());
            }
            if (retriesLeft == 0) {
                throw new StorageException("Cannot read range " + range + " of " + describe(fullKey, null)
                        + ": it was overwritten while being read, " + (VERSION_MIX_RETRIES + 1)
                        + " times in a row (its parts came from versions " + versions + ")");
            }
            LOG.debug("Parts of {} of {} came from versions {}; reading it again", range, fullKey, versions);
            return readRangeInParts(key, fullKey, range, retriesLeft - 1, requests);
        });
    }

    /**
     * The first part with a range, then the rest pinned to the first part's ETag; an overwrite in between (412 on
     * a later part) starts the read again, up to {@value #VERSION_MIX_RETRIES} times.
     */
    @Override
    public CompletableFuture<ByteBuffer> readAllAsync(String key) {
        String fullKey = shared.location.fullKey(key);
        checkOpen();
        ReadRequests requests = new ReadRequests();
        return requests.cancelledWith(readAllInParts(key, fullKey, VERSION_MIX_RETRIES, requests));
    }

    private CompletableFuture<ByteBuffer> readAllInParts(String key, String fullKey, int retriesLeft,
            ReadRequests requests) {
        long partSize = shared.options.partSize();
        ByteRange first = ByteRange.of(0, partSize);
        AtomicReference<ByteBuffer> whole = new AtomicReference<>();
        return requests.add(readPart(RequestKind.GET, key, fullKey, null, first, null, response -> {
            long size = totalSize(response);
            if (size > MAX_READ_BYTES) {
                throw new StorageException("Cannot read all of " + describe(fullKey, null) + " at once: it is "
                        + size + " bytes and one read returns at most " + MAX_READ_BYTES + "; read it in ranges");
            }
            ByteBuffer buffer = ByteBuffer.allocate((int) size);
            whole.set(buffer);
            return checkedSlice(key, ByteRange.of(0, size), ByteRange.of(0, Math.min(size, partSize)), response,
                    buffer, 0);
        })).thenCompose(firstResponse -> {
            ByteBuffer buffer = whole.get();
            ByteRange all = ByteRange.of(0, buffer.capacity());
            List<CompletableFuture<GetObjectResponse>> rest = new ArrayList<>();
            for (long offset = partSize; offset < all.end(); offset += partSize) {
                ByteRange part = ByteRange.between(offset, Math.min(all.end(), offset + partSize));
                rest.add(requests.add(readPart(RequestKind.GET, key, fullKey, all, part, firstResponse.eTag(),
                        response -> checkedSlice(key, all, part, response, buffer, (int) part.offset()))));
            }
            return allOf(rest).thenApply(ignored -> buffer.asReadOnlyBuffer());
        }).exceptionallyCompose(failure -> {
            if (Retrier.unwrap(failure) instanceof S3Errors.ObjectChanged && retriesLeft > 0) {
                LOG.debug("{} was overwritten while being read whole; reading it again", fullKey);
                return readAllInParts(key, fullKey, retriesLeft - 1, requests);
            }
            if (Retrier.unwrap(failure) instanceof S3Errors.InvalidRange) {
                // A range GET of an empty object is 416: ask for the size to tell "empty" from "changed".
                return sizeAsync(key, fullKey).thenApply(size -> {
                    if (size != 0) {
                        throw new StorageException("Cannot read all of " + describe(fullKey, null)
                                + ": it changed while being read (now " + size + " bytes)");
                    }
                    return EMPTY;
                });
            }
            return CompletableFuture.failedFuture(Retrier.unwrap(failure));
        });
    }

    @Override
    public long size(String key) {
        String fullKey = shared.location.fullKey(key);
        checkOpen();
        return ObjectBackend.await(sizeAsync(key, fullKey));
    }

    @Override
    public void put(String key, InputStream data, long length) {
        String fullKey = shared.location.fullKey(key);
        requireNonNull(data, "data is null");
        if (length < 0) {
            throw new IllegalArgumentException("Cannot store " + key + ": length must be >= 0, got " + length);
        }
        checkOpen();
        if (length <= shared.options.partSize()) {
            byte[] bytes = readExactly(key, fullKey, data, (int) length, 0, length);
            ObjectBackend.await(putObject(fullKey, bytes));
        } else {
            new MultipartUpload(key, fullKey, length).run(data);
        }
    }

    @Override
    public Stream<ObjectInfo> list(String prefix) {
        ObjectKeys.checkPrefix(prefix);
        checkOpen();
        Iterator<ObjectInfo> listing = new Listing(shared.location.prefix() + prefix);
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(listing,
                Spliterator.ORDERED | Spliterator.DISTINCT | Spliterator.NONNULL), false);
    }

    @Override
    public void delete(String key) {
        String fullKey = shared.location.fullKey(key);
        checkOpen();
        String what = "DELETE " + describe(fullKey, null);
        ObjectBackend.await(retry(RequestKind.DELETE, what, key, () -> timed(RequestKind.DELETE,
                shared.client.deleteObject(b -> b.bucket(bucket()).key(fullKey)))));
    }

    /** DeleteObjects in batches of {@value #DELETE_BATCH_SIZE}; each batch counts as one DELETE request. */
    @Override
    public void deleteAll(Collection<String> keys) {
        List<String> fullKeys = new ArrayList<>(keys.size());
        for (String key : keys) {
            fullKeys.add(shared.location.fullKey(key));
        }
        checkOpen();
        for (int from = 0; from < fullKeys.size(); from += DELETE_BATCH_SIZE) {
            List<String> batch = fullKeys.subList(from, Math.min(fullKeys.size(), from + DELETE_BATCH_SIZE));
            List<ObjectIdentifier> ids = batch.stream().map(k -> ObjectIdentifier.builder().key(k).build()).toList();
            Delete delete = Delete.builder().objects(ids).quiet(true).build();
            String what = "DELETE " + batch.size() + " objects from " + uri() + " (from " + batch.get(0) + ")";
            DeleteObjectsResponse response = ObjectBackend.await(retry(RequestKind.DELETE, what, batch.get(0),
                    () -> timed(RequestKind.DELETE,
                            shared.client.deleteObjects(b -> b.bucket(bucket()).delete(delete)))));
            List<S3Error> errors = response.errors().stream()
                    .filter(e -> !"NoSuchKey".equals(e.code())).toList();
            if (!errors.isEmpty()) {
                StringBuilder message = new StringBuilder("Cannot delete " + errors.size() + " of " + batch.size()
                        + " objects from " + uri() + ":");
                errors.stream().limit(5).forEach(e -> message.append(' ').append(e.key()).append(" (")
                        .append(e.code()).append(": ").append(e.message()).append(')'));
                if (errors.size() > 5) {
                    message.append(" and ").append(errors.size() - 5).append(" more");
                }
                throw new StorageException(shared.redact(message.toString()));
            }
        }
    }

    /** A view over the same client that counts into {@code metrics}; closing it does nothing. */
    @Override
    public ObjectBackend withMetrics(RequestMetrics metrics) {
        return new S3Backend(shared, metrics, true);
    }

    /**
     * Fails the requests in flight and closes the client and its connections. Later calls fail, views' too.
     */
    @Override
    public void close() {
        if (!view && shared.closed.compareAndSet(false, true)) {
            // Every request in flight has a timeout pending: firing them now cancels the requests (closing their
            // connections) and fails them, so the client's close below need not wait for a stalled server. Retries
            // waiting for their turn run now too, and fail at once: the backend is closed.
            while (!shared.pending.isEmpty()) {
                for (Runnable task : List.copyOf(shared.pending)) {
                    task.run();
                }
            }
            shared.scheduler.shutdownNow();
            shared.client.close();
        }
    }

    @Override
    public String toString() {
        return "S3Backend[" + uri() + ", region " + shared.region
                + (shared.options.endpoint() != null ? ", endpoint " + shared.options.endpoint() : "")
                + ", " + shared.options.credentials() + "]";
    }

    // ---- reads -----------------------------------------------------------------------------------------------

    /**
     * GETs {@code part} of the object with retries. {@code sinkFor} is called when a response's headers arrive and
     * returns the buffer its body goes into, of exactly the body's length.
     */
    private CompletableFuture<GetObjectResponse> readPart(RequestKind kind, String key, String fullKey,
            ByteRange whole, ByteRange part, String ifMatch, Function<GetObjectResponse, ByteBuffer> sinkFor) {
        String what = "GET " + describe(fullKey, whole == null ? part : whole)
                + (whole != null && !whole.equals(part) ? " (part " + part + ")" : "");
        GetObjectRequest request = GetObjectRequest.builder()
                .bucket(bucket())
                .key(fullKey)
                .range("bytes=" + part.offset() + "-" + (part.end() - 1))
                .ifMatch(ifMatch)
                .build();
        return retry(kind, what, key, () -> {
            BodyReceiver receiver = new BodyReceiver(kind, metrics, System.nanoTime(), sinkFor);
            return withTimeout(shared.client.getObject(request, receiver), receiver::abandon);
        });
    }

    /**
     * The slice of {@code buffer} at {@code at} that the body of {@code response} for {@code part} goes into, after
     * checking that the object holds all of {@code range}.
     */
    private ByteBuffer checkedSlice(String key, ByteRange range, ByteRange part, GetObjectResponse response,
            ByteBuffer buffer, int at) {
        long size = totalSize(response);
        if (!range.fitsIn(size)) {
            throw new RangeNotSatisfiableException(key, range, size);
        }
        return buffer.slice(at, (int) part.length());
    }

    /** The object's size from {@code Content-Range: bytes a-b/size}, or the length of a whole-object response. */
    private static long totalSize(GetObjectResponse response) {
        String contentRange = response.contentRange();
        if (contentRange == null) {
            Long length = response.contentLength();
            return length == null ? 0 : length;
        }
        int slash = contentRange.lastIndexOf('/');
        String total = slash < 0 ? "*" : contentRange.substring(slash + 1).trim();
        if (total.equals("*")) {
            throw new StorageException("The store answered a ranged GET with Content-Range '" + contentRange
                    + "', which does not give the object's size");
        }
        return Long.parseLong(total);
    }

    /** A 416 says the range starts at or past the end: ask for the size to name it in the message. */
    private CompletableFuture<ByteBuffer> whenInvalidRange(Throwable failure, String key, String fullKey,
            ByteRange range) {
        Throwable cause = Retrier.unwrap(failure);
        if (!(cause instanceof S3Errors.InvalidRange)) {
            return CompletableFuture.failedFuture(cause);
        }
        return sizeAsync(key, fullKey).thenApply(size -> {
            throw new RangeNotSatisfiableException(key, range, size);
        });
    }

    private CompletableFuture<Long> sizeAsync(String key, String fullKey) {
        String what = "HEAD " + describe(fullKey, null);
        return retry(RequestKind.HEAD, what, key, () -> timed(RequestKind.HEAD,
                shared.client.headObject(b -> b.bucket(bucket()).key(fullKey))))
                .thenApply(response -> response.contentLength());
    }

    // ---- writes ----------------------------------------------------------------------------------------------

    private CompletableFuture<?> putObject(String fullKey, byte[] bytes) {
        String what = "PUT " + describe(fullKey, null) + " (" + bytes.length + " bytes)";
        return retry(RequestKind.PUT, what, fullKey, () -> timed(RequestKind.PUT, shared.client.putObject(
                b -> b.bucket(bucket()).key(fullKey).contentLength((long) bytes.length)
                        .contentType("application/octet-stream"),
                new CountingRequestBody(bytes, RequestKind.PUT, metrics))));
    }

    /**
     * Reads exactly {@code length} bytes of {@code data}; {@code before} bytes of the {@code total} were read
     * already (for messages).
     */
    private byte[] readExactly(String key, String fullKey, InputStream data, int length, long before, long total) {
        byte[] bytes = new byte[length];
        int read = 0;
        try {
            while (read < length) {
                // At most a slice per read: a file's stream takes a temporary direct buffer of what is asked.
                int n = data.read(bytes, read, Math.min(length - read, SlicedIo.SLICE_BYTES));
                if (n < 0) {
                    throw new StorageException("Cannot store " + key + " in " + describe(fullKey, null)
                            + ": the stream ended after " + (before + read) + " of the " + total + " bytes promised");
                }
                read += n;
            }
        } catch (IOException e) {
            throw new StorageException("Cannot store " + key + " in " + describe(fullKey, null)
                    + ": reading the source failed after " + (before + read) + " of " + total + " bytes: " + e, e);
        }
        return bytes;
    }

    /** One multipart upload: parts read from the stream one after another, a few uploading at once. */
    private final class MultipartUpload {
        private final String key;
        private final String fullKey;
        private final long length;
        private final long partSize;

        MultipartUpload(String key, String fullKey, long length) {
            this.key = key;
            this.fullKey = fullKey;
            this.length = length;
            // S3 allows 10,000 parts: larger objects need larger parts.
            long minimum = (length + MAX_PARTS - 1) / MAX_PARTS;
            this.partSize = Math.max(shared.options.partSize(), (minimum + (1 << 20) - 1) >> 20 << 20);
        }

        void run(InputStream data) {
            String what = "CreateMultipartUpload " + describe(fullKey, null);
            String uploadId = ObjectBackend.await(retry(RequestKind.PUT, what, key, () -> timed(RequestKind.PUT,
                    shared.client.createMultipartUpload(b -> b.bucket(bucket()).key(fullKey)
                            .contentType("application/octet-stream"))))).uploadId();
            List<CompletableFuture<CompletedPart>> parts = new ArrayList<>();
            Semaphore inFlight = new Semaphore(UPLOAD_PARTS_IN_FLIGHT);
            try {
                long offset = 0;
                for (int number = 1; offset < length; number++) {
                    int size = (int) Math.min(partSize, length - offset);
                    byte[] bytes = readExactly(key, fullKey, data, size, offset, length);
                    inFlight.acquire();
                    failFast(parts);
                    CompletableFuture<CompletedPart> part = uploadPart(uploadId, number, bytes);
                    part.whenComplete((p, t) -> inFlight.release());
                    parts.add(part);
                    offset += size;
                }
                List<CompletedPart> completed = new ArrayList<>();
                for (CompletableFuture<CompletedPart> part : parts) {
                    completed.add(ObjectBackend.await(part));
                }
                completed.sort(Comparator.comparing(CompletedPart::partNumber));
                String complete = "CompleteMultipartUpload " + describe(fullKey, null) + " (" + completed.size()
                        + " parts)";
                ObjectBackend.await(retry(RequestKind.PUT, complete, key, () -> timed(RequestKind.PUT,
                        shared.client.completeMultipartUpload(b -> b.bucket(bucket()).key(fullKey)
                                .uploadId(uploadId).multipartUpload(m -> m.parts(completed))))));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                StorageException failure = new StorageException("Interrupted while storing " + key, e);
                abort(uploadId, parts, failure);
                throw failure;
            } catch (RuntimeException | Error e) {
                abort(uploadId, parts, e);
                throw e;
            }
        }

        private CompletableFuture<CompletedPart> uploadPart(String uploadId, int number, byte[] bytes) {
            String what = "UploadPart " + number + " of " + describe(fullKey, null) + " (" + bytes.length + " bytes)";
            return retry(RequestKind.PUT, what, key, () -> timed(RequestKind.PUT, shared.client.uploadPart(
                    b -> b.bucket(bucket()).key(fullKey).uploadId(uploadId).partNumber(number)
                            .contentLength((long) bytes.length),
                    new CountingRequestBody(bytes, RequestKind.PUT, metrics))))
                    .thenApply(response -> CompletedPart.builder().partNumber(number).eTag(response.eTag()).build());
        }

        private void failFast(List<CompletableFuture<CompletedPart>> parts) {
            for (CompletableFuture<CompletedPart> part : parts) {
                if (part.isCompletedExceptionally()) {
                    ObjectBackend.await(part);
                }
            }
        }

        /** Waits for the parts in flight and aborts the upload, so nothing is stored; notes failures on failure. */
        private void abort(String uploadId, List<CompletableFuture<CompletedPart>> parts, Throwable failure) {
            for (CompletableFuture<CompletedPart> part : parts) {
                part.handle((p, t) -> null).join();
            }
            String what = "AbortMultipartUpload " + describe(fullKey, null);
            try {
                ObjectBackend.await(retry(RequestKind.DELETE, what, key, () -> timed(RequestKind.DELETE,
                        shared.client.abortMultipartUpload(b -> b.bucket(bucket()).key(fullKey).uploadId(uploadId)))));
            } catch (RuntimeException e) {
                failure.addSuppressed(e);
            }
        }
    }

    // ---- listing ---------------------------------------------------------------------------------------------

    /** ListObjectsV2 pages, fetched when the stream reaches them. */
    private final class Listing implements Iterator<ObjectInfo> {
        private final String fullPrefix;
        private Iterator<S3Object> page = Collections.emptyIterator();
        private String continuation;
        private boolean lastPage;
        private ObjectInfo next;

        Listing(String fullPrefix) {
            this.fullPrefix = fullPrefix;
        }

        @Override
        public boolean hasNext() {
            while (next == null) {
                if (page.hasNext()) {
                    next = info(page.next());
                } else if (lastPage) {
                    return false;
                } else {
                    fetch();
                }
            }
            return true;
        }

        @Override
        public ObjectInfo next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            ObjectInfo result = next;
            next = null;
            return result;
        }

        private void fetch() {
            checkOpen();
            String token = continuation;
            String what = "LIST " + uri() + " prefix '" + fullPrefix + "'";
            ListObjectsV2Response response = ObjectBackend.await(retry(RequestKind.LIST, what, fullPrefix,
                    () -> timed(RequestKind.LIST, shared.client.listObjectsV2(b -> b.bucket(bucket())
                            .prefix(fullPrefix.isEmpty() ? null : fullPrefix)
                            .maxKeys(LIST_PAGE_SIZE)
                            .continuationToken(token)))));
            page = response.contents().iterator();
            continuation = response.nextContinuationToken();
            lastPage = !Boolean.TRUE.equals(response.isTruncated()) || continuation == null;
        }

        private ObjectInfo info(S3Object object) {
            String fullKey = object.key();
            if (!fullKey.startsWith(shared.location.prefix())) {
                return null;
            }
            String key = fullKey.substring(shared.location.prefix().length());
            try {
                ObjectKeys.check(key);
            } catch (IllegalArgumentException e) {
                LOG.debug("Not listing s3://{}/{}: not a valid object key ({})", bucket(), fullKey, e.getMessage());
                return null;
            }
            return new ObjectInfo(key, object.size() == null ? 0 : object.size());
        }
    }

    // ---- plumbing --------------------------------------------------------------------------------------------

    private <T> CompletableFuture<T> retry(RequestKind kind, String what, String key,
            Supplier<CompletableFuture<T>> attempt) {
        String safeWhat = shared.redact(what);
        Supplier<CompletableFuture<T>> whileOpen = () -> {
            checkOpen();
            return attempt.get();
        };
        return shared.retrier.run(kind, metrics, safeWhat, whileOpen,
                failure -> S3Errors.translate(failure, safeWhat, key, shared.location, shared.endpoint,
                        shared::redact, shared.options.retryPolicy().attemptTimeout()));
    }

    /** Counts the first byte when a response without a streamed body completes, under the attempt timeout. */
    private <T> CompletableFuture<T> timed(RequestKind kind, CompletableFuture<T> request) {
        long start = System.nanoTime();
        return withTimeout(request, () -> { }).thenApply(response -> {
            metrics.onFirstByte(kind, System.nanoTime() - start);
            return response;
        });
    }

    /**
     * {@code request}, failed with {@link S3Errors.AttemptTimeout} if it takes longer than the attempt timeout; the
     * request is then cancelled, which closes its connection, and so it is when the returned future is cancelled.
     * {@code onAbort} runs first in either case.
     */
    private <T> CompletableFuture<T> withTimeout(CompletableFuture<T> request, Runnable onAbort) {
        CompletableFuture<T> attempt = new CompletableFuture<>();
        long timeoutNanos = shared.options.retryPolicy().attemptTimeout().toNanos();
        Timer timer = shared.schedule(() -> {
            Exception why = shared.closed.get()
                    ? new IllegalStateException("The S3 backend " + uri() + " was closed")
                    : new S3Errors.AttemptTimeout(timeoutNanos);
            if (attempt.completeExceptionally(why)) {
                onAbort.run();
                request.cancel(true);
            }
        }, timeoutNanos);
        request.whenComplete((value, failure) -> {
            timer.cancel();
            if (failure == null) {
                attempt.complete(value);
            } else {
                attempt.completeExceptionally(failure);
            }
        });
        attempt.whenComplete((value, failure) -> {
            if (attempt.isCancelled()) {   // the read was cancelled (Retrier): the request and its connection go
                timer.cancel();
                onAbort.run();
                request.cancel(true);
            }
        });
        return attempt;
    }

    /**
     * The GETs one read has sent (each a retried request), so that cancelling the read cancels them: a hedged read's
     * loser stops before it brings the rest of its body.
     */
    private static final class ReadRequests {
        private final List<CompletableFuture<?>> sent = new ArrayList<>();
        private boolean cancelled;

        <T> CompletableFuture<T> add(CompletableFuture<T> request) {
            boolean cancelNow;
            synchronized (this) {
                cancelNow = cancelled;
                if (!cancelNow) {
                    sent.add(request);
                }
            }
            if (cancelNow) {
                request.cancel(true);
            }
            return request;
        }

        /** {@code read}, whose cancellation cancels every GET it has sent or sends later. */
        <T> CompletableFuture<T> cancelledWith(CompletableFuture<T> read) {
            read.whenComplete((value, failure) -> {
                if (read.isCancelled()) {
                    cancelAll();
                }
            });
            return read;
        }

        /** Cancels every GET sent, and those sent later. */
        void cancelAll() {
            List<CompletableFuture<?>> toCancel;
            synchronized (this) {
                cancelled = true;
                toCancel = List.copyOf(sent);
                sent.clear();
            }
            toCancel.forEach(request -> request.cancel(true));
        }
    }

    private static <T> CompletableFuture<Void> allOf(List<CompletableFuture<T>> futures) {
        if (futures.size() == 1) {
            return futures.get(0).thenApply(ignored -> null);
        }
        // Fail as soon as one part fails, rather than when all have finished.
        CompletableFuture<Void> all = CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new));
        for (CompletableFuture<T> future : futures) {
            future.whenComplete((value, failure) -> {
                if (failure != null) {
                    all.completeExceptionally(failure);
                }
            });
        }
        return all;
    }

    private String describe(String fullKey, ByteRange range) {
        return "s3://" + bucket() + "/" + fullKey + (range == null ? "" : " " + range);
    }

    private void checkOpen() {
        if (shared.closed.get()) {
            throw new IllegalStateException("The S3 backend " + uri() + " is closed");
        }
    }

    /** A task that runs once: when its delay is over, or early when the backend closes. */
    private static final class Timer implements Runnable {
        private final Runnable task;
        private final Set<Runnable> pending;
        private final AtomicBoolean done = new AtomicBoolean();
        volatile ScheduledFuture<?> future;

        Timer(Runnable task, Set<Runnable> pending) {
            this.task = task;
            this.pending = pending;
        }

        @Override
        public void run() {
            if (done.compareAndSet(false, true)) {
                pending.remove(this);
                task.run();
            }
        }

        /** Drops the task if it has not run. */
        void cancel() {
            if (done.compareAndSet(false, true)) {
                pending.remove(this);
                ScheduledFuture<?> f = future;
                if (f != null) {
                    f.cancel(false);
                }
            }
        }
    }

    /** What a backend shares with its views: the client, the retry timer, the settings and the open state. */
    private static final class Shared {
        final S3Location location;
        final S3Options options;
        final String region;
        /** The host and port requests go to, for errors: {@code 127.0.0.1:9000}. */
        final String endpoint;
        final S3AsyncClient client;
        final ScheduledThreadPoolExecutor scheduler;
        final Retrier retrier;
        final List<String> secrets;
        final Set<Runnable> pending = ConcurrentHashMap.newKeySet();
        final AtomicBoolean closed = new AtomicBoolean();

        Shared(S3Location location, S3Options options) {
            this.location = location;
            this.options = options;
            this.secrets = secretsOf(options.credentials());
            if (options.credentials() instanceof S3Options.Profile profile) {
                checkProfile(location, profile.name());
            }
            this.region = resolveRegion(location, options);
            this.endpoint = endpointOf(location, options, region);
            this.scheduler = new ScheduledThreadPoolExecutor(1, task -> {
                Thread thread = new Thread(task, "layoutbench-s3-timer-" + THREAD_IDS.incrementAndGet());
                thread.setDaemon(true);
                return thread;
            });
            this.scheduler.setRemoveOnCancelPolicy(true);
            this.retrier = new Retrier(options.retryPolicy(), this::schedule);
            try {
                this.client = buildClient(options, region);
            } catch (RuntimeException e) {
                scheduler.shutdownNow();
                throw new ConfigurationException("Cannot create the S3 client for " + location.uri() + ": "
                        + redact(String.valueOf(e.getMessage())), e);
            }
            LOG.debug("Opened the S3 backend {} (region {}, {}{})", location.uri(), region, options.credentials(),
                    options.endpoint() != null ? ", endpoint " + options.endpoint() : "");
        }

        /**
         * Runs {@code task} once, after {@code delayNanos} or when the backend closes, whichever is first. Timeouts
         * of requests in flight and retries waiting for their turn both go through here.
         */
        Timer schedule(Runnable task, long delayNanos) {
            Timer timer = new Timer(task, pending);
            pending.add(timer);
            if (closed.get()) {
                timer.run();   // closed meanwhile: close() may have drained the pending tasks already
                return timer;
            }
            timer.future = scheduler.schedule(timer, delayNanos, TimeUnit.NANOSECONDS);
            return timer;
        }

        /** {@code text} with every secret of the credentials replaced. */
        String redact(String text) {
            String result = text;
            for (String secret : secrets) {
                result = result.replace(secret, "****");
            }
            return result;
        }

        private static List<String> secretsOf(S3Options.Credentials credentials) {
            List<String> secrets = new ArrayList<>();
            if (credentials instanceof S3Options.StaticKeys keys) {
                secrets.add(keys.secretAccessKey());
                secrets.add(keys.accessKeyId());
                if (keys.sessionToken() != null && !keys.sessionToken().isEmpty()) {
                    secrets.add(keys.sessionToken());
                }
            }
            // Longest first, so a key contained in another is not half-replaced.
            secrets.sort(Comparator.comparingInt(String::length).reversed());
            return List.copyOf(secrets);
        }

        private static String resolveRegion(S3Location location, S3Options options) {
            if (options.region() != null) {
                return options.region();
            }
            DefaultAwsRegionProviderChain.Builder chain = DefaultAwsRegionProviderChain.builder();
            if (options.credentials() instanceof S3Options.Profile profile) {
                chain.profileName(profile.name());
            }
            try {
                return chain.build().getRegion().id();
            } catch (SdkException e) {
                throw new ConfigurationException("No AWS region for " + location.uri() + ": set the backend"
                        + " property region, the environment variable AWS_REGION, or a region in the AWS profile", e);
            } catch (IllegalArgumentException e) {
                // The SDK's profile file parser: "Expected an '=' sign defining a property on line 3".
                throw new ConfigurationException("No AWS region for " + location.uri() + ": the AWS config files"
                        + " cannot be read (" + e.getMessage() + ")", e);
            }
        }

        /**
         * Fails now, rather than at the first request, when the named profile is in none of the AWS config files or
         * they cannot be parsed. The SDK's parser names a line, never its contents, so its message is shown.
         */
        private static void checkProfile(S3Location location, String name) {
            String files = Stream.of(ProfileFileLocation.configurationFileLocation(),
                            ProfileFileLocation.credentialsFileLocation())
                    .flatMap(Optional::stream).map(Path::toString).collect(Collectors.joining(" and "));
            boolean found;
            try {
                found = ProfileFile.defaultProfileFile().profile(name).isPresent();
            } catch (RuntimeException e) {
                throw new ConfigurationException("Cannot read the AWS config files (" + files + ") for profile '"
                        + name + "' of " + location.uri() + ": " + e.getMessage(), e);
            }
            if (!found) {
                throw new ConfigurationException("No AWS profile '" + name + "' for " + location.uri() + " in "
                        + (files.isEmpty() ? "the AWS config files: there are none (AWS_CONFIG_FILE,"
                                + " AWS_SHARED_CREDENTIALS_FILE or ~/.aws/config and ~/.aws/credentials)" : files));
            }
        }

        /** {@code host:port} of the endpoint override, or of AWS's endpoint for the bucket and region. */
        private static String endpointOf(S3Location location, S3Options options, String region) {
            URI uri = options.endpoint();
            if (uri == null) {
                String host = "s3." + region + ".amazonaws.com";
                return (options.pathStyle() ? host : location.bucket() + "." + host) + ":443";
            }
            int port = uri.getPort() >= 0 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
            return uri.getHost() + ":" + port;
        }

        private static S3AsyncClient buildClient(S3Options options, String region) {
            S3CrtAsyncClientBuilder builder = S3AsyncClient.crtBuilder()
                    .region(Region.of(region))
                    .credentialsProvider(credentialsProvider(options.credentials()))
                    .minimumPartSizeInBytes(options.partSize())
                    .targetThroughputInGbps(options.targetThroughputGbps())
                    .forcePathStyle(options.pathStyle())
                    .retryConfiguration(retry -> retry.numRetries(CRT_INTERNAL_RETRIES));
            if (options.endpoint() != null) {
                builder.endpointOverride(options.endpoint());
            }
            if (options.maxConcurrency() != null) {
                builder.maxConcurrency(options.maxConcurrency());
            }
            if (options.connectTimeout() != null) {
                builder.httpConfiguration(http -> http.connectionTimeout(options.connectTimeout()));
            }
            if (options.checksumMode() == S3Options.ChecksumMode.WHEN_REQUIRED) {
                builder.requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                        .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
            } else {
                builder.requestChecksumCalculation(RequestChecksumCalculation.WHEN_SUPPORTED)
                        .responseChecksumValidation(ResponseChecksumValidation.WHEN_SUPPORTED);
            }
            return builder.build();
        }

        private static AwsCredentialsProvider credentialsProvider(S3Options.Credentials credentials) {
            if (credentials instanceof S3Options.StaticKeys keys) {
                return StaticCredentialsProvider.create(keys.sessionToken() == null
                        ? AwsBasicCredentials.create(keys.accessKeyId(), keys.secretAccessKey())
                        : AwsSessionCredentials.create(keys.accessKeyId(), keys.secretAccessKey(),
                                keys.sessionToken()));
            }
            if (credentials instanceof S3Options.Profile profile) {
                return ProfileCredentialsProvider.builder().profileName(profile.name()).build();
            }
            return DefaultCredentialsProvider.builder().build();
        }
    }
}
