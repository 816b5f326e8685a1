package io.layoutbench.backend.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.layoutbench.api.backend.AccessDeniedException;
import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackends;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.api.testing.TestBytes;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Credentials never show: not in the URI, {@code toString()}, options, exception messages and stack traces (causes
 * included), nor in what is logged while the backend works and fails. Log lines are captured from slf4j-simple,
 * which writes to whatever {@code System.err} is at the time; this module, and the SDK's request logger, log at
 * debug level in these tests (src/test/resources/simplelogger.properties).
 */
class S3BackendCredentialsTest {

    private static final String WRONG_ACCESS_KEY = "AKIAWRONGKEY7EXAMPLE";
    private static final String WRONG_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYwrongSECRET";

    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();
    private PrintStream originalErr;

    @BeforeEach
    void captureLogs() {
        originalErr = System.err;
        System.setErr(new PrintStream(new TeeStream(originalErr, captured), true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restoreLogs() {
        System.setErr(originalErr);
    }

    private String logs() {
        System.err.flush();
        return captured.toString(StandardCharsets.UTF_8);
    }

    private static String everything(Throwable t) {
        StringWriter text = new StringWriter();
        t.printStackTrace(new PrintWriter(text));
        return text + " " + t;
    }

    @Test
    void theRightKeysNeverShowWhileTheBackendWorksAndFails() {
        String secret = SharedS3Server.get().secretKey();
        String accessKey = SharedS3Server.get().accessKey();
        URI uri = SharedS3Server.freshUri("credentials");
        try (ObjectBackend backend = ObjectBackends.open(uri, SharedS3Server.properties(), RequestMetrics.NONE)) {
            backend.put("a.bin", TestBytes.of("a.bin", 1000));
            TestBytes.verify("a.bin", 10, backend.readRange("a.bin", ByteRange.of(10, 10)));
            Throwable missing = catchThrowable(() -> backend.readRange("missing.bin", ByteRange.of(0, 1)));
            Throwable pastEnd = catchThrowable(() -> backend.readRange("a.bin", ByteRange.of(2000, 1)));

            assertThat(logs()).as("the log capture works").contains("Opened the S3 backend " + uri);
            for (String text : List.of(backend.uri().toString(), backend.toString(),
                    ((S3Backend) backend).options().toString(), everything(missing), everything(pastEnd), logs())) {
                assertThat(text).doesNotContain(secret).doesNotContain(accessKey);
            }
        }
    }

    @Test
    void wrongKeysFailAsAccessDeniedWithoutShowingThem() {
        Map<String, String> properties = new HashMap<>(SharedS3Server.properties());
        properties.put("accessKeyId", WRONG_ACCESS_KEY);
        properties.put("secretAccessKey", WRONG_SECRET);
        try (ObjectBackend backend = ObjectBackends.open(SharedS3Server.freshUri("wrong-keys"), properties,
                RequestMetrics.NONE)) {
            Throwable read = catchThrowable(() -> backend.readRange("a.bin", ByteRange.of(0, 1)));
            Throwable put = catchThrowable(() -> backend.put("a.bin", new byte[10]));
            Throwable list = catchThrowable(() -> {
                try (Stream<?> listed = backend.list("")) {
                    listed.count();
                }
            });

            assertThat(read).isInstanceOf(AccessDeniedException.class).hasMessageContaining("403");
            assertThat(put).isInstanceOf(AccessDeniedException.class);
            assertThat(list).isInstanceOf(AccessDeniedException.class);
            for (String text : List.of(everything(read), everything(put), everything(list), backend.toString(),
                    logs())) {
                assertThat(text).doesNotContain(WRONG_SECRET).doesNotContain(WRONG_ACCESS_KEY);
            }
        }
    }

    @Test
    void credentialsInTheUriAreRefusedWithoutRepeatingThem() {
        URI withKeys = URI.create("s3://" + WRONG_ACCESS_KEY + ":" + WRONG_SECRET.replace("/", "%2F") + "@bucket/x");

        assertThatThrownBy(() -> ObjectBackends.open(withKeys, SharedS3Server.properties(), RequestMetrics.NONE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not hold credentials")
                .satisfies(e -> assertThat(everything(e)).doesNotContain(WRONG_ACCESS_KEY)
                        .doesNotContain("wrongSECRET"));
    }

    @Test
    void invalidPropertiesNeverEchoTheSecret() {
        Map<String, String> properties = new HashMap<>(SharedS3Server.properties());
        properties.put("partSize", "lots");
        properties.put("secretAccessKey", WRONG_SECRET);

        Throwable failure = catchThrowable(() -> ObjectBackends.open(SharedS3Server.freshUri("props"), properties,
                RequestMetrics.NONE));

        assertThat(failure).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("partSize");
        assertThat(everything(failure)).doesNotContain(WRONG_SECRET);
        assertThat(S3Options.fromProperties(Map.of("accessKeyId", WRONG_ACCESS_KEY, "secretAccessKey", WRONG_SECRET))
                .toString()).doesNotContain(WRONG_SECRET).doesNotContain(WRONG_ACCESS_KEY);
    }

    /** Writes to two streams. */
    private static final class TeeStream extends java.io.OutputStream {
        private final java.io.OutputStream first;
        private final java.io.OutputStream second;

        TeeStream(java.io.OutputStream first, java.io.OutputStream second) {
            this.first = first;
            this.second = second;
        }

        @Override
        public void write(int b) throws java.io.IOException {
            first.write(b);
            synchronized (second) {
                second.write(b);
            }
        }

        @Override
        public void write(byte[] b, int off, int len) throws java.io.IOException {
            first.write(b, off, len);
            synchronized (second) {
                second.write(b, off, len);
            }
        }

        @Override
        public void flush() throws java.io.IOException {
            first.flush();
        }
    }
}
