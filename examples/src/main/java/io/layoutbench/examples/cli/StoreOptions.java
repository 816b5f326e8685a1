package io.layoutbench.examples.cli;

import io.layoutbench.api.ConfigurationException;
import io.layoutbench.api.network.NetworkProfile;

import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Where the data lives: {@code --data-dir}, {@code --backend}, {@code --backend-property}. */
final class StoreOptions {

    static final String DEFAULT_DATA_DIR = "layoutbench-data";

    /**
     * The S3 backend's property names (its {@code S3Options.PROPERTIES}; the backend is only on the runtime class
     * path, and a test checks the two agree). Only these are named in errors about a malformed argument: anything
     * else at its start might be a secret.
     */
    static final Set<String> S3_PROPERTIES = Set.of("region", "endpoint", "pathStyle", "accessKeyId",
            "secretAccessKey", "sessionToken", "profile", "maxConcurrency", "targetThroughputGbps", "partSize",
            "checksumMode", "connectTimeout", "maxAttempts", "retryBaseDelay", "retryMaxDelay", "retryTimeLimit",
            "attemptTimeout");

    /** A key followed by a separator that is not '=': {@code secretAccessKey:...}, {@code region ...}. */
    private static final Pattern KEY_THEN_OTHER_SEPARATOR = Pattern.compile("([A-Za-z][A-Za-z0-9]*)\\s*([:\\s])");

    @Option(names = "--data-dir", paramLabel = "DIR", defaultValue = DEFAULT_DATA_DIR,
            description = "Working directory: the file backend's objects, the embedded S3 server's buckets, and "
                    + "results. Default: ${DEFAULT-VALUE}.")
    Path dataDir;

    @Option(names = "--backend", paramLabel = "BACKEND", defaultValue = "file",
            description = "Object store: file (under DIR/objects), mem (in this process, nothing is kept), "
                    + "s3-embedded (an S3 server in this process, buckets under DIR/s3) or s3://bucket/prefix. "
                    + "Default: ${DEFAULT-VALUE}.")
    String backend;

    // Parsed here rather than as a picocli map, whose error for a missing '=' repeats the argument, secret or not.
    @Option(names = "--backend-property", paramLabel = "KEY=VALUE",
            description = "A setting of the S3 backend (region, endpoint, ...); repeatable.")
    List<String> backendProperties = new ArrayList<>();

    /**
     * Opens the store.
     *
     * @throws ParameterException     if {@code --backend} names no known backend, or a {@code --backend-property} is
     *                                not {@code KEY=VALUE}
     * @throws ConfigurationException if the backend refuses its properties
     */
    Store open(CommandLine cmd) {
        Store.checkSpec(cmd, backend);
        return Store.open(backend, dataDir, properties(cmd, backendProperties));
    }

    /**
     * Opens the store, an S3 one with its connection pool sized for {@code network} unless a
     * {@code --backend-property} sizes it: {@code maxConcurrency} its pool ({@link NetworkProfile#maxConnections},
     * sized from the bandwidth-delay product: 297 on t3.medium) and {@code targetThroughputGbps} its burst bandwidth
     * (5 on t3.medium), from which the CRT sizes its own pool. The AWS SDK's defaults (10 Gbps, which the CRT turns
     * into about 130 connections) would otherwise hold reads back that the profile, and the query's read window,
     * keep in flight. A network without limits leaves the backend's defaults.
     */
    Store open(CommandLine cmd, NetworkProfile network) {
        Store.checkSpec(cmd, backend);
        return Store.open(backend, dataDir, sizedFor(network, properties(cmd, backendProperties)));
    }

    /** {@code properties} with the S3 pool settings {@code network} implies added where they are not set. */
    static Map<String, String> sizedFor(NetworkProfile network, Map<String, String> properties) {
        Map<String, String> sized = new LinkedHashMap<>(properties);
        if (!network.isUnlimited()) {
            sized.putIfAbsent("maxConcurrency", Integer.toString(network.maxConnections()));
            double burst = network.host().burstBytesPerSecond();
            if (Double.isFinite(burst)) {
                sized.putIfAbsent("targetThroughputGbps", Double.toString(Math.max(0.001, burst * 8 / 1e9)));
            }
        }
        return sized;
    }

    /**
     * {@code KEY=VALUE} arguments as a map, later keys winning. Errors name the key when it is one the S3 backend
     * knows, or the argument's position otherwise, and never show a value: it may be a secret.
     *
     * @throws ParameterException for an argument without {@code '='} or with an empty key
     */
    static Map<String, String> properties(CommandLine cmd, List<String> arguments) {
        Map<String, String> properties = new LinkedHashMap<>();
        for (int i = 0; i < arguments.size(); i++) {
            String argument = arguments.get(i);
            int equals = argument.indexOf('=');
            if (equals < 0) {
                throw new ParameterException(cmd, "--backend-property expects KEY=VALUE, but "
                        + describe(argument, i) + " has no '=' (the value is not shown, in case it is a secret)");
            }
            String key = argument.substring(0, equals).strip();
            if (key.isEmpty()) {
                throw new ParameterException(cmd, "--backend-property expects KEY=VALUE, but the "
                        + ordinal(i) + " one has an empty key");
            }
            properties.put(key, argument.substring(equals + 1));
        }
        return properties;
    }

    /** "the 2nd one", or "the 2nd one (secretAccessKey followed by ':')" when it starts with a known key. */
    private static String describe(String argument, int index) {
        Matcher m = KEY_THEN_OTHER_SEPARATOR.matcher(argument);
        if (m.lookingAt() && S3_PROPERTIES.contains(m.group(1))) {
            String separator = m.group(2).isBlank() ? "a space" : "'" + m.group(2) + "'";
            return "the " + ordinal(index) + " one (" + m.group(1) + " followed by " + separator + ")";
        }
        if (S3_PROPERTIES.contains(argument.strip())) {
            return "the " + ordinal(index) + " one (" + argument.strip() + ")";
        }
        return "the " + ordinal(index) + " one";
    }

    private static String ordinal(int index) {
        int n = index + 1;
        String suffix = n % 100 >= 11 && n % 100 <= 13 ? "th"
                : switch (n % 10) {
                    case 1 -> "st";
                    case 2 -> "nd";
                    case 3 -> "rd";
                    default -> "th";
                };
        return n + suffix;
    }
}
