package ${package}.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The demo the README's first command runs tells its story to the end. */
class DemoTest {

  @Test
  void theDemoRunsToItsEnd() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int status = new Demo(new PrintStream(bytes, true, StandardCharsets.UTF_8)).run();
    String output = bytes.toString(StandardCharsets.UTF_8);

    assertThat(status).as(output).isZero();
    assertThat(output).contains("published 4 simulated devices", "_PROFILE=Performance",
            "_POWER_LIMIT_WATTS=300", "the admission webhook refuses it",
            "must be at most 150 watts with profile PowerSaving, got 300",
            "CDI specs left: none; settings left on the devices: {}", "Done.")
        .doesNotContain("Demo failed");
  }
}
