package io.github.dra4j.cel;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The estimated cost of DRA selectors, against the numbers Kubernetes' own tests expect from
 * {@code dracel.CompileCELExpression(...).MaxCost} (k8s.io/dynamic-resource-allocation/cel
 * compile_test.go, and the "too complex" selector of the resource.k8s.io validation tests).
 */
class SelectorCostTest {

  private static final String D = "device.attributes[\"dra.example.com\"]";
  private static final String C = "device.capacity[\"dra.example.com\"]";

  /** The attribute size Kubernetes declares: max(value length 64, list length 48). */
  private static final long ATTRIBUTE = 64;

  private static long cost(DeviceSelectorEnvironment environment, String expression)
      throws SelectorCompileException {
    return environment.compile(expression).estimatedMaxCost();
  }

  private static long cost(String expression) throws SelectorCompileException {
    return cost(DeviceSelectorEnvironment.stored(), expression);
  }

  private static DeviceSelectorEnvironment server136(boolean listTypeAttributes) {
    return DeviceSelectorEnvironment.newExpressions(
        NewExpressionOptions.builder(KubernetesVersion.of(1, 36))
            .listTypeAttributes(listTypeAttributes).build());
  }

  @ParameterizedTest(name = "{0}: {2}")
  @CsvSource(delimiter = ';', quoteCharacter = '\'', textBlock = """
      runtime-error-lookup-identifier ; 6  ; D.noSuchAttr.isGreaterThan(quantity("0"))
      runtime-error-lookup-map        ; 6  ; D["noSuchAttr"].isGreaterThan(quantity("0"))
      domain-check-negative           ; 3  ; "no-such-domain" in device.attributes
      domain-check-positive           ; 3  ; "dra.example.com" in device.attributes
      empty-driver-name               ; 2  ; device.driver == ""
      real-driver-name                ; 4  ; device.driver == "dra.example.com"
      driver-name-qualifier           ; 4  ; D.name
      driver-name-qualifier-map-lookup ; 4 ; D["name"]
      bind                            ; 15 ; cel.bind(dra, D, dra.name)
      qualified-attribute-name        ; 4  ; device.attributes["other.example.com"].name
      int                             ; 5  ; D.name > 0
      string                          ; 5  ; D.name == "fish"
      list-result-type                ; 4  ; D.names
      list-of-string                  ; 6  ; D.names.size() == 2
      includes                        ; 52 ; D.name.includes("fish")
      includes-bool                   ; 52 ; D.name.includes(true)
      includes-int                    ; 52 ; D.name.includes(1)
      includes-very-long-list         ; 52 ; D.name.includes("value-48")
      includes-semver                 ; 53 ; D.name.includes(semver("1.0.0"))
      in-operator-on-list             ; 68 ; 1 in D.names
      version                         ; 6  ; D.name.isGreaterThan(semver("0.0.1"))
      version_v                       ; 7  ; D.name.isGreaterThan(semver("v0.0.1", true)) && isSemver("v1.0.0", true)
      quantity                        ; 6  ; C.name.isGreaterThan(quantity("1Ki"))
      check-positive                  ; 10 ; "name" in C && C.name.isGreaterThan(quantity("1Ki"))
      check-negative                  ; 11 ; !("name" in C) || C.name.isGreaterThan(quantity("1Ki"))
      many                            ; 12 ; D.a && D.b && D.c
      check_attribute_domains         ; 164 ; device.attributes.exists_one(x, x == "dra.example.com")
      check_attribute_ids             ; 133 ; D.exists_one(x, x == "services")
      split_attribute                 ; 19 ; D.services.split("example").size() >= 2
      regexp_attribute                ; 18 ; D.services.matches("[^a]?sym")
      check_capacity_domains          ; 164 ; device.capacity.exists_one(x, x == "dra.example.com")
      check_capacity_ids              ; 133 ; C.exists_one(x, x == "memory")
      allow_multiple_allocations      ; 3  ; device.allowMultipleAllocations == true
      allow_multiple_allocations_false ; 3 ; device.allowMultipleAllocations == false
      """)
  void kubernetesCompileTestCosts(String name, long expected, String expression)
      throws Exception {
    String expanded = expression.replace("D", D).replace("C", C);
    assertThat(cost(expanded)).as(expanded).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}: {2}")
  @CsvSource(delimiter = '|', quoteCharacter = '\'', textBlock = """
      macro-exists-on-int     | 6 | D.name.exists(x, x > 0)
      macro-exists-on-bool    | 6 | D.name.exists(x, x == true)
      macro-exists-on-string  | 6 | D.name.exists(x, x == "fish")
      macro-on-list-of-int    | 6 | D.names.exists(x, x > 0)
      macro-on-list-of-string | 4 | D.names.all(x, x != "")
      macro-on-list-of-semver | 6 | D.names.all(x, x.isGreaterThan(semver("0.0.1")))
      macro-exists-on-version | 7 | D.name.exists(x, x.isGreaterThan(semver("0.0.1")))
      """)
  void macrosOverAttributesCostTheirBodyTimesTheLargestAttribute(
      String name, long perElement, String expression) throws Exception {
    // 5 = the attribute lookup (4) and the result; each iteration: loop condition plus step
    String expanded = expression.replace("D", D);
    assertThat(cost(expanded)).as(expanded).isEqualTo(5 + perElement * ATTRIBUTE);
  }

  @Test
  void theAllExpressionOfKubernetesCostsTheSumOfItsTerms() throws Exception {
    String expression = String.join(" &&\n",
        C + ".quantity.isGreaterThan(quantity(\"1Ki\"))",
        D + ".bool",
        D + ".int > 0",
        D + ".string == \"fish\"",
        D + ".version.isGreaterThan(semver(\"0.0.1\"))",
        C + "[\"quantity\"].isGreaterThan(quantity(\"1Ki\"))",
        D + "[\"bool\"]",
        D + "[\"int\"] > 0",
        D + "[\"string\"] == \"fish\"",
        D + "[\"version\"].isGreaterThan(semver(\"0.0.1\"))");
    assertThat(cost(expression)).isEqualTo(52);
  }

  /** Seven nested all() over ten elements: Kubernetes' "expensive" and "CEL-cost" selector. */
  private static final String EXPENSIVE = "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(x, "
      + "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(y, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z, "
      + "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z2, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z3, "
      + "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z4, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z5, "
      + "int('1'.find('[0-9]*')) < 100)))))))";

  @Test
  void theExpensiveSelectorExceedsTheLimit() throws Exception {
    CompiledSelector selector = DeviceSelectorEnvironment.stored().compile(EXPENSIVE);
    assertThat(selector.estimatedMaxCost()).isEqualTo(85_555_551L);
    assertThat(selector.exceedsCostLimit()).isTrue();
  }

  @Test
  void theLongestAcceptedDriverComparisonIsCheap() throws Exception {
    // validation_resourceclaim_test "CEL-length": the longest valid expression is accepted
    String expression = "device.driver == \"\"";
    String longest = expression.replace("\"\"",
        "\"" + "x".repeat(10 * 1024 - expression.length()) + "\"");
    CompiledSelector selector = DeviceSelectorEnvironment.stored().compile(longest);
    assertThat(selector.estimatedMaxCost()).isEqualTo(9);
    assertThat(selector.exceedsCostLimit()).isFalse();
  }

  @Test
  void newExpressionsCostTheSameWhateverTheListTypeAttributesGate() throws Exception {
    for (boolean gate : new boolean[] {false, true}) {
      DeviceSelectorEnvironment server = server136(gate);
      assertThat(cost(server, D + ".name == \"fish\"")).isEqualTo(5);
      assertThat(cost(server, "1 in " + D + ".names")).isEqualTo(68);
      assertThat(cost(server, "device.allowMultipleAllocations == false")).isEqualTo(3);
      assertThat(cost(server, EXPENSIVE)).isEqualTo(85_555_551L);
    }
    assertThat(cost(server136(true), D + ".attr.includes(\"fish\")")).isEqualTo(52);
  }

  @Test
  void theEstimateIsComputedOnceAndKept() throws Exception {
    CompiledSelector selector = DeviceSelectorEnvironment.create().compile("true");
    assertThat(selector.estimatedMaxCost()).isZero();
    assertThat(selector.estimatedMaxCost()).isZero();
    assertThat(selector.exceedsCostLimit()).isFalse();
  }
}
