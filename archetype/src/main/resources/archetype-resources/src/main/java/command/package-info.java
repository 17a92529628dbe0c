/**
 * The driver's command line, {@code java -jar <jar> kubelet-plugin | webhook}: every setting a
 * flag that defaults to the environment variable a DaemonSet or Deployment sets.
 */
package ${package}.command;
