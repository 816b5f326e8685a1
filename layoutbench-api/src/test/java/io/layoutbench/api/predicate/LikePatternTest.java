package io.layoutbench.api.predicate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LikePatternTest {

    @ParameterizedTest(name = "''{1}'' LIKE ''{0}'' is {2}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "%snake    | king_snake  | true",
            "%snake    | snake       | true",
            "%snake    | snakes      | false",
            "abc%      | abc         | true",
            "abc%      | abd         | false",
            "%ab%      | xaby        | true",
            "%         | \"\"        | true",
            "\"\"      | \"\"        | true",
            "\"\"      | a           | false",
            "_         | a           | true",
            "_         | ab          | false",
            "a_c       | abc         | true",
            "a%c%e     | abcde       | true",
            "a%c%e     | abcdf       | false",
            "%a%a%a    | aaa         | true",
            "%a%a%a    | aa          | false",
            "a%%b      | ab          | true",
            "%_%       | \"\"        | false",
            "%b_       | abxbc       | true",
            "%        | %            | true",
            "100%      | 100%        | true",
            "50_       | 50%         | true"})
    void matchesLikeSql(String pattern, String value, boolean expected) {
        assertThat(LikePattern.compile(pattern).matches(value)).isEqualTo(expected);
    }
}
