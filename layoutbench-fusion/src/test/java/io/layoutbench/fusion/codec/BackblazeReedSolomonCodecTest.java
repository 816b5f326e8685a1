package io.layoutbench.fusion.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

class BackblazeReedSolomonCodecTest extends ErasureCodecContractTest {

    @Override
    protected ErasureCodec codec() {
        return ErasureCodecs.get(BackblazeReedSolomonCodec.NAME);
    }

    @Test
    void isFoundByServiceLoader() {
        // Whether it is the default depends on the Vector API: FastReedSolomonCodecTest checks that.
        assertThat(ErasureCodecs.names()).contains("backblaze-rs");
        assertThat(ErasureCodecs.get("backblaze-rs")).isInstanceOf(BackblazeReedSolomonCodec.class);
        assertThatThrownBy(() -> ErasureCodecs.get("lrc")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Unknown erasure codec name 'lrc'").hasMessageContaining("backblaze-rs");
    }

    @Test
    void twoCodecsWithOneNameFailLoudly() {
        assertThatThrownBy(() -> ErasureCodecs.registryOf(List.of(new BackblazeReedSolomonCodec(),
                new BackblazeReedSolomonCodec()))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("backblaze-rs");
    }

    @Test
    void runsWithoutNettyOnTheClassPath() {
        // Surefire removes netty-buffer from the test class path: the byte[] paths must not need it.
        assertThatThrownBy(() -> Class.forName("io.netty.buffer.ByteBuf")).isInstanceOf(ClassNotFoundException.class);
        byte[][] shards = new byte[9][64];
        shards[0][0] = 1;
        codec().coder(CodeParameters.rs(9, 6)).encode(shards, 0, 64);
        assertThat(shards[6][0]).isNotZero();
    }

    @Test
    void codeParametersParseAndValidate() {
        assertThat(CodeParameters.parse("RS(9,6)")).isEqualTo(CodeParameters.rs(9, 6));
        assertThat(CodeParameters.parse("rs-14-10")).isEqualTo(CodeParameters.rs(14, 10));
        assertThat(CodeParameters.parse(" 9, 6 ")).isEqualTo(CodeParameters.rs(9, 6));
        assertThat(CodeParameters.rs(9, 6).toString()).isEqualTo("RS(9,6)");
        assertThat(CodeParameters.rs(9, 6).optimalOverhead()).isEqualTo(0.5);
        assertThatThrownBy(() -> CodeParameters.rs(6, 9)).hasMessageContaining("1 <= k < n");
        assertThatThrownBy(() -> CodeParameters.parse("nine six")).hasMessageContaining("RS(9,6)");
    }
}
