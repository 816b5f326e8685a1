package io.layoutbench.datasets.synthetic.speech;

import io.layoutbench.datasets.synthetic.Hashing;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The words of the synthetic transcripts, upper case as in LibriSpeech: 118 of the most frequent English words,
 * then made-up English-like words of one to three syllables (onset, vowel, coda), 5,000 in all, drawn by Zipf's
 * law (rank r has weight 1 / (r + 3); the real words, ranked first, make about half of a transcript). The
 * vocabulary is fixed, not seeded.
 *
 * <p>No word contains {@link SyntheticSpeech#COMMON_WORD} or {@link SyntheticSpeech#RARE_WORD}: those two are placed
 * in chosen transcripts only, so that {@code LIKE '%SAID%'} counts exactly the transcripts they were placed in.
 */
final class Vocabulary {

    static final int SIZE = 5_000;

    /** Frequent English words, most frequent first (without "SAID", which is placed, not drawn). */
    private static final List<String> FREQUENT = List.of(
            "THE", "AND", "OF", "TO", "A", "IN", "HE", "I", "THAT", "WAS", "IT", "HIS", "YOU", "WITH", "HAD", "AS",
            "FOR", "HER", "SHE", "NOT", "BE", "AT", "ON", "BUT", "HIM", "BY", "ALL", "THEY", "SO", "MY", "WHICH",
            "IS", "THIS", "HAVE", "FROM", "ONE", "WERE", "THEM", "WE", "ME", "THERE", "NO", "WHAT", "AN", "OR",
            "WOULD", "WHEN", "IF", "WILL", "OUT", "UP", "ARE", "THEIR", "BEEN", "INTO", "COULD", "THEN", "DO", "NOW",
            "MORE", "SOME", "ABOUT", "LITTLE", "TIME", "VERY", "ONLY", "WHO", "MAN", "YOUR", "UPON", "THAN", "LIKE",
            "DID", "OVER", "SHOULD", "SUCH", "AGAIN", "DOWN", "OTHER", "GREAT", "ANY", "BEFORE", "WELL", "MADE",
            "KNOW", "CAME", "MUCH", "COME", "MIGHT", "GOOD", "AWAY", "AFTER", "SEE", "HOW", "MUST", "OLD", "NEVER",
            "THINK", "THESE", "WAY", "LONG", "HAND", "ITS", "MAY", "DAY", "EYES", "OWN", "THOUGH", "HOUSE", "NIGHT",
            "FACE", "HEAD", "LIFE", "WENT", "FIRST", "YET", "WHERE", "HERE");

    /** A word's first onset: any English cluster, or none. */
    private static final String[] ONSETS = {"", "", "B", "BR", "C", "CH", "CL", "D", "DR", "F", "FL", "FR", "G",
        "GR", "H", "J", "K", "L", "M", "N", "P", "PL", "PR", "R", "S", "SH", "SL", "SP", "ST", "T", "TH", "TR", "V",
        "W", "WH", "Y"};
    /** Onsets inside a word: single consonants, so syllables do not pile up clusters. */
    private static final String[] INNER_ONSETS = {"B", "D", "F", "G", "K", "L", "M", "N", "P", "R", "S", "T", "V",
        "W"};
    private static final String[] VOWELS = {"A", "A", "E", "E", "I", "I", "O", "O", "U", "EA", "OO", "AI", "OU",
        "EE"};
    private static final String[] INNER_CODAS = {"", "", "", "N", "R", "S", "L"};
    private static final String[] CODAS = {"", "", "N", "R", "S", "T", "L", "D", "M", "NG", "ND", "NT", "RD", "RN",
        "ST", "CK", "LL", "SS", "TH"};
    /** Longest made-up word: most English words in running text are short. */
    private static final int MAX_LENGTH = 10;
    private static final long WORDS_KEY = 0x70CA_B000_0000_0001L;

    private static final String[] WORDS = build();
    private static final double[] CUMULATIVE = zipf();

    private Vocabulary() {
    }

    /** The word at Zipf quantile {@code u} in [0, 1). */
    static String wordAt(double u) {
        int found = Arrays.binarySearch(CUMULATIVE, u);
        int index = found >= 0 ? found + 1 : -found - 1;
        return WORDS[Math.min(index, WORDS.length - 1)];
    }

    /** The word of rank {@code rank}, 0 the most frequent. */
    static String word(int rank) {
        return WORDS[rank];
    }

    /** "ONE" to "NINETY NINE", as LibriSpeech's transcripts spell numbers. */
    static String number(int n) {
        if (n < 1 || n > 99) {
            throw new IllegalArgumentException("Chapter numbers are 1 to 99: " + n);
        }
        String[] units = {"", "ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE", "TEN",
            "ELEVEN", "TWELVE", "THIRTEEN", "FOURTEEN", "FIFTEEN", "SIXTEEN", "SEVENTEEN", "EIGHTEEN", "NINETEEN"};
        String[] tens = {"", "", "TWENTY", "THIRTY", "FORTY", "FIFTY", "SIXTY", "SEVENTY", "EIGHTY", "NINETY"};
        if (n < 20) {
            return units[n];
        }
        return n % 10 == 0 ? tens[n / 10] : tens[n / 10] + " " + units[n % 10];
    }

    private static String[] build() {
        Set<String> words = new LinkedHashSet<>(FREQUENT);
        for (long i = 0; words.size() < SIZE; i++) {
            long h = Hashing.mix64(WORDS_KEY, i);
            double u = SpeechPlan.unit(h);
            int syllables = u < 0.45 ? 1 : u < 0.85 ? 2 : 3;
            StringBuilder word = new StringBuilder();
            for (int k = 0; k < syllables; k++) {
                long g = Hashing.mix64(h, k);
                word.append(pick(k == 0 ? ONSETS : INNER_ONSETS, g))
                        .append(pick(VOWELS, g >>> 16))
                        .append(pick(k == syllables - 1 ? CODAS : INNER_CODAS, g >>> 32));
            }
            String text = word.toString();
            if (text.length() >= 3 && text.length() <= MAX_LENGTH && !text.contains(SyntheticSpeech.COMMON_WORD)
                    && !text.contains(SyntheticSpeech.RARE_WORD)) {
                words.add(text);
            }
        }
        return words.toArray(new String[0]);
    }

    private static String pick(String[] options, long hash) {
        return options[(int) Math.floorMod(hash, (long) options.length)];
    }

    private static double[] zipf() {
        double[] cumulative = new double[WORDS.length];
        double sum = 0;
        for (int r = 0; r < WORDS.length; r++) {
            sum += 1.0 / (r + 3);
            cumulative[r] = sum;
        }
        for (int r = 0; r < WORDS.length; r++) {
            cumulative[r] /= sum;
        }
        return cumulative;
    }
}
