package io.github.dra4j.kubeletplugin;

import static io.github.dra4j.kubeletplugin.testsupport.TestPlugins.DRIVER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.github.dra4j.core.metrics.MetricNames;
import io.github.dra4j.kubeletplugin.testsupport.RecordingDriver;
import io.github.dra4j.kubeletplugin.testsupport.TestPlugins;
import io.github.dra4j.testing.kubelet.KubeletClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The plugin's Prometheus endpoint: started and stopped with it, fed by its meters. */
@EnableKubernetesMockClient(crud = true)
class MetricsEndpointTest {

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  KubernetesClient client;
  @TempDir
  Path root;

  private static String scrape(int port, String path) throws Exception {
    HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(answer.statusCode()).isEqualTo(200);
    return answer.body();
  }

  @Test
  void theCallTimerIsScrapedFromTheEndpointWhileThePluginRuns() throws Exception {
    SimpleMeterRegistry own = new SimpleMeterRegistry();
    int port;
    try (KubeletPlugin plugin = TestPlugins.builder(new RecordingDriver(DRIVER), client, root)
        .meterRegistry(own)
        .metricsEndpoint(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
        .observability(o -> o.withMetricsPath("/custom-metrics"))
        .start();
        KubeletClient kubelet = KubeletClient.create()) {
      port = plugin.metricsPort().orElseThrow();
      String before = scrape(port, "/custom-metrics");

      kubelet.getInfo(plugin.registrationSocket());
      String after = scrape(port, "/custom-metrics");

      String series = "dra4j_grpc_operations_duration_seconds_count{driver_name=\"" + DRIVER
          + "\",grpc_status_code=\"OK\",method_name=\"/pluginregistration.Registration/GetInfo\"}";
      assertThat(before).doesNotContain(series);
      assertThat(after).contains(series + " 1");
      assertThat(after).doesNotContain("jvm_memory_used_bytes");
      // The registry given to the builder sees the same meters.
      assertThat(own.get(MetricNames.GRPC_OPERATIONS).timer().count()).isEqualTo(1);
    }
    assertThatThrownBy(() -> new Socket(InetAddress.getLoopbackAddress(), port).close())
        .as("the endpoint stops with the plugin").isInstanceOf(ConnectException.class);
  }

  @Test
  void jvmMetricsAreOptIn() throws Exception {
    try (KubeletPlugin plugin = TestPlugins.builder(new RecordingDriver(DRIVER), client, root)
        .metricsEndpoint(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
        .observability(o -> o.withJvmMetrics(true))
        .start()) {
      assertThat(scrape(plugin.metricsPort().orElseThrow(), "/metrics"))
          .contains("jvm_memory_used_bytes", "jvm_gc_", "process_cpu_usage");
    }
  }

  @Test
  void withoutTheOptionThereIsNoEndpoint() {
    try (KubeletPlugin plugin = TestPlugins.builder(new RecordingDriver(DRIVER), client, root)
        .start()) {
      assertThat(plugin.metricsPort()).isEmpty();
    }
    assertThatThrownBy(() -> KubeletPlugin.builder(new RecordingDriver(DRIVER))
        .observability(o -> o.withMetricsPath("metrics")))
        .hasMessage("metrics path must be an absolute path other than /, got \"metrics\"");
  }
}
