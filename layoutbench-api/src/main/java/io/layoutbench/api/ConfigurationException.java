package io.layoutbench.api;

/**
 * A setting is invalid: an unknown or malformed backend property or layout option, a backend URI or scheme that
 * names nothing, or configuration that cannot be read (an AWS profile). The message names the setting and what is
 * allowed, and never repeats the value given, which may be a secret.
 *
 * <p>An {@link IllegalArgumentException}, as every bad argument is, so that callers catching those keep working;
 * callers that tell a user's mistakes from failures of the work (the command line exits with code 2 on it, not 1)
 * catch this type.
 *
 * <pre>{@code
 * try {
 *     ObjectBackends.open(URI.create("s3://bucket"), Map.of("maxAttempts", "five"), RequestMetrics.NONE);
 * } catch (ConfigurationException e) {
 *     // "S3 backend property maxAttempts must be an integer (opening s3://bucket/)"
 * }
 * }</pre>
 */
public class ConfigurationException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public ConfigurationException(String message) {
        super(message);
    }

    public ConfigurationException(String message, Throwable cause) {
        super(message, cause);
    }
}
