package io.github.dra4j.benchmarks.gpudriver;

import io.github.dra4j.benchmarks.floor.JvmFloorServer;
import io.github.dra4j.benchmarks.floor.ServerProcess;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * The JVM floor ({@link JvmFloorServer}) started as the driver is, with the same JVM, options and
 * class-data archive or AOT cache (a file of its own, made the same way: a first start that serves
 * some cycles and writes it as it exits), then measured as the driver is after the same number of
 * prepare/unprepare cycles. {@code GpuDriverBenchmark -Dfloor=true} prints it under the driver's
 * figures: the part of the driver's memory any JVM that serves DRA over grpc-java takes.
 *
 * @param java the JVM binary
 * @param options the driver's JVM options, archive or cache included
 * @param root a directory for the floor's socket, logs and archive
 * @param jcmd the {@code jcmd} that reads the floor's memory
 * @param nmt whether the options turn on native memory tracking
 */
record JvmFloorRun(String java, List<String> options, Path root, Path jcmd, boolean nmt) {

  /** How long the floor has to create its socket. */
  private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(60);

  /**
   * Starts the floor twice (the first start trains the archive), measures the second.
   *
   * @param cycles runs the given number of prepare/unprepare cycles against a socket, and gives
   *     each prepare's latency
   * @param training cycles of the first start
   * @param measured cycles of the measured start
   * @return what the measured start took and held
   * @throws Exception if the floor does not start or a cycle fails
   */
  Result measure(Cycles cycles, int training, int measured) throws Exception {
    Path socket = root.resolve("floor.sock");
    Path jar = floorJar();
    Result result = null;
    for (int run = 0; run < 2; run++) {
      long begin = System.nanoTime();
      Process process = start(run, jar, socket);
      boolean stopped;
      try {
        double startMillis = (System.nanoTime() - begin) / 1e6;
        if (run == 0) {
          cycles.run(socket, training);
          continue;
        }
        DriverMemory started = DriverMemory.of(jcmd, process.pid(), nmt);
        cycles.run(socket, measured);
        DriverMemory after = DriverMemory.of(jcmd, process.pid(), nmt);
        result = new Result(startMillis, started, after,
            DriverMemory.liveHeapKib(jcmd, process.pid()));
      } finally {
        process.destroy();
        stopped = process.waitFor(run == 0 ? 300 : 30, TimeUnit.SECONDS);
        if (!stopped) {
          process.destroyForcibly();
        }
      }
      // Outside the finally, so that a failure of the run itself is not hidden by this one.
      if (!stopped) {
        throw new IllegalStateException("the JVM floor did not stop after SIGTERM");
      }
    }
    return result;
  }

  private Process start(int run, Path jar, Path socket) throws Exception {
    Files.deleteIfExists(socket);
    List<String> command = new ArrayList<>();
    command.add(java);
    for (String option : options) { // the floor's own archive or cache, made as the driver's is
      if (option.startsWith("-XX:SharedArchiveFile=")) {
        command.add("-XX:SharedArchiveFile=" + root.resolve("floor-classes.jsa"));
      } else if (option.startsWith("-XX:AOTCacheOutput=") || option.startsWith("-XX:AOTCache=")) {
        Path cache = root.resolve("floor.aot");
        command.add(run == 0 ? "-XX:AOTCacheOutput=" + cache : "-XX:AOTCache=" + cache);
      } else {
        command.add(option);
      }
    }
    command.addAll(List.of("-jar", jar.toString(), socket.toString()));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().put("MALLOC_ARENA_MAX", "2"); // as the chart sets it
    Path log = root.resolve("floor-" + run + ".log");
    Process process = builder.redirectErrorStream(true).redirectOutput(log.toFile()).start();
    long deadline = System.nanoTime() + WAIT_NANOS;
    while (!Files.exists(socket)) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        process.destroyForcibly();
        throw new IllegalStateException("the JVM floor did not start; see " + log);
      }
      Thread.sleep(2);
    }
    return process;
  }

  /**
   * The floor as the driver is, an executable jar: a class-data archive or AOT cache holds classes
   * from jar files only (this JVM runs from the benchmarks module's class directory), and the
   * driver's jar manifest enables native access (its NVML binding needs it; Netty then picks its
   * direct-memory cleaner by it), which on the command line would not match the JDK's own
   * archive. The jar holds the floor's class, and names the jars of this class path.
   */
  private Path floorJar() throws IOException {
    Path jar = root.resolve("floor.jar");
    String entry = JvmFloorServer.class.getName().replace('.', '/') + ".class";
    List<String> classPath = new ArrayList<>();
    for (String path : ServerProcess.JvmLaunch.currentClassPath().split(File.pathSeparator, -1)) {
      if (!Files.isDirectory(Path.of(path))) {
        // relative to the jar: the JVM's archive code resolves only relative entries
        classPath.add(root.toAbsolutePath().relativize(Path.of(path).toAbsolutePath())
            .toString());
      }
    }
    Manifest manifest = new Manifest();
    Attributes attributes = manifest.getMainAttributes();
    attributes.put(Attributes.Name.MANIFEST_VERSION, "1.0");
    attributes.put(Attributes.Name.MAIN_CLASS, JvmFloorServer.class.getName());
    attributes.put(Attributes.Name.CLASS_PATH, String.join(" ", classPath));
    attributes.putValue("Enable-Native-Access", "ALL-UNNAMED");
    try (InputStream in = JvmFloorServer.class.getClassLoader().getResourceAsStream(entry);
        JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
      if (in == null) {
        throw new IOException(entry + " is not on the class path");
      }
      out.putNextEntry(new JarEntry(entry));
      in.transferTo(out);
      out.closeEntry();
    }
    return jar;
  }

  /** Prepare/unprepare cycles against a DRA socket. */
  interface Cycles {
    /**
     * Runs the cycles.
     *
     * @param socket the DRA socket
     * @param cycles how many
     * @return each prepare's latency in nanoseconds
     * @throws Exception if a cycle fails
     */
    long[] run(Path socket, int cycles) throws Exception;
  }

  /**
   * The measured start.
   *
   * @param startMillis exec to the socket file
   * @param started figures once the socket was there
   * @param after figures after the cycles
   * @param liveKib live heap after the cycles, after a full collection
   */
  record Result(double startMillis, DriverMemory started, DriverMemory after, long liveKib) {}
}
