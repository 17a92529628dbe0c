package io.github.dra4j.testing.apiserver.internal.watch;

import io.github.dra4j.testing.apiserver.GroupVersionResource;
import io.github.dra4j.testing.apiserver.internal.selection.Selection;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The server's view of stored objects for lists and watches: a copy of every object's current
 * state, a bounded history of changes in resource-version order, and the open watch streams.
 *
 * <p>A watch that names a resource version gets exactly the changes after it from the history
 * (the mock server alone replays every object as ADDED); one older than the history gets a 410
 * Expired error event, so an informer relists, as with a real server. A watch without a resource
 * version (or {@code 0}) starts with an ADDED event per current object.
 *
 * <p>Thread safety: all state is guarded by {@link #lock}; messages are written by one sender
 * thread owned by the hub, which keeps every stream's events in order.
 */
public final class WatchHub implements AutoCloseable {

  /** One consistent read of a collection. */
  public record Snapshot(long resourceVersion, List<JsonNode> items) {}

  private final Object lock = new Object();
  private final JsonMapper mapper;
  private final int historyLimit;
  private final ArrayDeque<StoredEvent> history = new ArrayDeque<>();
  private final Map<GroupVersionResource, Map<String, JsonNode>> objects = new HashMap<>();
  private final Set<WatchStream> streams = new LinkedHashSet<>();
  private final ScheduledExecutorService sender;
  private long evictedThrough;
  private long latestResourceVersion;

  /**
   * Creates a hub.
   *
   * @param mapper the JSON mapper for parsing states and writing events
   * @param historyLimit how many changes are kept for watches that resume from a resource version
   */
  public WatchHub(JsonMapper mapper, int historyLimit) {
    if (historyLimit < 1) {
      throw new IllegalArgumentException("historyLimit must be positive: " + historyLimit);
    }
    this.mapper = mapper;
    this.historyLimit = historyLimit;
    ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "dra4j-apiserver-watch");
      t.setDaemon(true);
      return t;
    });
    // Pending watch timeouts must neither delay shutdown nor pile up after their watch ended.
    executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    executor.setRemoveOnCancelPolicy(true);
    this.sender = executor;
  }

  /**
   * Records a change and notifies the watches.
   *
   * @param resource the resource of the object
   * @param oldState the stored JSON before the change, or null for a creation
   * @param newState the stored JSON after the change, or null for a deletion
   * @param nextResourceVersion hands out the resource version a deletion gets
   */
  public void record(
      GroupVersionResource resource,
      String oldState,
      String newState,
      LongSupplier nextResourceVersion) {
    JsonNode current = newState == null ? null : mapper.readTree(newState);
    JsonNode keySource = current != null ? current : mapper.readTree(oldState);
    String key = key(keySource);
    synchronized (lock) {
      Map<String, JsonNode> byKey = objects.computeIfAbsent(resource, r -> new TreeMap<>());
      JsonNode previous = byKey.get(key);
      long resourceVersion;
      if (current == null) {
        if (previous == null) {
          return;
        }
        resourceVersion = nextResourceVersion.getAsLong();
        ObjectNode deleted = (ObjectNode) previous.deepCopy();
        deleted.withObjectProperty("metadata")
            .put("resourceVersion", Long.toString(resourceVersion));
        previous = deleted;
        byKey.remove(key);
      } else {
        resourceVersion = resourceVersionOf(current);
        byKey.put(key, current);
      }
      latestResourceVersion = Math.max(latestResourceVersion, resourceVersion);
      StoredEvent event = new StoredEvent(resourceVersion, resource, previous, current);
      history.addLast(event);
      while (history.size() > historyLimit) {
        evictedThrough = history.removeFirst().resourceVersion();
      }
      for (WatchStream stream : streams) {
        stream.offer(event);
      }
    }
  }

  /**
   * Lists the current objects a selection addresses, ordered by namespace and name.
   *
   * @param selection the resource, namespace and selectors
   * @return the objects and the resource version of this read
   */
  public Snapshot list(Selection selection) {
    synchronized (lock) {
      List<JsonNode> items = new ArrayList<>();
      for (JsonNode object : objects.getOrDefault(selection.resource().gvr(), Map.of()).values()) {
        if (selection.matches(object)) {
          items.add(object);
        }
      }
      return new Snapshot(latestResourceVersion, items);
    }
  }

  /**
   * Returns the current state of one object.
   *
   * @param resource the resource
   * @param namespace the namespace, or null for cluster-scoped objects
   * @param name the object name
   * @return the stored object, or null if it does not exist
   */
  public JsonNode get(GroupVersionResource resource, String namespace, String name) {
    synchronized (lock) {
      return objects
          .getOrDefault(resource, Map.of())
          .get((namespace == null ? "" : namespace) + "/" + name);
    }
  }

  /**
   * Tells whether an object exists.
   *
   * @param resource the resource
   * @param namespace the namespace, or null for cluster-scoped objects
   * @param name the object name
   * @return true if it is stored
   */
  public boolean exists(GroupVersionResource resource, String namespace, String name) {
    return get(resource, namespace, name) != null;
  }

  /**
   * Opens a watch. The stream starts sending once a sink is {@linkplain WatchStream#attach
   * attached}; what happens before that is queued.
   *
   * @param selection what to watch
   * @param request where to start, when to end, and whether to send the initial events with an
   *     end bookmark
   * @return the stream
   */
  public WatchStream open(Selection selection, WatchRequest request) {
    long after = request.resourceVersion();
    WatchStream stream = new WatchStream(selection, mapper, sender, this::remove);
    synchronized (lock) {
      if (after <= 0 || request.sendInitialEvents()) {
        for (JsonNode object : objects.getOrDefault(selection.resource().gvr(), Map.of())
            .values()) {
          if (selection.matches(object)) {
            stream.sendInitial(object);
          }
        }
        if (request.sendInitialEvents()) {
          stream.sendInitialEventsEnd(latestResourceVersion);
        }
      } else if (after < evictedThrough) {
        stream.expire(
            "too old resource version: " + after + " (" + (evictedThrough + 1) + ")");
        return stream;
      } else {
        for (StoredEvent event : history) {
          if (event.resourceVersion() > after) {
            stream.offer(event);
          }
        }
      }
      streams.add(stream);
    }
    Duration timeout = request.timeout();
    if (timeout != null) {
      stream.cancelOnClose(sender.schedule(
          () -> stream.close("watch timeout"), timeout.toMillis(), TimeUnit.MILLISECONDS));
    }
    return stream;
  }

  /**
   * Ends every open watch from the server side, as an API server restart or a load balancer
   * would; clients are expected to resume from their last resource version.
   *
   * @return how many watches were closed
   */
  public int closeAll() {
    List<WatchStream> open;
    synchronized (lock) {
      open = new ArrayList<>(streams);
    }
    open.forEach(s -> s.close("closed by the in-memory API server"));
    return open.size();
  }

  /**
   * Counts the open watches.
   *
   * @return the number of watches currently registered
   */
  public int openCount() {
    synchronized (lock) {
      return streams.size();
    }
  }

  /**
   * Returns the newest resource version the hub has seen.
   *
   * @return the resource version of the latest change, 0 if none
   */
  public long latestResourceVersion() {
    synchronized (lock) {
      return latestResourceVersion;
    }
  }

  private void remove(WatchStream stream) {
    synchronized (lock) {
      streams.remove(stream);
    }
  }

  private static long resourceVersionOf(JsonNode object) {
    String text = object.path("metadata").path("resourceVersion").asString("0");
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static String key(JsonNode object) {
    JsonNode metadata = object.path("metadata");
    return metadata.path("namespace").asString("") + "/" + metadata.path("name").asString("");
  }

  @Override
  public void close() {
    closeAll();
    sender.shutdown();
    try {
      if (!sender.awaitTermination(5, TimeUnit.SECONDS)) {
        sender.shutdownNow();
      }
    } catch (InterruptedException e) {
      sender.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
