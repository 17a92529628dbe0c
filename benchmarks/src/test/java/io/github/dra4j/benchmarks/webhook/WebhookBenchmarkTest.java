package io.github.dra4j.benchmarks.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The benchmark's core for a moment: every answer checked, figures present. */
class WebhookBenchmarkTest {

  @Test
  void twoConnectionsPostAllowedReviewsForHalfASecond(@TempDir Path directory) throws Exception {
    WebhookBenchmark.Result result = WebhookBenchmark.run(directory, 2, Duration.ZERO,
        Duration.ofMillis(500));

    assertThat(result.connections()).isEqualTo(2);
    assertThat(result.reviews()).isPositive();
    assertThat(result.latenciesMs()).hasSize((int) result.reviews());
    assertThat(result.percentile(99)).isGreaterThanOrEqualTo(result.percentile(50)).isPositive();
    assertThat(result.percentile(100)).isGreaterThanOrEqualTo(result.percentile(99.9));
    assertThat(WebhookBenchmark.format(result)).startsWith("2 connection(s): ")
        .contains("reviews/s", "p50", "p99", "p99.9", "max", "target: >= 5,000/s");
  }
}
