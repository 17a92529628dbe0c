package io.github.dra4j.testing.readme;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.github.dra4j.resourceapi.InvalidResourceException;
import io.github.dra4j.resourceapi.ResourceApiRules;
import org.junit.jupiter.api.Test;

// README:begin deviceclass
class ExampleDeviceClassTest {
  static final DeviceClass GPU = new DeviceClassBuilder()
      .withNewMetadata().withName("gpu.example.com").endMetadata()
      .withNewSpec().addNewSelector().withNewCel()
      .withExpression("device.driver == 'gpu.example.com'").endCel().endSelector().endSpec()
      .build();

  @Test
  void aClusterAcceptsTheDeviceClass() {
    ResourceApiRules.kubernetes136().requireValid(GPU); // else throws with the server's message
  }
  // README:end

  @Test
  void aSelectorThatDoesNotCompileIsRefusedWithTheServersMessage() {
    DeviceClass typo = new DeviceClassBuilder(GPU).editSpec().editFirstSelector().editCel()
        .withExpression("device.driver = 'gpu.example.com'").endCel().endSelector().endSpec()
        .build();
    assertThatThrownBy(() -> ResourceApiRules.kubernetes136().requireValid(typo))
        .isInstanceOf(InvalidResourceException.class)
        .hasMessageStartingWith("DeviceClass.resource.k8s.io \"gpu.example.com\" is invalid:"
            + " spec.selectors[0].cel.expression: Invalid value: \"device.driver ="
            + " 'gpu.example.com'\": compilation failed: ERROR: <input>:1:");
  }
}
