package io.layoutbench.api.predicate;

import io.layoutbench.api.dataset.MetadataSchema;

/**
 * A node of the predicate language: an immutable value with structural {@code equals}, whose {@code toString()}
 * is SQL that {@link Query#parse(String)} turns back into an equal expression.
 *
 * <p>Build expressions with the factories in {@link Expressions}, which fold constants and simplify as they build
 * ({@code and(x, alwaysFalse())} is {@code alwaysFalse()}, {@code 500 * 1024} is {@code 512000}). The node records
 * reject unfolded shapes (two literal operands, a literal under NOT ...), so every expression is in that simplified
 * form, and refuse to be built deeper than {@link Query#MAX_DEPTH} levels with a {@link PredicateException}, so no
 * walk of a tree can overflow the stack. Expressions are unbound: column names are resolved and types checked by
 * {@link #bind(MetadataSchema)}.
 *
 * <pre>{@code
 * Expression q11 = Expressions.and(
 *         Expressions.equal(Expressions.column("human_label"), Expressions.lit("bagel")),
 *         Expressions.greaterThanOrEqual(Expressions.column("width"), Expressions.lit(512)));
 * BoundPredicate bound = q11.bind(MetadataSchema.imageNet());
 * }</pre>
 */
public sealed interface Expression
        permits ColumnRef, Literal, Arithmetic, Negate, Cast, Comparison, In, Like, IsNull, And, Or, Not {

    /** Calls the visitor method for this node type. */
    <R> R accept(ExpressionVisitor<R> visitor);

    /**
     * Resolves columns against {@code schema} and type-checks this expression as a WHERE clause.
     *
     * @throws PredicateException naming the unknown column (and the known ones) or the type mismatch
     */
    default BoundPredicate bind(MetadataSchema schema) {
        return BoundPredicate.bind(this, schema);
    }
}
