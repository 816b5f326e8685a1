package io.layoutbench.api.predicate;

import io.layoutbench.api.predicate.RowSets.Context;
import io.layoutbench.api.predicate.RowSets.IntList;
import io.layoutbench.api.predicate.RowSets.Rows;

/** Filters that combine filters: constants, NOT, AND and OR. */
final class LogicalFilters {
    private LogicalFilters() {
    }

    static final class ConstantFilter extends Filter {
        private final boolean value;

        ConstantFilter(boolean value) {
            this.value = value;
        }

        @Override
        void select(Context ctx, Rows in, boolean want, IntList out) {
            if (value == want) {
                out.addAll(in);
            }
        }

        @Override
        int cost() {
            return 0;
        }
    }

    static final class NotFilter extends Filter {
        private final Filter operand;

        NotFilter(Filter operand) {
            this.operand = operand;
        }

        @Override
        void select(Context ctx, Rows in, boolean want, IntList out) {
            operand.select(ctx, in, !want, out);
        }

        @Override
        int cost() {
            return operand.cost();
        }
    }

    /**
     * AND and OR. Asking AND for TRUE (or OR for FALSE) needs every operand to agree: the candidate rows narrow
     * operand by operand. Asking AND for FALSE (or OR for TRUE) needs any one operand: each operand looks only at
     * rows no earlier operand decided, and the hits are merged.
     */
    static final class JunctionFilter extends Filter {
        private final Filter[] operands;
        private final boolean isAnd;

        JunctionFilter(Filter[] operands, boolean isAnd) {
            this.operands = operands;
            this.isAnd = isAnd;
        }

        @Override
        void select(Context ctx, Rows in, boolean want, IntList out) {
            if (in.size == 0) {
                return;
            }
            if (want == isAnd) {
                narrow(ctx, in, want, out);
            } else {
                union(ctx, in, want, out);
            }
        }

        private void narrow(Context ctx, Rows in, boolean want, IntList out) {
            Rows current = in;
            IntList held = null;
            for (int i = 0; i < operands.length; i++) {
                if (i == operands.length - 1) {
                    operands[i].select(ctx, current, want, out);
                    break;
                }
                IntList next = ctx.borrow();
                operands[i].select(ctx, current, want, next);
                if (held != null) {
                    ctx.release(held);
                }
                held = next;
                current = Rows.of(next);
                if (current.size == 0) {
                    break;
                }
            }
            if (held != null) {
                ctx.release(held);
            }
        }

        private void union(Context ctx, Rows in, boolean want, IntList out) {
            IntList hits = ctx.borrow();
            Rows remaining = in;
            IntList remainingHeld = null;
            for (int i = 0; i < operands.length && remaining.size > 0; i++) {
                IntList found = ctx.borrow();
                operands[i].select(ctx, remaining, want, found);
                if (found.size > 0) {
                    IntList merged = ctx.borrow();
                    merge(hits, found, merged);
                    ctx.release(hits);
                    hits = merged;
                    if (i < operands.length - 1) {
                        IntList rest = ctx.borrow();
                        difference(remaining, found, rest);
                        if (remainingHeld != null) {
                            ctx.release(remainingHeld);
                        }
                        remainingHeld = rest;
                        remaining = Rows.of(rest);
                    }
                }
                ctx.release(found);
            }
            out.addAll(Rows.of(hits));
            ctx.release(hits);
            if (remainingHeld != null) {
                ctx.release(remainingHeld);
            }
        }

        /** {@code out = a ∪ b} for sorted, disjoint lists. */
        private static void merge(IntList a, IntList b, IntList out) {
            out.ensure(a.size + b.size);
            int i = 0;
            int j = 0;
            int n = 0;
            int[] o = out.values;
            while (i < a.size && j < b.size) {
                o[n++] = a.values[i] < b.values[j] ? a.values[i++] : b.values[j++];
            }
            while (i < a.size) {
                o[n++] = a.values[i++];
            }
            while (j < b.size) {
                o[n++] = b.values[j++];
            }
            out.size = n;
        }

        /** {@code out = rows − drop} where {@code drop} is a sorted subset of {@code rows}. */
        private static void difference(Rows rows, IntList drop, IntList out) {
            out.ensure(rows.size);
            int j = 0;
            int n = 0;
            int[] o = out.values;
            for (int k = 0; k < rows.size; k++) {
                int row = rows.row(k);
                if (j < drop.size && drop.values[j] == row) {
                    j++;
                } else {
                    o[n++] = row;
                }
            }
            out.size = n;
        }

        @Override
        int cost() {
            int cost = 1;
            for (Filter operand : operands) {
                cost += operand.cost();
            }
            return cost;
        }
    }
}
