package io.github.dra4j.kubeletplugin.internal.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@link DeviceCheck#isCdiDeviceId}'s character loop accepts exactly what the rule's regular
 * expression accepts: on hand-picked edge cases and on random strings over the characters that
 * matter.
 */
class CdiDeviceIdTest {

  /** The rule as a regular expression: {@code vendor/class=name}, parts non-empty, no blanks. */
  private static final Pattern CDI_ID = Pattern.compile("[^/=\\s]+/[^/=\\s]+=[^=\\s]+");

  private static final String ALPHABET = "az09AZ-./=_ \t\u000b\n:é";

  @Test
  void edgeCasesAgreeWithTheFullRules() {
    List<String> values = new ArrayList<>(List.of("", "a", "-", "a-", "-a", "a-b", "a--b", "A",
        "aB", "a.b", "a..b", ".a", "a.", "a.-b", "a-.b", "1", "12-34", "a/b", "a/b/c", "/a",
        "a/", "v/c=n", "v/c=n/x", "v/c==n", "=v/c", "v=c/n", "/c=n", "v/=n", "v/c=",
        "v /c=n", "v/c=n\t", "vendor.com/gpu=gpu-0", "example.com/gpu=0b1f-gpu-0",
        "a".repeat(63), "a".repeat(64), "a".repeat(65), "a/" + "b".repeat(63),
        "a/" + "b".repeat(64), "a".repeat(64) + "/b",
        "0b1f6a3e-7c2d-4e5f-9a8b-1c2d3e4f5a6b", "a." + "b".repeat(62) + ".c",
        ("a".repeat(63) + ".").repeat(4) + "a", ("a".repeat(63) + ".").repeat(3) + "a".repeat(61)));
    values.forEach(CdiDeviceIdTest::assertAgrees);
  }

  @Test
  void randomStringsAgreeWithTheFullRules() {
    Random random = new Random(15);
    for (int n = 0; n < 200_000; n++) {
      int length = random.nextInt(n % 1000 == 0 ? 300 : 12);
      StringBuilder value = new StringBuilder(length);
      for (int i = 0; i < length; i++) {
        value.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
      }
      assertAgrees(value.toString());
    }
  }

  private static void assertAgrees(String value) {
    assertThat(DeviceCheck.isCdiDeviceId(value)).as("CDI ID %s", value)
        .isEqualTo(CDI_ID.matcher(value).matches());
  }
}
