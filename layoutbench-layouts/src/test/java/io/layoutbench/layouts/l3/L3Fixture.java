package io.layoutbench.layouts.l3;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.predicate.BoundQuery;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.datasets.synthetic.SyntheticImageNet;
import io.layoutbench.layouts.common.SampleChecksum;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The tiny synthetic ImageNet written as L3 into memory once per test run, with sizes small enough for several part
 * files, row groups per file and pages per row group; plus what the generator says a query should return.
 */
final class L3Fixture {

    static final SyntheticImageNet DATA = SyntheticImageNet.of(ImageNetScale.TINY, 42, false);
    /** Several parts of several row groups of several pages. */
    static final Map<String, String> SMALL = Map.of(L3Layout.FILE_SIZE, "8MB", L3Layout.ROW_GROUP_SIZE, "2MB",
            L3Layout.PAGE_SIZE, "256KB");
    /** The same with pages of about one blob each. */
    static final Map<String, String> ONE_BLOB_PAGES = Map.of(L3Layout.FILE_SIZE, "8MB",
            L3Layout.ROW_GROUP_SIZE, "2MB", L3Layout.PAGE_SIZE, "4KB");
    static final String PREFIX = "tiny/l3";
    static final String ONE_BLOB_PREFIX = "tiny/l3-small-pages";

    private static MemoryBackend backend;

    private L3Fixture() {
    }

    /** The shared backend holding {@link #PREFIX} and {@link #ONE_BLOB_PREFIX}; do not modify it. */
    static synchronized MemoryBackend backend() {
        if (backend == null) {
            MemoryBackend written = new MemoryBackend();
            write(written, PREFIX, SMALL, DATA.samples());
            write(written, ONE_BLOB_PREFIX, ONE_BLOB_PAGES, DATA.samples());
            backend = written;
        }
        return backend;
    }

    static void write(ObjectBackend target, String prefix, Map<String, String> options, Stream<Sample> samples) {
        try (DatasetWriter writer = new L3Layout().create(target, prefix, MetadataSchema.imageNet(), options)) {
            samples.forEach(writer::add);
            writer.commit();
        }
    }

    /** A private copy of everything in the shared backend, to damage. */
    static MemoryBackend copy() {
        MemoryBackend source = backend();
        MemoryBackend copy = new MemoryBackend();
        try (Stream<ObjectInfo> objects = source.list("")) {
            objects.forEach(o -> copy.put(o.key(), toArray(source.readAll(o.key()))));
        }
        return copy;
    }

    /** Indices of the samples {@code query} returns, in dataset order, LIMIT applied. */
    static List<Integer> expectedIndices(Query query) {
        BoundQuery bound = query.bind(MetadataSchema.imageNet());
        long limit = bound.limit().orElse(Long.MAX_VALUE);
        List<Integer> matches = new ArrayList<>();
        for (int i = 0; i < DATA.size() && matches.size() < limit; i++) {
            if (bound.test(DATA.metadata(i))) {
                matches.add(i);
            }
        }
        return matches;
    }

    /** "filename:size:crc" of the generator's samples for {@code query}. */
    static List<String> expected(Query query) {
        return expectedIndices(query).stream()
                .map(i -> fingerprint(DATA.metadata(i).getString("filename"), DATA.sampleBytes(i))).toList();
    }

    static String fingerprint(Sample sample) {
        return fingerprint(sample.filename(), sample.data());
    }

    static String fingerprint(String filename, ByteBuffer bytes) {
        return filename + ":" + bytes.remaining() + ":" + Integer.toHexString(SampleChecksum.of(bytes));
    }

    static byte[] toArray(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }
}
