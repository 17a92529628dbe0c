package io.github.dra4j.benchmarks.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The benchmark's core for a moment: every scrape checked, figures present. */
class ScrapeBenchmarkTest {

  @Test
  void aFewScrapesOfBothFormatsAreTimedAndTheJvmMetersAddSamples(@TempDir Path root)
      throws Exception {
    ScrapeBenchmark.Result text = ScrapeBenchmark.run(root, false, false, 2, 20);
    ScrapeBenchmark.Result withJvm = ScrapeBenchmark.run(root, true, true, 2, 20);

    assertThat(text.latenciesMs()).hasSize(20);
    assertThat(text.percentile(99)).isGreaterThanOrEqualTo(text.percentile(50)).isPositive();
    assertThat(text.samples()).isPositive();
    assertThat(withJvm.samples()).isGreaterThan(text.samples());
    assertThat(withJvm.bytes()).isGreaterThan(text.bytes());
    assertThat(text.format()).startsWith("text format, JVM meters off");
    assertThat(withJvm.format()).startsWith("OpenMetrics, JVM meters on");
  }
}
