package io.layoutbench.advisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.evaluation.paper.PaperQueries;
import io.layoutbench.evaluation.paper.PaperQuery;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkloadTest {

    @TempDir
    Path dir;

    /** The paper's queries by id, as the CLI names them. */
    static Map<String, String> paper(String scale) {
        Map<String, String> queries = new LinkedHashMap<>();
        for (PaperQuery q : PaperQueries.forScale(scale)) {
            queries.put(q.id(), q.sql());
        }
        return queries;
    }

    @Test
    void thePapersQueriesWithWeights() {
        Workload workload = Workload.parse(" q1=1, Q3=5,Q8=0.5 ,Q2", paper("medium"));

        assertThat(workload.queries()).extracting(Workload.WorkloadQuery::id).containsExactly("Q1", "Q3", "Q8", "Q2");
        assertThat(workload.queries()).extracting(Workload.WorkloadQuery::weight).containsExactly(1.0, 5.0, 0.5, 1.0);
        assertThat(workload.queries().get(3).sql()).endsWith("LIMIT 100");
        assertThat(workload.totalWeight()).isEqualTo(7.5);
        assertThat(workload.describe()).isEqualTo("4 queries (Q1 x1, Q3 x5, Q8 x0.5, Q2 x1)");
    }

    @Test
    void byDefaultAllElevenWeightOne() {
        Workload workload = Workload.of(paper("full"));

        assertThat(workload.queries()).hasSize(11).allSatisfy(q -> assertThat(q.weight()).isEqualTo(1));
        assertThat(workload.queries().get(1).sql()).endsWith("LIMIT 1000");
        assertThat(workload.describe()).startsWith("11 queries (Q1, Q2,").endsWith("), weight 1 each");
    }

    @Test
    void aFileOfWeightedPredicates() throws IOException {
        Path file = dir.resolve("w.tsv");
        Files.writeString(file, "# weight, then the predicate\n\n3\thuman_label = 'cello'\n0.25 width > 100 LIMIT 5\n");

        Workload workload = Workload.fromArgument(file.toString(), paper("mini"));

        assertThat(workload.queries()).extracting(Workload.WorkloadQuery::id).containsExactly("W1", "W2");
        assertThat(workload.queries().get(0).sql()).isEqualTo("human_label = 'cello'");
        assertThat(workload.queries().get(1).weight()).isEqualTo(0.25);
    }

    @Test
    void errorsNameTheEntryOrLine() throws IOException {
        assertThatThrownBy(() -> Workload.parse("Q1=x", paper("mini"))).hasMessageContaining("Weight of query Q1")
                .hasMessageContaining("'x'");
        assertThatThrownBy(() -> Workload.parse("Q12", paper("mini"))).hasMessageContaining("Unknown query 'Q12'");
        assertThatThrownBy(() -> Workload.parse(" , ", paper("mini"))).hasMessageContaining("names no query");
        assertThatThrownBy(() -> Workload.parse("Q1=0", paper("mini"))).hasMessageContaining("> 0");

        Path noWeight = dir.resolve("a.tsv");
        Files.writeString(noWeight, "human_label = 'cello'\n");
        assertThatThrownBy(() -> Workload.read(noWeight)).hasMessageContaining("a.tsv line 1");
        Path empty = dir.resolve("b.tsv");
        Files.writeString(empty, "# nothing\n");
        assertThatThrownBy(() -> Workload.read(empty)).hasMessageContaining("holds no query");
        Path badSql = dir.resolve("c.tsv");
        Files.writeString(badSql, "1\tlabel = 'x'\n2\twidth >\n");
        assertThatThrownBy(() -> Workload.read(badSql)).hasMessageContaining("c.tsv line 2");
    }
}
