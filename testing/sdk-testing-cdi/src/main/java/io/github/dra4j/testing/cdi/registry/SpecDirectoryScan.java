package io.github.dra4j.testing.cdi.registry;

import io.github.dra4j.cdi.codec.SpecCodec;
import io.github.dra4j.cdi.name.Kind;
import io.github.dra4j.cdi.name.QualifiedDeviceName;
import io.github.dra4j.cdi.spec.CdiSpec;
import io.github.dra4j.cdi.spec.Device;
import io.github.dra4j.cdi.validation.SpecValidator;
import io.github.dra4j.cdi.validation.ValidationRules;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One scan of spec directories with the reference cache's rules. Used once by {@link
 * CdiRegistry#load}; not thread-safe.
 */
final class SpecDirectoryScan {
  private static final Logger LOG = LoggerFactory.getLogger(SpecDirectoryScan.class);

  private final SpecCodec codec = SpecCodec.standard();
  final List<SpecFile> files = new ArrayList<>();
  final Map<Path, List<String>> errors = new LinkedHashMap<>();
  final Map<String, RegisteredDevice> devices = new HashMap<>();
  private final Set<String> conflicts = new HashSet<>();

  void scan(List<Path> directories) {
    for (int priority = 0; priority < directories.size(); priority++) {
      Path directory = directories.get(priority);
      for (Path file : specFiles(directory)) {
        load(file, priority);
      }
    }
    conflicts.forEach(devices::remove);
  }

  /**
   * The entries named *.json or *.yaml of a directory that runtimes read, in lexical order; no
   * recursion. Like the reference scan, a link is followed when the file is read, and an entry
   * that cannot be read as a file (a broken link, a link to a directory, a socket) is an error of
   * its path. A directory with such a name is skipped by runtimes; it is reported too, since it
   * is almost always a mount of a missing file gone wrong. A spec directory that is itself a
   * symbolic link is not followed by the reference scan, so none of its files load.
   */
  private List<Path> specFiles(Path directory) {
    List<Path> found = new ArrayList<>();
    if (Files.isSymbolicLink(directory)) {
      if (Files.isDirectory(directory)) {
        error(directory, "the spec directory is a symbolic link; runtimes do not follow it, so"
            + " none of its spec files are loaded");
      }
      return found;
    }
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (name.endsWith(".json") || name.endsWith(".yaml")) {
          found.add(entry);
        }
      }
    } catch (NoSuchFileException | NotDirectoryException e) {
      return found;
    } catch (IOException e) {
      error(directory, "failed to read CDI spec directory: " + e);
    }
    found.sort((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()));
    found.removeIf(entry -> !readable(entry));
    return found;
  }

  /** True for a regular file or a link to one; anything else is reported as an error. */
  private boolean readable(Path entry) {
    if (Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
      error(entry, "is a directory, not a spec file: runtimes skip it, so no spec is loaded from"
          + " this path (a bind mount of a file that did not exist creates such a directory)");
      return false;
    }
    boolean link = Files.isSymbolicLink(entry);
    if (Files.isRegularFile(entry)) {
      return true;
    }
    if (link && !Files.exists(entry)) {
      error(entry, "failed to load CDI spec: the symbolic link's target does not exist");
    } else if (Files.isDirectory(entry)) {
      error(entry, "failed to load CDI spec: the symbolic link points to a directory");
    } else {
      error(entry, "failed to load CDI spec: not a regular file");
    }
    return false;
  }

  private void load(Path path, int priority) {
    CdiSpec spec;
    try {
      spec = codec.read(path);
      SpecValidator.check(spec, ValidationRules.RUNTIME, path.toString());
    } catch (IOException | IllegalArgumentException e) {
      error(path, e.getMessage());
      return;
    }
    SpecFile file = new SpecFile(path, priority, spec);
    files.add(file);
    Kind kind = spec.parsedKind();
    for (Device device : spec.devices()) {
      QualifiedDeviceName name = kind.device(device.name());
      RegisteredDevice candidate = new RegisteredDevice(name, device, file);
      RegisteredDevice existing = devices.get(name.toString());
      if (existing != null && !overrides(candidate, existing)) {
        continue;
      }
      devices.put(name.toString(), candidate);
    }
  }

  /**
   * The library's conflict rule: a higher-priority directory shadows a lower one; two files of
   * the same directory defining one device make it unresolvable and both files get an error.
   */
  private boolean overrides(RegisteredDevice candidate, RegisteredDevice existing) {
    int candidatePriority = candidate.specFile().priority();
    int existingPriority = existing.specFile().priority();
    if (candidatePriority > existingPriority) {
      return true;
    }
    if (candidatePriority == existingPriority) {
      Path a = candidate.specFile().path();
      Path b = existing.specFile().path();
      String message = "conflicting device \"" + candidate.name() + "\" (specs \"" + a
          + "\", \"" + b + "\")";
      error(a, message);
      error(b, message);
      conflicts.add(candidate.name().toString());
    }
    return false;
  }

  private void error(Path path, String message) {
    LOG.warn("CDI spec {}: {}", path, message);
    errors.computeIfAbsent(path, p -> new ArrayList<>()).add(message);
  }
}
