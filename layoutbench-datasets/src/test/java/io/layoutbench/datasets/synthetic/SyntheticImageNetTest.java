package io.layoutbench.datasets.synthetic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.dataset.SampleNameSet;
import io.layoutbench.api.dataset.SampleNames;
import io.layoutbench.datasets.image.ImageFormat;
import io.layoutbench.datasets.image.ImageHeader;
import io.layoutbench.datasets.image.ImageHeaders;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.Deflater;

import org.junit.jupiter.api.Test;

class SyntheticImageNetTest {

    @Test
    void sameSeedGivesSameMetadataAndBytes() {
        SyntheticImageNet a = SyntheticImageNet.of(ImageNetScale.MINI, 42L, true);
        SyntheticImageNet b = SyntheticImageNet.of(ImageNetScale.MINI, 42L, true);

        for (long i = 0; i < a.size(); i += 997) {
            assertThat(b.metadata(i)).isEqualTo(a.metadata(i));
            assertThat(b.sampleBytes(i)).isEqualTo(a.sampleBytes(i));
        }
    }

    @Test
    void seedDecidesWhichFileGetsWhichAttributes() {
        SyntheticImageNet a = SyntheticImageNet.of(ImageNetScale.MEDIUM, 1L, false);
        SyntheticImageNet b = SyntheticImageNet.of(ImageNetScale.MEDIUM, 2L, false);

        int sameSize = 0;
        for (long i = 0; i < 1_000; i++) {
            MetadataRow rowA = a.metadata(i);
            MetadataRow rowB = b.metadata(i);
            assertThat(rowB.getString("filename")).isEqualTo(rowA.getString("filename"));
            assertThat(rowB.getString("label")).isEqualTo(rowA.getString("label"));
            if (rowA.getLong("filesize_bytes") == rowB.getLong("filesize_bytes")) {
                sameSize++;
            }
        }
        assertThat(sameSize).isLessThan(50);
        assertThat(b.sampleBytes(0)).isNotEqualTo(a.sampleBytes(0));
    }

    @Test
    void classOrderLooksLikeImageNetTrainFolders() {
        SyntheticImageNet mini = SyntheticImageNet.of(ImageNetScale.MINI, 7L, false);
        List<ImageNetClass> classes = ImageNetClasses.all();

        String previous = "";
        Iterator<MetadataRow> rows = mini.metadata().iterator();
        for (long i = 0; rows.hasNext(); i++) {
            MetadataRow row = rows.next();
            String filename = row.getString("filename");
            assertThat(filename).matches("n\\d{8}_\\d{5}\\.JPEG");
            assertThat(filename).as("names rise through the dataset").isGreaterThan(previous);
            ImageNetClass imageNetClass = ImageNetClasses.byWnid(filename.substring(0, 9)).orElseThrow();
            assertThat(row.getString("label")).isEqualTo(imageNetClass.label());
            assertThat(mini.imageNetClass(i)).isEqualTo(imageNetClass);
            previous = filename;
        }
        assertThat(mini.metadata(0).getString("filename")).startsWith(classes.get(0).wnid() + "_");
        assertThat(mini.metadata(mini.size() - 1).getString("label")).isEqualTo("toilet_tissue");
    }

    @Test
    void shuffleReordersTheSameSamples() {
        SyntheticImageNet plain = SyntheticImageNet.of(ImageNetScale.MINI, 5L, false);
        SyntheticImageNet shuffled = SyntheticImageNet.of(ImageNetScale.MINI, 5L, true);

        Map<String, MetadataRow> byName = new HashMap<>();
        plain.metadata().forEach(row -> byName.put(row.getString("filename"), row));
        List<String> order = new ArrayList<>();
        shuffled.metadata().forEach(row -> {
            assertThat(byName.get(row.getString("filename"))).isEqualTo(row);
            order.add(row.getString("filename"));
        });

        assertThat(order).hasSize(byName.size()).doesNotHaveDuplicates();
        assertThat(order).isNotEqualTo(order.stream().sorted().toList());
        // The same file has the same bytes whatever the order.
        String name = order.get(0);
        long plainIndex = plain.metadata().map(r -> r.getString("filename")).toList().indexOf(name);
        assertThat(shuffled.sampleBytes(0)).isEqualTo(plain.sampleBytes(plainIndex));
    }

    @Test
    void classSizesLikeImageNet() {
        SyntheticPlan full = SyntheticPlan.of(ImageNetScale.FULL);
        int min = Integer.MAX_VALUE;
        int max = 0;
        for (int c = 0; c < full.classCount(); c++) {
            min = Math.min(min, full.classSize(c));
            max = Math.max(max, full.classSize(c));
        }
        assertThat(min).isEqualTo(732);
        assertThat(max).isEqualTo(1300);

        SyntheticPlan mini = SyntheticPlan.of(ImageNetScale.MINI);
        SyntheticPlan medium = SyntheticPlan.of(ImageNetScale.MEDIUM);
        for (int c = 0; c < full.classCount(); c++) {
            // About 1% and 10% of every class, as the paper's random samples per class.
            assertThat(mini.classSize(c)).isBetween(full.classSize(c) / 100 - 1, full.classSize(c) / 100 + 1);
            assertThat(medium.classSize(c)).isBetween(full.classSize(c) / 10 - 1, full.classSize(c) / 10 + 1);
        }
        for (String label : List.of("streetcar", "lemon", "cello", "bagel", "tiger_cat", "thunder_snake")) {
            int c = ImageNetClasses.uniqueByLabel(label).index();
            assertThat(mini.classSize(c)).as(label).isEqualTo(13);
            assertThat(medium.classSize(c)).as(label).isEqualTo(130);
            assertThat(full.classSize(c)).as(label).isEqualTo(1300);
        }
    }

    @Test
    void bytesAreJpegLikeWithTheSampleDimensions() {
        SyntheticImageNet mini = SyntheticImageNet.of(ImageNetScale.MINI, 11L, true);
        for (long i = 0; i < mini.size(); i += 1_001) {
            Sample sample = mini.sample(i);
            MetadataRow row = sample.metadata();
            ByteBuffer data = sample.data();

            assertThat((long) data.remaining()).isEqualTo(row.getLong("filesize_bytes"));
            assertThat(data.isReadOnly()).isTrue();
            assertThat(data.get(0) & 0xFF).isEqualTo(0xFF);
            assertThat(data.get(1) & 0xFF).isEqualTo(0xD8);
            assertThat(data.get(data.limit() - 2) & 0xFF).isEqualTo(0xFF);
            assertThat(data.get(data.limit() - 1) & 0xFF).isEqualTo(0xD9);
            ImageHeader header = ImageHeaders.read(data, row.getString("filename"));
            assertThat(header).isEqualTo(new ImageHeader(ImageFormat.JPEG, (int) row.getLong("width"),
                    (int) row.getLong("height")));
            assertThat(mini.sampleBytes(i)).isEqualTo(data);
        }
    }

    @Test
    void bytesAreIncompressible() {
        byte[] bytes = SyntheticImageNet.of(ImageNetScale.TINY, 3L, false).sample(0).toByteArray();
        Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION);
        deflater.setInput(bytes);
        deflater.finish();
        byte[] out = new byte[bytes.length + 1024];
        int compressed = deflater.deflate(out);
        deflater.end();

        assertThat(compressed).isGreaterThan((int) (bytes.length * 0.99));
    }

    @Test
    void iteratingAllOfMiniStreamsOneSampleAtATime() {
        SyntheticImageNet mini = SyntheticImageNet.of(ImageNetScale.MINI, 13L, true);
        long count = 0;
        long bytes = 0;
        for (Sample sample : mini) {
            count++;
            bytes += sample.size();
        }
        assertThat(count).isEqualTo(12_756);
        assertThat(bytes).isEqualTo(mini.totalBytes());
    }

    @Test
    void totalSizesMatchThePaperWithinTenPercent() {
        // Table 1 of the paper: 1.39 GB, 13.91 GB and 139.25 GB.
        assertThat((double) SyntheticImageNet.of(ImageNetScale.MINI, 1L, false).totalBytes())
                .isCloseTo(1.39e9, within(0.139e9));
        assertThat((double) SyntheticImageNet.of(ImageNetScale.MEDIUM, 1L, false).totalBytes())
                .isCloseTo(13.91e9, within(1.391e9));
        assertThat((double) SyntheticImageNet.of(ImageNetScale.FULL, 1L, false).totalBytes())
                .isCloseTo(139.25e9, within(13.925e9));
    }

    @Test
    void everySampleOfFullHasItsOwnValidName() {
        // The layouts store and find samples by name: a repeat would overwrite or shadow a sample.
        for (long seed : List.of(42L, 7L)) {
            SampleNameSet names = new SampleNameSet();
            SyntheticImageNet full = SyntheticImageNet.of(ImageNetScale.FULL, seed, false);
            full.metadata().map(r -> r.getString("filename")).forEach(name -> {
                assertThat(SampleNames.isValid(name)).as(name).isTrue();
                assertThat(names.add(name)).as("%s, seed %d", name, seed).isTrue();
            });
            assertThat(names.size()).isEqualTo(ImageNetScale.FULL.sampleCount());
        }
    }

    @Test
    void metadataOfFullIsCheap() {
        SyntheticImageNet full = SyntheticImageNet.of(ImageNetScale.FULL, 1L, true);
        long start = System.nanoTime();
        long sum = full.metadata().mapToLong(r -> r.getLong("width")).sum();
        long seconds = (System.nanoTime() - start) / 1_000_000_000L;

        assertThat(sum).isPositive();
        // About half a second here; the bound only catches accidental per-sample tables or O(n) lookups.
        assertThat(seconds).isLessThan(10);
    }

    @Test
    void attributesLookLikeImageNet() {
        SyntheticImageNet medium = SyntheticImageNet.of(ImageNetScale.MEDIUM, 1L, false);
        Map<String, Integer> shapes = new HashMap<>();
        long small = 0;
        long total = 0;
        long max = 0;
        long under100K = 0;
        Iterator<MetadataRow> rows = medium.metadata().iterator();
        while (rows.hasNext()) {
            MetadataRow row = rows.next();
            long width = row.getLong("width");
            long height = row.getLong("height");
            long size = row.getLong("filesize_bytes");
            shapes.merge(width + "x" + height, 1, Integer::sum);
            if (Math.max(width, height) <= 500) {
                small++;
            }
            total += size;
            max = Math.max(max, size);
            if (size < 100 * 1024) {
                under100K++;
            }
        }
        String mostCommon = shapes.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        assertThat(mostCommon).isEqualTo("500x375");
        assertThat(shapes.get("375x500")).isGreaterThan(shapes.get("500x500"));
        assertThat(shapes.get("500x333")).isGreaterThan(5_000);
        assertThat(small).isGreaterThan(medium.size() * 8 / 10);
        assertThat(total / medium.size()).as("mean file size").isBetween(100_000L, 120_000L);
        assertThat(max).as("long tail").isGreaterThan(2_000_000L);
        assertThat(under100K).as("median below the mean").isGreaterThan(medium.size() / 2);
    }

    @Test
    void categoriesLineUpWithTheQueryPredicates() {
        for (ImageCategory category : ImageCategory.values()) {
            for (int s = 0; s < category.shapeCount(); s++) {
                int w = category.width(s);
                int h = category.height(s);
                String shape = category + " " + w + "x" + h;
                assertThat(w >= 1024 && h >= 1024).as(shape).isEqualTo(category == ImageCategory.HUGE);
                assertThat((double) w / (double) h > 1.5).as(shape).isEqualTo(category == ImageCategory.WIDE);
                assertThat(w >= 512 && h >= 512).as(shape)
                        .isEqualTo(category == ImageCategory.LARGE || category == ImageCategory.HUGE);
            }
        }
    }

    @Test
    void schemaIsThePapers() {
        SyntheticImageNet tiny = SyntheticImageNet.of(ImageNetScale.TINY, 0L, false);
        assertThat(tiny.schema()).isEqualTo(MetadataSchema.imageNet());
        assertThat(tiny.metadata(0).schema()).isEqualTo(MetadataSchema.imageNet());
        assertThat(tiny.size()).isEqualTo(ImageNetScale.TINY.sampleCount());
        assertThat(tiny.metadata().count()).isEqualTo(tiny.size());
        Set<String> names = new HashSet<>();
        tiny.metadata().forEach(r -> names.add(r.getString("filename")));
        assertThat(names).hasSize(ImageNetScale.TINY.sampleCount());
    }

    @Test
    void indexOutOfRangeSaysWhichRange() {
        SyntheticImageNet tiny = SyntheticImageNet.of(ImageNetScale.TINY, 0L, false);
        assertThatThrownBy(() -> tiny.metadata(1_030))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("1030")
                .hasMessageContaining("[0, 1030)");
        assertThatThrownBy(() -> tiny.sample(-1)).isInstanceOf(IndexOutOfBoundsException.class);
    }
}
