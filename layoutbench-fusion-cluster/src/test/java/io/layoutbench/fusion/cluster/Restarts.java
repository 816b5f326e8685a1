package io.layoutbench.fusion.cluster;

import static org.junit.jupiter.api.Assumptions.abort;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.StorageException;

import java.net.BindException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** Restarting a node on the port a stopped one had, which the OS may have handed out meanwhile. */
final class Restarts {

    private static final int ATTEMPTS = 20;

    private Restarts() {
    }

    /**
     * A server over {@code backend} on {@code port}: bound again if another socket holds the port for a while (a
     * bounded number of attempts, waiting for the port, not for a thread of the test); the test is aborted, not
     * failed, naming the port, if it never frees.
     */
    static StorageNodeServer startOn(ObjectBackend backend, int port) {
        StorageException last = null;
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            try {
                return StorageNodeServer.start(backend, StorageNodeServer.Options.defaults().withPort(port));
            } catch (StorageException e) {
                if (!boundElsewhere(e)) {
                    throw e;
                }
                last = e;
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50L * attempt));
            }
        }
        return abort("Port " + port + " of the stopped node stayed taken by another socket over " + ATTEMPTS
                + " attempts: " + last.getMessage());
    }

    private static boolean boundElsewhere(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BindException || String.valueOf(t.getMessage()).contains("Address already in use")) {
                return true;
            }
        }
        return false;
    }
}
