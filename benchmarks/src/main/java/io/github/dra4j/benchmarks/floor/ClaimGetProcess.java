package io.github.dra4j.benchmarks.floor;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.utils.HttpClientUtils;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import tools.jackson.databind.ObjectMapper;

/**
 * The claim GET alone, in a JVM of its own: what {@link FloorComparisonBenchmark} subtracts from
 * a prepare with a GET per claim to find what the SDK adds.
 *
 * <p>For the subtraction to be fair this process is the driver's in everything but the SDK: it
 * runs on the same class path (so fabric8 picks the same HTTP client, Vert.x unless the JDK
 * client is on it; the first line it prints names the one it got) with the same JVM and options,
 * finds the API server from the same environment variables, makes its client from the
 * environment with serialization without the class-path scan, as the plugin does, reads the claim
 * with fabric8's resource DSL from the calling thread, as a driver author would write it, and is
 * warmed up as the driver is. Only then does the CPU per call read from {@code /proc} compare
 * with the driver's.
 *
 * <p>It is the GET with fabric8's defaults: its own Vert.x instance with two event loops per core.
 * The plugin's own client runs one event loop and skips the DSL, so its GET costs less than this
 * one, and prepare minus this GET (the table's "SDK's share") includes what the plugin saves on
 * the GET.
 *
 * <p>Run by the benchmark, not by hand: {@code java -cp <class path> ...ClaimGetProcess
 * <namespace> <name>}, then one command per line on standard input, each answered by one line:
 *
 * <ul>
 *   <li>{@code run <calls> <callers>}: {@code calls} GETs from {@code callers} threads,
 *       answered by {@code result <p50 ms> <p99 ms> <max ms> <calls/s>};
 *   <li>{@code quit}: exit.
 * </ul>
 */
public final class ClaimGetProcess {

  /** The first line printed once the client has read the claim. */
  public static final String READY = "claim gets ready";

  /** The start of an answer to {@code run}. */
  public static final String RESULT = "result";

  private ClaimGetProcess() {}

  /**
   * Serves commands until {@code quit} or the end of standard input.
   *
   * @param args namespace and name of the claim
   * @throws Exception if the claim cannot be read
   */
  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      throw new IllegalArgumentException("want <namespace> <name>, got " + Arrays.toString(args));
    }
    // Configuration from the environment and serialization without the scan of every model class,
    // as the plugin's client; fabric8's default HTTP client with its defaults.
    try (KubernetesClient client = new KubernetesClientBuilder()
        .withConfig(Config.autoConfigure(null))
        .withKubernetesSerialization(new KubernetesSerialization(new ObjectMapper(), false))
        .build()) {
      String namespace = args[0];
      String name = args[1];
      get(client, namespace, name);
      System.out.println(READY + " " + client.getMasterUrl() + " through "
          + HttpClientUtils.getHttpClientFactory().getClass().getName() + ", "
          + client.getHttpClient().getClass().getName());
      System.out.flush();
      BufferedReader in = new BufferedReader(new InputStreamReader(System.in,
          StandardCharsets.UTF_8));
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        String[] words = line.strip().split("\\s+", -1);
        if (words[0].equals("quit")) {
          return;
        }
        if (!words[0].equals("run") || words.length != 3) {
          throw new IllegalArgumentException("want run <calls> <callers> or quit: " + line);
        }
        int calls = Integer.parseInt(words[1]);
        int callers = Integer.parseInt(words[2]);
        long begin = System.nanoTime();
        long[] nanos = run(client, namespace, name, calls, callers);
        double seconds = (System.nanoTime() - begin) / 1e9;
        Arrays.sort(nanos);
        System.out.printf("%s %.6f %.6f %.6f %.3f%n", RESULT, nanos[nanos.length / 2] / 1e6,
            nanos[(int) ((nanos.length - 1) * 0.99)] / 1e6, nanos[nanos.length - 1] / 1e6,
            calls / seconds);
        System.out.flush();
      }
    }
  }

  /** {@code calls} GETs shared by {@code callers} threads; each GET's time. */
  private static long[] run(KubernetesClient client, String namespace, String name, int calls,
      int callers) throws Exception {
    long[] nanos = new long[calls];
    AtomicInteger next = new AtomicInteger();
    AtomicReference<Exception> failure = new AtomicReference<>();
    CountDownLatch done = new CountDownLatch(callers);
    for (int t = 0; t < callers; t++) {
      Thread caller = new Thread(() -> {
        try {
          for (int i = next.getAndIncrement(); i < calls; i = next.getAndIncrement()) {
            long start = System.nanoTime();
            get(client, namespace, name);
            nanos[i] = System.nanoTime() - start;
          }
        } catch (Exception e) {
          failure.compareAndSet(null, e);
        } finally {
          done.countDown();
        }
      }, "get-" + t);
      caller.start();
    }
    done.await();
    if (failure.get() != null) {
      throw failure.get();
    }
    return nanos;
  }

  /** One GET, as a driver or the plugin writes it with fabric8. */
  private static void get(KubernetesClient client, String namespace, String name) {
    Resource<ResourceClaim> resource = client.resources(ResourceClaim.class)
        .inNamespace(namespace).withName(name);
    if (resource.get() == null) {
      throw new IllegalStateException("claim " + namespace + "/" + name + " is gone");
    }
  }
}
