package io.layoutbench.api.predicate;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.predicate.TypeRules.Kind;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.OptionalInt;

/**
 * Resolves columns and computes the type of every node of an expression against a schema, applying
 * {@link TypeRules}. Types are memoized by node identity, so the parser can ask for the type of each node it builds
 * without re-walking the subtree, and the evaluators can look types up after binding. Not thread-safe; owned by one
 * bind or parse.
 */
final class Binder implements ExpressionVisitor<ColumnType> {
    private final MetadataSchema schema;
    private final Map<Expression, ColumnType> types = new IdentityHashMap<>();

    Binder(MetadataSchema schema) {
        this.schema = requireNonNull(schema, "schema is null");
    }

    MetadataSchema schema() {
        return schema;
    }

    /** The type of {@code e}; throws {@link PredicateException} on an unknown column or a type mismatch. */
    ColumnType typeOf(Expression e) {
        ColumnType type = types.get(e);
        if (type == null) {
            type = e.accept(this);
            types.put(e, type);
        }
        return type;
    }

    private Kind kind(Expression e) {
        return Kind.of(typeOf(e));
    }

    /** Position of the column {@code ref} names; the reference must have been typed. */
    int columnIndex(ColumnRef ref) {
        OptionalInt index = schema.indexOf(ref.name());
        if (index.isEmpty()) {
            throw unknownColumn(ref.name());
        }
        return index.getAsInt();
    }

    PredicateException unknownColumn(String name) {
        return new PredicateException("Unknown column: '" + name + "' is not a column of this dataset; known"
                + " columns: " + schema.describeColumns());
    }

    @Override
    public ColumnType visitColumn(ColumnRef column) {
        return schema.columns().get(columnIndex(column)).type();
    }

    @Override
    public ColumnType visitLiteral(Literal literal) {
        return literal.type();
    }

    @Override
    public ColumnType visitArithmetic(Arithmetic arithmetic) {
        Kind k = TypeRules.arithmetic(arithmetic.operator(), arithmetic.left(), kind(arithmetic.left()),
                arithmetic.right(), kind(arithmetic.right()));
        return k == Kind.BIGINT ? ColumnType.BIGINT : ColumnType.DOUBLE;
    }

    @Override
    public ColumnType visitNegate(Negate negate) {
        TypeRules.negate(negate.operand(), kind(negate.operand()));
        return typeOf(negate.operand());
    }

    @Override
    public ColumnType visitCast(Cast cast) {
        TypeRules.cast(cast.operand(), kind(cast.operand()), cast.type());
        return cast.type();
    }

    @Override
    public ColumnType visitComparison(Comparison comparison) {
        TypeRules.comparison(comparison.operator(), comparison.left(), kind(comparison.left()),
                comparison.right(), kind(comparison.right()));
        return ColumnType.BOOLEAN;
    }

    @Override
    public ColumnType visitIn(In in) {
        TypeRules.in(in.operand(), kind(in.operand()), in.values());
        return ColumnType.BOOLEAN;
    }

    @Override
    public ColumnType visitLike(Like like) {
        TypeRules.like(like.operand(), kind(like.operand()));
        return ColumnType.BOOLEAN;
    }

    @Override
    public ColumnType visitIsNull(IsNull isNull) {
        typeOf(isNull.operand());
        return ColumnType.BOOLEAN;
    }

    @Override
    public ColumnType visitAnd(And and) {
        for (Expression operand : and.operands()) {
            TypeRules.requireBoolean("AND needs BOOLEAN operands", operand, kind(operand));
        }
        return ColumnType.BOOLEAN;
    }

    @Override
    public ColumnType visitOr(Or or) {
        for (Expression operand : or.operands()) {
            TypeRules.requireBoolean("OR needs BOOLEAN operands", operand, kind(operand));
        }
        return ColumnType.BOOLEAN;
    }

    @Override
    public ColumnType visitNot(Not not) {
        TypeRules.requireBoolean("NOT needs a BOOLEAN operand", not.operand(), kind(not.operand()));
        return ColumnType.BOOLEAN;
    }
}
