package io.layoutbench.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The distributed split: disjoint, equal shares that cover the result up to the dropped tail, in order. */
class DataLoaderExampleTest {

    @Test
    void ranksSplitTheResultIntoDisjointEqualShares() {
        int total = 23;
        int worldSize = 4;
        List<Sample> result = samples(total);
        Set<String> seen = new HashSet<>();
        for (int rank = 0; rank < worldSize; rank++) {
            List<String> mine = new ArrayList<>();
            var batches = new DataLoaderExample.RankBatches(result.subList(0, total / worldSize * worldSize)
                    .iterator(), rank, worldSize, 2);
            while (batches.hasNext()) {
                List<Sample> batch = batches.next();
                assertThat(batch.size()).isBetween(1, 2);
                batch.forEach(s -> mine.add(s.filename()));
            }
            assertThat(mine).hasSize(total / worldSize);
            for (int i = 0; i < mine.size(); i++) {
                assertThat(mine.get(i)).isEqualTo("f" + (i * worldSize + rank));
                assertThat(DataLoaderExample.belongsTo(i * worldSize + rank, total, rank, worldSize)).isTrue();
            }
            assertThat(seen.addAll(mine)).isTrue();
        }
        assertThat(seen).hasSize(20);
        assertThat(DataLoaderExample.belongsTo(21, total, 1, worldSize)).as("dropped tail").isFalse();
    }

    @Test
    void invalidRanksAreRejected() {
        assertThatThrownBy(() -> DataLoaderExample.belongsTo(0, 10, 4, 4)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new DataLoaderExample.RankBatches(List.<Sample>of().iterator(), 0, 1, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static List<Sample> samples(int count) {
        List<Sample> samples = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            MetadataRow row = MetadataRow.of(MetadataSchema.imageNet(), Map.of("filename", "f" + i, "label", "x",
                    "filesize_bytes", 1L, "width", 1L, "height", 1L));
            samples.add(new Sample(row, ByteBuffer.wrap(new byte[] {1})));
        }
        return samples;
    }
}
