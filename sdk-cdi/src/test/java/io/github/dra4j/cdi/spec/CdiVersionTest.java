package io.github.dra4j.cdi.spec;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CdiVersionTest {

  @Test
  void parsesKnownVersionsWithOrWithoutOneLeadingV() {
    for (CdiVersion version : CdiVersion.values()) {
      assertThat(CdiVersion.parse(version.text())).contains(version);
      assertThat(CdiVersion.parse("v" + version.text())).contains(version);
    }
    assertThat(CdiVersion.parse("vv1.1.0")).isEmpty();
    assertThat(CdiVersion.parse("1.2.0")).isEmpty();
    assertThat(CdiVersion.parse("1.1")).isEmpty();
    assertThat(CdiVersion.parse("")).isEmpty();
    assertThat(CdiVersion.parse(null)).isEmpty();
  }

  @Test
  void ordersVersions() {
    assertThat(CdiVersion.V1_1_0.isAtLeast(CdiVersion.V0_3_0)).isTrue();
    assertThat(CdiVersion.V0_3_0.isAtLeast(CdiVersion.V0_4_0)).isFalse();
    assertThat(CdiVersion.V0_2_0.isAtLeast(CdiVersion.EARLIEST_ACCEPTED)).isFalse();
    assertThat(CdiVersion.LATEST).isEqualTo(CdiVersion.V1_1_0);
  }
}
