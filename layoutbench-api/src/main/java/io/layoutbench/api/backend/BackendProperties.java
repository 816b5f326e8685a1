package io.layoutbench.api.backend;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.ConfigurationException;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The values backend providers read from their URI's properties, parsed one way for every backend: integers,
 * durations ({@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h}, or ISO-8601 {@code PT30S}) and the retry settings
 * ({@link #RETRY_KEYS}). Errors name the backend and the property, never the value (a property may hold a secret).
 *
 * <pre>{@code
 * Duration connect = BackendProperties.duration("S3 backend", "connectTimeout", "2s");
 * RetryPolicy retry = BackendProperties.retryPolicy("S3 backend", RetryPolicy.defaults(), properties);
 * }</pre>
 */
public final class BackendProperties {

    /** The retry properties {@link #retryPolicy} reads. */
    public static final Set<String> RETRY_KEYS = Set.of("maxAttempts", "retryBaseDelay", "retryMaxDelay",
            "retryTimeLimit", "attemptTimeout");

    private static final Pattern SHORT_DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h)");

    private BackendProperties() {
    }

    /**
     * {@code value} as an integer.
     *
     * @param backend names the backend in errors ("S3 backend")
     * @throws ConfigurationException naming the backend and property
     */
    public static int integer(String backend, String name, String value) {
        try {
            return Integer.parseInt(requireNonNull(value, "value is null").trim());
        } catch (NumberFormatException e) {
            throw new ConfigurationException(backend + " property " + name + " must be an integer");
        }
    }

    /**
     * {@code value} as a duration: {@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h} or {@code PT30S}.
     *
     * @throws ConfigurationException naming the backend and property
     */
    public static Duration duration(String backend, String name, String value) {
        String text = requireNonNull(value, "value is null").trim();
        Matcher m = SHORT_DURATION.matcher(text.toLowerCase(Locale.ROOT));
        try {
            if (m.matches()) {
                long amount = Long.parseLong(m.group(1));
                return switch (m.group(2)) {
                    case "ms" -> Duration.ofMillis(amount);
                    case "s" -> Duration.ofSeconds(amount);
                    case "m" -> Duration.ofMinutes(amount);
                    default -> Duration.ofHours(amount);
                };
            }
            return Duration.parse(text);
        } catch (DateTimeParseException | NumberFormatException | ArithmeticException e) {
            throw new ConfigurationException(backend + " property " + name + " must be a duration like 500ms, 30s,"
                    + " 2m or PT30S");
        }
    }

    /**
     * {@code policy} changed by the retry properties that {@code properties} set: {@code maxAttempts},
     * {@code retryBaseDelay}, {@code retryMaxDelay}, {@code retryTimeLimit}, {@code attemptTimeout}; others are
     * ignored (the caller checks for unknown ones).
     *
     * @throws ConfigurationException naming the backend and property of a malformed or invalid value
     */
    public static RetryPolicy retryPolicy(String backend, RetryPolicy policy, Map<String, String> properties) {
        requireNonNull(policy, "policy is null");
        requireNonNull(properties, "properties is null");
        RetryPolicy retry = policy;
        try {
            if (properties.containsKey("maxAttempts")) {
                retry = retry.withMaxAttempts(integer(backend, "maxAttempts", properties.get("maxAttempts")));
            }
            String base = properties.get("retryBaseDelay");
            String max = properties.get("retryMaxDelay");
            if (base != null || max != null) {
                retry = retry.withDelays(base != null ? duration(backend, "retryBaseDelay", base) : retry.baseDelay(),
                        max != null ? duration(backend, "retryMaxDelay", max) : retry.maxDelay());
            }
            if (properties.containsKey("retryTimeLimit")) {
                retry = retry.withTimeLimit(duration(backend, "retryTimeLimit", properties.get("retryTimeLimit")));
            }
            if (properties.containsKey("attemptTimeout")) {
                retry = retry.withAttemptTimeout(duration(backend, "attemptTimeout",
                        properties.get("attemptTimeout")));
            }
        } catch (ConfigurationException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException("Invalid " + backend + " retry properties: " + e.getMessage(), e);
        }
        return retry;
    }
}
