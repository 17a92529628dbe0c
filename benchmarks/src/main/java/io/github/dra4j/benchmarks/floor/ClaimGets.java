package io.github.dra4j.benchmarks.floor;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The claim GET alone, timed in a {@link ClaimGetProcess} started like the driver (same JVM, JVM
 * options, class path and API server variables), with its CPU per call and context switches read
 * from {@code /proc} as the driver's are. One process serves every run of a benchmark, so it is
 * as warm as the driver. Used by one thread.
 */
final class ClaimGets implements AutoCloseable {

  private final Process process;
  private final BufferedReader out;
  private final Writer in;
  private final String description;
  private final Path log;

  private ClaimGets(Process process, BufferedReader out, Writer in, String description,
      Path log) {
    this.process = process;
    this.out = out;
    this.in = in;
    this.description = description;
    this.log = log;
  }

  /**
   * Starts the process and waits until it has read the claim once.
   *
   * @param launch the driver's JVM, options, class path and API server variables
   * @param namespace the claim's namespace
   * @param name the claim's name
   * @param log where the process's standard error goes
   * @return the started process
   * @throws IOException if it does not start or cannot read the claim
   */
  static ClaimGets start(ServerProcess.JvmLaunch launch, String namespace, String name,
      Path log) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(launch.java().toString());
    command.addAll(launch.options());
    command.addAll(List.of("-cp", launch.classPath(), ClaimGetProcess.class.getName(),
        namespace, name));
    ProcessBuilder builder = new ProcessBuilder(command).redirectError(log.toFile());
    Map<String, String> env = builder.environment();
    env.remove("JAVA_TOOL_OPTIONS");
    env.remove("JDK_JAVA_OPTIONS");
    env.putAll(launch.apiServer().environment());
    env.putAll(launch.environment());
    Process process = builder.start();
    BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
        StandardCharsets.UTF_8));
    Writer in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    String first = out.readLine();
    if (first == null || !first.startsWith(ClaimGetProcess.READY)) {
      process.destroyForcibly();
      throw new IOException("the claim GET process did not start: " + first + "; its log "
          + log + ": " + (Files.exists(log) ? Files.readString(log) : "(none)"));
    }
    return new ClaimGets(process, out, in,
        first.substring(ClaimGetProcess.READY.length()).strip(), log);
  }

  /**
   * What the process reads through, from its first line.
   *
   * @return for example {@code http://... through io.fabric8...Vertx5HttpClientFactory, ...}
   */
  String description() {
    return description;
  }

  /**
   * Times GETs, after {@code warmup} unmeasured ones.
   *
   * @param calls measured GETs
   * @param callers threads sharing them
   * @param warmup unmeasured GETs before, from as many threads
   * @return the figures, CPU and context switches of the whole process per GET
   * @throws IOException if a GET fails or the process is gone
   */
  GoBench.Result run(int calls, int callers, int warmup) throws IOException {
    long pid = process.pid();
    if (warmup > 0) {
      command(warmup, callers);
    }
    long switchesBefore = ProcFs.contextSwitches(pid);
    long cpuBefore = ProcFs.cpuMicros(pid);
    long systemBefore = ProcFs.systemCpuMicros(pid);
    String[] words = command(calls, callers);
    long cpu = ProcFs.cpuMicros(pid) - cpuBefore;
    long system = ProcFs.systemCpuMicros(pid) - systemBefore;
    long switches = ProcFs.contextSwitches(pid) - switchesBefore;
    return new GoBench.Result(Double.parseDouble(words[1]), Double.parseDouble(words[2]),
        Double.parseDouble(words[3]), Double.parseDouble(words[4]), (double) cpu / calls,
        (double) system / calls, (double) switches / calls, Map.of());
  }

  /** One {@code run} command and its answer's words. */
  private String[] command(int calls, int callers) throws IOException {
    in.write("run " + calls + " " + callers + "\n");
    in.flush();
    String line = out.readLine();
    if (line == null || !line.startsWith(ClaimGetProcess.RESULT + " ")) {
      throw new IOException("the claim GET process failed: " + line + "; its log " + log
          + ": " + Files.readString(log));
    }
    return line.split(" ");
  }

  /** Asks the process to quit, and ends it if it does not within 5 s. */
  @Override
  public void close() {
    try {
      in.write("quit\n");
      in.close();
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (IOException e) {
      process.destroyForcibly();
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
