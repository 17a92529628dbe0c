package io.github.dra4j.examples.gpu.nvml.driverfiles;

import io.github.dra4j.cdi.spec.ContainerEdits;
import io.github.dra4j.cdi.spec.Hook;
import io.github.dra4j.cdi.spec.HookName;
import io.github.dra4j.cdi.spec.Mount;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The CDI edits that give a container the driver's files, the node-wide part of every claim's
 * spec:
 *
 * <ul>
 *   <li>each file as a bind mount from its host path to its path inside the driver root: files
 *       read-only ({@code ro, nosuid, nodev, bind}), sockets and pipe directories writable
 *       ({@code nosuid, nodev, rbind, rprivate, noexec});
 *   <li>with {@code nvidia-cdi-hook}, three {@code createContainer} hooks in this order: {@code
 *       create-symlinks} for each library's link names (its SONAME, such as {@code
 *       libcuda.so.1}) and the development links {@code libcuda.so} and {@code
 *       libnvidia-opticalflow.so} (and {@code libGLX_indirect.so.0} with graphics); {@code
 *       enable-cuda-compat} with the host's driver version (with compute); {@code
 *       update-ldcache} with each library directory;
 *   <li>without it (or with {@code create-symlinks} disabled), each link as a second bind mount
 *       of the library under the link's name, so that {@code libcuda.so.1} exists in the
 *       container even though no hook makes the link.
 * </ul>
 */
public final class DriverFileEdits {

  /** The options of read-only file mounts. */
  public static final List<String> FILE_OPTIONS = List.of("ro", "nosuid", "nodev", "bind");

  /** The options of socket and pipe-directory mounts. */
  public static final List<String> IPC_OPTIONS = List.of("nosuid", "nodev", "rbind", "rprivate",
      "noexec");

  /** Development links made beside a library: the library's name before the version. */
  private static final Map<String, String> DEV_LINKS = Map.of(
      "libcuda.so", "libcuda.so.1",
      "libnvidia-opticalflow.so", "libnvidia-opticalflow.so.1");

  private DriverFileEdits() {}

  /**
   * A link to make in the container.
   *
   * @param target what it points to: a file name in the same directory
   * @param link the link's absolute path in the container
   * @param library the library's real path inside the root, for mounting it at the link
   */
  record Link(String target, String link, String library) {}

  /**
   * The edits.
   *
   * @param files what was found
   * @param options the hooks disabled
   * @return the mounts and hooks
   */
  public static ContainerEdits of(DriverFiles files, DriverFilesOptions options) {
    ContainerEdits.Builder edits = ContainerEdits.builder();
    for (DriverFile file : files.files()) {
      List<String> mountOptions = switch (file.kind()) {
        case SOCKET -> IPC_OPTIONS;
        default -> FILE_OPTIONS;
      };
      edits.mount(new Mount(file.hostPath(), file.containerPath(), mountOptions, ""));
    }
    List<Link> links = links(files);
    Optional<String> hook = files.hookPath();
    boolean symlinkHook = hook.isPresent()
        && !options.disabledHooks().contains(CdiHook.CREATE_SYMLINKS);
    if (!symlinkHook) {
      for (Link link : links) {
        edits.mount(new Mount(hostPathOf(files, link.library()), link.link(), FILE_OPTIONS, ""));
      }
    }
    if (hook.isEmpty() || files.libraries().isEmpty()) {
      return edits.build();
    }
    if (symlinkHook && !links.isEmpty()) {
      List<String> args = new ArrayList<>(List.of(DriverFilesFinder.HOOK_NAME,
          CdiHook.CREATE_SYMLINKS.subcommand()));
      links.forEach(l -> args.addAll(List.of("--link", l.target() + "::" + l.link())));
      edits.hook(hook(hook.get(), args));
    }
    boolean compute = files.libraries().stream().anyMatch(l -> l.name().equals("libcuda.so"));
    if (compute && !options.disabledHooks().contains(CdiHook.ENABLE_CUDA_COMPAT)) {
      edits.hook(hook(hook.get(), List.of(DriverFilesFinder.HOOK_NAME,
          CdiHook.ENABLE_CUDA_COMPAT.subcommand(), "--host-driver-version="
              + files.version().text())));
    }
    if (!options.disabledHooks().contains(CdiHook.UPDATE_LDCACHE)) {
      List<String> args = new ArrayList<>(List.of(DriverFilesFinder.HOOK_NAME,
          CdiHook.UPDATE_LDCACHE.subcommand()));
      new TreeSet<>(files.libraries().stream().map(DriverLibrary::directory).toList())
          .forEach(dir -> args.addAll(List.of("--folder", dir)));
      edits.hook(hook(hook.get(), args));
    }
    return edits.build();
  }

  /** Each library's link names, then the development links, then the GLX indirect link. */
  static List<Link> links(DriverFiles files) {
    List<Link> links = new ArrayList<>();
    for (DriverLibrary library : files.libraries()) {
      for (String name : library.links()) {
        links.add(new Link(library.fileName(), child(library.directory(), name),
            library.path()));
      }
    }
    for (DriverLibrary library : files.libraries()) {
      String soname = DEV_LINKS.get(library.name());
      if (soname != null) {
        String target = library.links().contains(soname) ? soname : library.fileName();
        links.add(new Link(target, child(library.directory(), library.name()), library.path()));
      }
      if (library.name().equals("libGLX_nvidia.so")) {
        links.add(new Link(library.fileName(), child(library.directory(),
            "libGLX_indirect.so.0"), library.path()));
      }
    }
    return List.copyOf(links);
  }

  private static String hostPathOf(DriverFiles files, String libraryPath) {
    return files.files().stream()
        .filter(f -> f.kind() == DriverFile.Kind.LIBRARY && f.containerPath().equals(libraryPath))
        .map(DriverFile::hostPath).findFirst().orElseThrow();
  }

  private static Hook hook(String path, List<String> args) {
    return Hook.builder(HookName.CREATE_CONTAINER, path).args(args.toArray(String[]::new))
        .build();
  }

  private static String child(String dir, String name) {
    return dir.equals("/") ? "/" + name : dir + "/" + name;
  }
}
