package io.github.dra4j.cel;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The costs of the Kubernetes CEL libraries and of the sets extension, against the estimates
 * Kubernetes' library tests expect ({@code k8s.io/apiserver/pkg/cel/library/cost_test.go}), with
 * the size model those tests use: strings and bytes of up to 12.
 */
class KubernetesLibraryCostTest {

  private static final String INTS = "[1, 2, 3, 4, 5]";
  private static final String UINTS = "[uint(1), uint(2), uint(3), uint(4), uint(5)]";
  private static final String DOUBLES = "[1.0, 2.0, 3.0, 4.0, 5.0]";
  private static final String BOOLS = "[false, true, false, true, false]";
  private static final String STRINGS = "['012345678901', '012345678901', '012345678901', "
      + "'012345678901', '012345678901']";
  private static final String BYTES = "[bytes('012345678901'), bytes('012345678901'), "
      + "bytes('012345678901'), bytes('012345678901'), bytes('012345678901')]";
  private static final String DURATIONS = "[duration('1s'), duration('2s'), duration('3s'), duration('4s'), duration('5s')]";

  private static CostRange estimate(String expression) {
    return new CostEstimator(CostTestCompiler.check(expression),
        new KubernetesCallCosts(CostTestCompiler.KUBERNETES_TEST_SIZES),
        ExtensionCallCosts.INSTANCE, false).estimate();
  }

  private static String expand(String expression) {
    return expression.replace("UINTS", UINTS).replace("INTS", INTS)
        .replace("DOUBLES", DOUBLES).replace("BOOLS", BOOLS).replace("STRINGS", STRINGS)
        .replace("BYTES", BYTES).replace("DURATIONS", DURATIONS);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = ';', quoteCharacter = '`', textBlock = """
      INTS.sum()                 ; 15 ; 15
      UINTS.sum()                ; 20 ; 20
      DOUBLES.sum()              ; 15 ; 15
      DURATIONS.sum()            ; 20 ; 20
      INTS.isSorted()            ; 15 ; 15
      UINTS.max()                ; 20 ; 20
      DOUBLES.min()              ; 15 ; 15
      BOOLS.isSorted()           ; 15 ; 15
      STRINGS.isSorted()         ; 15 ; 25
      STRINGS.max()              ; 15 ; 25
      BYTES.min()                ; 25 ; 35
      DURATIONS.isSorted()       ; 20 ; 20
      INTS.indexOf(3)            ; 15 ; 15
      UINTS.lastIndexOf(uint(3)) ; 21 ; 21
      STRINGS.indexOf('x')       ; 15 ; 25
      BYTES.lastIndexOf(bytes('x')) ; 26 ; 36
      DURATIONS.indexOf(duration('3s')) ; 21 ; 21
      '01234567890123456789012345678901234567890123456789'.indexOf('123') ; 5 ; 5
      '01234567890123456789012345678901234567890123456789'.lastIndexOf('123') ; 5 ; 5
      """)
  void listsLibrary(String expression, long min, long max) {
    assertThat(estimate(expand(expression))).isEqualTo(new CostRange(min, max));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = ';', quoteCharacter = '`', textBlock = """
      url('https:://kubernetes.io/').getScheme()       ; 4 ; 4
      url('https:://kubernetes.io/').getHostname()     ; 4 ; 4
      url('https:://kubernetes.io/').getEscapedPath()  ; 4 ; 4
      url('https:://kubernetes.io/').getQuery()        ; 4 ; 4
      'ABCDEFGHIJ abcdefghij'.lowerAscii()             ; 3 ; 3
      'ABCDEFGHIJ abcdefghij'.lowerAscii() == 'abcdefghij ABCDEFGHIJ'.lowerAscii() ; 7 ; 9
      'ABCDEFGHIJ abcdefghij'.upperAscii() == 'abcdefghij ABCDEFGHIJ'.upperAscii() ; 7 ; 9
      strings.quote('ABCDEFGHIJ abcdefghij')           ; 3 ; 3
      strings.quote('ABCDEFGHIJ abcdefghij') == strings.quote('ABCDEFGHIJ abcdefghij') ; 7 ; 11
      'abc 123 def 123'.replace('123', '456')          ; 3 ; 3
      'abc 123 def 123'.replace('', 'x')               ; 3 ; 3
      'abc 123 def 123'.replace('123', '')             ; 3 ; 3
      'abc 123 def 123'.replace('123', '456', 1)       ; 3 ; 3
      'abc 123 def 123'.split(' ')                     ; 3 ; 3
      'abc 123 def 123'.split(' ', 1)                  ; 3 ; 3
      'abc 123 def 123'.substring(5)                   ; 2 ; 2
      'abc 123 def 123'.substring(5, 8)                ; 2 ; 2
      '  abc 123 def 123  '.trim()                     ; 2 ; 2
      ['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join(' ') ; 11 ; 23
      ['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join()    ; 10 ; 22
      'abc 123 def 123'.find('123')                    ; 2 ; 2
      'abc 123 def 123'.findAll('123')                 ; 2 ; 2
      'abc 123 def 123'.findAll('123', 1)              ; 2 ; 2
      """)
  void urlStringAndRegexLibraries(String expression, long min, long max) {
    assertThat(estimate(expression)).isEqualTo(new CostRange(min, max));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = ';', quoteCharacter = '`', textBlock = """
      quantity("12Mi")                                  ; 1 ; 1
      isQuantity("20")                                  ; 1 ; 1
      isQuantity("20M")                                 ; 1 ; 1
      quantity("50M").isLessThan(quantity("50Mi"))      ; 3 ; 3
      quantity("50Mi").isGreaterThan(quantity("50M"))   ; 3 ; 3
      quantity("200M").compareTo(quantity("0.2G")) > 0  ; 4 ; 4
      quantity("50k").add(20).sub(quantity("100k")).asInteger() > 0 ; 6 ; 6
      quantity("50k").add(20).sub(quantity("100k")).sub(-50000).asInteger() > 0 ; 7 ; 7
      quantity("50k").asInteger() > 0                   ; 3 ; 3
      quantity("50").isInteger()                        ; 2 ; 2
      quantity("50.703k").asApproximateFloat() > 0.0    ; 3 ; 3
      """)
  void quantityLibrary(String expression, long min, long max) {
    assertThat(estimate(expression)).isEqualTo(new CostRange(min, max));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = ';', quoteCharacter = '`', textBlock = """
      sets.contains([], [])                             ; 21
      sets.contains([1], [])                            ; 21
      sets.contains([1], [1])                           ; 22
      sets.contains([1], [1, 1])                        ; 23
      sets.contains([2, 1], [1])                        ; 23
      sets.contains([1, 2, 3, 4], [2, 3])               ; 29
      sets.contains([1], [1.0, 1])                      ; 23
      sets.contains([1, 2], [2u, 2.0])                  ; 25
      sets.contains([1, 2.0, 3u], [1.0, 2u, 3])         ; 30
      sets.contains([[1], [2, 3]], [[2, 3.0]])          ; 53
      !sets.contains([1], [2])                          ; 23
      !sets.contains([1], ["1", 1])                     ; 24
      sets.equivalent([], [])                           ; 21
      sets.equivalent([1], [1])                         ; 23
      sets.equivalent([1], [1, 1])                      ; 25
      sets.equivalent([1, 2, 3], [3u, 2.0, 1])          ; 39
      sets.equivalent([[1.0], [2, 3]], [[1], [2, 3.0]]) ; 69
      !sets.equivalent([1, 2], [2u, 2, 2.0])            ; 34
      sets.intersects([1], [1])                         ; 22
      sets.intersects([1, 2], [2u, 2, 2.0])             ; 27
      sets.intersects([[1], [2, 3]], [[1, 2], [2, 3.0]]) ; 65
      !sets.intersects([], [])                          ; 22
      !sets.intersects([1], [1.1, 2u])                  ; 24
      """)
  void setsExtension(String expression, long cost) {
    assertThat(estimate(expression)).isEqualTo(CostRange.fixed(cost));
  }
}
