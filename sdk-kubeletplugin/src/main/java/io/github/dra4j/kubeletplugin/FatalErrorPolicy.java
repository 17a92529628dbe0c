package io.github.dra4j.kubeletplugin;

/**
 * What the plugin does after it reported a fatal background error to {@link
 * DraDriver#handleError}: an error that is not a {@link RecoverableException}, such as a socket
 * that was deleted or replaced, after which the kubelet can no longer reach the plugin.
 * Recoverable errors (ResourceSlice publishing, retried by the SDK) never trigger it.
 *
 * @see ShutdownOptions#fatalErrorPolicy()
 */
public enum FatalErrorPolicy {
  /**
   * Only report: the driver decides (the Go helper's behaviour). A plugin whose socket is gone
   * stays broken until the driver acts or a liveness probe restarts the pod.
   */
  REPORT,

  /**
   * Report, then close the plugin: its sockets are removed, {@link KubeletPlugin#awaitTermination}
   * returns and {@link KubeletPlugin#failure()} tells why, so the driver's {@code main} can end.
   * The default.
   */
  CLOSE,

  /**
   * Report, close the plugin as {@link #CLOSE} does, then exit the JVM with status 1, so the pod
   * is restarted at once and the restart shows as a failure. Before exiting, the plugin waits up
   * to {@link ShutdownOptions#gracePeriod()} for the threads it released from {@link
   * KubeletPlugin#awaitTermination} to finish what follows (a {@code main}'s cleanup); the JVM
   * exits with status 1 even if {@code main} returns first.
   */
  EXIT
}
