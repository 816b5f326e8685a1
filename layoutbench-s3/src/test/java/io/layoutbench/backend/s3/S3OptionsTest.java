package io.layoutbench.backend.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.layoutbench.api.ConfigurationException;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackends;
import io.layoutbench.api.backend.RetryPolicy;
import io.layoutbench.api.metrics.RequestMetrics;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Properties, URIs and discovery. */
class S3OptionsTest {

    @Test
    void defaultsFollowTheCrtAndTheSdkChains() {
        S3Options defaults = S3Options.fromProperties(Map.of());

        assertThat(defaults).isEqualTo(S3Options.defaults());
        assertThat(defaults.region()).isNull();
        assertThat(defaults.credentials()).isInstanceOf(S3Options.DefaultChain.class);
        assertThat(defaults.partSize()).isEqualTo(8 << 20);
        assertThat(defaults.checksumMode()).isEqualTo(S3Options.ChecksumMode.WHEN_SUPPORTED);
        assertThat(defaults.pathStyle()).isFalse();
        assertThat(defaults.retryPolicy()).isEqualTo(RetryPolicy.defaults());
    }

    @Test
    void everyPropertyIsParsed() {
        S3Options options = S3Options.fromProperties(Map.ofEntries(
                Map.entry("region", "eu-west-1"), Map.entry("endpoint", "http://127.0.0.1:9000"),
                Map.entry("pathStyle", "TRUE"), Map.entry("accessKeyId", "id"), Map.entry("secretAccessKey", "s"),
                Map.entry("sessionToken", "t"), Map.entry("maxConcurrency", "32"),
                Map.entry("targetThroughputGbps", "5.5"), Map.entry("partSize", "16MiB"),
                Map.entry("checksumMode", "when_required"), Map.entry("connectTimeout", "2s"),
                Map.entry("maxAttempts", "3"), Map.entry("retryBaseDelay", "20ms"), Map.entry("retryMaxDelay", "PT2S"),
                Map.entry("retryTimeLimit", "1m"), Map.entry("attemptTimeout", "10s")));

        assertThat(options.region()).isEqualTo("eu-west-1");
        assertThat(options.endpoint()).isEqualTo(URI.create("http://127.0.0.1:9000"));
        assertThat(options.pathStyle()).isTrue();
        assertThat(options.credentials()).isEqualTo(new S3Options.StaticKeys("id", "s", "t"));
        assertThat(options.maxConcurrency()).isEqualTo(32);
        assertThat(options.targetThroughputGbps()).isEqualTo(5.5);
        assertThat(options.partSize()).isEqualTo(16 << 20);
        assertThat(options.checksumMode()).isEqualTo(S3Options.ChecksumMode.WHEN_REQUIRED);
        assertThat(options.connectTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(options.retryPolicy()).isEqualTo(new RetryPolicy(3, Duration.ofMillis(20), Duration.ofSeconds(2),
                Duration.ofMinutes(1), Duration.ofSeconds(10)));
        assertThat(S3Options.fromProperties(Map.of("profile", "dev")).credentials())
                .isEqualTo(new S3Options.Profile("dev"));
    }

    @Test
    void sizesAndDurationsTakeUnits() {
        assertThat(S3Options.parseSize("x", "8388608")).isEqualTo(8 << 20);
        assertThat(S3Options.parseSize("x", "8 MiB")).isEqualTo(8 << 20);
        assertThat(S3Options.parseSize("x", "10MB")).isEqualTo(10_000_000);
        assertThat(S3Options.parseSize("x", "1GiB")).isEqualTo(1L << 30);
        assertThat(io.layoutbench.api.backend.BackendProperties.duration("S3 backend", "x", "500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(io.layoutbench.api.backend.BackendProperties.duration("S3 backend", "x", "PT1.5S")).isEqualTo(Duration.ofMillis(1500));
    }

    @Test
    void badPropertiesNameThePropertyAndTheRule() {
        assertThatThrownBy(() -> S3Options.fromProperties(Map.of("bucket", "x")))
                .hasMessageContaining("Unknown S3 backend properties [bucket]");
        assertThatThrownBy(() -> S3Options.fromProperties(Map.of("partSize", "1MiB")))
                .hasMessageContaining("partSize must be between 5MiB");
        assertThatThrownBy(() -> S3Options.fromProperties(Map.of("pathStyle", "yes")))
                .hasMessageContaining("pathStyle must be true or false");
        assertThatThrownBy(() -> S3Options.fromProperties(Map.of("accessKeyId", "only")))
                .hasMessageContaining("accessKeyId and secretAccessKey go together");
        assertThatThrownBy(() -> S3Options.fromProperties(Map.of("attemptTimeout", "soon")))
                .hasMessageContaining("attemptTimeout must be a duration");
        assertThatThrownBy(() -> S3Options.fromProperties(Map.of("checksumMode", "always")))
                .hasMessageContaining("when_supported or when_required");
        assertThatThrownBy(() -> S3Options.fromProperties(Map.of("endpoint", "localhost")))
                .hasMessageContaining("endpoint must be a URL");
    }

    @Test
    void urisNameABucketAndAPrefix() {
        S3Location root = S3Location.parse(URI.create("s3://bucket"));
        S3Location nested = S3Location.parse(URI.create("s3://bucket/a/b/"));

        assertThat(root.prefix()).isEmpty();
        assertThat(root.uri()).isEqualTo(URI.create("s3://bucket/"));
        assertThat(nested.prefix()).isEqualTo("a/b/");
        assertThat(nested.fullKey("c.bin")).isEqualTo("a/b/c.bin");
        assertThatThrownBy(() -> S3Location.parse(URI.create("s3:///x"))).hasMessageContaining("must name a bucket");
        assertThatThrownBy(() -> S3Location.parse(URI.create("s3://bucket/../x")))
                .hasMessageContaining("Invalid key prefix");
        assertThatThrownBy(() -> S3Location.parse(URI.create("s3://host:9000/x")))
                .hasMessageContaining("property endpoint");
        assertThatThrownBy(() -> S3Location.parse(URI.create("s3://bucket/x?region=eu")))
                .hasMessageContaining("not as a query");
    }

    @Test
    void theProviderIsFoundByItsScheme() {
        assertThat(ObjectBackends.schemes()).contains("s3");
        try (ObjectBackend backend = ObjectBackends.open(URI.create("s3://" + SharedS3Server.BUCKET + "/provider"),
                SharedS3Server.properties(), RequestMetrics.NONE)) {
            assertThat(backend).isInstanceOf(S3Backend.class);
            assertThat(backend.uri()).isEqualTo(URI.create("s3://" + SharedS3Server.BUCKET + "/provider/"));
            backend.put("x", new byte[] {1, 2, 3});
            assertThat(backend.size("x")).isEqualTo(3);
        }
        assertThatThrownBy(() -> ObjectBackends.open(URI.create("s3://b/x"), Map.of("regoin", "eu-west-1"),
                RequestMetrics.NONE)).hasMessageContaining("Unknown S3 backend properties [regoin]")
                .hasMessageContaining("s3://b/x/");
    }

    @Test
    void withoutARegionAnywhereOpeningFailsSayingWhereToSetIt() {
        assumeTrue(System.getenv("AWS_REGION") == null && System.getenv("AWS_DEFAULT_REGION") == null
                && System.getProperty("aws.region") == null && !new java.io.File(System.getProperty("user.home"),
                        ".aws").exists(), "a region may be set in the environment");
        assertThatThrownBy(() -> new S3Backend(URI.create("s3://b/x"), S3Options.defaults(), RequestMetrics.NONE))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("No AWS region for s3://b/x/")
                .hasMessageContaining("AWS_REGION");
    }

    @Test
    void aMissingProfileFailsWhenOpeningNotAtTheFirstRequest() {
        assertThatThrownBy(() -> new S3Backend(URI.create("s3://b/x"), S3Options.defaults().withRegion("eu-west-1")
                .withCredentials(new S3Options.Profile("layoutbench-no-such-profile")), RequestMetrics.NONE))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageStartingWith("No AWS profile 'layoutbench-no-such-profile' for s3://b/x/ in ");
    }

    @Test
    void anUnreadableAwsConfigFileIsAConfigurationErrorThatShowsNoneOfItsLines(@TempDir Path dir)
            throws Exception {
        Path config = dir.resolve("config");
        Files.writeString(config, "aws_secret_access_key = SECRETLINE\n[profile dev\n");
        String before = System.getProperty("aws.configFile");
        System.setProperty("aws.configFile", config.toString());
        try {
            assertThatThrownBy(() -> new S3Backend(URI.create("s3://b/x"), S3Options.defaults()
                    .withRegion("eu-west-1").withCredentials(new S3Options.Profile("dev")), RequestMetrics.NONE))
                    .isInstanceOf(ConfigurationException.class)
                    .hasMessageStartingWith("Cannot read the AWS config files (" + config + ") for profile 'dev' of"
                            + " s3://b/x/: ")
                    .hasMessageContaining("line 1")
                    .hasMessageNotContaining("SECRETLINE");
        } finally {
            if (before == null) {
                System.clearProperty("aws.configFile");
            } else {
                System.setProperty("aws.configFile", before);
            }
        }
    }

    @Test
    void badPropertyValuesAreNeverRepeatedInErrors() {
        Map<String, String> bad = Map.of("maxAttempts", "SECRET1", "partSize", "SECRET2", "pathStyle", "SECRET3",
                "connectTimeout", "SECRET4", "checksumMode", "SECRET5", "targetThroughputGbps", "SECRET6",
                "endpoint", "http://[SECRET7", "maxConcurrency", "SECRET8");
        for (Map.Entry<String, String> property : bad.entrySet()) {
            assertThatThrownBy(() -> ObjectBackends.open(URI.create("s3://b/x"), Map.of(property.getKey(),
                    property.getValue()), RequestMetrics.NONE))
                    .as(property.getKey())
                    .isInstanceOf(ConfigurationException.class)
                    .hasMessageContaining("S3 backend property " + property.getKey())
                    .hasMessageContaining("(opening s3://b/x/)")
                    .hasMessageNotContaining("SECRET");
        }
    }
}
