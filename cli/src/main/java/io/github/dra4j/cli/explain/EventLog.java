package io.github.dra4j.cli.explain;

import java.util.List;

/**
 * The Events about the pods of the target that say why a claim did not reach them: the
 * scheduler's {@code FailedScheduling} for a pod not bound yet, the kubelet's {@code
 * FailedPrepareDynamicResources} and {@code FailedUnprepareDynamicResources}. Immutable.
 *
 * @param pods the pods whose Events were read, by name
 * @param events the Events, newest first, at most {@link EventReader#PER_POD} per pod
 * @param error why Events could not be read (e.g. {@code events not available: the API server
 *     answered 404 for core/v1 events}), or null
 */
record EventLog(List<String> pods, List<PodEvent> events, String error) {

  /** No pod to read Events for. */
  static final EventLog NONE = new EventLog(List.of(), List.of(), null);

  EventLog {
    pods = List.copyOf(pods);
    events = List.copyOf(events);
  }

  /**
   * One Event.
   *
   * @param pod the pod's name
   * @param type {@code Warning} or {@code Normal}
   * @param reason e.g. {@code FailedPrepareDynamicResources}
   * @param count how often it happened (the Event's count, or its series' count; at least 1)
   * @param lastSeen when it last happened (RFC 3339), or null if the Event says nothing
   * @param age how long ago, as kubectl prints it ({@code 45s}, {@code 5m}, {@code 3h},
   *     {@code 2d}), or {@code <unknown>}
   * @param source who reported it (the source component, else the reporting controller)
   * @param message the Event's message
   */
  record PodEvent(String pod, String type, String reason, int count, String lastSeen, String age,
      String source, String message) {}
}
