package io.layoutbench.backend.s3;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackendContractTest;
import io.layoutbench.api.metrics.RequestMetrics;

/** The {@link ObjectBackend} contract, against a real S3 server (s3proxy) over HTTP on loopback. */
class S3BackendContractTest extends ObjectBackendContractTest {

    @Override
    protected ObjectBackend newBackend() {
        return new S3Backend(SharedS3Server.freshUri("contract"), SharedS3Server.options(), RequestMetrics.NONE);
    }
}
