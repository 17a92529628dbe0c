package io.github.dra4j.resourceapi.internal.claim;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which references a claim's request names resolve. */
class RequestNamesTest {

  private static final RequestNames NAMES = RequestNames.of(Fixtures.devices("{requests:["
      + "{name:'gpu',exactly:{deviceClassName:'c'}},"
      + "{name:'nic',firstAvailable:[{name:'fast'},{name:'slow'}]}]}"));

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
      "gpu, true",
      "nic, true",
      "nic/fast, true",
      "nic/slow, true",
      "nic/other, false",
      "gpu/fast, false",
      "tpu, false",
      "nic/fast/x, false",
      "'', false",
      "gpu/, false",
      "/fast, false"})
  void has(String reference, boolean expected) {
    assertThat(NAMES.has(reference)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"gpu", "nic/slow"})
  void knownReferencesHaveNoErrors(String reference) {
    assertThat(NAMES.checkReference(reference,
        io.github.dra4j.resourceapi.internal.field.FieldPath.root("r"))).isEmpty();
  }
}
