package io.layoutbench.layouts.retrieval;

import io.layoutbench.api.backend.ForwardingObjectBackend;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.SupportsRacedReads;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.api.network.NetworkProfile;

/**
 * A store over another backend that races its reads below itself, as the FAC store does: it hands out the views it was
 * given and records what it was asked to race on. A view it was not given fails the test that asks for it.
 */
final class RacingStore extends ForwardingObjectBackend implements SupportsRacedReads {
    private final ObjectBackend below;
    private final ObjectBackend eachAloneView;
    private final ObjectBackend batchView;
    NetworkProfile network;
    RequestMetrics metrics;
    int copies;

    /**
     * @param below         what this store forwards its own reads to
     * @param eachAloneView what {@link #withRacedReads(NetworkProfile, RequestMetrics)} returns, or null
     * @param batchView     what {@link #withRacedReads(NetworkProfile, RequestMetrics, int)} returns, or null
     */
    RacingStore(ObjectBackend below, ObjectBackend eachAloneView, ObjectBackend batchView) {
        this.below = below;
        this.eachAloneView = eachAloneView;
        this.batchView = batchView;
    }

    @Override
    protected ObjectBackend delegate() {
        return below;
    }

    @Override
    public ObjectBackend withMetrics(RequestMetrics otherMetrics) {
        return this;
    }

    @Override
    public ObjectBackend withRacedReads(NetworkProfile network, RequestMetrics metrics) {
        return record(network, metrics, 0, eachAloneView);
    }

    @Override
    public ObjectBackend withRacedReads(NetworkProfile network, RequestMetrics metrics, int copies) {
        return record(network, metrics, copies, batchView);
    }

    private ObjectBackend record(NetworkProfile network, RequestMetrics metrics, int copies, ObjectBackend view) {
        if (view == null) {
            throw new AssertionError("not this view: " + (copies == 0 ? "each read alone" : copies + " copies"));
        }
        this.network = network;
        this.metrics = metrics;
        this.copies = copies;
        return view;
    }
}
