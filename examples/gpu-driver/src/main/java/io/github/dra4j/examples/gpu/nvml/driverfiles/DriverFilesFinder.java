package io.github.dra4j.examples.gpu.nvml.driverfiles;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds what containers need of the NVIDIA driver's installation under a driver root, for the
 * running driver version:
 *
 * <ul>
 *   <li>the libraries of each {@link DriverCapability} chosen, of exactly that version ({@link
 *       LibraryLocator}: linker cache first, then the usual library directories);
 *   <li>their binaries, the first of each in {@link #BIN_DIRS};
 *   <li>the GSP firmware {@code /lib/firmware/nvidia/<version>/gsp*.bin};
 *   <li>the IPC sockets of {@code nvidia-persistenced} and the fabric manager under {@code /run}
 *       or {@code /var/run} (not a host-wide MPS pipe directory: the driver runs one MPS daemon
 *       per shared claim and mounts its pipe directory into that claim's containers only);
 *   <li>{@code nvidia-cdi-hook}: the configured host path, or the first in {@link #BIN_DIRS}.
 * </ul>
 *
 * <p>Whatever is missing is skipped with one log line (also in {@link DriverFiles#notes()});
 * only a missing required library ({@link DriverCapability#requiredLibrary()}) is an error.
 * Stateless; only reads the file system.
 */
public final class DriverFilesFinder {

  /** Where binaries and the hook are looked up inside the root, in this order. */
  public static final List<String> BIN_DIRS = List.of("/usr/bin", "/usr/sbin", "/usr/local/bin",
      "/usr/local/sbin", "/bin", "/sbin", "/opt/bin");

  /** The hook's file name. */
  public static final String HOOK_NAME = "nvidia-cdi-hook";

  /** Where the firmware directories are looked up inside the root, in this order. */
  static final List<String> FIRMWARE_DIRS = List.of("/lib/firmware/nvidia",
      "/usr/lib/firmware/nvidia");

  /** The daemons' sockets inside the root; the first existing of each pair is taken. */
  static final List<List<String>> SOCKETS = List.of(
      List.of("/run/nvidia-persistenced/socket", "/var/run/nvidia-persistenced/socket"),
      List.of("/run/nvidia-fabricmanager/socket", "/var/run/nvidia-fabricmanager/socket"));

  private static final Logger LOG = LoggerFactory.getLogger(DriverFilesFinder.class);

  private final DriverRootFs fs;
  private final OptionalInt architecture;

  /**
   * A finder for this machine's architecture.
   *
   * @param fs the driver root
   */
  public DriverFilesFinder(DriverRootFs fs) {
    this(fs, LdCache.architectureFlag(System.getProperty("os.arch", "")));
  }

  /**
   * A finder for libraries of the given linker-cache architecture.
   *
   * @param fs the driver root
   * @param architecture the cache flag of the 64-bit libraries to take ({@link
   *     LdCache#architectureFlag}); empty to search directories only
   */
  public DriverFilesFinder(DriverRootFs fs, OptionalInt architecture) {
    this.fs = fs;
    this.architecture = architecture;
  }

  /**
   * Finds the files, logging each thing skipped.
   *
   * @param version the running driver's version, from NVML
   * @param options which capabilities, and the hook
   * @return what was found
   * @throws DriverFilesException if a required library of a chosen capability is missing,
   *     naming the linker cache and every directory tried
   */
  public DriverFiles find(DriverVersion version, DriverFilesOptions options)
      throws DriverFilesException {
    List<String> notes = new ArrayList<>();
    List<DriverCapability> capabilities = List.of(DriverCapability.values()).stream()
        .filter(options.capabilities()::contains).toList();
    List<String> names = capabilities.stream().flatMap(c -> c.libraries().stream()).toList();
    List<DriverLibrary> libraries = new LibraryLocator(fs, version, architecture,
        note -> warn(notes, note)).locate(names);
    requireLibraries(capabilities, libraries, version);
    Set<String> foundNames = new TreeSet<>();
    libraries.forEach(l -> foundNames.add(l.name()));
    List<String> missing = names.stream().filter(n -> !foundNames.contains(n)).toList();
    if (!missing.isEmpty()) {
      info(notes, "libraries of driver " + version + " not found, skipped: "
          + String.join(", ", missing));
    }
    List<DriverFile> files = new ArrayList<>();
    libraries.forEach(l -> files.add(new DriverFile(DriverFile.Kind.LIBRARY, l.path(),
        fs.onHost(l.path()))));
    binaries(capabilities, files, notes);
    firmware(version, files, notes);
    ipc(files);
    Optional<String> hook = hook(options, notes);
    return new DriverFiles(version, libraries, files, hook, notes);
  }

  private void requireLibraries(List<DriverCapability> capabilities,
      List<DriverLibrary> libraries, DriverVersion version) throws DriverFilesException {
    for (DriverCapability capability : capabilities) {
      Optional<String> required = capability.requiredLibrary();
      if (required.isPresent()
          && libraries.stream().noneMatch(l -> l.name().equals(required.get()))) {
        throw new DriverFilesException(required.get() + "." + version + " (needed for the "
            + capability.settingName() + " capability) not found under the driver root "
            + fs.containerRoot() + ": not in its linker cache " + fs.inContainer(
                LibraryLocator.CACHE)
            + " and not in " + String.join(", ",
                LibraryLocator.SEARCH_DIRS.stream().map(d -> fs.inContainer(d).toString())
                    .toList())
            + " (is driver " + version + " installed there, and do"
            + " NVIDIA_DRIVER_ROOT and DRIVER_ROOT_CTR_PATH point at it?)");
      }
    }
  }

  private void binaries(List<DriverCapability> capabilities, List<DriverFile> files,
      List<String> notes) {
    List<String> missing = new ArrayList<>();
    for (DriverCapability capability : capabilities) {
      for (String binary : capability.binaries()) {
        Optional<String[]> hit = executable(binary);
        if (hit.isPresent()) {
          files.add(new DriverFile(DriverFile.Kind.BINARY, hit.get()[0],
              fs.onHost(hit.get()[1])));
        } else {
          missing.add(binary);
        }
      }
    }
    if (!missing.isEmpty()) {
      info(notes, "binaries not found in " + String.join(", ", BIN_DIRS) + ", skipped: "
          + String.join(", ", missing));
    }
  }

  /** The first executable regular file of that name: its path found and its real path. */
  private Optional<String[]> executable(String name) {
    for (String dir : BIN_DIRS) {
      String path = dir + "/" + name;
      Optional<String> real = fs.regularFile(path);
      if (real.isPresent() && Files.isExecutable(fs.inContainer(real.get()))) {
        return Optional.of(new String[] {path, real.get()});
      }
    }
    return Optional.empty();
  }

  private void firmware(DriverVersion version, List<DriverFile> files, List<String> notes) {
    Set<String> seen = new LinkedHashSet<>();
    for (String parent : FIRMWARE_DIRS) {
      Optional<String> realParent = fs.realPath(parent);
      if (realParent.isEmpty() || !Files.isDirectory(fs.inContainer(realParent.get()))) {
        continue;
      }
      for (String dir : children(realParent.get())) {
        if (!version.matches(dir)) {
          continue;
        }
        for (String name : children(realParent.get() + "/" + dir)) {
          if (!name.startsWith("gsp") || !name.endsWith(".bin")) {
            continue;
          }
          String path = parent + "/" + dir + "/" + name;
          fs.regularFile(path).filter(seen::add).ifPresent(real -> files.add(
              new DriverFile(DriverFile.Kind.FIRMWARE, path, fs.onHost(real))));
        }
      }
    }
    if (seen.isEmpty()) {
      info(notes, "no GSP firmware of driver " + version + " in " + String.join(", ",
          FIRMWARE_DIRS.stream().map(d -> d + "/" + version + "/gsp*.bin").toList())
          + " (drivers before 510 and GPUs without GSP need none), skipped");
    }
  }

  private void ipc(List<DriverFile> files) {
    for (List<String> candidates : SOCKETS) {
      for (String path : candidates) {
        Optional<String> real = fs.realPath(path);
        if (real.isPresent() && isSocket(fs.inContainer(real.get()))) {
          files.add(new DriverFile(DriverFile.Kind.SOCKET, path, fs.onHost(real.get())));
          break;
        }
      }
    }
  }

  private static boolean isSocket(Path path) {
    try {
      return Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
          .isOther();
    } catch (IOException e) {
      return false;
    }
  }

  private Optional<String> hook(DriverFilesOptions options, List<String> notes) {
    if (options.hookPath().isPresent()) {
      return options.hookPath();
    }
    Optional<String[]> hit = executable(HOOK_NAME);
    if (hit.isPresent()) {
      return Optional.of(fs.onHost(hit.get()[1]));
    }
    warn(notes, HOOK_NAME + " not found in " + String.join(", ", BIN_DIRS.stream()
        .map(d -> fs.inContainer(d).toString()).toList()) + " and NVIDIA_CDI_HOOK_PATH is not"
        + " set: the CDI spec gets no hooks, so containers get no linker-cache entries for the"
        + " driver's libraries; their SONAME links are mounted as files instead, found only in"
        + " the loader's default directories");
    return Optional.empty();
  }

  private void info(List<String> notes, String note) {
    LOG.info("Driver files under {}: {}", fs.containerRoot(), note);
    notes.add(note);
  }

  private void warn(List<String> notes, String note) {
    LOG.warn("Driver files under {}: {}", fs.containerRoot(), note);
    notes.add(note);
  }

  private List<String> children(String dir) {
    List<String> names = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(fs.inContainer(dir))) {
      for (Path entry : entries) {
        if (names.size() >= LibraryLocator.MAX_DIRECTORY_ENTRIES) {
          break;
        }
        names.add(entry.getFileName().toString());
      }
    } catch (IOException e) {
      return List.of();
    }
    names.sort(null);
    return names;
  }
}
