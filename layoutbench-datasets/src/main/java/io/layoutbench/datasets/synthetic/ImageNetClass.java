package io.layoutbench.datasets.synthetic;

import static java.util.Objects.requireNonNull;

/**
 * One of the 1,000 ImageNet-1K classes.
 *
 * <pre>{@code
 * ImageNetClass cello = ImageNetClasses.all().get(486);
 * assert cello.wnid().equals("n02992211") && cello.label().equals("cello");
 * }</pre>
 *
 * @param index class index, 0-999, in wnid order (the order of ImageNet's train folders)
 * @param wnid  WordNet id, {@code n} and eight digits: the train folder's name and the file name prefix
 * @param label human-readable label with underscores, as the LayoutBench queries spell it ({@code tiger_cat});
 *              not unique: {@code crane} and {@code maillot} name two classes each
 */
public record ImageNetClass(int index, String wnid, String label) {

    public ImageNetClass {
        requireNonNull(wnid, "wnid is null");
        requireNonNull(label, "label is null");
        if (index < 0) {
            throw new IllegalArgumentException("Class index is negative: " + index);
        }
    }
}
