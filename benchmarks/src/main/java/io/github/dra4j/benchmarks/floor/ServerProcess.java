package io.github.dra4j.benchmarks.floor;

import io.github.dra4j.benchmarks.kubeletplugin.ApiServerAccess;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A DRA server run as a process of its own, the dra4j driver ({@link FloorPeerDriver} in a JVM)
 * or the Go floor, timed from exec until its sockets exist and from SIGTERM until it exited.
 * Owned by one thread.
 */
public final class ServerProcess implements AutoCloseable {

  private static final long START_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(120);

  private final Process process;
  private final Path draSocket;
  private final Path registrationDirectory;
  private final double registrationMillis;
  private final double draSocketMillis;
  private final Path log;

  private ServerProcess(Process process, Path draSocket, Path registrationDirectory,
      double registrationMillis, double draSocketMillis, Path log) {
    this.process = process;
    this.draSocket = draSocket;
    this.registrationDirectory = registrationDirectory;
    this.registrationMillis = registrationMillis;
    this.draSocketMillis = draSocketMillis;
    this.log = log;
  }

  /**
   * How the driver's JVM is started.
   *
   * @param java the {@code java} binary
   * @param options the JVM options
   * @param classPath the class path holding {@link FloorPeerDriver} and the SDK
   * @param apiServer how the driver finds the API server
   * @param environment more environment variables for the driver, which win over the defaults
   */
  public record JvmLaunch(Path java, List<String> options, String classPath,
      ApiServerAccess apiServer,
      Map<String, String> environment) {

    /**
     * The class path of this JVM, for a child: the class loader's URLs when run by {@code
     * exec:java} (whose {@code java.class.path} is Maven's launcher), the system property
     * otherwise.
     *
     * @return the class path
     */
    public static String currentClassPath() {
      ClassLoader loader = FloorPeerDriver.class.getClassLoader();
      if (loader instanceof URLClassLoader urls && urls.getURLs().length > 1) {
        return Arrays.stream(urls.getURLs()).map(JvmLaunch::path)
            .collect(Collectors.joining(File.pathSeparator));
      }
      return System.getProperty("java.class.path");
    }

    private static String path(URL url) {
      try {
        return Path.of(url.toURI()).toString();
      } catch (URISyntaxException e) {
        throw new IllegalArgumentException(url.toString(), e);
      }
    }
  }

  /**
   * Starts the Go floor on a socket and waits until the socket exists.
   *
   * @param binary the {@code floor} binary
   * @param socket its socket path
   * @param log where its output goes
   * @return the started floor
   * @throws IOException if it does not start
   * @throws InterruptedException if interrupted while waiting
   */
  public static ServerProcess startFloor(Path binary, Path socket, Path log)
      throws IOException, InterruptedException {
    Files.deleteIfExists(socket);
    long begin = System.nanoTime();
    Process process = new ProcessBuilder(binary.toString(), "-socket", socket.toString())
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    while (!Files.exists(socket)) {
      checkAlive(process, begin, log);
      Thread.sleep(1);
    }
    double millis = (System.nanoTime() - begin) / 1e6;
    return new ServerProcess(process, socket, null, millis, millis, log);
  }

  /**
   * Starts the dra4j driver in rolling-update mode with a fresh pod UID and its own kubelet
   * directories under {@code directory}, and waits until it printed that it serves.
   *
   * @param launch the JVM, its options and class path
   * @param directory an empty directory for the driver's sockets, CDI specs and log
   * @param claimCache the driver's claim cache setting
   * @param serialize the driver's serialization setting
   * @return the started driver
   * @throws IOException if it does not start
   * @throws InterruptedException if interrupted while waiting
   */
  public static ServerProcess startDriver(JvmLaunch launch, Path directory, boolean claimCache,
      boolean serialize) throws IOException, InterruptedException {
    Path registry = Files.createDirectories(directory.resolve("reg"));
    Path plugins = Files.createDirectories(directory.resolve("plg"));
    Path cdi = Files.createDirectories(directory.resolve("cdi"));
    // The DaemonSet's hostPath mount (DirectoryOrCreate) makes the plugin's own directory.
    Path pluginDirectory = Files.createDirectories(plugins.resolve(FloorPeerDriver.NAME));
    Path log = directory.resolve("driver.log");
    List<String> command = new ArrayList<>();
    command.add(launch.java().toString());
    command.addAll(launch.options());
    command.addAll(List.of("-cp", launch.classPath(), FloorPeerDriver.class.getName()));
    ProcessBuilder builder = new ProcessBuilder(command);
    Map<String, String> env = builder.environment();
    env.remove("JAVA_TOOL_OPTIONS"); // the options printed are all the options
    env.remove("JDK_JAVA_OPTIONS");
    env.putAll(launch.apiServer().environment());
    env.put("NODE_NAME", "node"); // the pool BenchmarkClaims allocates from
    env.put("POD_UID", UUID.randomUUID().toString());
    env.put("KUBELET_REGISTRAR_DIRECTORY_PATH", registry.toString());
    env.put("KUBELET_PLUGINS_DIRECTORY_PATH", plugins.toString());
    env.put("CDI_ROOT", cdi.toString());
    env.put("HEALTHCHECK_PORT", "0");
    env.put("METRICS_PORT", "0");
    env.put(FloorPeerDriver.CLAIM_CACHE_VARIABLE, Boolean.toString(claimCache));
    env.put(FloorPeerDriver.SERIALIZE_VARIABLE, Boolean.toString(serialize));
    env.putAll(launch.environment());
    builder.redirectErrorStream(true).redirectOutput(log.toFile());
    long begin = System.nanoTime();
    Process process = builder.start();
    double registration = -1;
    double dra = -1;
    Path draSocket = null;
    while (registration < 0 || dra < 0) {
      checkAlive(process, begin, log);
      if (registration < 0 && !sockets(registry).isEmpty()) {
        registration = (System.nanoTime() - begin) / 1e6;
      }
      if (dra < 0 && !sockets(pluginDirectory).isEmpty()) {
        dra = (System.nanoTime() - begin) / 1e6;
        draSocket = sockets(pluginDirectory).get(0);
      }
      Thread.sleep(1);
    }
    while (Files.readAllLines(log, StandardCharsets.UTF_8).stream()
        .noneMatch(line -> line.startsWith(FloorPeerDriver.STARTED))) {
      checkAlive(process, begin, log);
      Thread.sleep(5);
    }
    return new ServerProcess(process, draSocket, registry, registration, dra, log);
  }

  /** The sockets in a directory that is not there yet, or has none, or has some. */
  private static List<Path> sockets(Path directory) throws IOException {
    if (!Files.isDirectory(directory)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(directory)) {
      return files.filter(f -> f.getFileName().toString().endsWith(".sock")
          && !f.getFileName().toString().startsWith(".")).sorted().toList();
    }
  }

  private static void checkAlive(Process process, long begin, Path log) throws IOException {
    if (!process.isAlive() || System.nanoTime() - begin > START_TIMEOUT_NANOS) {
      process.destroyForcibly();
      throw new IOException("the server did not start (exit value "
          + (process.isAlive() ? "none" : process.exitValue()) + "); its output:\n"
          + (Files.exists(log) ? Files.readString(log) : ""));
    }
  }

  /**
   * The process ID.
   *
   * @return the pid
   */
  public long pid() {
    return process.pid();
  }

  /**
   * The DRA socket the kubelet calls.
   *
   * @return its path
   */
  public Path draSocket() {
    return draSocket;
  }

  /**
   * The kubelet's plugin registry directory the driver registers in.
   *
   * @return the directory; null for the floor, which does not register
   */
  public Path registrationDirectory() {
    return registrationDirectory;
  }

  /**
   * Exec to the registration socket; for the floor, to its only socket.
   *
   * @return milliseconds
   */
  public double registrationMillis() {
    return registrationMillis;
  }

  /**
   * Exec to the DRA socket.
   *
   * @return milliseconds
   */
  public double draSocketMillis() {
    return draSocketMillis;
  }

  /**
   * Where the process's output went.
   *
   * @return the log file
   */
  public Path log() {
    return log;
  }

  /**
   * Sends SIGTERM and waits for the process to exit.
   *
   * @return milliseconds from SIGTERM to exit
   * @throws IOException if it did not exit within a minute (it is then killed)
   * @throws InterruptedException if interrupted while waiting
   */
  public double stop() throws IOException, InterruptedException {
    long begin = System.nanoTime();
    process.destroy();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IOException("no exit within 60 s of SIGTERM; see " + log);
    }
    return (System.nanoTime() - begin) / 1e6;
  }

  /** Kills the process if it still runs. */
  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroyForcibly();
      try {
        process.waitFor(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
