package io.layoutbench.layouts.contract;

import io.layoutbench.api.layout.StorageLayoutContractTest.ReferenceWorkload;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.datasets.synthetic.SyntheticImageNet;
import io.layoutbench.evaluation.paper.PaperQueries;
import io.layoutbench.evaluation.paper.PaperQuery;

import java.util.LinkedHashMap;
import java.util.Map;

/** The contract's reference workload for the layouts: the LayoutBench paper's Q1-Q11 over the tiny ImageNet. */
public final class PaperReference {

    private PaperReference() {
    }

    /** The tiny synthetic ImageNet (1,030 samples, seed 42) and Q1-Q11 with tiny's Q2 LIMIT. */
    public static ReferenceWorkload tiny() {
        SyntheticImageNet tiny = SyntheticImageNet.of(ImageNetScale.TINY, 42, false);
        Map<String, String> queries = new LinkedHashMap<>();
        for (PaperQuery q : PaperQueries.forScale("tiny")) {
            queries.put(q.id(), q.sql());
        }
        return new ReferenceWorkload(tiny.schema(), tiny::iterator, queries);
    }
}
