package io.github.dra4j.benchmarks.cdi;

import io.github.dra4j.cdi.name.Kind;
import io.github.dra4j.cdi.spec.CdiSpec;
import io.github.dra4j.cdi.spec.DeviceNode;
import io.github.dra4j.cdi.spec.DeviceNodeType;
import io.github.dra4j.cdi.store.SpecDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * Writes and removes 10,000 per-claim CDI specs with 4 devices each, the way a DRA driver does in
 * NodePrepareResources / NodeUnprepareResources, and prints p50/p99 per write and per remove.
 * Target: p50 write under 1 ms.
 *
 * <p>Arguments (optional): the parent directory for the temporary spec directory (default: the
 * JVM's temp directory; {@code /var/run/cdi} is usually tmpfs, so {@code /dev/shm} is the
 * closest match), then the number of specs.
 */
public final class SpecWriteBenchmark {
  private static final Kind KIND = Kind.of("k8s.gpu.example.com", "gpu");
  private static final int WARM_UP = 2_000;

  private SpecWriteBenchmark() {}

  /**
   * Runs the benchmark.
   *
   * @param args optional parent directory and spec count
   * @throws IOException if the temporary directory cannot be used
   */
  public static void main(String[] args) throws IOException {
    Path parent = Path.of(args.length > 0 ? args[0] : System.getProperty("java.io.tmpdir"));
    int count = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
    Path dir = Files.createTempDirectory(parent, "cdi-bench-");
    try {
      SpecDirectory specs = SpecDirectory.at(dir.resolve("cdi"));
      run(specs, WARM_UP);
      long[][] timings = run(specs, count);
      System.out.printf(Locale.ROOT, "CDI spec write/remove: %d per-claim specs, 4 devices each,"
          + " dir %s (%s)%n", count, dir, Files.getFileStore(dir).type());
      print("write ", timings[0]);
      print("remove", timings[1]);
      System.out.printf(Locale.ROOT, "spec file size: %d bytes%n", timings[2][0]);
    } finally {
      deleteTree(dir);
    }
  }

  /** Writes all specs, then removes them; returns write and remove times in ns and file size. */
  private static long[][] run(SpecDirectory specs, int count) throws IOException {
    List<String> claims = new ArrayList<>(count);
    List<CdiSpec> content = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      String uid = UUID.randomUUID().toString();
      claims.add(uid);
      content.add(claimSpec(uid));
    }
    long[] writes = new long[count];
    long[] removes = new long[count];
    long size = 0;
    for (int i = 0; i < count; i++) {
      long start = System.nanoTime();
      Path file = specs.writeTransient(content.get(i), claims.get(i));
      writes[i] = System.nanoTime() - start;
      if (i == 0) {
        size = Files.size(file);
      }
    }
    for (int i = 0; i < count; i++) {
      long start = System.nanoTime();
      boolean removed = specs.removeTransient(KIND, claims.get(i));
      removes[i] = System.nanoTime() - start;
      if (!removed) {
        throw new IllegalStateException("spec of claim " + claims.get(i) + " was not there");
      }
    }
    return new long[][] {writes, removes, {size}};
  }

  /** A spec like the example driver's: 4 GPUs, each with env, a device node and a mount. */
  private static CdiSpec claimSpec(String uid) {
    CdiSpec.Builder builder = CdiSpec.builder().kind(KIND);
    for (int n = 0; n < 4; n++) {
      int gpu = n;
      builder.device(uid + "-gpu-" + gpu, e -> e
          .env("GPU_DEVICE_" + gpu + "_RESOURCE_CLAIM", uid)
          .env("GPU_DEVICE_" + gpu, "gpu-" + gpu)
          .deviceNode(DeviceNode.builder("/dev/gpu" + gpu).type(DeviceNodeType.CHAR)
              .numbers(195, gpu).fileMode(0666).build())
          .mount(io.github.dra4j.cdi.spec.Mount.bind("/var/lib/gpu/" + gpu, "/gpu/" + gpu,
              "ro", "nosuid", "nodev")));
    }
    return builder.build();
  }

  private static void print(String what, long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    long total = Arrays.stream(nanos).sum();
    System.out.printf(Locale.ROOT,
        "%s p50 %.3f ms  p99 %.3f ms  max %.3f ms  mean %.3f ms  total %.2f s%n", what,
        ms(sorted[sorted.length / 2]), ms(sorted[(int) Math.ceil(sorted.length * 0.99) - 1]),
        ms(sorted[sorted.length - 1]), ms(total / nanos.length), total / 1e9);
  }

  private static double ms(long nanos) {
    return nanos / 1e6;
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
