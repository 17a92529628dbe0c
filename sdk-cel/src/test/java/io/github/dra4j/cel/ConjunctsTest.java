package io.github.dra4j.cel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** How the CEL console splits a selector into the conditions it reports. */
class ConjunctsTest {

  @Test
  void conditionsAreOnlySplitAtTopLevelAnds() {
    assertThat(Conjuncts.split("a && (b && c) && \"x && y\" == d"))
        .containsExactly("a", "(b && c)", "\"x && y\" == d");
    assertThat(Conjuncts.split("a && b || c")).containsExactly("a && b || c");
    assertThat(Conjuncts.split("a ? b : c && d")).containsExactly("a ? b : c && d");
    assertThat(Conjuncts.split("[1, 2].all(x, x > 0 && x < 3)"))
        .containsExactly("[1, 2].all(x, x > 0 && x < 3)");
    assertThat(Conjuncts.split("r'&&\\' && b")).hasSize(2);
    assertThat(List.of(Conjuncts.split("single"))).hasSize(1);
  }
}
