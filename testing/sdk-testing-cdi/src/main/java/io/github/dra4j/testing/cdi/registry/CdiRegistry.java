package io.github.dra4j.testing.cdi.registry;

import io.github.dra4j.cdi.spec.ContainerEdits;
import io.github.dra4j.testing.cdi.injection.ContainerEditor;
import io.github.dra4j.testing.cdi.injection.HostDeviceNodes;
import io.github.dra4j.testing.cdi.injection.OciContainer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The devices a container runtime would see in a set of spec directories: loaded the way the
 * reference CDI cache loads them, and resolved the way it injects them. Lets driver tests assert
 * exactly what a container gets from the specs a driver wrote.
 *
 * <pre>{@code
 * CdiRegistry registry = CdiRegistry.load(List.of(etcCdi, varRunCdi));
 * OciContainer seen = registry.inject(List.of("example.com/gpu=gpu0"), OciContainer.empty());
 * }</pre>
 *
 * <p>Loading: directories are scanned in the given order, which is their priority (later wins);
 * files ending {@code .json} or {@code .yaml} (not {@code .yml}, no sub-directories) in lexical
 * order, each parsed as the runtimes' CDI library parses it ({@link
 * io.github.dra4j.cdi.codec.SpecCodec}). A file that fails to read, parse or validate is skipped
 * and its error recorded under its path, like a broken symbolic link or a link to a directory.
 * A directory named like a spec file, which runtimes skip silently, is reported too. A spec
 * directory that is itself a symbolic link is not followed, as runtimes do not follow it. A device in a
 * higher-priority directory shadows the same device in a lower one. A device defined by two files
 * of one directory is unresolvable, even if a higher-priority directory also defines it, and both
 * files get an error; the files' other devices stay.
 *
 * <p>An instance is an immutable snapshot of the directories at load time and is thread-safe;
 * load again to see changes.
 */
public final class CdiRegistry {
  /** The runtimes' default spec directories, lowest priority first. */
  public static final List<Path> DEFAULT_SPEC_DIRECTORIES = List.of(Path.of("/etc/cdi"),
      Path.of("/var/run/cdi"));

  private final List<SpecFile> specFiles;
  private final Map<Path, List<String>> errors;
  private final Map<String, RegisteredDevice> devices;

  private CdiRegistry(SpecDirectoryScan scan) {
    this.specFiles = List.copyOf(scan.files);
    Map<Path, List<String>> errorCopy = new LinkedHashMap<>();
    scan.errors.forEach((path, list) -> errorCopy.put(path, List.copyOf(list)));
    this.errors = Collections.unmodifiableMap(errorCopy);
    this.devices = Map.copyOf(scan.devices);
  }

  /**
   * Loads spec directories. Missing directories are skipped.
   *
   * @param directories the directories, lowest priority first (e.g. {@code /etc/cdi} then {@code
   *     /var/run/cdi})
   * @return the registry
   */
  public static CdiRegistry load(List<Path> directories) {
    SpecDirectoryScan scan = new SpecDirectoryScan();
    scan.scan(directories);
    return new CdiRegistry(scan);
  }

  /**
   * Loads {@link #DEFAULT_SPEC_DIRECTORIES}.
   *
   * @return the registry
   */
  public static CdiRegistry loadDefault() {
    return load(DEFAULT_SPEC_DIRECTORIES);
  }

  /**
   * Returns the files that loaded, in scan order, including files whose devices are all shadowed
   * or in conflict.
   *
   * @return the files
   */
  public List<SpecFile> specFiles() {
    return specFiles;
  }

  /**
   * Returns the errors per file (or directory), in the order found: entries that are no readable
   * files, parse and validation errors and device conflicts.
   *
   * @return path to its error messages
   */
  public Map<Path, List<String>> errors() {
    return errors;
  }

  /**
   * Returns the errors of one file.
   *
   * @param path the file
   * @return its error messages; empty if none
   */
  public List<String> errors(Path path) {
    return errors.getOrDefault(path, List.of());
  }

  /**
   * Returns the names of all resolvable devices.
   *
   * @return qualified names, sorted
   */
  public SortedSet<String> deviceNames() {
    return Collections.unmodifiableSortedSet(new TreeSet<>(devices.keySet()));
  }

  /**
   * Looks up a device by its exact qualified name.
   *
   * @param qualifiedName e.g. {@code example.com/gpu=gpu0}
   * @return the device, or empty if unknown or in conflict
   */
  public Optional<RegisteredDevice> device(String qualifiedName) {
    return Optional.ofNullable(devices.get(qualifiedName));
  }

  /**
   * Resolves device names to the merged edits a runtime applies: walking the names in order, a
   * spec's own edits are added the first time one of its devices is met, then the device's
   * edits. A name requested twice contributes twice.
   *
   * @param qualifiedNames the requested device names
   * @return the devices and merged edits
   * @throws UnresolvableDevicesException listing every name that did not resolve
   */
  public ResolvedDevices resolve(List<String> qualifiedNames) {
    List<String> missing = new ArrayList<>();
    List<RegisteredDevice> found = new ArrayList<>();
    for (String name : qualifiedNames) {
      RegisteredDevice device = devices.get(name);
      if (device == null) {
        missing.add(name);
      } else {
        found.add(device);
      }
    }
    if (!missing.isEmpty()) {
      throw new UnresolvableDevicesException(missing);
    }
    Set<Path> specsSeen = new HashSet<>();
    ContainerEdits.Builder edits = ContainerEdits.builder();
    for (RegisteredDevice device : found) {
      if (specsSeen.add(device.specFile().path())) {
        edits.edits(device.specFile().spec().containerEdits());
      }
      edits.edits(device.device().containerEdits());
    }
    return new ResolvedDevices(found, edits.build());
  }

  /**
   * Injects devices into a container the way a runtime on this machine would, completing device
   * nodes from this machine's {@code /dev}.
   *
   * @param qualifiedNames the requested device names
   * @param container the container before injection
   * @return the container after injection
   * @throws UnresolvableDevicesException if a name does not resolve (nothing is applied)
   * @throws io.github.dra4j.testing.cdi.injection.InjectionException if a device node cannot be
   *     completed
   */
  public OciContainer inject(List<String> qualifiedNames, OciContainer container) {
    return inject(qualifiedNames, container, HostDeviceNodes.linux());
  }

  /**
   * Injects devices into a container, completing device nodes from a given host.
   *
   * @param qualifiedNames the requested device names
   * @param container the container before injection
   * @param host the host lookup for device node completion
   * @return the container after injection
   * @throws UnresolvableDevicesException if a name does not resolve (nothing is applied)
   * @throws io.github.dra4j.testing.cdi.injection.InjectionException if a device node cannot be
   *     completed
   */
  public OciContainer inject(
      List<String> qualifiedNames, OciContainer container, HostDeviceNodes host) {
    return new ContainerEditor(host).apply(container, resolve(qualifiedNames).edits());
  }
}
