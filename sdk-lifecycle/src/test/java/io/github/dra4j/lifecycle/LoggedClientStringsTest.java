package io.github.dra4j.lifecycle;

import static io.github.dra4j.kubeletplugin.testsupport.TestPlugins.DRIVER;
import static io.github.dra4j.testing.kubelet.KubeletClient.claim;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesResponse;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.kubeletplugin.testsupport.ClaimFixtures;
import io.github.dra4j.kubeletplugin.testsupport.PluginTestBase;
import io.github.dra4j.kubeletplugin.testsupport.TestPlugins;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Strings from the kubelet and the API server reach the plugin's log lines escaped and
 * shortened: a newline in a claim name or a request name cannot start a log line of its own (a
 * forged one), and a long value cannot flood the log.
 */
class LoggedClientStringsTest extends PluginTestBase {

  private final ListAppender<ILoggingEvent> log = new ListAppender<>();
  private CountingGpuDriver driver;

  @BeforeEach
  void attach() throws Exception {
    log.start();
    ((Logger) LoggerFactory.getLogger("io.github.dra4j")).addAppender(log);
    Files.writeString(root.resolve("boot_id"), "boot-1\n");
    driver = new CountingGpuDriver(new CountingHardware(root.resolve("hardware.json")));
  }

  @AfterEach
  void detach() {
    ((Logger) LoggerFactory.getLogger("io.github.dra4j")).detachAppender(log);
  }

  private KubeletPlugin start() throws Exception {
    Path cdi = Files.createDirectories(root.resolve("cdi"));
    return TestPlugins.builder(ClaimLifecycle.builder(driver, CountingGpuDriver.State.class)
        .bootIdSource(root.resolve("boot_id")).cdiDirectory(cdi)
        .goneClaimCheckInterval(Duration.ZERO).build(), client, root).start();
  }

  /** Every log line as a log file would hold it: the message and the MDC. */
  private List<String> lines() {
    List<String> lines = new ArrayList<>();
    for (ILoggingEvent event : log.list) {
      lines.add(event.getFormattedMessage() + " " + event.getMDCPropertyMap());
    }
    return lines;
  }

  @Test
  void aClaimNameAndARequestNameWithANewlineAreLoggedEscaped() throws Exception {
    ResourceClaim forged = ClaimFixtures.allocated("default", "forged", DRIVER);
    forged.getStatus().getAllocation().getDevices().getResults().get(0)
        .setRequest("gpu\n12:00:00.000 ERROR forged line");
    forged = ClaimFixtures.store(client, forged);
    String long1 = "x".repeat(10_000);
    try (KubeletPlugin plugin = start()) {
      NodePrepareResourcesResponse response = kubelet.prepare(plugin.draSocket(),
          claim("default", "evil\n12:00:00.000 ERROR forged line", "uid-1"),
          claim("default", long1, "uid-2"),
          claim("default", "forged", forged.getMetadata().getUid()));

      assertThat(response.getClaimsOrThrow("uid-1").getError()).isNotEmpty();
      assertThat(response.getClaimsOrThrow(forged.getMetadata().getUid()).getError())
          .isNotEmpty();
    }

    assertThat(lines()).isNotEmpty().allSatisfy(line -> assertThat(line)
        .doesNotContain("\n").doesNotContain("\r").hasSizeLessThan(5_000));
    assertThat(lines()).anySatisfy(line -> assertThat(line)
        .contains("evil\\x0a12:00:00.000 ERROR forged line"));
    assertThat(lines()).anySatisfy(line -> assertThat(line)
        .contains("gpu\\x0a12:00:00.000 ERROR forged line"));
  }
}
