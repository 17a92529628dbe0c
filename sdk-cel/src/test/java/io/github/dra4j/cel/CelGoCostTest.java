package io.github.dra4j.cel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The estimator on the basic forms, against the ranges cel-go's checker tests expect ({@code
 * checker/cost_test.go}): variables are sized by path hints ({@code objects} stands for cel-go's
 * map of messages, whose field selection costs the same as a map key selection).
 */
class CelGoCostTest {

  private static CostRange estimate(String expression, String hints) {
    Map<String, Long> sizes = new HashMap<>();
    if (hints != null) {
      for (String hint : hints.split(",", -1)) {
        String[] pair = hint.trim().split("=", -1);
        sizes.put(pair[0], Long.parseLong(pair[1]));
      }
    }
    return new CostEstimator(CostTestCompiler.check(expression), CostTestCompiler.hints(sizes),
        CostTestCompiler.NO_OVERLOAD_COSTS, false).estimate();
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(delimiter = ';', quoteCharacter = '`', textBlock = """
      const                          ; "Hello World!"                      ;                 ; 0 ; 0
      identity                       ; ints                                ;                 ; 1 ; 1
      select: map                    ; strMap['key']                       ;                 ; 2 ; 2
      select: field                  ; strMap.single_int32                 ;                 ; 2 ; 2
      create list                    ; [1, 2, 3]                           ;                 ; 10 ; 10
      create map                     ; {"a": 1, "b": 2, "c": 3}            ;                 ; 30 ; 30
      all comprehension              ; ints.all(x, true)                   ; ints=100        ; 2 ; 302
      nested all comprehension       ; nested.all(x, x.all(y, true))       ; nested=50, nested.@items=10 ; 2 ; 1752
      all comprehension on literal   ; [1, 2, 3].all(x, true)              ;                 ; 20 ; 20
      variable cost function         ; text.matches('[0-9]')               ; text=500        ; 3 ; 103
      variable cost function with constant ; '123'.matches('[0-9]')        ;                 ; 2 ; 2
      or                             ; true || false                       ;                 ; 0 ; 0
      and                            ; true && false                       ;                 ; 0 ; 0
      lt                             ; 1 < 2                               ;                 ; 1 ; 1
      lte                            ; 1 <= 2                              ;                 ; 1 ; 1
      eq                             ; 1 == 2                              ;                 ; 1 ; 1
      gt                             ; 2 > 1                               ;                 ; 1 ; 1
      gte                            ; 2 >= 1                              ;                 ; 1 ; 1
      in                             ; 2 in [1, 2, 3]                      ;                 ; 13 ; 13
      plus                           ; 1 + 1                               ;                 ; 1 ; 1
      minus                          ; 1 - 1                               ;                 ; 1 ; 1
      divide                         ; 1 / 1                               ;                 ; 1 ; 1
      multiply                       ; 1 * 1                               ;                 ; 1 ; 1
      modulo                         ; 1 % 1                               ;                 ; 1 ; 1
      ternary                        ; true ? 1 : 2                        ;                 ; 0 ; 0
      string size                    ; size("123")                         ;                 ; 1 ; 1
      bytes to string conversion     ; string(data)                        ; data=500        ; 1 ; 51
      string to bytes conversion     ; bytes(text)                         ; text=500        ; 1 ; 51
      int to string conversion       ; string(1)                           ;                 ; 1 ; 1
      contains                       ; text.contains(arg1)                 ; text=500, arg1=500 ; 2 ; 2502
      matches                        ; text.matches('\\\\d+a\\\\d+b')          ; text=500        ; 3 ; 103
      startsWith                     ; text.startsWith(arg1)               ; arg1=500        ; 2 ; 52
      endsWith                       ; text.endsWith(arg1)                 ; arg1=500        ; 2 ; 52
      size receiver                  ; text.size()                         ;                 ; 2 ; 2
      size                           ; size(text)                          ;                 ; 2 ; 2
      ternary eval                   ; (x > 2 ? input1 : input2).all(y, true) ; input1=1, input2=1 ; 4 ; 7
      comprehension over map         ; objects.all(k, objects[k].single_int32 > 3) ; objects=10 ; 2 ; 82
      comprehension over nested map of maps ; nestedMap.all(k, nestedMap[k].all(x, true)) ; nestedMap=5, nestedMap.@values=10 ; 2 ; 187
      string size of map keys        ; nestedMap.all(k, k.contains(k))     ; nestedMap=5, nestedMap.@keys=10 ; 2 ; 32
      comprehension variable shadowing ; nestedMap.all(k, nestedMap[k].all(k, true) && k.contains(k)) ; nestedMap=2, nestedMap.@values=2, nestedMap.@keys=5 ; 2 ; 34
      list concat                    ; (list1 + list2).all(x, true)        ; list1=10, list2=10 ; 4 ; 64
      str concat                     ; "abcdefg".contains(str1 + str2)     ; str1=10, str2=10 ; 2 ; 6
      """)
  void celGoCheckerCosts(String name, String expression, String hints, long min, long max) {
    assertThat(estimate(expression, hints)).isEqualTo(new CostRange(min, max));
  }

  @Test
  void aMissingSizeIsUnknownAndSaturates() {
    CostRange cost = estimate("text.contains(arg1)", null);
    assertThat(cost.max()).isEqualTo(CostRange.UNSIGNED_MAX);
    assertThat(cost.maxOrLongMax()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void unsignedArithmeticSaturatesAndRoundsUpLikeGo() {
    assertThat(CostRange.UNKNOWN.multiplyByFactor(0.1).max()).isEqualTo(1844674407370955264L);
    assertThat(CostRange.fixed(CostRange.UNSIGNED_MAX).add(CostRange.fixed(1)).max())
        .isEqualTo(CostRange.UNSIGNED_MAX);
    assertThat(CostRange.fixed(1L << 40).multiply(CostRange.fixed(1L << 40)).max())
        .isEqualTo(CostRange.UNSIGNED_MAX);
    assertThat(CostRange.fixed(15).multiplyByFactor(0.1)).isEqualTo(CostRange.fixed(2));
    assertThat(CostRange.fixed(64).multiplyByFactor(0.2)).isEqualTo(CostRange.fixed(13));
    assertThat(Long.toUnsignedString(CostRange.fromDouble(0x1.8p63))).isEqualTo(
        "13835058055282163712");
    assertThat(CostRange.toDouble(-1L)).isEqualTo(0x1p64);
  }
}
