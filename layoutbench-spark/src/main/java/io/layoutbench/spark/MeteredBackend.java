package io.layoutbench.spark;

import io.layoutbench.api.backend.ForwardingObjectBackend;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.metrics.RequestMetrics;

/**
 * A backend counting every request into a task's {@code total}, including those of the views a dataset makes to count
 * each query into its own metrics ({@link ObjectBackend#withMetrics} replaces a backend's metrics; a view of this one
 * reports to both).
 */
final class MeteredBackend extends ForwardingObjectBackend {

    private final ObjectBackend base;
    private final ObjectBackend view;
    private final RequestMetrics total;
    private final boolean ownsBase;

    private MeteredBackend(ObjectBackend base, ObjectBackend view, RequestMetrics total, boolean ownsBase) {
        this.base = base;
        this.view = view;
        this.total = total;
        this.ownsBase = ownsBase;
    }

    /** {@code base}, counted into {@code total}; closing it closes {@code base}. */
    static ObjectBackend over(ObjectBackend base, RequestMetrics total) {
        return new MeteredBackend(base, base.withMetrics(total), total, true);
    }

    @Override
    protected ObjectBackend delegate() {
        return view;
    }

    @Override
    public ObjectBackend withMetrics(RequestMetrics metrics) {
        return new MeteredBackend(base, base.withMetrics(RequestMetrics.both(metrics, total)), total, false);
    }

    @Override
    public void close() {
        try {
            view.close();
        } finally {
            if (ownsBase) {
                base.close();
            }
        }
    }
}
