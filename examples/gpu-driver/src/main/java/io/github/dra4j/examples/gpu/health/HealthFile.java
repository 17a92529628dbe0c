package io.github.dra4j.examples.gpu.health;

import io.github.dra4j.core.thread.DaemonThreads;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The health of simulated GPUs, driven by a JSON file that a test or an operator writes: each key
 * names a GPU ({@code gpu-1}, or its UUID), each value is either {@code "unhealthy"} or an object
 * with the condition's {@code key} (default {@code unhealthy}), {@code value}, {@code blocking}
 * (default true) and {@code message}:
 *
 * <pre>{@code
 * {"gpu-1": "unhealthy", "gpu-2": {"key": "xid", "value": "79", "message": "fell off the bus"}}
 * }</pre>
 *
 * <p>A missing file means every GPU is healthy; a GPU that leaves the file recovers. The file is
 * read every {@code interval} on the source's own daemon thread, and a change is reported as the
 * complete list of conditions. A file that is not valid JSON, or names an unknown GPU, is logged
 * and changes nothing, so a half-written file never marks GPUs healthy. Owns its thread; {@link
 * #close()} stops it.
 */
public final class HealthFile implements HealthSource {

  private static final Logger LOG = LoggerFactory.getLogger(HealthFile.class);
  private static final ObjectMapper JSON = JsonMapper.builder().build();

  private final Path file;
  private final Duration interval;
  private final Function<String, Optional<String>> gpuUuids;
  private final ScheduledExecutorService executor;
  private String lastText;
  private List<GpuCondition> lastConditions;

  /**
   * Watches a file.
   *
   * @param file the file; need not exist
   * @param interval how often it is read
   * @param gpuUuids the UUID of a GPU given its name or UUID, empty for an unknown GPU
   */
  public HealthFile(Path file, Duration interval, Function<String, Optional<String>> gpuUuids) {
    this.file = Objects.requireNonNull(file, "file");
    this.interval = Objects.requireNonNull(interval, "interval");
    this.gpuUuids = Objects.requireNonNull(gpuUuids, "gpuUuids");
    this.executor = Executors.newSingleThreadScheduledExecutor(
        new DaemonThreads("gpu-health-file"));
  }

  @Override
  public void start(Consumer<List<GpuCondition>> listener) {
    Objects.requireNonNull(listener, "listener");
    // Stopped by shutting the executor down, not through this future; poll handles its errors.
    var unused = executor.scheduleWithFixedDelay(() -> poll(listener), 0, interval.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  private void poll(Consumer<List<GpuCondition>> listener) {
    try {
      String text;
      try {
        text = Files.readString(file);
      } catch (NoSuchFileException e) {
        text = "";
      }
      if (text.equals(lastText)) {
        return;
      }
      Optional<List<GpuCondition>> conditions = parse(text);
      lastText = text;
      if (conditions.isEmpty() || conditions.get().equals(lastConditions)) {
        return;
      }
      lastConditions = conditions.get();
      listener.accept(lastConditions);
    } catch (IOException | RuntimeException e) {
      LOG.warn("Cannot read GPU health file {}: {}", file, e.toString());
    }
  }

  /** The conditions the file says, or empty (logged) if it is not valid. */
  private Optional<List<GpuCondition>> parse(String text) {
    if (text.isBlank()) {
      return Optional.of(List.of());
    }
    JsonNode root;
    try {
      root = JSON.readTree(text);
    } catch (JacksonException e) {
      LOG.warn("GPU health file {} is not valid JSON, ignored until it changes: {}", file,
          e.getOriginalMessage());
      return Optional.empty();
    }
    if (!root.isObject()) {
      LOG.warn("GPU health file {} must hold a JSON object of GPU names, ignored", file);
      return Optional.empty();
    }
    List<GpuCondition> conditions = new ArrayList<>();
    for (Map.Entry<String, JsonNode> entry : root.properties()) {
      Optional<String> uuid = gpuUuids.apply(entry.getKey());
      if (uuid.isEmpty()) {
        LOG.warn("GPU health file {} names GPU \"{}\", which this node does not have; file"
            + " ignored until it changes", file, entry.getKey());
        return Optional.empty();
      }
      JsonNode value = entry.getValue();
      if (value.isString()) {
        conditions.add(new GpuCondition(uuid.get(), "unhealthy", "", true, value.asString()));
      } else if (value.isObject()) {
        conditions.add(new GpuCondition(uuid.get(), value.path("key").asString("unhealthy"),
            value.path("value").asString(""), value.path("blocking").asBoolean(true),
            value.path("message").asString("")));
      } else {
        LOG.warn("GPU health file {}: the value of \"{}\" must be a string or an object,"
            + " ignored until it changes", file, entry.getKey());
        return Optional.empty();
      }
    }
    return Optional.of(List.copyOf(conditions));
  }

  @Override
  public void close() {
    executor.shutdownNow();
    try {
      executor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
