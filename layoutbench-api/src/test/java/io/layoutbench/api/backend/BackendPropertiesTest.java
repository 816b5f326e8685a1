package io.layoutbench.api.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.ConfigurationException;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

class BackendPropertiesTest {

    @Test
    void durationsInShortAndIsoForms() {
        assertThat(BackendProperties.duration("B", "x", "500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(BackendProperties.duration("B", "x", " 30s ")).isEqualTo(Duration.ofSeconds(30));
        assertThat(BackendProperties.duration("B", "x", "2M")).isEqualTo(Duration.ofMinutes(2));
        assertThat(BackendProperties.duration("B", "x", "1h")).isEqualTo(Duration.ofHours(1));
        assertThat(BackendProperties.duration("B", "x", "PT1.5S")).isEqualTo(Duration.ofMillis(1500));
        assertThatThrownBy(() -> BackendProperties.duration("S3 backend", "attemptTimeout", "SECRET"))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("S3 backend property attemptTimeout must be a duration like 500ms, 30s, 2m or PT30S");
        assertThatThrownBy(() -> BackendProperties.integer("S3 backend", "maxAttempts", "SECRET"))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("S3 backend property maxAttempts must be an integer");
    }

    @Test
    void retrySettingsChangeOnlyWhatIsSet() {
        RetryPolicy base = new RetryPolicy(3, Duration.ofMillis(20), Duration.ofMillis(200), Duration.ofSeconds(5),
                Duration.ofSeconds(5));
        assertThat(BackendProperties.retryPolicy("B", base, Map.of("other", "x"))).isEqualTo(base);
        RetryPolicy set = BackendProperties.retryPolicy("B", base, Map.of("maxAttempts", "5", "retryMaxDelay", "1s",
                "retryTimeLimit", "1m", "attemptTimeout", "10s"));
        assertThat(set).isEqualTo(new RetryPolicy(5, Duration.ofMillis(20), Duration.ofSeconds(1),
                Duration.ofMinutes(1), Duration.ofSeconds(10)));
        assertThatThrownBy(() -> BackendProperties.retryPolicy("B", base, Map.of("maxAttempts", "0")))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("Invalid B retry properties");
    }
}
