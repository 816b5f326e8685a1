package io.layoutbench.backend.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.backend.AccessDeniedException;
import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackends;
import io.layoutbench.api.backend.ObjectNotFoundException;
import io.layoutbench.api.backend.StorageException;
import io.layoutbench.api.backend.TransientStorageException;
import io.layoutbench.api.metrics.RequestMetrics;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CancellationException;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The S3 side of retrying: which SDK and CRT failures {@link S3Errors} translates as transient (so the api's
 * {@code Retrier} tries them again), which as throttling, and which as permanent.
 */
class S3ErrorsTest {

    private static final S3Location LOCATION = S3Location.parse(URI.create("s3://bucket/prefix"));
    private static final String WHAT = "GET s3://bucket/prefix/k [0, 10)";

    private static StorageException translate(Throwable failure) {
        return S3Errors.translate(failure, WHAT, "k", LOCATION, "127.0.0.1:9000",
                text -> text.replace("SECRET", "****"), Duration.ofSeconds(3));
    }

    private static S3Exception service(int status, String code) {
        return (S3Exception) S3Exception.builder().statusCode(status)
                .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage("message").build())
                .build();
    }

    @Test
    void throttlingAnswersAreTransientAndThrottled() {
        for (StorageException e : new StorageException[] {translate(service(503, "SlowDown")),
                translate(service(429, null)), translate(service(400, "RequestLimitExceeded"))}) {
            assertThat(e).isInstanceOf(TransientStorageException.class);
            assertThat(((TransientStorageException) e).isThrottled()).isTrue();
        }
    }

    @Test
    void serverErrorsConnectionFailuresAndTimeoutsAreTransientButNotThrottled() {
        StorageException[] errors = {translate(service(500, "InternalError")), translate(service(502, null)),
                translate(service(504, null)), translate(service(400, "RequestTimeout")),
                translate(new IOException("Connection reset")),
                translate(SdkClientException.create("Failed to send the request: socket closed")),
                translate(SdkClientException.create("boom", new IOException("reset"))),
                translate(new S3Errors.AttemptTimeout(3_000_000_000L))};
        for (StorageException e : errors) {
            assertThat(e).isInstanceOf(TransientStorageException.class);
            assertThat(((TransientStorageException) e).isThrottled()).isFalse();
            assertThat(e.getMessage()).startsWith(WHAT);
        }
        assertThat(errors[errors.length - 1]).hasMessageContaining("attemptTimeout 3000 ms");
    }

    @Test
    void requestsThatCannotBeSentOrGetNoAnswerNameTheEndpointAndTheBucket() {
        assertThat(translate(SdkClientException.create("Failed to send the request: socket connection refused.")))
                .hasMessage(WHAT + " could not be sent to the S3 endpoint 127.0.0.1:9000 (bucket bucket): socket"
                        + " connection refused");
        assertThat(translate(new S3Errors.AttemptTimeout(3_000_000_000L))).hasMessage(WHAT + ": no complete"
                + " response within 3000 ms at the S3 endpoint 127.0.0.1:9000 (bucket bucket) (attemptTimeout 3000"
                + " ms)");
        assertThat(translate(new IOException("Connection reset"))).hasMessage(WHAT + " failed at the S3 endpoint"
                + " 127.0.0.1:9000 (bucket bucket): Connection reset");
    }

    @Test
    void aRefusedConnectionIsOneMessageNamingTheEndpointTheBucketAndTheRequest() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();   // closed again: nothing listens there
        }
        try (ObjectBackend backend = ObjectBackends.open(URI.create("s3://data/set"), Map.of(
                "endpoint", "http://127.0.0.1:" + port, "region", "us-east-1", "pathStyle", "true",
                "accessKeyId", "AKIDEXAMPLE", "secretAccessKey", "wJalrXUtnFEMIbPxRfiCYEXAMPLEKEY",
                "maxAttempts", "1"), RequestMetrics.NONE)) {
            assertThatThrownBy(() -> backend.readRange("k", ByteRange.of(0, 10)))
                    .isInstanceOf(TransientStorageException.class)
                    .hasMessageStartingWith("GET s3://data/set/k [0, 10) could not be sent to the S3 endpoint"
                            + " 127.0.0.1:" + port + " (bucket data): ")
                    .hasMessageContaining("refused")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        }
    }

    @Test
    void clientErrorsAreNeverRetried() {
        assertThat(translate(service(404, "NoSuchKey"))).isInstanceOf(ObjectNotFoundException.class)
                .hasMessageContaining("No object k in s3://bucket/prefix/");
        assertThat(translate(service(403, "AccessDenied"))).isInstanceOf(AccessDeniedException.class);
        assertThat(translate(service(416, "InvalidRange"))).isInstanceOf(S3Errors.InvalidRange.class);
        assertThat(translate(service(412, "PreconditionFailed"))).isInstanceOf(S3Errors.ObjectChanged.class);
        assertThat(translate(service(400, "InvalidArgument"))).isNotInstanceOf(TransientStorageException.class);
        assertThat(translate(SdkClientException.create("Unable to load credentials"))).isNotInstanceOf(
                TransientStorageException.class);
        assertThat(translate(new IllegalStateException("The S3 backend s3://bucket/ was closed")))
                .hasMessage(WHAT + ": The S3 backend s3://bucket/ was closed");
        assertThat(translate(new CancellationException())).hasMessage(WHAT + ": cancelled").satisfies(
                e -> assertThat(e.isTransient()).isFalse());
    }

    @Test
    void ourOwnExceptionsPassThroughAndMessagesAreRedacted() {
        StorageException ours = new TransientStorageException("body cut short");
        assertThat(translate(SdkClientException.create("wrapped", ours))).isSameAs(ours);
        assertThat(translate(SdkClientException.create("Failed to send the request: key SECRET")).getMessage())
                .doesNotContain("SECRET").contains("****");
    }
}
