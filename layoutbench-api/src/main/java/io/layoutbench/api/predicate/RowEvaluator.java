package io.layoutbench.api.predicate;

import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataRow;

import java.util.List;

/**
 * The reference evaluator: one {@link MetadataRow} at a time, by closures compiled once from the bound expression.
 * Deliberately the plainest possible reading of the semantics (values boxed, three-valued logic spelled out), so
 * the columnar evaluator and statistics pruning can be tested against it. Immutable and thread-safe.
 */
final class RowEvaluator {

    /** Evaluates a node for a row; null is SQL NULL. */
    @FunctionalInterface
    private interface Fn {
        Object eval(MetadataRow row);
    }

    private final Fn root;

    RowEvaluator(Expression expression, Binder binder) {
        this.root = compile(expression, binder);
    }

    /** TRUE, FALSE, or null for NULL. */
    Boolean evaluate(MetadataRow row) {
        return (Boolean) root.eval(row);
    }

    private static Fn compile(Expression e, Binder binder) {
        if (e instanceof ColumnRef c) {
            int index = binder.columnIndex(c);
            return row -> row.get(index);
        } else if (e instanceof Literal l) {
            Object value = l.value();
            return row -> value;
        } else if (e instanceof Arithmetic a) {
            Fn left = compile(a.left(), binder);
            Fn right = compile(a.right(), binder);
            ArithmeticOperator op = a.operator();
            return row -> {
                Object x = left.eval(row);
                Object y = right.eval(row);
                return x == null || y == null ? null : Scalars.arithmetic(op, x, y);
            };
        } else if (e instanceof Negate n) {
            Fn operand = compile(n.operand(), binder);
            return row -> {
                Object x = operand.eval(row);
                return x == null ? null : Scalars.negate(x);
            };
        } else if (e instanceof Cast c) {
            Fn operand = compile(c.operand(), binder);
            ColumnType target = c.type();
            return row -> {
                Object x = operand.eval(row);
                return x == null ? null : Scalars.cast(x, target);
            };
        } else if (e instanceof Comparison c) {
            Fn left = compile(c.left(), binder);
            Fn right = compile(c.right(), binder);
            ComparisonOperator op = c.operator();
            return row -> {
                Object x = left.eval(row);
                Object y = right.eval(row);
                return x == null || y == null ? null : (Object) op.test(Scalars.compare(x, y));
            };
        } else if (e instanceof In in) {
            Fn operand = compile(in.operand(), binder);
            List<Literal> values = in.values();
            boolean negated = in.negated();
            return row -> {
                Object x = operand.eval(row);
                if (x == null) {
                    return null;
                }
                boolean found = false;
                for (Literal value : values) {
                    found |= Scalars.compare(x, value.value()) == 0;
                }
                return found != negated;
            };
        } else if (e instanceof Like like) {
            Fn operand = compile(like.operand(), binder);
            LikePattern pattern = LikePattern.compile(like.pattern());
            boolean negated = like.negated();
            return row -> {
                Object x = operand.eval(row);
                return x == null ? null : (Object) (pattern.matches((String) x) != negated);
            };
        } else if (e instanceof IsNull isNull) {
            Fn operand = compile(isNull.operand(), binder);
            boolean negated = isNull.negated();
            return row -> (operand.eval(row) == null) != negated;
        } else if (e instanceof And and) {
            Fn[] operands = compileAll(and.operands(), binder);
            return row -> {
                boolean sawNull = false;
                for (Fn operand : operands) {
                    Object x = operand.eval(row);
                    if (Boolean.FALSE.equals(x)) {
                        return false;
                    }
                    sawNull |= x == null;
                }
                return sawNull ? null : Boolean.TRUE;
            };
        } else if (e instanceof Or or) {
            Fn[] operands = compileAll(or.operands(), binder);
            return row -> {
                boolean sawNull = false;
                for (Fn operand : operands) {
                    Object x = operand.eval(row);
                    if (Boolean.TRUE.equals(x)) {
                        return true;
                    }
                    sawNull |= x == null;
                }
                return sawNull ? null : Boolean.FALSE;
            };
        } else if (e instanceof Not not) {
            Fn operand = compile(not.operand(), binder);
            return row -> {
                Object x = operand.eval(row);
                return x == null ? null : (Object) !((Boolean) x);
            };
        }
        throw new IllegalStateException("Unhandled expression " + e.getClass().getSimpleName());
    }

    private static Fn[] compileAll(List<Expression> expressions, Binder binder) {
        Fn[] fns = new Fn[expressions.size()];
        for (int i = 0; i < fns.length; i++) {
            fns[i] = compile(expressions.get(i), binder);
        }
        return fns;
    }
}
