package io.layoutbench.api.predicate;

import java.util.List;
import java.util.Locale;

/** Shared validation of {@link And} and {@link Or} operand lists. */
final class Junctions {
    private Junctions() {
    }

    static List<Expression> checkOperands(String keyword, List<Expression> operands, Class<?> self) {
        List<Expression> copy = List.copyOf(operands);
        if (copy.size() < 2) {
            throw new IllegalArgumentException(keyword + " needs at least two operands but got " + copy.size()
                    + ": build it with Expressions." + keyword.toLowerCase(Locale.ROOT));
        }
        for (Expression operand : copy) {
            if (self.isInstance(operand) || operand instanceof Literal) {
                throw new IllegalArgumentException(keyword + " operand " + operand + " must be flattened or"
                        + " simplified: build it with Expressions." + keyword.toLowerCase(Locale.ROOT));
            }
        }
        return copy;
    }
}
