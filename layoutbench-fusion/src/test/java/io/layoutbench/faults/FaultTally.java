package io.layoutbench.faults;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The fault suite's counts: runs by what was damaged, how, and what came of it; and every failure, described. Not
 * thread-safe: the suite records runs one after another.
 */
final class FaultTally {

    /** What a run came to. The first four are passes; the last two fail the suite. */
    enum Outcome {
        /** A {@code LayoutBenchException} naming the damaged object. */
        CAUGHT("caught"),
        /** The right samples: FAC read parity or another location-map replica, so it rebuilt or skipped the damage. */
        REPAIRED("repaired"),
        /** The right samples: the damaged bytes were read but the layout does not trust them (not returned). */
        READ_UNTRUSTED("read, untrusted"),
        /** The right samples: the query did not read the damaged bytes. */
        UNREAD("not read"),
        /** Samples that differ from the right ones. */
        WRONG("WRONG"),
        /** Another exception type, or a {@code LayoutBenchException} that does not name the damaged object. */
        BAD_ERROR("BAD ERROR");

        final String label;

        Outcome(String label) {
            this.label = label;
        }

        boolean failed() {
            return this == WRONG || this == BAD_ERROR;
        }
    }

    private final Map<String, EnumMap<Outcome, Integer>> byObjectKind = new TreeMap<>();
    private final Map<String, EnumMap<Outcome, Integer>> byDamage = new TreeMap<>();
    private final Map<String, EnumMap<Outcome, Integer>> byBackendAndLayout = new TreeMap<>();
    private final Set<String> objectsDamaged = new HashSet<>();
    private final List<String> failures = new ArrayList<>();
    private int runs;

    void record(String backend, String layout, String objectKind, String object, String damage, Outcome outcome,
            String detail) {
        runs++;
        objectsDamaged.add(backend + " " + object);
        add(byObjectKind, objectKind, outcome);
        add(byDamage, damage, outcome);
        add(byBackendAndLayout, backend + " / " + layout, outcome);
        if (outcome.failed()) {
            failures.add(String.format("%s %s: %s of %s (%s): %s", backend, layout, damage, object, objectKind,
                    detail));
        }
    }

    int runs() {
        return runs;
    }

    int count(Outcome outcome) {
        return byDamage.values().stream().mapToInt(m -> m.getOrDefault(outcome, 0)).sum();
    }

    List<String> failures() {
        return List.copyOf(failures);
    }

    /** The summary: totals, then runs by object kind, by damage and by backend and layout. */
    String table(String title) {
        StringBuilder text = new StringBuilder();
        text.append(title).append('\n');
        text.append(String.format(Locale.ROOT, "%d runs, %d objects damaged (%d object kinds, %d damage kinds): "
                + "%d caught, %d repaired, %d read but untrusted, %d not read; %d wrong, %d bad errors%n", runs,
                objectsDamaged.size(), byObjectKind.size(), byDamage.size(), count(Outcome.CAUGHT),
                count(Outcome.REPAIRED), count(Outcome.READ_UNTRUSTED), count(Outcome.UNREAD), count(Outcome.WRONG),
                count(Outcome.BAD_ERROR)));
        section(text, "object kind", byObjectKind);
        section(text, "damage", byDamage);
        section(text, "backend / layout", byBackendAndLayout);
        return text.toString();
    }

    private static void section(StringBuilder text, String name, Map<String, EnumMap<Outcome, Integer>> rows) {
        text.append(String.format(Locale.ROOT, "%n%-22s %6s", name, "runs"));
        for (Outcome outcome : Outcome.values()) {
            text.append(String.format(Locale.ROOT, " %15s", outcome.label));
        }
        text.append('\n');
        rows.forEach((row, counts) -> {
            text.append(String.format(Locale.ROOT, "%-22s %6d", row,
                    counts.values().stream().mapToInt(Integer::intValue).sum()));
            for (Outcome outcome : Outcome.values()) {
                text.append(String.format(Locale.ROOT, " %15d", counts.getOrDefault(outcome, 0)));
            }
            text.append('\n');
        });
    }

    private static void add(Map<String, EnumMap<Outcome, Integer>> rows, String row, Outcome outcome) {
        rows.computeIfAbsent(row, r -> new EnumMap<>(Outcome.class)).merge(outcome, 1, Integer::sum);
    }
}
