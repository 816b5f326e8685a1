package io.layoutbench.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.network.NetworkProfile;
import io.layoutbench.api.network.NetworkProfiles;
import io.layoutbench.backend.s3.S3Options;

import java.io.EOFException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.NoSuchFileException;
import java.util.Map;
import java.util.concurrent.CompletionException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Configuration errors (backend properties, layout options, AWS profiles) exit with 2 as other usage errors do, in
 * one line without Java class names, and never repeat a backend property's value; failures of the work exit with 1
 * and say what failed where.
 */
class ConfigurationErrorsTest {

    private static final String CLASS_NAME = "[A-Z][A-Za-z]*(Exception|Error)\\b";

    @TempDir
    java.nio.file.Path dataDir;

    @ParameterizedTest
    @ValueSource(strings = {"secretAccessKey:wJalrXUtnFEMI/K7MDENG", "secretAccessKey wJalrXUtnFEMI/K7MDENG"})
    void aBackendPropertyWithoutEqualsSignNamesTheKeyButNotTheValue(String property) {
        CliRunner result = query("--backend", "s3://bucket", "--backend-property", "region=eu-west-1",
                "--backend-property", property);

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.errLines()).singleElement().asString()
                .contains("--backend-property expects KEY=VALUE, but the 2nd one (secretAccessKey followed by ")
                .contains("has no '='")
                .doesNotContain("wJalrXUtnFEMI").doesNotContain("K7MDENG");
    }

    @Test
    void anArgumentThatMayBeASecretItselfIsNotNamedAtAll() {
        CliRunner result = query("--backend-property", "AKIAIOSFODNN7EXAMPLE");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.errLines()).singleElement().asString()
                .contains("the 1st one has no '='").doesNotContain("AKIA");
    }

    @Test
    void badBackendPropertiesAreConfigurationErrorsThatDoNotRepeatTheirValues() {
        CliRunner unknown = query("--backend", "s3://bucket", "--backend-property", "regoin=eu-west-1");
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.errLines()).singleElement().asString()
                .startsWith("layoutbench query: Unknown S3 backend properties [regoin]; supported: ")
                .endsWith("(opening s3://bucket/)").doesNotContainPattern(CLASS_NAME);

        CliRunner malformed = query("--backend", "s3://bucket", "--backend-property", "maxAttempts=hunter2");
        assertThat(malformed.exitCode()).isEqualTo(2);
        assertThat(malformed.errLines()).singleElement().asString()
                .isEqualTo("layoutbench query: S3 backend property maxAttempts must be an integer (opening"
                        + " s3://bucket/)");
    }

    @Test
    void aMissingAwsProfileIsAConfigurationError() {
        CliRunner result = query("--backend", "s3://bucket", "--backend-property", "region=eu-west-1",
                "--backend-property", "profile=layoutbench-no-such-profile");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.errLines()).singleElement().asString()
                .startsWith("layoutbench query: No AWS profile 'layoutbench-no-such-profile' for s3://bucket/ in ");
    }

    @Test
    void badLayoutOptionsAreConfigurationErrors() {
        CliRunner unknown = CliRunner.run("ingest", "--data-dir", dataDir.toString(), "--scale", "tiny", "--layouts",
                "l2", "--layout-option", "l2.bogus=1", "--profile", "none");
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.errLines()).singleElement().asString()
                .isEqualTo("layoutbench ingest: Unknown l2 option 'bogus'; known options: shard-size");

        CliRunner malformed = CliRunner.run("ingest", "--data-dir", dataDir.toString(), "--scale", "tiny",
                "--layouts", "l3", "--layout-option", "l3.page-size=12", "--profile", "none");
        assertThat(malformed.exitCode()).isEqualTo(2);
        assertThat(malformed.errLines()).singleElement().asString().startsWith("layoutbench ingest: l3 option")
                .doesNotContainPattern(CLASS_NAME);
    }

    @Test
    void anUnreachableS3EndpointIsOneLineNamingTheEndpointAndTheBucket() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        CliRunner result = query("--backend", "s3://bucket/prefix", "--backend-property", "endpoint=http://127.0.0.1:"
                + port, "--backend-property", "region=us-east-1", "--backend-property", "accessKeyId=AKIDEXAMPLE",
                "--backend-property", "secretAccessKey=wJalrXUtnFEMIK7MDENG", "--backend-property", "maxAttempts=1");

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.errLines().get(0)).startsWith("layoutbench query: GET s3://bucket/prefix/")
                .contains(" could not be sent to the S3 endpoint 127.0.0.1:" + port + " (bucket bucket): ")
                .contains("refused").doesNotContain("wJalrXUtnFEMIK7MDENG").doesNotContainPattern(CLASS_NAME);
        assertThat(result.errLines()).hasSize(2).last().asString().contains("--verbose");
    }

    @Test
    void failuresAreDescribedWithoutJavaClassNames() {
        assertThat(LayoutBenchCli.describe(new NoSuchFileException("/data/x.csv")))
                .isEqualTo("no such file or directory: /data/x.csv");
        assertThat(LayoutBenchCli.describe(new CompletionException(new UncheckedIOException(
                new EOFException("shard-00003.tar")))))
                .isEqualTo("unexpected end of file: shard-00003.tar");
        assertThat(LayoutBenchCli.describe(new UncheckedIOException("Cannot read shard-00003.tar",
                new EOFException("at byte 512")))).isEqualTo("Cannot read shard-00003.tar");
        assertThat(LayoutBenchCli.describe(new CompletionException(new EOFException("shard-00003.tar"))))
                .isEqualTo("unexpected end of file: shard-00003.tar");
        assertThat(LayoutBenchCli.describe(new IllegalStateException("Cannot write x:\n  disk full")))
                .isEqualTo("Cannot write x:; disk full");
        assertThat(LayoutBenchCli.describe(new NullPointerException()))
                .isEqualTo("internal error (--verbose shows where)");
        assertThat(LayoutBenchCli.describe(new RuntimeException()))
                .isEqualTo("an internal error without a message (--verbose shows where)");
    }

    @Test
    void theCommandLineKnowsTheS3BackendsPropertyNames() {
        assertThat(StoreOptions.S3_PROPERTIES).isEqualTo(S3Options.PROPERTIES);
    }

    @Test
    void anS3ConnectionPoolIsSizedForTheProfileUnlessAPropertySizesIt() {
        NetworkProfile t3 = NetworkProfiles.get("t3.medium");
        Map<String, String> sized = StoreOptions.sizedFor(t3, Map.of("region", "eu-west-1"));
        assertThat(sized).containsEntry("maxConcurrency", "297").containsEntry("targetThroughputGbps", "5.0")
                .containsEntry("region", "eu-west-1");
        S3Options options = S3Options.fromProperties(sized);
        assertThat(options.maxConcurrency()).isEqualTo(297);
        assertThat(options.targetThroughputGbps()).isEqualTo(5.0);

        assertThat(StoreOptions.sizedFor(t3, Map.of("maxConcurrency", "40")))
                .containsEntry("maxConcurrency", "40");
        assertThat(StoreOptions.sizedFor(NetworkProfiles.get("none"), Map.of())).isEmpty();
    }

    private CliRunner query(String... args) {
        String[] all = new String[args.length + 6];
        all[0] = "query";
        all[1] = "--data-dir";
        all[2] = dataDir.toString();
        all[3] = "--where";
        all[4] = "width > 5";
        all[5] = "--profile=none";
        System.arraycopy(args, 0, all, 6, args.length);
        return CliRunner.run(all);
    }
}
