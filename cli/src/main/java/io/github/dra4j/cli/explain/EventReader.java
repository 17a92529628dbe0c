package io.github.dra4j.cli.explain;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.github.dra4j.cli.explain.EventLog.PodEvent;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Reads the core/v1 Events about pods, as {@code kubectl describe pod} shows them: per pod a
 * list with the field selector {@code involvedObject.kind=Pod,involvedObject.name=NAME}; when the
 * API server refuses that selector (400), one list of the namespace's Events, filtered here. Only
 * the reasons of {@link #REASONS} are kept ({@code FailedScheduling} only for a pod that is not
 * bound), those of an earlier pod of the same name left out. A server that does not serve Events
 * (404) or a user who may not list them (403) gives an {@link EventLog} with an error, never an
 * exception. Holds a client it does not own; one per command run.
 */
final class EventReader {

  /** The Events explained: why a pod is not scheduled, why its claims are not (un)prepared. */
  static final Set<String> REASONS = Set.of("FailedScheduling", "FailedPrepareDynamicResources",
      "FailedUnprepareDynamicResources");

  /** The newest Events shown per pod. */
  static final int PER_POD = 5;

  private final KubernetesClient client;
  private final Clock clock;

  EventReader(KubernetesClient client, Clock clock) {
    this.client = client;
    this.clock = clock;
  }

  /**
   * A pod whose Events to read.
   *
   * @param name the pod's name
   * @param uid its uid, or null when the pod is not known (only its name, from a reservation)
   * @param bound whether it has a node (then {@code FailedScheduling} is history, not shown)
   */
  record PodRef(String name, String uid, boolean bound) {}

  EventLog read(String namespace, List<PodRef> pods) {
    if (pods.isEmpty()) {
      return EventLog.NONE;
    }
    List<PodEvent> events = new ArrayList<>();
    List<Event> namespaceEvents = null;
    List<String> names = pods.stream().map(PodRef::name).toList();
    for (PodRef pod : pods) {
      List<Event> found;
      try {
        if (namespaceEvents != null) {
          found = namespaceEvents;
        } else {
          found = client.v1().events().inNamespace(namespace)
              .withField("involvedObject.kind", "Pod").withField("involvedObject.name", pod.name())
              .list().getItems();
        }
      } catch (KubernetesClientException e) {
        if (e.getCode() != 400) {
          return new EventLog(names, List.of(), unavailable(namespace, e));
        }
        try {
          namespaceEvents = client.v1().events().inNamespace(namespace).list().getItems();
        } catch (KubernetesClientException again) {
          return new EventLog(names, List.of(), unavailable(namespace, again));
        }
        found = namespaceEvents;
      }
      events.addAll(about(pod, found));
    }
    return new EventLog(names, events, null);
  }

  private List<PodEvent> about(PodRef pod, List<Event> events) {
    java.util.IdentityHashMap<Event, Instant> seen = new java.util.IdentityHashMap<>();
    List<Event> kept = new ArrayList<>();
    for (Event event : events) {
      ObjectReference about = event.getInvolvedObject();
      if (about == null || !"Pod".equals(about.getKind()) || !pod.name().equals(about.getName())
          || (pod.uid() != null && about.getUid() != null && !pod.uid().equals(about.getUid()))
          || !REASONS.contains(event.getReason())
          || (pod.bound() && "FailedScheduling".equals(event.getReason()))) {
        continue;
      }
      seen.put(event, lastSeen(event));
      kept.add(event);
    }
    kept.sort(Comparator.comparing((Event e) -> seen.get(e),
        Comparator.nullsLast(Comparator.reverseOrder())));
    List<PodEvent> out = new ArrayList<>();
    for (Event event : kept.subList(0, Math.min(PER_POD, kept.size()))) {
      Instant last = seen.get(event);
      out.add(new PodEvent(pod.name(), Objects.toString(event.getType(), "Normal"),
          event.getReason(), count(event), last == null ? null : last.toString(),
          last == null ? "<unknown>" : age(Duration.between(last, clock.instant())),
          source(event), Objects.toString(event.getMessage(), "").strip()));
    }
    return out;
  }

  private static String unavailable(String namespace, KubernetesClientException e) {
    return switch (e.getCode()) {
      case 404 -> "events not available: the API server answered 404 for core/v1 events";
      case 403 -> "events not available: not allowed to list events in namespace " + namespace;
      default -> "events not available: " + (e.getCode() > 0 ? "HTTP " + e.getCode() + ": " : "")
          + Objects.toString(e.getMessage(), "").lines().findFirst().orElse("");
    };
  }

  private static int count(Event event) {
    if (event.getSeries() != null && event.getSeries().getCount() != null) {
      return Math.max(1, event.getSeries().getCount());
    }
    return event.getCount() == null ? 1 : Math.max(1, event.getCount());
  }

  private static String source(Event event) {
    if (event.getSource() != null && event.getSource().getComponent() != null) {
      return event.getSource().getComponent();
    }
    return Objects.toString(event.getReportingComponent(), "");
  }

  /** The last time the Event happened, as kubectl finds it; null when it names none. */
  private static Instant lastSeen(Event event) {
    List<String> candidates = new ArrayList<>();
    if (event.getSeries() != null && event.getSeries().getLastObservedTime() != null) {
      candidates.add(event.getSeries().getLastObservedTime().getTime());
    }
    candidates.add(event.getLastTimestamp());
    if (event.getEventTime() != null) {
      candidates.add(event.getEventTime().getTime());
    }
    candidates.add(event.getFirstTimestamp());
    candidates.add(event.getMetadata() == null ? null : event.getMetadata().getCreationTimestamp());
    for (String candidate : candidates) {
      if (candidate != null && !candidate.isEmpty()) {
        try {
          return Instant.parse(candidate);
        } catch (DateTimeParseException e) {
          // not a time: try the next field
        }
      }
    }
    return null;
  }

  /** A duration as kubectl's short form: {@code 45s}, {@code 5m}, {@code 3h}, {@code 2d}. */
  static String age(Duration duration) {
    long seconds = Math.max(0, duration.toSeconds());
    if (seconds < 120) {
      return seconds + "s";
    }
    if (seconds < 120 * 60) {
      return seconds / 60 + "m";
    }
    if (seconds < 48 * 3600) {
      return seconds / 3600 + "h";
    }
    return seconds / 86400 + "d";
  }
}
