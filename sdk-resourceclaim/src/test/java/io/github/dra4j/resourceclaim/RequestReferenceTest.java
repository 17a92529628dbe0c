package io.github.dra4j.resourceclaim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RequestReferenceTest {

  @Test
  void parsesTopLevelAndSubRequestReferences() {
    RequestReference top = RequestReference.parse("gpu");
    assertThat(top.request()).isEqualTo("gpu");
    assertThat(top.subRequest()).isNull();
    assertThat(top.isSubRequest()).isFalse();
    assertThat(top).hasToString("gpu");

    RequestReference sub = RequestReference.parse("gpu/large");
    assertThat(sub).isEqualTo(RequestReference.of("gpu", "large"));
    assertThat(sub.isSubRequest()).isTrue();
    assertThat(sub).hasToString("gpu/large");
  }

  private static final String LABEL = "a lowercase RFC 1123 label must consist of lower case"
      + " alphanumeric characters or '-', and must start and end with an alphanumeric character"
      + " (e.g. 'my-name',  or '123-abc', regex used for validation is"
      + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

  @Test
  void badReferencesNameThePartAndTheValue() {
    assertThatThrownBy(() -> RequestReference.parse("a/b/c"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("request reference \"a/b/c\": has more than one '/'");
    assertThatThrownBy(() -> RequestReference.parse("GPU"))
        .hasMessageStartingWith("request reference \"GPU\": request name: Invalid value: \"GPU\"");
    // An empty name is refused as the server refuses it: the label format's Invalid value.
    assertThatThrownBy(() -> RequestReference.parse("gpu/"))
        .hasMessage("request reference \"gpu/\": subrequest name: Invalid value: \"\": " + LABEL);
    assertThatThrownBy(() -> RequestReference.parse(""))
        .hasMessage("request reference \"\": request name: Invalid value: \"\": " + LABEL);
    assertThatThrownBy(() -> RequestReference.parse("/x"))
        .hasMessage("request reference \"/x\": request name: Invalid value: \"\": " + LABEL);
    String long64 = "a".repeat(64);
    assertThatThrownBy(() -> RequestReference.of(long64))
        .hasMessage("request name: Invalid value: \"" + long64 + "\": must be no more than 63"
            + " characters");
  }

  @Test
  void aTopLevelReferenceCoversItsSubRequestsAndASubRequestOnlyItself() {
    RequestReference gpu = RequestReference.of("gpu");
    RequestReference large = RequestReference.of("gpu", "large");
    RequestReference small = RequestReference.of("gpu", "small");

    assertThat(gpu.covers(gpu)).isTrue();
    assertThat(gpu.covers(large)).isTrue();
    assertThat(large.covers(large)).isTrue();
    assertThat(large.covers(small)).isFalse();
    assertThat(large.covers(gpu)).isFalse();
    assertThat(gpu.covers(RequestReference.of("nic"))).isFalse();
  }

  @Test
  void baseRequestIsTheTextBeforeTheFirstSlash() {
    assertThat(RequestReference.baseRequest("gpu/large")).isEqualTo("gpu");
    assertThat(RequestReference.baseRequest("gpu")).isEqualTo("gpu");
  }
}
