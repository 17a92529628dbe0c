package io.github.dra4j.core.name;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
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

  /** The rules as regular expressions, which the character loops must agree with. */
  private static final Pattern LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  private static final Pattern SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  private static final Pattern UID = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?");

  @Test
  void theFastChecksAgreeWithTheRegularExpressionsOnEdgeCasesAndRandomStrings() {
    List<String> values = new ArrayList<>(List.of("", "a", "-", "a-", "-a", "a-b", "a--b", "A",
        "aB", "a.b", "a..b", ".a", "a.", "a.-b", "a-.b", "1", "12-34", "a/b",
        "a".repeat(63), "a".repeat(64), "a".repeat(65),
        "0b1f6a3e-7c2d-4e5f-9a8b-1c2d3e4f5a6b", "a." + "b".repeat(62) + ".c",
        ("a".repeat(63) + ".").repeat(4) + "a", ("a".repeat(63) + ".").repeat(3) + "a".repeat(61)));
    String alphabet = "az09AZ-./=_ \t:\u00e9";
    Random random = new Random(15);
    for (int n = 0; n < 100_000; n++) {
      int length = random.nextInt(n % 1000 == 0 ? 300 : 12);
      StringBuilder value = new StringBuilder(length);
      for (int i = 0; i < length; i++) {
        value.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      values.add(value.toString());
    }
    for (String value : values) {
      boolean label = value.length() <= NameRules.DNS_LABEL_MAX && LABEL.matcher(value).matches();
      boolean subdomain = !value.isEmpty() && value.length() <= NameRules.DNS_SUBDOMAIN_MAX
          && SUBDOMAIN.matcher(value).matches();
      boolean uid = value.length() <= NameRules.UID_MAX && UID.matcher(value).matches();
      assertThat(NameRules.isDnsLabel(value)).as("label %s", value).isEqualTo(label);
      assertThat(NameRules.dnsLabel(value).isEmpty()).as("label %s", value).isEqualTo(label);
      assertThat(NameRules.isDnsSubdomain(value, NameRules.DNS_SUBDOMAIN_MAX))
          .as("subdomain %s", value).isEqualTo(subdomain);
      assertThat(NameRules.dnsSubdomain(value, NameRules.DNS_SUBDOMAIN_MAX).isEmpty())
          .as("subdomain %s", value).isEqualTo(subdomain);
      assertThat(NameRules.isUid(value)).as("uid %s", value).isEqualTo(uid);
      assertThat(NameRules.uid(value).isEmpty()).as("uid %s", value).isEqualTo(uid);
    }
    assertThat(NameRules.isDnsLabel(null)).isFalse();
    assertThat(NameRules.isDnsSubdomain(null, 10)).isFalse();
    assertThat(NameRules.isUid(null)).isFalse();
  }
}
