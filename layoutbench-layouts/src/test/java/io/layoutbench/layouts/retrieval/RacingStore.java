package io.layoutbench.layouts.retrieval;

import io.layoutbench.api.backend.ForwardingObjectBackend;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.SupportsRacedReads;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.api.network.NetworkProfile;

/**
 * A store over another backend that races its reads below itself, as the FAC store does: it hands out the views it was
 * given and records what it was asked to race on. Where it was given none, it cannot race and returns itself, as the
 * FAC store does over nodes that do not signal first bytes.
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
     * @param eachAloneView what {@link #withRacedReads(NetworkProfile, RequestMetrics)} returns; null: this store
     * @param batchView     what {@link #withRacedReads(NetworkProfile, RequestMetrics, int)} returns; null: this store
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
        this.network = network;
        this.metrics = metrics;
        this.copies = copies;
        return view == null ? this : view;
    }
}
