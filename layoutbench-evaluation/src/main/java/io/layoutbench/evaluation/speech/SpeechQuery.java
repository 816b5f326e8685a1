package io.layoutbench.evaluation.speech;

import static java.util.Objects.requireNonNull;

import io.layoutbench.evaluation.BenchmarkQuery;

/**
 * One of the speech queries S1-S10 over the synthetic LibriSpeech-like corpus; see {@link SpeechQueries}.
 *
 * <pre>{@code
 * SpeechQuery s7 = SpeechQueries.get("S7");   // transcript LIKE '%NIGHTINGALE%'
 * }</pre>
 *
 * @param id          {@code S1} .. {@code S10}
 * @param description what the query exercises
 * @param sql         the predicate (and LIMIT)
 */
public record SpeechQuery(String id, String description, String sql) implements BenchmarkQuery {

    public SpeechQuery {
        requireNonNull(id, "id is null");
        requireNonNull(description, "description is null");
        requireNonNull(sql, "sql is null");
    }

    @Override
    public String toString() {
        return id + ": " + sql;
    }
}
