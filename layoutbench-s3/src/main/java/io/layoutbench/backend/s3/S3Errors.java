package io.layoutbench.backend.s3;

import io.layoutbench.api.backend.AccessDeniedException;
import io.layoutbench.api.backend.ObjectNotFoundException;
import io.layoutbench.api.backend.StorageException;
import io.layoutbench.api.backend.TransientStorageException;

import java.io.IOException;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;

/**
 * Turns what the SDK and the CRT fail with into this library's {@link StorageException}s, at the backend boundary.
 * Messages name the request (operation, {@code s3://bucket/key}, range) and the store's status and error code; they
 * pass through a redactor that removes the credentials.
 *
 * <p>Transient: HTTP 429, 500, 502, 503, 504 and the error codes S3 uses for them (SlowDown, InternalError,
 * RequestTimeout ...), I/O failures of the connection (reset, closed, refused, a body cut short) and attempt
 * timeouts. Throttled: 429, 503 and the throttling codes. Everything else is permanent. This is what the S3 backend
 * plugs into the api's {@code Retrier}: the transient ones are retried, the rest fail at once.
 */
final class S3Errors {

    private static final Set<String> THROTTLING_CODES = Set.of("SlowDown", "Throttling", "ThrottlingException",
            "RequestLimitExceeded", "TooManyRequests", "TooManyRequestsException", "RequestThrottled");
    private static final Set<String> TRANSIENT_CODES = Set.of("InternalError", "ServiceUnavailable",
            "RequestTimeout", "RequestTimeTooSkewed", "BadGateway", "GatewayTimeout");
    private static final Pattern SDK_ATTEMPT_COUNT = Pattern.compile("\\s*\\(SDK Attempt Count: \\d+\\)");
    /** How the CRT's messages for requests it could not send start, in lower case. */
    private static final String NOT_SENT = "failed to send the request";

    private S3Errors() {
    }

    /** The store answered 416: the range starts at or past the end. The backend asks for the size to say more. */
    static final class InvalidRange extends StorageException {
        private static final long serialVersionUID = 1L;

        InvalidRange(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The store answered 412 to a read pinned to an ETag: the object was overwritten since its first part. */
    static final class ObjectChanged extends StorageException {
        private static final long serialVersionUID = 1L;

        ObjectChanged(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** An attempt took longer than the attempt timeout and was cancelled. */
    static final class AttemptTimeout extends TimeoutException {
        private static final long serialVersionUID = 1L;

        AttemptTimeout(long timeoutNanos) {
            super("no complete response within " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms");
        }
    }

    /**
     * The library exception for {@code failure}.
     *
     * @param what     the request, already redacted: {@code GET s3://bucket/prefix/key [0, 100)}
     * @param key      the key as the caller named it, for not-found messages
     * @param location the backend's bucket and prefix
     * @param endpoint the host and port requests go to, {@code 127.0.0.1:9000}, named when a request cannot be
     *                 sent or gets no answer
     * @param redact   removes credentials from a text
     */
    static StorageException translate(Throwable failure, String what, String key, S3Location location,
            String endpoint, UnaryOperator<String> redact, Duration attemptTimeout) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof StorageException storage) {
                return storage;   // ours, thrown while receiving a body and wrapped by the SDK
            }
        }
        if (failure instanceof AwsServiceException service) {
            return fromService(service, what, key, location, redact);
        }
        String at = " at the S3 endpoint " + endpoint + " (bucket " + location.bucket() + ")";
        if (failure instanceof TimeoutException) {
            return new TransientStorageException(what + ": " + failure.getMessage() + at
                    + " (attemptTimeout " + attemptTimeout.toMillis() + " ms)", failure, false);
        }
        if (failure instanceof SdkClientException client) {
            return fromClient(client, what, at, redact);
        }
        if (failure instanceof IOException) {
            return new TransientStorageException(what + " failed" + at + ": "
                    + redact.apply(String.valueOf(failure.getMessage())), failure, false);
        }
        if (failure instanceof CancellationException) {
            return new StorageException(what + ": cancelled", failure);
        }
        // The message alone: a class name means nothing to whoever reads the error (--verbose shows the trace).
        String message = failure.getMessage() == null || failure.getMessage().isBlank()
                ? "failed without a message" : failure.getMessage();
        return new StorageException(what + ": " + redact.apply(message), failure);
    }

    private static StorageException fromService(AwsServiceException e, String what, String key, S3Location location,
            UnaryOperator<String> redact) {
        int status = e.statusCode();
        AwsErrorDetails details = e.awsErrorDetails();
        String code = details == null ? null : details.errorCode();
        String message = details == null ? null : details.errorMessage();
        String detail = redact.apply(status + (code != null ? " " + code : "")
                + (message != null && !message.isBlank() ? ": " + message : ""));
        if (status == 404 || "NoSuchKey".equals(code) || "NoSuchBucket".equals(code)) {
            if ("NoSuchBucket".equals(code)) {
                return new ObjectNotFoundException("No bucket " + location.bucket() + " for " + key + " ("
                        + what + ": " + detail + ")", e);
            }
            return new ObjectNotFoundException("No object " + key + " in " + location.uri() + " (" + what + ": "
                    + detail + ")", e);
        }
        if (status == 403) {
            return new AccessDeniedException(what + ": " + detail
                    + " (check the credentials, the region and the bucket policy)", e);
        }
        if (status == 416 || "InvalidRange".equals(code)) {
            return new InvalidRange(what + ": " + detail, e);
        }
        if (status == 429 || status == 503 || (code != null && THROTTLING_CODES.contains(code))) {
            return new TransientStorageException(what + ": " + detail, e, true);
        }
        if (status == 500 || status == 502 || status == 504 || (code != null && TRANSIENT_CODES.contains(code))) {
            return new TransientStorageException(what + ": " + detail, e, false);
        }
        if (status == 412) {
            return new ObjectChanged(what + ": the object changed while it was being read (" + detail + ")", e);
        }
        return new StorageException(what + ": " + detail, e);
    }

    /**
     * The CRT reports connection failures, and 500 and 503 answers it gave up retrying, as client exceptions that
     * start "Failed to send the request"; credential and configuration problems are client exceptions too. A
     * request that could not be sent names the endpoint and bucket ({@code at}): "GET s3://b/k [0, 10) could not be
     * sent to the S3 endpoint 127.0.0.1:9000 (bucket b): socket connection refused".
     */
    private static StorageException fromClient(SdkClientException e, String what, String at,
            UnaryOperator<String> redact) {
        String message = redact.apply(SDK_ATTEMPT_COUNT.matcher(String.valueOf(e.getMessage())).replaceAll(""));
        String lower = message.toLowerCase(Locale.ROOT);
        if (lower.contains("throttl") || lower.contains("slow down") || lower.contains("slowdown")) {
            return new TransientStorageException(what + ": " + message, e, true);
        }
        if (lower.startsWith(NOT_SENT)) {
            String why = message.substring(NOT_SENT.length()).replaceFirst("^[:\\s]+", "").replaceFirst("\\.$", "");
            return new TransientStorageException(what + " could not be sent" + at.replaceFirst(" at ", " to ")
                    + (why.isEmpty() ? "" : ": " + why), e, false);
        }
        if (hasIoCause(e)) {
            return new TransientStorageException(what + " failed" + at + ": " + message, e, false);
        }
        return new StorageException(what + ": " + message, e);
    }

    private static boolean hasIoCause(Throwable e) {
        for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
            if (t instanceof IOException || t.getClass().getName().equals("software.amazon.awssdk.crt.CrtRuntimeException")) {
                return true;
            }
        }
        return false;
    }
}
