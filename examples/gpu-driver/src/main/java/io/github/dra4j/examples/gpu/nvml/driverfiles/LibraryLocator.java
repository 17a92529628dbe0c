package io.github.dra4j.examples.gpu.nvml.driverfiles;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * Finds the driver's libraries of one version under a driver root: first through the root's
 * linker cache ({@code /etc/ld.so.cache}), then, for the names the cache does not have (or all,
 * if the cache is missing or refused), by listing the usual library directories. A library is
 * the regular file {@code <name>.<version>} (the name before the version, such as {@code
 * libcuda.so}); files of another version are never taken. Each name is taken from one directory
 * only: the first the cache or the search finds it in. Used by one thread, once.
 */
final class LibraryLocator {

  /** The linker cache, inside the root. */
  static final String CACHE = "/etc/ld.so.cache";

  /** Where libraries are searched without the cache, inside the root, in this order. */
  static final List<String> SEARCH_DIRS = List.of("/usr/lib64", "/usr/lib/x86_64-linux-gnu",
      "/usr/lib/aarch64-linux-gnu", "/usr/lib/x86_64-linux-gnu/nvidia/current",
      "/usr/lib/aarch64-linux-gnu/nvidia/current", "/lib64", "/lib/x86_64-linux-gnu",
      "/lib/aarch64-linux-gnu", "/usr/lib64/vdpau", "/usr/lib/x86_64-linux-gnu/vdpau",
      "/usr/lib/aarch64-linux-gnu/vdpau", "/usr/lib", "/lib");

  /** The most entries read from one directory. */
  static final int MAX_DIRECTORY_ENTRIES = 100_000;

  private static final Pattern LINK_SUFFIX = Pattern.compile("\\d{1,9}(\\.\\d{1,9}){0,3}");

  private final DriverRootFs fs;
  private final DriverVersion version;
  private final OptionalInt architecture;
  private final Consumer<String> notes;
  private final Map<String, Found> found = new LinkedHashMap<>();
  private final Map<String, String> directoryOfName = new LinkedHashMap<>();

  /**
   * @param architecture the cache flag of this machine's 64-bit libraries; empty to skip the
   *     cache
   * @param notes receives one line per thing skipped or refused
   */
  LibraryLocator(DriverRootFs fs, DriverVersion version, OptionalInt architecture,
      Consumer<String> notes) {
    this.fs = fs;
    this.version = version;
    this.architecture = architecture;
    this.notes = notes;
  }

  private static final class Found {
    final String name;
    final String source;
    final Set<String> links = new TreeSet<>();

    Found(String name, String source) {
      this.name = name;
      this.source = source;
    }
  }

  /** The libraries of the given names that exist, in the order of the names, then by path. */
  List<DriverLibrary> locate(List<String> names) {
    readCache().ifPresent(cache -> fromCache(cache, names));
    List<String> missing = names.stream().filter(n -> !directoryOfName.containsKey(n)).toList();
    if (!missing.isEmpty()) {
      search(missing);
    }
    List<DriverLibrary> libraries = new ArrayList<>();
    found.forEach((path, f) -> libraries.add(new DriverLibrary(f.name, path,
        List.copyOf(f.links), f.source)));
    libraries.sort(Comparator.comparingInt((DriverLibrary l) -> names.indexOf(l.name()))
        .thenComparing(DriverLibrary::path));
    return List.copyOf(libraries);
  }

  private Optional<LdCache> readCache() {
    Path file = fs.inContainer(CACHE);
    if (architecture.isEmpty()) {
      notes.accept("the linker cache is not read on architecture "
          + System.getProperty("os.arch") + "; searching " + String.join(", ", SEARCH_DIRS));
      return Optional.empty();
    }
    try {
      return Optional.of(LdCache.read(file));
    } catch (NoSuchFileException e) {
      notes.accept("no linker cache " + file + "; searching " + String.join(", ", SEARCH_DIRS));
    } catch (LdCacheException e) {
      notes.accept("refused the linker cache: " + e.getMessage() + "; searching "
          + String.join(", ", SEARCH_DIRS));
    } catch (IOException e) {
      notes.accept("cannot read the linker cache " + file + " (" + e + "); searching "
          + String.join(", ", SEARCH_DIRS));
    }
    return Optional.empty();
  }

  private void fromCache(LdCache cache, List<String> names) {
    for (LdCache.Entry entry : cache.entries()) {
      if (!entry.isElfFor(architecture.getAsInt())) {
        continue;
      }
      Optional<String> real = fs.regularFile(entry.value());
      if (real.isEmpty()) {
        continue;
      }
      String file = fileName(real.get());
      for (String name : names) {
        if (isVersioned(file, name) && add(name, real.get(), "ld.so.cache")) {
          String key = entry.key();
          if (!key.equals(file) && isLink(key, name) && !key.contains("/")) {
            found.get(real.get()).links.add(key);
          }
        }
      }
    }
  }

  private void search(List<String> names) {
    Set<String> seen = new LinkedHashSet<>();
    for (String dir : SEARCH_DIRS) {
      Optional<String> realDir = fs.realPath(dir);
      if (realDir.isEmpty() || !seen.add(realDir.get())
          || !Files.isDirectory(fs.inContainer(realDir.get()))) {
        continue;
      }
      List<String> files = list(realDir.get());
      for (String name : names) {
        String owner = directoryOfName.get(name);
        if (owner != null && !owner.equals(realDir.get())) {
          continue;
        }
        for (String file : files) {
          if (isVersioned(file, name)) {
            fs.regularFile(child(realDir.get(), file)).filter(this::isElf64)
                .ifPresent(real -> add(name, real, "search"));
          }
        }
        for (String file : files) {
          if (isLink(file, name)) {
            fs.regularFile(child(realDir.get(), file)).ifPresent(real -> {
              Found library = found.get(real);
              if (library != null && library.name.equals(name) && !file.equals(fileName(real))) {
                library.links.add(file);
              }
            });
          }
        }
      }
    }
  }

  /** Adds a hit unless its name was found in another directory; true if it is (now) there. */
  private boolean add(String name, String real, String source) {
    String dir = real.substring(0, real.lastIndexOf('/'));
    String owner = directoryOfName.putIfAbsent(name, dir);
    if (owner != null && !owner.equals(dir)) {
      return false;
    }
    found.putIfAbsent(real, new Found(name, source));
    return found.get(real).name.equals(name);
  }

  private List<String> list(String dir) {
    List<String> names = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(fs.inContainer(dir))) {
      for (Path entry : entries) {
        if (names.size() >= MAX_DIRECTORY_ENTRIES) {
          notes.accept(fs.inContainer(dir) + " has more than " + MAX_DIRECTORY_ENTRIES
              + " entries; the rest are not searched");
          break;
        }
        names.add(entry.getFileName().toString());
      }
    } catch (IOException e) {
      notes.accept("cannot list " + fs.inContainer(dir) + " (" + e + "); skipped");
    }
    names.sort(null);
    return names;
  }

  /** Whether the file starts like a 64-bit ELF file. */
  private boolean isElf64(String real) {
    try (InputStream in = Files.newInputStream(fs.inContainer(real))) {
      byte[] head = in.readNBytes(5);
      return head.length == 5 && head[0] == 0x7f && head[1] == 'E' && head[2] == 'L'
          && head[3] == 'F' && head[4] == 2;
    } catch (IOException e) {
      return false;
    }
  }

  private boolean isVersioned(String file, String name) {
    return file.startsWith(name + ".") && version.matches(file.substring(name.length() + 1));
  }

  private static boolean isLink(String file, String name) {
    return file.startsWith(name + ".")
        && LINK_SUFFIX.matcher(file.substring(name.length() + 1)).matches();
  }

  private static String child(String dir, String name) {
    return dir.equals("/") ? "/" + name : dir + "/" + name;
  }

  static String fileName(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }
}
