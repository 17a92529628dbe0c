package io.github.dra4j.testing.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.dra4j.resourceapi.GeneratedNames;
import java.util.Random;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

class StoredObjectTransformerTest {

  private static final JsonMapper MAPPER = JsonMapper.builder().build();

  @Test
  void removesFieldInEveryArrayElement() {
    ObjectNode slice = (ObjectNode) MAPPER.readTree(
        "{\"spec\":{\"devices\":[{\"name\":\"a\",\"taints\":[{\"key\":\"k\"}]},{\"name\":\"b\"}],"
            + "\"driver\":\"d\"}}");
    ObjectNode result = StoredObjectTransformer.removeField("spec.devices[].taints")
        .transform(slice);
    assertThat(result.toString())
        .isEqualTo("{\"spec\":{\"devices\":[{\"name\":\"a\"},{\"name\":\"b\"}],\"driver\":\"d\"}}");
  }

  @Test
  void missingPathIsLeftAlone() {
    ObjectNode object = (ObjectNode) MAPPER.readTree("{\"spec\":{\"driver\":\"d\"}}");
    StoredObjectTransformer.removeField("spec.devices[].taints").transform(object);
    assertThat(object.toString()).isEqualTo("{\"spec\":{\"driver\":\"d\"}}");
  }

  @Test
  void emptySegmentsAreRejected() {
    assertThatThrownBy(() -> StoredObjectTransformer.removeField("spec..x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("spec..x");
  }

  @Test
  void generatedNamesUseTheApiServerAlphabetAndCutLongPrefixes() {
    GeneratedNames names = new GeneratedNames(new Random(7));
    String name = names.generate("00000-gpu.example.com-node-1-");
    assertThat(name).matches("00000-gpu\\.example\\.com-node-1-[bcdfghjklmnpqrstvwxz2456789]{5}");
    String longName = names.generate("x".repeat(70));
    assertThat(longName).hasSize(63).startsWith("x".repeat(58));
    assertThat(names.generate("p-")).isNotEqualTo(names.generate("p-"));
  }
}
