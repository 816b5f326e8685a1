package io.layoutbench.backend.s3;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.ConfigurationException;
import io.layoutbench.api.backend.BackendProperties;
import io.layoutbench.api.backend.RetryPolicy;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Settings of an {@link S3Backend}, from code or from the properties map of {@code ObjectBackends.open}
 * ({@link #fromProperties}). Every setting has a default; the table lists the property names.
 *
 * <table>
 *   <caption>S3 backend properties</caption>
 *   <tr><th>property</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@code region}</td><td>the SDK's region chain: {@code AWS_REGION}, {@code aws.region}, the profile</td>
 *       <td>region to sign for</td></tr>
 *   <tr><td>{@code endpoint}</td><td>AWS</td><td>URL of an S3-compatible store, {@code http://host:port}</td></tr>
 *   <tr><td>{@code pathStyle}</td><td>{@code false}</td><td>{@code host/bucket/key} instead of
 *       {@code bucket.host/key}</td></tr>
 *   <tr><td>{@code accessKeyId}, {@code secretAccessKey}, {@code sessionToken}</td><td>none: the SDK's default
 *       credentials chain (environment, system properties, profile, web identity, container, EC2)</td>
 *       <td>explicit keys; both or neither</td></tr>
 *   <tr><td>{@code profile}</td><td>none ({@code AWS_PROFILE} still works through the default chain)</td>
 *       <td>a named profile of {@code ~/.aws/config}: its credentials, and its region unless {@code region} is
 *       set</td></tr>
 *   <tr><td>{@code maxConcurrency}</td><td>the CRT's, derived from the target throughput</td><td>most
 *       connections</td></tr>
 *   <tr><td>{@code targetThroughputGbps}</td><td>10</td><td>the CRT sizes its connection pool for it</td></tr>
 *   <tr><td>{@code partSize}</td><td>8MiB</td><td>largest range one GET asks for, and the multipart upload part
 *       size; 5MiB to 1GiB</td></tr>
 *   <tr><td>{@code checksumMode}</td><td>{@code when_supported}</td><td>{@code when_required} for stores that
 *       reject the SDK's checksum trailers (s3proxy, older MinIO)</td></tr>
 *   <tr><td>{@code connectTimeout}</td><td>the CRT's</td><td>TCP (and TLS) connect timeout</td></tr>
 *   <tr><td>{@code maxAttempts}</td><td>5</td><td>attempts per request, retries included</td></tr>
 *   <tr><td>{@code retryBaseDelay}, {@code retryMaxDelay}</td><td>50ms, 5s</td><td>backoff bounds</td></tr>
 *   <tr><td>{@code retryTimeLimit}</td><td>2m</td><td>no retry starts later than this</td></tr>
 *   <tr><td>{@code attemptTimeout}</td><td>30s</td><td>one HTTP request may take this long</td></tr>
 * </table>
 *
 * <p>Sizes take {@code B}, {@code KiB}, {@code MiB}, {@code GiB} (or {@code KB}, {@code MB}, {@code GB}, powers
 * of 1000) or a plain number of bytes; durations take {@code ms}, {@code s}, {@code m}, {@code h} or ISO-8601
 * ({@code PT30S}).
 *
 * <pre>{@code
 * S3Options options = S3Options.defaults().withRegion("eu-west-1").withPartSize(16 << 20);
 * }</pre>
 *
 * @param region               region name, or null for the SDK's region chain
 * @param endpoint             endpoint override, or null for AWS
 * @param pathStyle            path-style addressing
 * @param credentials          where the credentials come from
 * @param maxConcurrency       most connections, or null for the CRT's choice
 * @param targetThroughputGbps the throughput the CRT aims for
 * @param partSize             largest single GET, and the upload part size, in bytes
 * @param checksumMode         when the SDK computes and checks checksums
 * @param connectTimeout       connect timeout, or null for the CRT's
 * @param retryPolicy          retries of transient failures
 */
public record S3Options(String region, URI endpoint, boolean pathStyle, Credentials credentials,
        Integer maxConcurrency, double targetThroughputGbps, long partSize, ChecksumMode checksumMode,
        Duration connectTimeout, RetryPolicy retryPolicy) {

    /** This backend in errors about its properties. */
    private static final String BACKEND = "S3 backend";

    /** S3's smallest multipart part (except the last). */
    public static final long MIN_PART_SIZE = 5L << 20;
    /** The largest part this backend allows: it holds parts in memory while uploading them (S3 allows 5 GiB). */
    public static final long MAX_PART_SIZE = 1L << 30;
    /** Part size when not configured: the CRT's default. */
    public static final long DEFAULT_PART_SIZE = 8L << 20;
    /** Target throughput when not configured: the CRT's default. */
    public static final double DEFAULT_TARGET_THROUGHPUT_GBPS = 10.0;

    /** The property names {@link #fromProperties} accepts. */
    public static final Set<String> PROPERTIES = Set.of("region", "endpoint", "pathStyle", "accessKeyId",
            "secretAccessKey", "sessionToken", "profile", "maxConcurrency", "targetThroughputGbps", "partSize",
            "checksumMode", "connectTimeout", "maxAttempts", "retryBaseDelay", "retryMaxDelay", "retryTimeLimit",
            "attemptTimeout");

    /** When the SDK computes request checksums and validates response checksums. */
    public enum ChecksumMode {
        /** Whenever the operation supports it (the SDK's default; AWS S3). */
        WHEN_SUPPORTED,
        /** Only where S3 requires one (for stores that reject checksum trailers). */
        WHEN_REQUIRED
    }

    /** Where the credentials come from. {@code toString()} never shows a secret. */
    public sealed interface Credentials permits DefaultChain, Profile, StaticKeys {
    }

    /** The SDK's default chain: environment, system properties, profile, web identity, container, EC2. */
    public record DefaultChain() implements Credentials {
        @Override
        public String toString() {
            return "default credentials chain";
        }
    }

    /** A named profile of the AWS config and credentials files. */
    public record Profile(String name) implements Credentials {
        public Profile {
            requireNonNull(name, "name is null");
            if (name.isBlank()) {
                throw new ConfigurationException("An AWS profile name must not be blank");
            }
        }

        @Override
        public String toString() {
            return "profile " + name;
        }
    }

    /**
     * Explicit keys. {@code toString()} shows neither key.
     *
     * @param sessionToken a session token for temporary credentials, or null
     */
    public record StaticKeys(String accessKeyId, String secretAccessKey, String sessionToken) implements Credentials {
        public StaticKeys {
            requireNonNull(accessKeyId, "accessKeyId is null");
            requireNonNull(secretAccessKey, "secretAccessKey is null");
            if (accessKeyId.isBlank() || secretAccessKey.isBlank()) {
                throw new ConfigurationException("S3 accessKeyId and secretAccessKey must not be blank");
            }
        }

        @Override
        public String toString() {
            return "explicit keys" + (sessionToken != null ? " with a session token" : "");
        }
    }

    public S3Options {
        requireNonNull(credentials, "credentials is null");
        requireNonNull(checksumMode, "checksumMode is null");
        requireNonNull(retryPolicy, "retryPolicy is null");
        if (region != null && region.isBlank()) {
            throw new ConfigurationException("S3 region must not be blank");
        }
        if (endpoint != null && (endpoint.getScheme() == null || endpoint.getHost() == null)) {
            throw new ConfigurationException("S3 endpoint must be a URL with a scheme and a host, like"
                    + " http://127.0.0.1:9000");
        }
        if (maxConcurrency != null && maxConcurrency < 1) {
            throw new ConfigurationException("S3 maxConcurrency must be at least 1");
        }
        if (!(targetThroughputGbps > 0) || Double.isInfinite(targetThroughputGbps)) {
            throw new ConfigurationException("S3 targetThroughputGbps must be a positive, finite number");
        }
        if (partSize < MIN_PART_SIZE || partSize > MAX_PART_SIZE) {
            throw new ConfigurationException("S3 partSize must be between 5MiB (S3's smallest part) and 1GiB"
                    + " (parts are held in memory)");
        }
        if (connectTimeout != null && (connectTimeout.isNegative() || connectTimeout.isZero())) {
            throw new ConfigurationException("S3 connectTimeout must be positive");
        }
    }

    /** Region and credentials from the SDK's default chains, AWS endpoint, CRT defaults, default retries. */
    public static S3Options defaults() {
        return new S3Options(null, null, false, new DefaultChain(), null, DEFAULT_TARGET_THROUGHPUT_GBPS,
                DEFAULT_PART_SIZE, ChecksumMode.WHEN_SUPPORTED, null, RetryPolicy.defaults());
    }

    /**
     * Options from backend properties (the table above).
     *
     * @throws ConfigurationException naming the property and what is allowed, never the value given (a secret
     *                                may have been put under another property's name)
     */
    public static S3Options fromProperties(Map<String, String> properties) {
        requireNonNull(properties, "properties is null");
        Set<String> unknown = new TreeSet<>(properties.keySet());
        unknown.removeAll(PROPERTIES);
        if (!unknown.isEmpty()) {
            throw new ConfigurationException("Unknown S3 backend properties " + unknown + "; supported: "
                    + new TreeSet<>(PROPERTIES));
        }
        S3Options options = defaults();
        String region = trimmed(properties, "region");
        String endpoint = trimmed(properties, "endpoint");
        Credentials credentials = credentials(properties);
        String pathStyle = trimmed(properties, "pathStyle");
        String concurrency = trimmed(properties, "maxConcurrency");
        String throughput = trimmed(properties, "targetThroughputGbps");
        String partSize = trimmed(properties, "partSize");
        String checksum = trimmed(properties, "checksumMode");
        String connect = trimmed(properties, "connectTimeout");
        RetryPolicy retry = options.retryPolicy();
        String attempts = trimmed(properties, "maxAttempts");
        if (attempts != null) {
            retry = retry.withMaxAttempts(parseInt("maxAttempts", attempts));
        }
        String base = trimmed(properties, "retryBaseDelay");
        String max = trimmed(properties, "retryMaxDelay");
        if (base != null || max != null) {
            retry = retry.withDelays(base != null ? parseDuration("retryBaseDelay", base) : retry.baseDelay(),
                    max != null ? parseDuration("retryMaxDelay", max) : retry.maxDelay());
        }
        String limit = trimmed(properties, "retryTimeLimit");
        if (limit != null) {
            retry = retry.withTimeLimit(parseDuration("retryTimeLimit", limit));
        }
        String attemptTimeout = trimmed(properties, "attemptTimeout");
        if (attemptTimeout != null) {
            retry = retry.withAttemptTimeout(parseDuration("attemptTimeout", attemptTimeout));
        }
        return new S3Options(
                region,
                endpoint == null ? null : parseUri(endpoint),
                pathStyle != null && parseBoolean("pathStyle", pathStyle),
                credentials,
                concurrency == null ? null : parseInt("maxConcurrency", concurrency),
                throughput == null ? DEFAULT_TARGET_THROUGHPUT_GBPS : parseDouble("targetThroughputGbps", throughput),
                partSize == null ? DEFAULT_PART_SIZE : parseSize("partSize", partSize),
                checksum == null ? ChecksumMode.WHEN_SUPPORTED : parseChecksumMode(checksum),
                connect == null ? null : parseDuration("connectTimeout", connect),
                retry);
    }

    /** These options with {@code region}. */
    public S3Options withRegion(String region) {
        return new S3Options(region, endpoint, pathStyle, credentials, maxConcurrency, targetThroughputGbps, partSize,
                checksumMode, connectTimeout, retryPolicy);
    }

    /** These options with this endpoint and addressing style. */
    public S3Options withEndpoint(URI endpoint, boolean pathStyle) {
        return new S3Options(region, endpoint, pathStyle, credentials, maxConcurrency, targetThroughputGbps,
                partSize, checksumMode, connectTimeout, retryPolicy);
    }

    /** These options with {@code credentials}. */
    public S3Options withCredentials(Credentials credentials) {
        return new S3Options(region, endpoint, pathStyle, credentials, maxConcurrency, targetThroughputGbps,
                partSize, checksumMode, connectTimeout, retryPolicy);
    }

    /** These options with {@code partSize} bytes per part. */
    public S3Options withPartSize(long partSize) {
        return new S3Options(region, endpoint, pathStyle, credentials, maxConcurrency, targetThroughputGbps,
                partSize, checksumMode, connectTimeout, retryPolicy);
    }

    /** These options with {@code retryPolicy}. */
    public S3Options withRetryPolicy(RetryPolicy retryPolicy) {
        return new S3Options(region, endpoint, pathStyle, credentials, maxConcurrency, targetThroughputGbps,
                partSize, checksumMode, connectTimeout, retryPolicy);
    }

    /** These options with at most {@code maxConcurrency} connections. */
    public S3Options withMaxConcurrency(Integer maxConcurrency) {
        return new S3Options(region, endpoint, pathStyle, credentials, maxConcurrency, targetThroughputGbps,
                partSize, checksumMode, connectTimeout, retryPolicy);
    }

    /** These options with {@code checksumMode}. */
    public S3Options withChecksumMode(ChecksumMode checksumMode) {
        return new S3Options(region, endpoint, pathStyle, credentials, maxConcurrency, targetThroughputGbps,
                partSize, checksumMode, connectTimeout, retryPolicy);
    }

    // ---- parsing -------------------------------------------------------------------------------------------

    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*([kKmMgG]i?[bB]|[bB])?");

    private static Credentials credentials(Map<String, String> properties) {
        String id = trimmed(properties, "accessKeyId");
        String secret = properties.get("secretAccessKey");
        String token = properties.get("sessionToken");
        String profile = trimmed(properties, "profile");
        if ((id == null) != (secret == null)) {
            throw new ConfigurationException("S3 backend properties accessKeyId and secretAccessKey go together:"
                    + " set both, or neither to use the default credentials chain");
        }
        if (token != null && id == null) {
            throw new ConfigurationException("S3 backend property sessionToken needs accessKeyId and"
                    + " secretAccessKey");
        }
        if (id != null && profile != null) {
            throw new ConfigurationException("S3 backend properties accessKeyId/secretAccessKey and profile"
                    + " exclude each other: set one");
        }
        if (id != null) {
            return new StaticKeys(id, secret, token);
        }
        return profile != null ? new Profile(profile) : new DefaultChain();
    }

    private static String trimmed(Map<String, String> properties, String name) {
        String value = properties.get(name);
        return value == null ? null : value.trim();
    }

    private static URI parseUri(String value) {
        try {
            return new URI(value);
        } catch (java.net.URISyntaxException e) {
            throw new ConfigurationException("S3 backend property endpoint must be a URL like"
                    + " http://127.0.0.1:9000: " + e.getReason(), e);
        }
    }

    private static boolean parseBoolean(String name, String value) {
        String lower = value.toLowerCase(Locale.ROOT);
        if (!lower.equals("true") && !lower.equals("false")) {
            throw new ConfigurationException("S3 backend property " + name + " must be true or false");
        }
        return Boolean.parseBoolean(lower);
    }

    private static int parseInt(String name, String value) {
        return BackendProperties.integer(BACKEND, name, value);
    }

    private static Duration parseDuration(String name, String value) {
        return BackendProperties.duration(BACKEND, name, value);
    }

    private static double parseDouble(String name, String value) {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new ConfigurationException("S3 backend property " + name + " must be a number");
        }
    }

    /** {@code 8MiB}, {@code 8 MB}, {@code 8388608}. */
    static long parseSize(String name, String value) {
        Matcher m = SIZE.matcher(value);
        if (!m.matches()) {
            throw new ConfigurationException("S3 backend property " + name + " must be a size like 8MiB, 16MB or"
                    + " 8388608");
        }
        String unit = m.group(2) == null ? "b" : m.group(2).toLowerCase(Locale.ROOT);
        long multiplier = switch (unit) {
            case "b" -> 1L;
            case "kb" -> 1000L;
            case "kib" -> 1L << 10;
            case "mb" -> 1000_000L;
            case "mib" -> 1L << 20;
            case "gb" -> 1000_000_000L;
            case "gib" -> 1L << 30;
            default -> throw new ConfigurationException("S3 backend property " + name + " has an unknown unit;"
                    + " use B, KiB, MiB, GiB, KB, MB or GB");
        };
        try {
            return Math.multiplyExact(Long.parseLong(m.group(1)), multiplier);
        } catch (ArithmeticException | NumberFormatException e) {
            throw new ConfigurationException("S3 backend property " + name + " is too large", e);
        }
    }

    private static ChecksumMode parseChecksumMode(String value) {
        try {
            return ChecksumMode.valueOf(value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException("S3 backend property checksumMode must be when_supported or"
                    + " when_required");
        }
    }
}
