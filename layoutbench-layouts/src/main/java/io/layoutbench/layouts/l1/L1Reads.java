package io.layoutbench.layouts.l1;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.metrics.RequestKind;

/**
 * L1's one rule of retrieval, shared by its datasets and its model: a matching sample is one GET of its whole
 * object, {@code <samples prefix><key>}, in either mode.
 *
 * <pre>{@code
 * PlannedRequest get = L1Reads.read("mini/l1/g20260101T000000-1a2b/samples/", "n01440764_10026.JPEG", 113_042);
 * }</pre>
 */
final class L1Reads {

    private L1Reads() {
    }

    /** The request that reads sample {@code key} of {@code size} bytes. */
    static PlannedRequest read(String samplesPrefix, String key, long size) {
        return new PlannedRequest(RequestKind.GET, samplesPrefix + key, ByteRange.of(0, size));
    }
}
