package io.github.dra4j.cel;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Selector costs no Kubernetes test states, worked out by hand from the Go estimators (cel-go's
 * checker, the lists and sets extensions, Kubernetes' library estimator and the DRA sizes), for
 * the forms Kubernetes' and cel-go's tests leave out: presence tests, two-variable
 * comprehensions, {@code filter}, {@code map}, the lists extension and equality of Kubernetes
 * types.
 */
class SelectorCostDerivedTest {

  private static final String D = "device.attributes[\"dra.example.com\"]";
  private static final String C = "device.capacity[\"dra.example.com\"]";

  @ParameterizedTest(name = "{1}")
  @CsvSource(delimiter = ';', quoteCharacter = '`', textBlock = """
      3   ; has(D.model)
      164 ; D.all(k, v, v == "x")
      496 ; D.filter(k, k.startsWith("a")).size() > 0
      50  ; [3, 1, 2].sort() == [1, 2, 3]
      18  ; lists.range(5).size() == 5
      31  ; [1, 2].distinct().size() == 2
      91  ; ["bb", "a"].sortBy(s, s.size()) == ["a", "bb"]
      3   ; quantity("1") == quantity("1")
      12  ; C.memory == quantity("1Gi") && C.memory.isLessThan(quantity("2Gi"))
      12  ; D.driverVersion == semver("1.0.0")
      """)
  void derivedCosts(long expected, String expression) throws Exception {
    String expanded = expression.replace("D", D).replace("C", C);
    assertThat(DeviceSelectorEnvironment.stored().compile(expanded).estimatedMaxCost())
        .as(expanded).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = ';', quoteCharacter = '`', textBlock = """
      C.memory != quantity("1Gi")
      ['a', 'b'].isSorted()
      device.attributes.all(d, device.attributes[d].all(a, device.attributes.all(e, device.attributes[e].all(b, device.attributes[d][a] == device.attributes[e][b]))))
      """)
  void formsKubernetesRejectsAsTooComplex(String expression) throws Exception {
    String expanded = expression.replace("D", D).replace("C", C);
    assertThat(DeviceSelectorEnvironment.stored().compile(expanded).exceedsCostLimit())
        .as(expanded).isTrue();
  }
}
