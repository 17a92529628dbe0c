package io.github.dra4j.kubeletplugin.spi;

import io.github.dra4j.kubeletplugin.PluginStartException;
import io.github.dra4j.kubeletplugin.internal.env.PluginEnvironment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Checks the directories a plugin writes to before it writes anything, so that a directory the
 * pod does not have (a hostPath not mounted, a setting pointing elsewhere) stops the start with
 * one line naming the path and the setting, instead of after CDI specs or a checkpoint were
 * written somewhere the kubelet and the container runtime never look. The plugin checks the
 * directories of its sockets; a driver checks those it writes to in {@link
 * io.github.dra4j.kubeletplugin.DraDriver#start}. Stateless.
 */
public final class DirectoryChecks {

  /** How the plugin data directory is set, for {@code setting} in a check's message. */
  public static final String PLUGIN_DATA_DIRECTORY_SETTING = "KubeletPluginBuilder.pluginDataDirectory or "
      + PluginEnvironment.PLUGINS_DIRECTORY;

  /** How the plugin's CDI directory is set, for {@code setting} in a check's message. */
  public static final String CDI_DIRECTORY_SETTING = "KubeletPluginBuilder.cdiDirectory or "
      + PluginEnvironment.CDI_ROOT;

  private DirectoryChecks() {}

  /**
   * A directory someone else creates (the kubelet's registration directory): it must exist and be
   * writable.
   *
   * @param directory the directory
   * @param what what it is, such as {@code kubelet registration directory}
   * @param setting how it is set, such as {@code registrarDirectory(...) or
   *     KUBELET_REGISTRAR_DIRECTORY_PATH}
   * @throws PluginStartException naming the path and the setting
   */
  public static void existing(Path directory, String what, String setting) {
    Path absolute = directory.toAbsolutePath();
    if (!Files.isDirectory(absolute)) {
      throw new PluginStartException(what + " " + absolute + " " + (Files.exists(absolute)
          ? "is not a directory" : "does not exist") + " (set by " + setting + "): mount it"
          + " into the pod or change the setting");
    }
    writable(absolute, what, setting);
  }

  /**
   * A directory the plugin creates if it is missing (its data directory, the CDI directory): it
   * must be a writable directory, or be missing in a writable directory.
   *
   * @param directory the directory
   * @param what what it is, such as {@code CDI directory}
   * @param setting how it is set, such as {@code cdiDirectory(...) or CDI_ROOT}
   * @throws PluginStartException naming the path and the setting
   */
  public static void creatable(Path directory, String what, String setting) {
    Path absolute = directory.toAbsolutePath();
    if (Files.isDirectory(absolute)) {
      writable(absolute, what, setting);
      return;
    }
    if (Files.exists(absolute)) {
      throw new PluginStartException(what + " " + absolute + " is not a directory (set by "
          + setting + ")");
    }
    Path parent = absolute.getParent();
    if (parent == null || !Files.isDirectory(parent)) {
      throw new PluginStartException(what + " " + absolute + " does not exist, nor does its"
          + " parent " + parent + " (set by " + setting + "): mount the host's directory into"
          + " the pod or change the setting");
    }
    if (!Files.isWritable(parent)) {
      throw new PluginStartException(what + " " + absolute + " does not exist and cannot be"
          + " created: " + parent + " is not writable (set by " + setting + ")");
    }
  }

  private static void writable(Path directory, String what, String setting) {
    if (!Files.isWritable(directory)) {
      throw new PluginStartException(what + " " + directory + " is not writable"
          + (readOnlyFileSystem(directory) ? ": Read-only file system" : "") + " (set by "
          + setting + ")");
    }
  }

  private static boolean readOnlyFileSystem(Path directory) {
    try {
      return Files.getFileStore(directory).isReadOnly();
    } catch (IOException e) {
      return false;
    }
  }
}
