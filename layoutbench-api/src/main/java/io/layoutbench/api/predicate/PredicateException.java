package io.layoutbench.api.predicate;

import io.layoutbench.api.LayoutBenchException;

/**
 * A predicate is invalid: a type mismatch, an unknown column, a constant that cannot be folded (division by a
 * zero literal, BIGINT overflow), or a predicate applied to a table or row of another schema. Thrown when an
 * expression is built or bound; evaluation itself never throws for data-dependent reasons (division by zero at
 * evaluation time yields NULL).
 *
 * <pre>{@code
 * try {
 *     Query.parse("human_label = 5").bind(MetadataSchema.imageNet());
 * } catch (PredicateException e) {
 *     // "Type mismatch: cannot compare human_label (STRING) with 5 (BIGINT) using =: expected a STRING value
 *     //  but found BIGINT"
 * }
 * }</pre>
 */
public class PredicateException extends LayoutBenchException {
    private static final long serialVersionUID = 1L;

    public PredicateException(String message) {
        super(message);
    }

    public PredicateException(String message, Throwable cause) {
        super(message, cause);
    }
}
