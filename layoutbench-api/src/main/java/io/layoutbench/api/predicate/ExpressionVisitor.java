package io.layoutbench.api.predicate;

/**
 * A function over the node types of {@link Expression}, applied with {@link Expression#accept}. Visitors recurse
 * themselves (call {@code child.accept(this)}), so they choose the order and may stop early.
 *
 * <pre>{@code
 * // Which columns does a predicate read?
 * Set<String> columns = new TreeSet<>();
 * expression.accept(new ExpressionVisitor.Walker() {
 *     public Void visitColumn(ColumnRef column) {
 *         columns.add(column.name());
 *         return null;
 *     }
 * });
 * }</pre>
 *
 * @param <R> the result type
 */
public interface ExpressionVisitor<R> {
    R visitColumn(ColumnRef column);

    R visitLiteral(Literal literal);

    R visitArithmetic(Arithmetic arithmetic);

    R visitNegate(Negate negate);

    R visitCast(Cast cast);

    R visitComparison(Comparison comparison);

    R visitIn(In in);

    R visitLike(Like like);

    R visitIsNull(IsNull isNull);

    R visitAnd(And and);

    R visitOr(Or or);

    R visitNot(Not not);

    /**
     * A visitor that visits every node depth-first and returns null; override the methods for the nodes of
     * interest and call {@code super} to keep descending.
     *
     * <pre>{@code
     * int[] likes = {0};
     * expression.accept(new ExpressionVisitor.Walker() {
     *     public Void visitLike(Like like) {
     *         likes[0]++;
     *         return super.visitLike(like);
     *     }
     * });
     * }</pre>
     */
    abstract class Walker implements ExpressionVisitor<Void> {
        @Override
        public Void visitColumn(ColumnRef column) {
            return null;
        }

        @Override
        public Void visitLiteral(Literal literal) {
            return null;
        }

        @Override
        public Void visitArithmetic(Arithmetic arithmetic) {
            arithmetic.left().accept(this);
            arithmetic.right().accept(this);
            return null;
        }

        @Override
        public Void visitNegate(Negate negate) {
            negate.operand().accept(this);
            return null;
        }

        @Override
        public Void visitCast(Cast cast) {
            cast.operand().accept(this);
            return null;
        }

        @Override
        public Void visitComparison(Comparison comparison) {
            comparison.left().accept(this);
            comparison.right().accept(this);
            return null;
        }

        @Override
        public Void visitIn(In in) {
            in.operand().accept(this);
            in.values().forEach(value -> value.accept(this));
            return null;
        }

        @Override
        public Void visitLike(Like like) {
            like.operand().accept(this);
            return null;
        }

        @Override
        public Void visitIsNull(IsNull isNull) {
            isNull.operand().accept(this);
            return null;
        }

        @Override
        public Void visitAnd(And and) {
            and.operands().forEach(operand -> operand.accept(this));
            return null;
        }

        @Override
        public Void visitOr(Or or) {
            or.operands().forEach(operand -> operand.accept(this));
            return null;
        }

        @Override
        public Void visitNot(Not not) {
            not.operand().accept(this);
            return null;
        }
    }
}
