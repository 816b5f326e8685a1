package io.layoutbench.fusion.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.backend.StorageException;
import io.layoutbench.api.backend.TransientStorageException;

import java.time.Duration;

import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.junit.jupiter.api.Test;

/** Which node failures a client retries, and what their messages say failed. */
class NodeErrorsTest {

    private static final String WHAT = "GET flight://127.0.0.1:47001 a.bin [0, 10)";

    private static StorageException roundTrip(Throwable onTheNode) {
        return NodeErrors.fromFlight(NodeErrors.toFlight(onTheNode), WHAT, "a.bin", null, Duration.ofSeconds(5));
    }

    @Test
    void anIllegalStateOnTheNodeIsInternalNotTransient() {
        FlightRuntimeException sent = NodeErrors.toFlight(new IllegalStateException("a bug in the node"));

        assertThat(sent.status().code()).isEqualTo(FlightStatusCode.INTERNAL);
        assertThat(roundTrip(new IllegalStateException("a bug in the node")))
                .isNotInstanceOf(TransientStorageException.class).hasMessage(WHAT + ": a bug in the node");
    }

    @Test
    void aThrottledBackendIsRetriedButAnOversizedMessageIsNot() {
        StorageException throttled = roundTrip(new TransientStorageException("slow down", null, true));
        StorageException oversized = NodeErrors.fromFlight(CallStatus.RESOURCE_EXHAUSTED
                .withDescription("gRPC message exceeds maximum size 1114112: 2097300").toRuntimeException(),
                WHAT, "a.bin", null, Duration.ofSeconds(5));

        assertThat(throttled).isInstanceOfSatisfying(TransientStorageException.class,
                e -> assertThat(e.isThrottled()).isTrue());
        assertThat(throttled).hasMessageContaining("throttled").hasMessageContaining("slow down");
        assertThat(oversized).isNotInstanceOf(TransientStorageException.class)
                .hasMessageStartingWith(WHAT + ": a message over the size limit")
                .hasMessageContaining("exceeds maximum size");
    }

    @Test
    void unavailableSaysWhetherTheBackendFailedOrTheNodeWasNotReached() {
        StorageException backend = roundTrip(new TransientStorageException("disk busy", null, false));
        StorageException unreachable = NodeErrors.fromFlight(CallStatus.UNAVAILABLE
                .withDescription("io exception").toRuntimeException(), WHAT, "a.bin", null, Duration.ofSeconds(5));

        assertThat(backend).isInstanceOf(TransientStorageException.class)
                .hasMessage(WHAT + ": the node's backend failed transiently: disk busy");
        assertThat(unreachable).isInstanceOf(TransientStorageException.class)
                .hasMessage(WHAT + ": the node could not be reached or is stopping (io exception)");
    }
}
