package io.github.dra4j.core.name;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The UID rule at its boundaries; the other rules are covered by their users' tests. */
class NameRulesTest {

  @ParameterizedTest
  @ValueSource(strings = {"a", "0", "Z9", "a-b", "a--b",
      "3f2a0c4e-1b7d-4c55-9a1e-2d6f8b9c0a11", "3F2A0C4E-1B7D-4C55-9A1E-2D6F8B9C0A11"})
  void uidAcceptsUuidsAndLettersDigitsInnerHyphens(String uid) {
    assertThat(NameRules.uid(uid)).isEmpty();
  }

  @Test
  void uidAcceptsExactlySixtyFourCharacters() {
    assertThat(NameRules.uid("a".repeat(64))).isEmpty();
    assertThat(NameRules.uid("a".repeat(65)))
        .contains("Too long: \"" + "a".repeat(65) + "\": may not be more than 64 characters");
  }

  @Test
  void uidIsRequired() {
    assertThat(NameRules.uid(null)).contains("Required value");
    assertThat(NameRules.uid("")).contains("Required value");
  }

  @ParameterizedTest
  @ValueSource(strings = {"-a", "a-", "-", "../../etc", "a/b", "a.b", "a b", "a_b", "a\nb",
      "\u00e4", "a\u0000"})
  void uidRejectsPathsPunctuationAndOuterHyphens(String uid) {
    assertThat(NameRules.uid(uid)).contains("Invalid value: \"" + uid + "\": a UID must consist"
        + " of letters, digits or '-', and must start and end with a letter or digit");
  }
}
