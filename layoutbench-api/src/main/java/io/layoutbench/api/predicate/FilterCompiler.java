package io.layoutbench.api.predicate;

import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.predicate.ColumnFilters.BooleanColumnFilter;
import io.layoutbench.api.predicate.ColumnFilters.DoubleCompareFilter;
import io.layoutbench.api.predicate.ColumnFilters.LongRangeFilter;
import io.layoutbench.api.predicate.ColumnFilters.LongSetFilter;
import io.layoutbench.api.predicate.ColumnFilters.NullFilter;
import io.layoutbench.api.predicate.Kernels.ArithmeticKernel;
import io.layoutbench.api.predicate.Kernels.CastKernel;
import io.layoutbench.api.predicate.Kernels.ColumnKernel;
import io.layoutbench.api.predicate.Kernels.ConstantKernel;
import io.layoutbench.api.predicate.Kernels.Kernel;
import io.layoutbench.api.predicate.Kernels.NegateKernel;
import io.layoutbench.api.predicate.Kernels.PredicateKernel;
import io.layoutbench.api.predicate.LogicalFilters.ConstantFilter;
import io.layoutbench.api.predicate.LogicalFilters.JunctionFilter;
import io.layoutbench.api.predicate.LogicalFilters.NotFilter;
import io.layoutbench.api.predicate.VectorFilters.VectorCompareFilter;
import io.layoutbench.api.predicate.VectorFilters.VectorInFilter;
import io.layoutbench.api.predicate.VectorFilters.VectorIsNullFilter;

import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Compiles a bound expression into the {@link Filter} tree (and {@link Kernels} for computed values) that
 * {@link ColumnarEvaluator} runs. Numbers the per-call slots (dictionary masks, vectors, scratch arrays) that the
 * filters and kernels keep in the {@link RowSets.Context}. For one compilation; not thread-safe.
 */
final class FilterCompiler {
    private final Binder binder;
    /** Number of per-call slots numbered so far. */
    int slots;

    FilterCompiler(Binder binder) {
        this.binder = binder;
    }

    private int slot() {
        return slots++;
    }

    private ColumnType type(Expression e) {
        return binder.typeOf(e);
    }

    Filter filter(Expression e) {
        if (e instanceof Literal l) {
            return new ConstantFilter((Boolean) l.value());
        } else if (e instanceof ColumnRef c) {
            return new BooleanColumnFilter(binder.columnIndex(c));
        } else if (e instanceof Not not) {
            return new NotFilter(filter(not.operand()));
        } else if (e instanceof And and) {
            return junction(and.operands(), true);
        } else if (e instanceof Or or) {
            return junction(or.operands(), false);
        } else if (e instanceof Comparison c) {
            return comparison(c);
        } else if (e instanceof In in) {
            return in(in);
        } else if (e instanceof Like like) {
            return like(like);
        } else if (e instanceof IsNull isNull) {
            return isNull.operand() instanceof ColumnRef c
                    ? new NullFilter(binder.columnIndex(c), isNull.negated())
                    : new VectorIsNullFilter(kernel(isNull.operand()), isNull.negated());
        }
        throw new IllegalStateException("Not a predicate: " + e);
    }

    private Filter junction(List<Expression> operands, boolean isAnd) {
        Filter[] filters = operands.stream().map(this::filter).toArray(Filter[]::new);
        // Stable sort: cheap, selective leaves (dictionary, range) before vector arithmetic. AND and OR are
        // commutative in three-valued logic, so the order changes only the speed.
        Arrays.sort(filters, Comparator.comparingInt(Filter::cost));
        return new JunctionFilter(filters, isAnd);
    }

    private Filter comparison(Comparison c) {
        Expression left = c.left();
        Expression right = c.right();
        ComparisonOperator op = c.operator();
        if (left instanceof Literal && !(right instanceof Literal)) {
            Expression swap = left;
            left = right;
            right = swap;
            op = op.flip();
        }
        if (left instanceof ColumnRef column && right instanceof Literal literal) {
            int index = binder.columnIndex(column);
            Object value = literal.value();
            switch (type(column)) {
                case STRING -> {
                    return DictionaryFilter.compare(index, op, (String) value, slot());
                }
                case BIGINT -> {
                    return value instanceof Long l ? LongRangeFilter.of(index, op, l)
                            : new DoubleCompareFilter(index, op, (Double) value);
                }
                case DOUBLE -> {
                    return new DoubleCompareFilter(index, op, ((Number) value).doubleValue());
                }
                case BOOLEAN -> {
                    // Rare; the vector path below handles it.
                }
            }
        }
        ColumnType common = commonType(type(left), type(right));
        return new VectorCompareFilter(op, kernel(left, common), kernel(right, common), slot());
    }

    private Filter in(In in) {
        Expression operand = in.operand();
        ColumnType type = type(operand);
        boolean negated = in.negated();
        boolean allLongs = in.values().stream().allMatch(v -> v.value() instanceof Long);
        if (operand instanceof ColumnRef column && type == ColumnType.STRING) {
            Set<String> values = new HashSet<>();
            in.values().forEach(v -> values.add((String) v.value()));
            return DictionaryFilter.in(binder.columnIndex(column), values, negated, slot());
        }
        if (operand instanceof ColumnRef column && type == ColumnType.BIGINT && allLongs) {
            long[] sorted = new TreeSet<>(in.values().stream().map(v -> (Long) v.value()).toList()).stream()
                    .mapToLong(Long::longValue).toArray();
            return new LongSetFilter(binder.columnIndex(column), sorted, negated);
        }
        return new VectorInFilter(kernel(operand), in.values(), negated);
    }

    private Filter like(Like like) {
        if (!(like.operand() instanceof ColumnRef column)) {
            // Only columns and literals are STRING-typed, and literal operands are folded.
            throw new IllegalStateException("LIKE over a computed string: " + like);
        }
        LikePattern pattern = LikePattern.compile(like.pattern());
        return DictionaryFilter.like(binder.columnIndex(column), pattern, like.negated(), slot());
    }

    private static ColumnType commonType(ColumnType a, ColumnType b) {
        return a == b ? a : ColumnType.DOUBLE;
    }

    /** A kernel for {@code e} converted to {@code type} (only numeric conversions arise). */
    private Kernel kernel(Expression e, ColumnType type) {
        if (e instanceof ColumnRef c && type(c) == ColumnType.BIGINT && type == ColumnType.DOUBLE) {
            return new ColumnKernel(binder.columnIndex(c), ColumnType.DOUBLE, slot());
        }
        if (e instanceof Literal l && l.value() instanceof Long v && type == ColumnType.DOUBLE) {
            return new ConstantKernel(v.doubleValue(), ColumnType.DOUBLE, slot());
        }
        Kernel k = kernel(e);
        return k.type == type ? k : new CastKernel(k, type, slot());
    }

    private Kernel kernel(Expression e) {
        if (e instanceof ColumnRef c) {
            return new ColumnKernel(binder.columnIndex(c), type(c), slot());
        } else if (e instanceof Literal l) {
            return new ConstantKernel(l.value(), l.type(), slot());
        } else if (e instanceof Arithmetic a) {
            ColumnType type = type(a);
            return new ArithmeticKernel(a.operator(), kernel(a.left(), type), kernel(a.right(), type), slot());
        } else if (e instanceof Negate n) {
            return new NegateKernel(kernel(n.operand()), slot());
        } else if (e instanceof Cast c) {
            return kernel(c.operand(), c.type());
        }
        return new PredicateKernel(filter(e), slot());
    }
}
