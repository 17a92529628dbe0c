package io.github.dra4j.kubeletplugin;

import io.github.dra4j.core.option.OptionChecks;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * The plugin's two Unix sockets: their file names and mode, how often the plugin checks they are
 * still its own, and what each socket's server lets its clients hold. The directories they live
 * in are the builder's ({@link KubeletPluginBuilder#registrarDirectory}, {@link
 * KubeletPluginBuilder#pluginDataDirectory}). Set with {@link KubeletPluginBuilder#sockets}.
 *
 * @param registrarSocketFilename the registration socket's file name; empty for {@code
 *     <driver>-reg.sock} (or a per-pod name in rolling-update mode, which does not allow setting
 *     it)
 * @param pluginSocket the DRA socket's file name; empty for {@code dra.sock} (or {@code
 *     dra-<podUID>.sock} in rolling-update mode)
 * @param permissions the file mode of both sockets; default {@code rw-------}: only the owner
 *     (root, like the kubelet) may connect
 * @param checkInterval how often the plugin checks that its socket files are still there; a
 *     removed or replaced socket is reported to {@link DraDriver#handleError} as fatal. Default 5 s
 * @param draLimits what the DRA socket's server lets its clients hold; default {@link
 *     ServerLimits#DRA_SOCKET}
 * @param registrationLimits what the registration socket's server lets its clients hold; default
 *     {@link ServerLimits#REGISTRATION_SOCKET}
 */
public record SocketOptions(
    String registrarSocketFilename,
    String pluginSocket,
    Set<PosixFilePermission> permissions,
    Duration checkInterval,
    ServerLimits draLimits,
    ServerLimits registrationLimits) {

  /** The defaults. */
  public static final SocketOptions DEFAULTS = new SocketOptions("", "",
      PosixFilePermissions.fromString("rw-------"), Duration.ofSeconds(5),
      ServerLimits.DRA_SOCKET, ServerLimits.REGISTRATION_SOCKET);

  /**
   * Checks the options.
   *
   * @param registrarSocketFilename the registration socket's file name; empty for the default
   * @param pluginSocket the DRA socket's file name; empty for the default
   * @param permissions the file mode of both sockets
   * @param checkInterval how often the socket files are checked
   * @param draLimits the DRA socket server's limits
   * @param registrationLimits the registration socket server's limits
   * @throws NullPointerException naming an option that is null
   * @throws IllegalArgumentException if {@code checkInterval} is not positive
   */
  public SocketOptions {
    Objects.requireNonNull(registrarSocketFilename, "registrarSocketFilename");
    Objects.requireNonNull(pluginSocket, "pluginSocket");
    permissions = Set.copyOf(Objects.requireNonNull(permissions, "socketPermissions"));
    OptionChecks.positive(checkInterval, "socketCheckInterval");
    Objects.requireNonNull(draLimits, "draSocketLimits");
    Objects.requireNonNull(registrationLimits, "registrationSocketLimits");
  }

  /**
   * These options with another registration socket file name.
   *
   * @param name the file name; empty for the default
   * @return the new options
   */
  public SocketOptions withRegistrarSocketFilename(String name) {
    return new SocketOptions(name, pluginSocket, permissions, checkInterval, draLimits,
        registrationLimits);
  }

  /**
   * These options with another DRA socket file name.
   *
   * @param name the file name; empty for the default
   * @return the new options
   */
  public SocketOptions withPluginSocket(String name) {
    return new SocketOptions(registrarSocketFilename, name, permissions, checkInterval, draLimits,
        registrationLimits);
  }

  /**
   * These options with another socket file mode.
   *
   * @param mode the mode of both sockets
   * @return the new options
   */
  public SocketOptions withPermissions(Set<PosixFilePermission> mode) {
    return new SocketOptions(registrarSocketFilename, pluginSocket, mode, checkInterval,
        draLimits, registrationLimits);
  }

  /**
   * These options with another socket check interval.
   *
   * @param interval a positive duration
   * @return the new options
   */
  public SocketOptions withCheckInterval(Duration interval) {
    return new SocketOptions(registrarSocketFilename, pluginSocket, permissions, interval,
        draLimits, registrationLimits);
  }

  /**
   * These options with other limits of the DRA socket's server.
   *
   * @param limits the limits
   * @return the new options
   */
  public SocketOptions withDraLimits(ServerLimits limits) {
    return new SocketOptions(registrarSocketFilename, pluginSocket, permissions, checkInterval,
        limits, registrationLimits);
  }

  /**
   * These options with other limits of the registration socket's server.
   *
   * @param limits the limits
   * @return the new options
   */
  public SocketOptions withRegistrationLimits(ServerLimits limits) {
    return new SocketOptions(registrarSocketFilename, pluginSocket, permissions, checkInterval,
        draLimits, limits);
  }
}
