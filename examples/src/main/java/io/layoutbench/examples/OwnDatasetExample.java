package io.layoutbench.examples;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackends;
import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.dataset.Blob;
import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.SampleStream;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.datasets.synthetic.speech.SpeechScale;
import io.layoutbench.datasets.synthetic.speech.SyntheticSpeech;
import io.layoutbench.layouts.l2.InPlaceIndex;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A dataset of your own shape: samples with several payload fields (a clip and its transcript), a query that reads
 * only the transcripts, the same tar shards indexed in place as WebDataset shards, and a large field read in part.
 * Everything goes through the {@code file:} backend to the directory given as the argument (kept), else to a
 * temporary one deleted at the end.
 *
 * <p>Run it from an IDE, or: {@code mvn -q -pl examples -am compile exec:java
 * -Dexec.mainClass=io.layoutbench.examples.OwnDatasetExample}.
 */
public final class OwnDatasetExample {

    private OwnDatasetExample() {
    }

    public static void main(String[] args) throws IOException {
        try (ExampleDirectory directory = ExampleDirectory.of(args, "layoutbench-own-dataset");
                ObjectBackend backend = ObjectBackends.open("file:" + directory.path())) {
            // 1. Twenty speech clips, each a WAV file and its transcript: two payload fields, "wav" and "txt".
            SyntheticSpeech clips = SyntheticSpeech.of(SpeechScale.TINY, 42L, false);
            try (DatasetWriter writer = StorageLayouts.get("l2").create(backend, "speech/l2", clips.schema(),
                    Map.of());
                    Stream<Sample> samples = clips.samples()) {
                Iterator<Sample> iterator = samples.iterator();
                while (iterator.hasNext()) {
                    writer.add(iterator.next());
                }
                writer.commit();
            }

            // 2. Only the transcripts of the long clips: l2 reads the txt members, not a byte of the WAVs.
            QueryOptions transcripts = QueryOptions.defaults().withFields(List.of(SyntheticSpeech.TXT));
            try (Dataset dataset = StorageLayouts.get("l2").open(backend, "speech/l2");
                    SampleStream longClips = dataset.query(Query.parse("duration_seconds > 15"), transcripts)) {
                while (longClips.hasNext()) {
                    Sample clip = longClips.next();
                    System.out.printf("  %-16s %5.1f s  %s%n", clip.filename(),
                            clip.metadata().getDouble("duration_seconds"),
                            StandardCharsets.UTF_8.decode(clip.field(SyntheticSpeech.TXT).readAll()));
                }
                System.out.printf("Transcripts of the long clips: %d samples, %d bytes read%n",
                        longClips.stats().samples(), longClips.stats().transfer().bytesReceived());
            }

            // 3. The same shards, indexed in place as WebDataset shards (members <key>.wav, <key>.txt): nothing is
            //    copied; the index is a metadata table of where each member lies.
            List<String> shards;
            try (Stream<ObjectInfo> listing = backend.list("speech/l2/")) {
                shards = listing.map(ObjectInfo::key).filter(k -> k.endsWith(".tar")).sorted().toList();
            }
            InPlaceIndex.index(backend, "indexes/speech", shards, InPlaceIndex.Options.defaults());
            try (Dataset indexed = StorageLayouts.get("l2").open(backend, "indexes/speech")) {
                System.out.printf("Indexed %d shards in place: %d samples with fields %s%n", shards.size(),
                        indexed.summary().sampleCount(), indexed.schema().payloadFields());
            }

            // 4. A large field, read in part: a 96 MiB "video" stored with its caption; the query returns the video
            //    as a lazily read blob, and a 1 MiB read of it is one ranged GET of 1 MiB.
            Path video = directory.path().resolve("lecture.mp4");
            try (RandomAccessFile file = new RandomAccessFile(video.toFile(), "rw")) {
                file.setLength(96L << 20);   // sparse: no memory, little disk
            }
            MetadataSchema lectures = new MetadataSchema(List.of(new Column("filename", ColumnType.STRING),
                    new Column("minutes", ColumnType.BIGINT))).withPayloadFields(List.of("mp4", "txt"));
            try (DatasetWriter writer = StorageLayouts.get("l3").create(backend, "lectures/l3", lectures,
                    Map.of("blob-threshold", "16MB"))) {
                writer.add(new Sample(MetadataRow.of(lectures, Map.of("filename", "lecture-01", "minutes", 52L)),
                        Map.of("mp4", Blob.ofFile(video), "txt", Blob.of("An introduction".getBytes(
                                StandardCharsets.UTF_8)))));
                writer.commit();
            }
            try (Dataset dataset = StorageLayouts.get("l3").open(backend, "lectures/l3");
                    SampleStream found = dataset.query(Query.parse("minutes > 30"), QueryOptions.defaults())) {
                Blob mp4 = found.next().field("mp4");
                long before = found.stats().transfer().bytesReceived();
                ByteBuffer part = mp4.read(40L << 20, 1 << 20);
                System.out.printf("Read %d bytes of a %d MiB video at 40 MiB: %d bytes moved%n", part.remaining(),
                        mp4.size() >> 20, found.stats().transfer().bytesReceived() - before);
            }
        }
    }
}
