package io.layoutbench.layouts.webdataset;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.PayloadFields;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.dataset.SampleNames;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How a shard's members become samples.
 *
 * <p>{@link #WEBDATASET}: WebDataset's rule. A member's key is its path up to the first {@code .} of its base name,
 * its field the rest, lower-cased as WebDataset does ({@code a/b/0001.seg.PNG} has key {@code a/b/0001} and field
 * {@code seg.png}); consecutive members with the same key form one sample. Stricter than WebDataset, which would
 * yield two samples or skip a member: a key that comes back after another key, a field twice in one sample, a base
 * name with no {@code .} or starting with one, and a field that breaks {@link PayloadFields#check} are errors naming
 * the shard, the member and its header offset.
 *
 * <p>{@link #PLAIN_TAR}: every member is a sample of one field, {@link Sample#DATA}, keyed by its full path; a path
 * that appears twice is an error.
 *
 * <pre>{@code
 * List<ShardSample> samples = SampleGrouping.WEBDATASET.samples(indexer.index("train/shard-000000.tar"));
 * }</pre>
 */
public enum SampleGrouping {

    WEBDATASET {
        @Override
        public List<ShardSample> samples(TarIndex index) {
            List<ShardSample> samples = new ArrayList<>();
            Map<String, TarMember> firstMemberOfKey = new HashMap<>();
            String key = null;
            Map<String, FieldLocation> fields = new LinkedHashMap<>();
            Map<String, TarMember> fieldMembers = new HashMap<>();
            for (TarMember member : index.members()) {
                String name = key(member);
                int slash = name.lastIndexOf('/');
                int dot = name.indexOf('.', slash + 1);
                if (dot <= slash + 1) {
                    throw new ShardFormatException(index.shardKey(), name, member.headerOffset(), dot < 0
                            ? "the base name has no '.', so no WebDataset field (SampleGrouping.PLAIN_TAR reads "
                            + "plain tars)"
                            : "the base name starts with '.', so it has no WebDataset key");
                }
                String memberKey = name.substring(0, dot);
                checkName(index, member, memberKey);
                String field = name.substring(dot + 1).toLowerCase(Locale.ROOT);
                try {
                    PayloadFields.check(field);
                } catch (IllegalArgumentException e) {
                    throw new ShardFormatException(index.shardKey(), name, member.headerOffset(), e.getMessage(), e);
                }
                if (!memberKey.equals(key)) {
                    TarMember earlier = firstMemberOfKey.putIfAbsent(memberKey, member);
                    if (earlier != null) {
                        throw new ShardFormatException(index.shardKey(), name, member.headerOffset(), "key '"
                                + memberKey + "' comes back after other keys (first as member '" + earlier.name()
                                + "' at offset " + earlier.headerOffset()
                                + "): a WebDataset sample's members must be consecutive");
                    }
                    if (key != null) {
                        samples.add(new ShardSample(key, fields));
                    }
                    key = memberKey;
                    fields = new LinkedHashMap<>();
                    fieldMembers.clear();
                }
                TarMember earlier = fieldMembers.putIfAbsent(field, member);
                if (earlier != null) {
                    throw new ShardFormatException(index.shardKey(), name, member.headerOffset(), "field '" + field
                            + "' appears twice in sample '" + key + "' (first as member '" + earlier.name()
                            + "' at offset " + earlier.headerOffset() + ")");
                }
                fields.put(field, location(index, member));
            }
            if (key != null) {
                samples.add(new ShardSample(key, fields));
            }
            return List.copyOf(samples);
        }
    },

    PLAIN_TAR {
        @Override
        public List<ShardSample> samples(TarIndex index) {
            List<ShardSample> samples = new ArrayList<>(index.members().size());
            Map<String, TarMember> byName = new HashMap<>();
            for (TarMember member : index.members()) {
                String name = key(member);
                TarMember earlier = byName.putIfAbsent(name, member);
                if (earlier != null) {
                    throw new ShardFormatException(index.shardKey(), member.name(), member.headerOffset(),
                            "the path appears twice in the shard (first at offset " + earlier.headerOffset() + ")");
                }
                checkName(index, member, name);
                samples.add(new ShardSample(name, Map.of(Sample.DATA, location(index, member))));
            }
            return List.copyOf(samples);
        }
    };

    /**
     * A member's path as samples are named by it: without the leading {@code ./} that {@code tar -C dir .} writes
     * (WebDataset drops it too).
     */
    static String key(TarMember member) {
        String name = member.name();
        while (name.startsWith("./")) {
            name = name.substring(2);
        }
        return name;
    }

    /** Checks that a sample name taken from a member is one the layouts can store, naming shard and member. */
    static void checkName(TarIndex index, TarMember member, String name) {
        SampleNames.problem(name).ifPresent(problem -> {
            throw new ShardFormatException(index.shardKey(), member.name(), member.headerOffset(), "sample name '"
                    + name + "' " + problem);
        });
    }

    /**
     * The samples of {@code index}'s members, in archive order.
     *
     * @throws ShardFormatException naming the shard, the member and its header offset where the rule is broken
     */
    public abstract List<ShardSample> samples(TarIndex index);

    private static FieldLocation location(TarIndex index, TarMember member) {
        requireNonNull(member, "member is null");
        return new FieldLocation(index.shardKey(), member.name(), member.dataOffset(), member.size());
    }
}
