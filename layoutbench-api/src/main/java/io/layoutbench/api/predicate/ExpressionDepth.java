package io.layoutbench.api.predicate;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The depth of expression trees, and its bound. Every node's constructor calls {@link #check}, so no tree deeper
 * than {@link Query#MAX_DEPTH} can exist, however it is built: by the parser, by {@link Expressions} or by the
 * records' constructors. What walks a tree recursively (binding, printing, {@code equals} and {@code hashCode}, the
 * evaluators, pruning) therefore recurses at most that deep, and needs no check of its own.
 *
 * <p>A leaf is 1 level deep; {@code width > 5} is 2. The parser counts the same way, so the API accepts exactly the
 * trees the parser accepts.
 */
final class ExpressionDepth {

    private ExpressionDepth() {
    }

    /**
     * Throws unless a node over {@code children} stays within {@link Query#MAX_DEPTH} levels.
     *
     * @param node how messages name the node being built: {@code +}, {@code NOT}, {@code IS NULL}
     */
    static void check(String node, List<Expression> children) {
        Walk walk = new Walk();
        Expression deepest = null;
        int max = 0;
        for (Expression child : children) {
            int depth = walk.depth(child);
            if (depth > max) {
                max = depth;
                deepest = child;
            }
        }
        if (max + 1 > Query.MAX_DEPTH) {
            throw new PredicateException("Expression too deep: " + node + " over " + TypeRules.excerpt(deepest)
                    + " would be " + (max + 1) + " levels of nested operators, more than the limit of "
                    + Query.MAX_DEPTH + " (Query.MAX_DEPTH)");
        }
    }

    static void check(String node, Expression child) {
        check(node, List.of(child));
    }

    static void check(String node, Expression left, Expression right) {
        check(node, List.of(left, right));
    }

    /** Levels of {@code e}: 1 for a leaf. */
    static int of(Expression e) {
        return new Walk().depth(e);
    }

    /**
     * Recurses at most {@link Query#MAX_DEPTH} deep, since every tree was checked when it was built. Nodes with
     * several children are remembered, so a subtree shared by many parents is walked once, not once per path.
     */
    private static final class Walk {
        /** Created on the first node with several children; most checks never need it. */
        private Map<Expression, Integer> known;

        int depth(Expression e) {
            List<Expression> children = children(e);
            if (children.isEmpty()) {
                return 1;
            } else if (children.size() == 1) {
                return 1 + depth(children.get(0));
            }
            if (known == null) {
                known = new IdentityHashMap<>();
            }
            Integer depth = known.get(e);
            if (depth == null) {
                int max = 0;
                for (Expression child : children) {
                    max = Math.max(max, depth(child));
                }
                depth = max + 1;
                known.put(e, depth);
            }
            return depth;
        }
    }

    /** The expression children of {@code e}; the values of an IN list are leaves of it, not levels. */
    private static List<Expression> children(Expression e) {
        if (e instanceof Arithmetic a) {
            return List.of(a.left(), a.right());
        } else if (e instanceof Comparison c) {
            return List.of(c.left(), c.right());
        } else if (e instanceof Negate n) {
            return List.of(n.operand());
        } else if (e instanceof Cast c) {
            return List.of(c.operand());
        } else if (e instanceof In in) {
            return List.of(in.operand());
        } else if (e instanceof Like like) {
            return List.of(like.operand());
        } else if (e instanceof IsNull isNull) {
            return List.of(isNull.operand());
        } else if (e instanceof Not not) {
            return List.of(not.operand());
        } else if (e instanceof And and) {
            return and.operands();
        } else if (e instanceof Or or) {
            return or.operands();
        }
        return List.of();
    }
}
