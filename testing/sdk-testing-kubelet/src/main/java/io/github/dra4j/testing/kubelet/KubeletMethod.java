package io.github.dra4j.testing.kubelet;

/** The gRPC methods the kubelet calls on a plugin, as recorded in the {@link CallLog}. */
public enum KubeletMethod {
  /** {@code pluginregistration.Registration/GetInfo} on the registration socket. */
  GET_INFO("GetInfo"),
  /** {@code pluginregistration.Registration/NotifyRegistrationStatus} on the registration socket */
  NOTIFY_REGISTRATION_STATUS("NotifyRegistrationStatus"),
  /** {@code DRAPlugin/NodePrepareResources} (v1 or v1beta1) on the endpoint. */
  NODE_PREPARE_RESOURCES("NodePrepareResources"),
  /** {@code DRAPlugin/NodeUnprepareResources} (v1 or v1beta1) on the endpoint. */
  NODE_UNPREPARE_RESOURCES("NodeUnprepareResources"),
  /** {@code DRAResourceHealth/NodeWatchResources} (v1 or v1alpha1), a server stream. */
  NODE_WATCH_RESOURCES("NodeWatchResources");

  private final String bareName;

  KubeletMethod(String bareName) {
    this.bareName = bareName;
  }

  /**
   * The method name without its service, as in the gRPC path.
   *
   * @return for example {@code NodePrepareResources}
   */
  public String bareName() {
    return bareName;
  }

  /**
   * The method with the given bare name.
   *
   * @param bareName a gRPC method name without service
   * @return the method
   * @throws IllegalArgumentException if the kubelet never calls such a method
   */
  static KubeletMethod ofBareName(String bareName) {
    for (KubeletMethod method : values()) {
      if (method.bareName.equals(bareName)) {
        return method;
      }
    }
    throw new IllegalArgumentException("not a kubelet-to-plugin method: " + bareName);
  }
}
