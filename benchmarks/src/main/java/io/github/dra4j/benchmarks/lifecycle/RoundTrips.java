package io.github.dra4j.benchmarks.lifecycle;

import io.github.dra4j.benchmarks.lifecycle.LifecycleBenchmark.CaseResult;
import io.github.dra4j.benchmarks.lifecycle.LifecycleBenchmark.Latency;
import io.github.dra4j.benchmarks.lifecycle.LifecycleBenchmark.Location;
import io.github.dra4j.kubelet.wire.dra.v1.Claim;
import io.github.dra4j.kubelet.wire.dra.v1.DRAPluginGrpc;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesRequest;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesResponse;
import io.github.dra4j.kubelet.wire.dra.v1.NodeUnprepareResourcesRequest;
import io.github.dra4j.kubelet.wire.dra.v1.NodeUnprepareResourcesResponse;
import io.github.dra4j.testing.kubelet.KubeletClient;
import io.micrometer.core.instrument.FunctionCounter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
/**
 * Makes the round trips of one case of {@link LifecycleBenchmark} and keeps their times and
 * counts. Used by one thread.
 */
final class RoundTrips {
  private final DRAPluginGrpc.DRAPluginBlockingStub stub;
  private final List<Claim> claims;
  private final Path cdi;
  private final FunctionCounter checkpointWrites;
  private final NodePrepareResourcesRequest prepare;
  private final NodeUnprepareResourcesRequest unprepare;
  private long[] prepareNanos = new long[0];
  private long[] unprepareNanos = new long[0];
  private long writesByPrepare;
  private long writesByUnprepare;
  private long specWritesByPrepare;
  private long specWritesByUnprepare;
  private long specRemovals;

  RoundTrips(DRAPluginGrpc.DRAPluginBlockingStub stub, List<Claim> claims, Path cdi,
      FunctionCounter checkpointWrites) {
    this.stub = stub;
    this.claims = claims;
    this.cdi = cdi;
    this.checkpointWrites = checkpointWrites;
    this.prepare = NodePrepareResourcesRequest.newBuilder().addAllClaims(claims).build();
    this.unprepare = NodeUnprepareResourcesRequest.newBuilder().addAllClaims(claims).build();
  }

  void reset(int rounds) {
    prepareNanos = new long[rounds];
    unprepareNanos = new long[rounds];
    writesByPrepare = 0;
    writesByUnprepare = 0;
    specWritesByPrepare = 0;
    specWritesByUnprepare = 0;
    specRemovals = 0;
  }

  /** Makes the round trips; times and counts only go where there is room (after reset). */
  void drive(int rounds) throws IOException {
    for (int i = 0; i < rounds; i++) {
      boolean measured = i < prepareNanos.length;
      Map<String, Object> specsBefore = measured ? specFiles(cdi) : Map.of();
      long writes0 = (long) checkpointWrites.count();
      long start = System.nanoTime();
      NodePrepareResourcesResponse prepared = call().nodePrepareResources(prepare);
      long middle = System.nanoTime();
      long writes1 = (long) checkpointWrites.count();
      Map<String, Object> specsPrepared = measured ? specFiles(cdi) : Map.of();
      long middle2 = System.nanoTime();
      NodeUnprepareResourcesResponse unprepared = call().nodeUnprepareResources(unprepare);
      long end = System.nanoTime();
      long writes2 = (long) checkpointWrites.count();
      check(prepared, unprepared);
      if (measured) {
        Map<String, Object> specsAfter = specFiles(cdi);
        prepareNanos[i] = middle - start;
        unprepareNanos[i] = end - middle2;
        writesByPrepare += writes1 - writes0;
        writesByUnprepare += writes2 - writes1;
        specWritesByPrepare += written(specsBefore, specsPrepared);
        specWritesByUnprepare += written(specsPrepared, specsAfter);
        specRemovals += specsPrepared.keySet().stream()
            .filter(name -> !specsAfter.containsKey(name)).count();
      }
    }
  }

  private DRAPluginGrpc.DRAPluginBlockingStub call() {
    return stub.withDeadlineAfter(KubeletClient.NODE_CALL_TIMEOUT.toNanos(),
        TimeUnit.NANOSECONDS);
  }

  private void check(NodePrepareResourcesResponse prepared,
      NodeUnprepareResourcesResponse unprepared) {
    for (Claim claim : claims) {
      var answer = prepared.getClaimsOrThrow(claim.getUid());
      if (!answer.getError().isEmpty() || answer.getDevicesCount() != 1
          || answer.getDevices(0).getCdiDeviceIdsCount() != 1) {
        throw new IllegalStateException("prepare of " + claim.getName() + ": " + answer);
      }
      String error = unprepared.getClaimsOrThrow(claim.getUid()).getError();
      if (!error.isEmpty()) {
        throw new IllegalStateException("unprepare of " + claim.getName() + ": " + error);
      }
    }
  }

  CaseResult result(Location location, long claimGets) {
    int rounds = prepareNanos.length;
    long[] roundTrips = new long[rounds];
    long total = 0;
    for (int i = 0; i < rounds; i++) {
      roundTrips[i] = prepareNanos[i] + unprepareNanos[i];
      total += roundTrips[i];
    }
    return new CaseResult(location, claims.size(), rounds, Latency.of(prepareNanos),
        Latency.of(unprepareNanos), Latency.of(roundTrips), 2.0 * rounds / (total / 1e9),
        writesByPrepare, writesByUnprepare, specWritesByPrepare, specWritesByUnprepare,
        specRemovals, claimGets);
  }

  /** The CDI spec files in a directory (not the hidden temporary ones) and their inodes. */
  private static Map<String, Object> specFiles(Path cdi) throws IOException {
    Map<String, Object> files = new HashMap<>();
    try (Stream<Path> list = Files.list(cdi)) {
      for (Path file : (Iterable<Path>) list::iterator) {
        String name = file.getFileName().toString();
        if (name.startsWith(".") || !name.endsWith(".json")) {
          continue;
        }
        try {
          files.put(name, Files.readAttributes(file, BasicFileAttributes.class).fileKey());
        } catch (NoSuchFileException e) {
          // removed meanwhile
        }
      }
    }
    return files;
  }

  /** Files new or with another inode afterwards: each was written (temporary file, rename). */
  private static long written(Map<String, Object> before, Map<String, Object> after) {
    return after.entrySet().stream()
        .filter(e -> !Objects.equals(before.get(e.getKey()), e.getValue())).count();
  }
}
