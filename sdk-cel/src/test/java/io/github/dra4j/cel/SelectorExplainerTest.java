package io.github.dra4j.cel;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.github.dra4j.cel.SelectorExplanation.Outcome;
import io.github.dra4j.cel.SelectorExplanation.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Per-device verdicts of the explainer, with both settings of the list-attribute gate. */
class SelectorExplainerTest {

  private static final String EXPRESSION = "device.driver == \"nic.example.com\""
      + " && device.attributes[\"nic.example.com\"].model == \"cx7\"";

  private static ResourceSlice slice() {
    return new ResourceSliceBuilder().withNewMetadata().withName("node-1-nics").endMetadata()
        .withNewSpec().withDriver("nic.example.com").withNewPool().withName("node-1").endPool()
        .addNewDevice().withName("nic-0")
        .addToAttributes("model", ExampleDevice.string("cx7")).endDevice()
        .addNewDevice().withName("nic-1")
        .addToAttributes("model", ExampleDevice.string("cx6")).endDevice()
        .addNewDevice().withName("nic-2")
        .addToAttributes("model", ExampleDevice.string("cx7"))
        .addToAttributes("ports", new DeviceAttributeBuilder().withInts(1L, 2L).build()).endDevice()
        .endSpec().build();
  }

  @Test
  void explainsEachDeviceWithTheFirstFalseCondition() {
    SelectorExplanation explanation = new SelectorExplainer(DeviceSelectorEnvironment.stored())
        .explain(EXPRESSION, List.of(slice()));
    assertThat(explanation.devices()).extracting(Verdict::outcome)
        .containsExactly(Outcome.MATCH, Outcome.NO_MATCH, Outcome.MATCH);
    assertThat(explanation.devices().get(1).why())
        .isEqualTo("false: device.attributes[\"nic.example.com\"].model == \"cx7\"");
  }

  @Test
  void withTheListGateOffADeviceWithAListAttributeIsAnError() {
    SelectorExplanation explanation = new SelectorExplainer(DeviceSelectorEnvironment.stored(),
        false)
        .explain(EXPRESSION, List.of(slice()));
    assertThat(explanation.devices()).extracting(Verdict::outcome)
        .containsExactly(Outcome.MATCH, Outcome.NO_MATCH, Outcome.ERROR);
    assertThat(explanation.devices().get(2).why())
        .isEqualTo("attribute ports: unsupported attribute value");
  }

  @Test
  void namesTheFalseConditionOfOneDevice() {
    SelectorExplainer explainer = new SelectorExplainer(DeviceSelectorEnvironment.stored());
    var devices = slice().getSpec().getDevices();
    SelectorDevice cx6 = SelectorDevice.of("nic.example.com", devices.get(1), true);
    SelectorDevice cx7 = SelectorDevice.of("nic.example.com", devices.get(0), true);
    assertThat(explainer.falseCondition(EXPRESSION, cx6))
        .contains("device.attributes[\"nic.example.com\"].model == \"cx7\"");
    assertThat(explainer.falseCondition(EXPRESSION, cx7)).isEmpty();
    assertThat(explainer.falseCondition("device.driver == \"x\" || true", cx6)).isEmpty();
    assertThat(explainer.falseCondition("device.driver == \"x\"", cx6)).isEmpty();
  }
}
