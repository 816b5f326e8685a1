package io.layoutbench.advisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.model.DatasetMetadata;
import io.layoutbench.api.network.HedgeDelay;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.datasets.synthetic.SyntheticImageNet;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The ranking on small workloads over tiny, where the right answer is plain. */
class AdvisorTest {

    static final List<String> LAYOUTS = List.of("l1", "l2", "l3");
    static DatasetMetadata tiny;
    static Advisor advisor;

    @BeforeAll
    static void setUp() {
        tiny = SyntheticImageNet.of(ImageNetScale.TINY, 42, false).datasetMetadata("imagenet-tiny-seed42");
        advisor = Advisor.builder(tiny).layouts(LAYOUTS)
                .referenceSettings("l1", Map.of())
                .referenceSettings("l2", Map.of("shard-size", "64MB"))
                .referenceSettings("l3", Map.of("file-size", "64MB", "row-group-size", "128MB", "page-size", "4KB"))
                .build();
    }

    static Workload workload(String spec) {
        return Workload.parse(spec, WorkloadTest.paper("tiny"));
    }

    /**
     * A point lookup ranks paper-mode L3, which reads whole row groups, below every layout's best. Which layout's
     * optimized read wins is a matter of milliseconds: one read raced on the idle link, whose copies pay a connection's
     * set-up unless the client's earlier run left it one (L3's cold footer reads leave more than L1's and L2's).
     */
    @Test
    void aPointLookupForTimeRanksL3ReadingWholeRowGroupsBelowEveryLayoutsBest() {
        Advice advice = advisor.advise(workload("Q1"), Objective.time(), false);

        Recommendation best = advice.best();
        assertThat(best.mode()).isEqualTo(RetrievalMode.OPTIMIZED);
        // One read, raced on the idle link: sent at most HedgeDelay.MAX_RACED_COPIES times at once.
        assertThat(best.query("Q1").requests()).isBetween(1L, (long) HedgeDelay.MAX_RACED_COPIES);
        List<Recommendation> l3Paper = advice.ranked().stream()
                .filter(r -> r.layout().equals("l3") && r.mode() == RetrievalMode.PAPER).toList();
        assertThat(l3Paper).isNotEmpty().allSatisfy(r -> {
            assertThat(r.rank()).isGreaterThan(advice.bestOf("l1").orElseThrow().rank());
            assertThat(r.rank()).isGreaterThan(advice.bestOf("l2").orElseThrow().rank());
            // One sample, but whole row groups of megabytes.
            assertThat(r.bytes()).isGreaterThan(10 * best.bytes());
        });
        assertThat(advice.ranked().get(advice.ranked().size() - 1).mode()).isEqualTo(RetrievalMode.PAPER);
    }

    @Test
    void forDollarsTheBestReadsCloseToThePayload() {
        Advice advice = advisor.advise(workload("Q8"), Objective.cost(), false);

        QueryOutcome q8 = advice.best().query("Q8");
        assertThat(q8.readAmplification()).isLessThan(1.01);
        // Reading through gaps costs transfer: the widest gaps rank below the narrow ones of the same layout.
        Recommendation wide = advice.ranked().stream().filter(r -> r.layout().equals("l2")
                && r.gapBytes().orElse(0) == 4L << 20).findFirst().orElseThrow();
        Recommendation narrow = advice.ranked().stream().filter(r -> r.layout().equals("l2")
                && r.gapBytes().orElse(-1) == 0).findFirst().orElseThrow();
        assertThat(wide.rank()).isGreaterThan(narrow.rank());
    }

    @Test
    void scoresFollowTheObjectiveAndTheRankingIsSortedByScore() {
        Workload workload = workload("Q1=1,Q3=5,Q8=0.5");
        Advice time = advisor.advise(workload, Objective.time(), false);
        Advice tradeoff = advisor.advise(workload, Objective.tradeoff(36), false);

        for (Advice advice : List.of(time, tradeoff)) {
            for (int i = 1; i < advice.ranked().size(); i++) {
                assertThat(advice.ranked().get(i).score()).isGreaterThanOrEqualTo(advice.ranked().get(i - 1).score());
                assertThat(advice.ranked().get(i).rank()).isEqualTo(i + 1);
            }
        }
        Recommendation any = time.ranked().get(5);
        assertThat(any.score()).isEqualTo(any.seconds());
        Recommendation same = tradeoff.ranked().stream().filter(r -> r.title().equals(any.title())).findFirst()
                .orElseThrow();
        assertThat(same.score()).isCloseTo(same.dollars() + 36 * same.seconds() / 3600, org.assertj.core.api
                .Assertions.within(1e-12));
        double weighted = any.queries().stream().mapToDouble(q -> q.weight() * q.seconds()).sum();
        assertThat(any.seconds()).isCloseTo(weighted, org.assertj.core.api.Assertions.within(1e-12));
    }

    @Test
    void coldRunsCostAtLeastWarmOnes() {
        Workload workload = Workload.of(WorkloadTest.paper("tiny"));
        Map<String, Recommendation> warm = byTitle(advisor.advise(workload, Objective.time(), false));
        Map<String, Recommendation> cold = byTitle(advisor.advise(workload, Objective.time(), true));

        assertThat(cold.keySet()).isEqualTo(warm.keySet());
        cold.forEach((title, c) -> {
            assertThat(c.seconds()).as(title).isGreaterThan(warm.get(title).seconds());
            assertThat(c.bytes()).as(title).isGreaterThan(warm.get(title).bytes());
        });
    }

    @Test
    void referenceSettingsAreMarkedAndTheTopAndEachLayoutsBestAreExplained() {
        Advice advice = advisor.advise(Workload.of(WorkloadTest.paper("tiny")), Objective.time(), false);

        List<String> references = advice.ranked().stream().filter(Recommendation::reference)
                .map(Recommendation::title).sorted().toList();
        assertThat(references).containsExactly("l1 one object per sample", "l2 shard 64MB, paper retrieval",
                "l3 page 4KB, row group 128MB, file 64MB, paper retrieval");
        for (Recommendation r : advice.ranked()) {
            boolean explained = r.rank() <= 3 || advice.bestOf(r.layout()).orElseThrow() == r;
            assertThat(r.reasons()).as(r.title()).hasSize(explained ? 4 : 0);
        }
        assertThat(advice.best().reasons().get(2)).contains("the best");
    }

    @Test
    void modelsOnlyTheLayoutsAskedFor() {
        Advice advice = Advisor.builder(tiny).layouts(List.of("l2")).build().advise(workload("Q3"), Objective.time(),
                false);

        assertThat(advice.ranked()).extracting(Recommendation::layout).containsOnly("l2");
        assertThatThrownBy(() -> Advisor.builder(tiny).layouts(List.of("fac")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'fac'");
    }

    @Test
    void aLayoutOnTheClassPathThatModelsItselfIsRankedToo() {
        // The test-only one-object layout: one package and one services line, nothing in the advisor.
        Advice advice = Advisor.builder(tiny).build().advise(workload("Q3"), Objective.time(), false);

        assertThat(advice.ranked()).extracting(Recommendation::layout).contains("one-object", "l1", "l2", "l3");
        Recommendation oneObject = advice.bestOf("one-object").orElseThrow();
        assertThat(oneObject.query("Q3").bytes()).as("a scan reads every sample's bytes")
                .isEqualTo(tiny.payloadBytes());
        assertThat(oneObject.rank()).isGreaterThan(advice.bestOf("l2").orElseThrow().rank());
        assertThat(oneObject.reasons()).as("the best of its layout is explained").hasSize(4);
    }

    @Test
    void aQueryOnAnUnknownColumnNamesTheQuery() {
        Workload workload = new Workload(List.of(new Workload.WorkloadQuery("W1", "colour = 'red'", 1)));

        assertThatThrownBy(() -> advisor.advise(workload, Objective.time(), false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("W1").hasMessageContaining("colour");
    }

    private static Map<String, Recommendation> byTitle(Advice advice) {
        return advice.ranked().stream().collect(Collectors.toMap(Recommendation::title, Function.identity()));
    }
}
