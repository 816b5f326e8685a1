package io.layoutbench.examples.bench;

import static java.util.Objects.requireNonNull;

/**
 * What writing one dataset into one layout took. Ingest runs against the backend directly, without the network
 * simulation, so {@code seconds} is the time on the local machine (generating or reading the samples included),
 * not a modelled upload time. Transfer into S3 is free, so the cost is requests plus compute.
 *
 * @param layout              layout name
 * @param dataset             dataset id ({@code imagenet-mini-seed42}, or the name given to a user's dataset)
 * @param source              where the samples came from ({@code synthetic mini, seed 42}, a folder, a manifest)
 * @param backend             storage backend
 * @param prefix              where the dataset lives in the backend
 * @param options             layout options, {@code key=value} separated by commas; empty if none
 * @param profile             network profile whose hourly rate prices the compute time
 * @param reused              true if an earlier ingest was found and reused (its measurements are reported)
 * @param samples             samples written
 * @param payloadBytes        sum of their sizes
 * @param storedBytes         bytes stored, metadata and manifest included
 * @param objects             objects stored
 * @param seconds             wall time of the ingest
 * @param bytes               bytes sent to the backend
 * @param requests            requests sent, all kinds
 * @param putRequests         PUT-class requests (PUT, LIST, DELETE)
 * @param requestUsd          dollars for the requests
 * @param computeUsd          dollars for the client's time (hourly rate x seconds)
 * @param costUsd             total: requests + compute (transfer in is free)
 * @param storageUsdPerMonth  dollars per month to keep the stored bytes
 * @param peakHeapBytes       peak used heap observed during the ingest
 * @param peakDirectBytes     peak direct buffer memory during the ingest
 * @param peakMappedBytes     peak mapped buffer memory during the ingest
 * @param peakRssBytes        peak resident size of the process during the ingest, -1 where the system does not say
 *                            (the four peaks are 0 when the ingest was recorded without them)
 */
public record IngestRow(
        String layout,
        String dataset,
        String source,
        String backend,
        String prefix,
        String options,
        String profile,
        boolean reused,
        long samples,
        long payloadBytes,
        long storedBytes,
        long objects,
        double seconds,
        long bytes,
        long requests,
        long putRequests,
        double requestUsd,
        double computeUsd,
        double costUsd,
        double storageUsdPerMonth,
        long peakHeapBytes,
        long peakDirectBytes,
        long peakMappedBytes,
        long peakRssBytes) {

    public IngestRow {
        requireNonNull(layout, "layout is null");
        requireNonNull(dataset, "dataset is null");
        requireNonNull(source, "source is null");
        requireNonNull(backend, "backend is null");
        requireNonNull(prefix, "prefix is null");
        requireNonNull(options, "options is null");
        requireNonNull(profile, "profile is null");
    }

    /**
     * This row marked as reused by a later run on {@code newBackend}, its compute time repriced at
     * {@code hourlyUsd} of the later run's profile.
     */
    public IngestRow asReused(String newBackend, String newProfile, double hourlyUsd) {
        double compute = hourlyUsd * seconds / 3600.0;
        return new IngestRow(layout, dataset, source, newBackend, prefix, options, newProfile, true, samples,
                payloadBytes, storedBytes, objects, seconds, bytes, requests, putRequests, requestUsd, compute,
                requestUsd + compute, storageUsdPerMonth, peakHeapBytes, peakDirectBytes, peakMappedBytes,
                peakRssBytes);
    }
}
