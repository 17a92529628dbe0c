package io.github.dra4j.benchmarks.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.dra4j.benchmarks.lifecycle.LifecycleBenchmark.CaseResult;
import io.github.dra4j.benchmarks.lifecycle.LifecycleBenchmark.Location;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The benchmark's core with a few rounds: figures present, fsyncs counted as documented. */
class LifecycleBenchmarkTest {

  private static InMemoryApiServer server;

  @TempDir
  Path root;

  @BeforeAll
  static void startServer() {
    server = InMemoryApiServer.builder().build().start();
  }

  @AfterAll
  static void stopServer() {
    server.close();
  }

  @Test
  void oneClaimPerCallCostsSixFsyncsToPrepareAndFourToUnprepare() throws Exception {
    CaseResult result = LifecycleBenchmark.run(server, Location.of("temp", root), 1, 2, 5);

    assertThat(result.rounds()).isEqualTo(5);
    assertThat(result.prepare().p50()).isPositive();
    assertThat(result.unprepare().max()).isGreaterThanOrEqualTo(result.unprepare().p50());
    assertThat(result.roundTrip().p99()).isPositive();
    assertThat(result.callsPerSecond()).isPositive();
    // Two checkpoint writes and one CDI spec per prepare, two checkpoint writes per unprepare
    // (claims marked as being unprepared, then removed); each checkpoint write is a file and a
    // directory fsync, the specs are written without.
    assertThat(result.checkpointWritesByPrepare()).isEqualTo(10);
    assertThat(result.specWritesByPrepare()).isEqualTo(5);
    assertThat(result.checkpointWritesByUnprepare()).isEqualTo(10);
    assertThat(result.specWritesByUnprepare()).isZero();
    assertThat(result.specRemovalsByUnprepare()).isEqualTo(5);
    assertThat(result.fsyncsPerPrepare()).isEqualTo(4.0);
    assertThat(result.fsyncsPerUnprepare()).isEqualTo(4.0);
    assertThat(result.claimGets()).as("served from the claim cache").isZero();
    assertThat(LifecycleBenchmark.format(result))
        .contains("1 claim per call, 5 rounds", "prepare", "unprepare", "round trip", "p50",
            "p90", "p99", "max", "calls/s", "fsyncs per call, counted: prepare 4.00",
            "unprepare 4.00", "p50 per call < 3 ms");
    try (var left = Files.list(root)) {
      assertThat(left).as("the case's directory is removed").isEmpty();
    }
  }

  @Test
  void thirtyTwoClaimsPerCallWriteTheCheckpointTwiceAndOneUnsyncedSpecPerClaim() throws Exception {
    CaseResult result = LifecycleBenchmark.run(server, Location.of("temp", root), 32, 1, 2);

    assertThat(result.fsyncsPerPrepare()).as("whatever the number of claims").isEqualTo(4.0);
    assertThat(result.specWritesByPrepare()).isEqualTo(64);
    assertThat(result.fsyncsPerUnprepare()).isEqualTo(4.0);
    assertThat(result.specRemovalsByUnprepare()).isEqualTo(64);
    assertThat(LifecycleBenchmark.format(result)).contains("32 claims per call",
        "p50 per call < 10 ms");
  }
}
