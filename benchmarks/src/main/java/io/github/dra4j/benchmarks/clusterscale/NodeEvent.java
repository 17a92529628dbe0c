package io.github.dra4j.benchmarks.clusterscale;

/**
 * The events of a node's life, in the order every simulated node goes through them. Each is
 * measured on its own; the watch streams of an event's cost are those held once it is over.
 */
public enum NodeEvent {

  /** The driver pod starts: {@code KubeletPlugin.builder(...).start()}. */
  START("start-up"),

  /** The first {@code publishResources}: one pool of a few devices. */
  PUBLISH("publish"),

  /** The kubelet prepares the node's claim for the first time. */
  PREPARE("prepare"),

  /** The kubelet restarted and prepares the claim again; the plugin kept running. */
  KUBELET_RESTART_REPREPARE("re-prepare after kubelet restart"),

  /** The driver container restarts: the plugin stops, starts with the same pod UID, publishes. */
  PLUGIN_RESTART("plugin restart (stop, start, publish)"),

  /** The kubelet prepares the claim again, now through the restarted plugin. */
  PLUGIN_RESTART_REPREPARE("re-prepare after plugin restart"),

  /**
   * A DaemonSet rolling update on this node: a new pod (new pod UID) starts and publishes while
   * the old one serves, then the old one stops.
   */
  UPGRADE_HANDOVER("upgrade handover (new pod starts, publishes; old stops)"),

  /** The kubelet unprepares the claim (its pod ended). */
  UNPREPARE("unprepare"),

  /** The driver pod stops ({@code KubeletPlugin.close()}). */
  SHUTDOWN("shutdown");

  private final String label;

  NodeEvent(String label) {
    this.label = label;
  }

  /**
   * The row heading.
   *
   * @return for example {@code re-prepare after plugin restart}
   */
  public String label() {
    return label;
  }

  /**
   * Lets a node go through this event.
   *
   * @param node the node
   * @throws Exception if the node's plugin fails
   */
  void apply(DriverNode node) throws Exception {
    switch (this) {
      case START -> node.start();
      case PUBLISH -> node.publish();
      case PREPARE, KUBELET_RESTART_REPREPARE, PLUGIN_RESTART_REPREPARE -> node.prepare();
      case PLUGIN_RESTART -> node.restartPlugin();
      case UPGRADE_HANDOVER -> node.upgrade();
      case UNPREPARE -> node.unprepare();
      case SHUTDOWN -> node.shutdown();
      default -> throw new IllegalStateException("unknown event " + this);
    }
  }
}
