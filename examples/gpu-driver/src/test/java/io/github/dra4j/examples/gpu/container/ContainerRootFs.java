package io.github.dra4j.examples.gpu.container;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A root file system for test containers, like a CUDA image's as far as the dynamic linker is
 * concerned: a C library and its loader, {@code /sbin/ldconfig}, {@code /etc/ld.so.conf} with its
 * {@code ld.so.conf.d} and a linker cache. No shell.
 *
 * <p>On Debian it is made from Debian packages ({@code libc6}, {@code libc-bin}) of the host's
 * release with {@code mmdebstrap --variant=extract}, about 4 s with a network, and kept in {@code
 * ~/.cache/dra4j/container-rootfs} so later runs copy it in well under a second. Elsewhere, or when
 * that fails (no {@code mmdebstrap}, no network), the host's own loader, C library, {@code
 * ldconfig} and {@code ld.so.conf} files are copied. Either way the C library matches the one the
 * test programs were compiled against. The system property {@value #SOURCE_PROPERTY}{@code =host}
 * forces the host copy. Immutable: {@link #copyTo} gives each container its own
 * writable copy.
 *
 * @param template the prepared file system, never handed to a container
 * @param source how it was made, for test reports
 */
public record ContainerRootFs(Path template, String source) {
  /** System property that, set to {@code host}, makes {@link #prepare} copy the host's files. */
  public static final String SOURCE_PROPERTY = "dra4j.container.rootfs";

  private static final Logger LOG = LoggerFactory.getLogger(ContainerRootFs.class);
  private static final Pattern LDD_PATH = Pattern.compile("(?:=>\\s*)?(/\\S+)\\s+\\(0x");

  /**
   * Prepares the file system: the cached Debian one, else a new Debian one cached under {@code
   * cacheDir}, else a copy of the host's files under {@code workDir}.
   *
   * @param cacheDir e.g. {@code ~/.cache/dra4j/container-rootfs}
   * @param workDir a scratch directory for the host copy
   * @return the file system
   * @throws IOException if neither can be made
   * @throws InterruptedException if interrupted while building
   */
  public static ContainerRootFs prepare(Path cacheDir, Path workDir)
      throws IOException, InterruptedException {
    Optional<String> codename = debianCodename();
    String why;
    if ("host".equals(System.getProperty(SOURCE_PROPERTY))) {
      why = SOURCE_PROPERTY + "=host";
    } else if (codename.isEmpty()) {
      why = "the host is no Debian";
    } else {
      String arch = run(Duration.ofSeconds(10), "dpkg", "--print-architecture").strip();
      Path cached = cacheDir.resolve("debian-" + codename.get() + "-" + arch + "-v1");
      String source = "Debian " + codename.get() + " (libc6, libc-bin) from mmdebstrap, cached in "
          + cached;
      if (Files.isExecutable(cached.resolve("sbin/ldconfig"))) {
        return new ContainerRootFs(cached, source);
      }
      try {
        buildDebian(codename.get(), cached);
        return new ContainerRootFs(cached, source);
      } catch (IOException e) {
        why = e.getMessage();
        LOG.info("No Debian root file system ({}); copying the host's C library instead", why);
      }
    }
    Path host = workDir.resolve("host-rootfs");
    copyHostLibc(host);
    return new ContainerRootFs(host, "the host's loader, libc and ldconfig (" + why + ")");
  }

  /**
   * Copies the file system into a new directory, keeping links and modes.
   *
   * @param dir the directory to create
   * @return {@code dir}
   * @throws IOException if copying fails
   * @throws InterruptedException if interrupted
   */
  public Path copyTo(Path dir) throws IOException, InterruptedException {
    Files.createDirectories(dir);
    run(Duration.ofSeconds(60), "cp", "-a", template + "/.", dir.toString());
    return dir;
  }

  /**
   * Deletes a copy made by {@link #copyTo} (its absolute links point out of the directory, which
   * JUnit's temporary directory clean-up warns about).
   *
   * @param copy the copy; nothing happens if it does not exist
   * @throws IOException if it cannot be deleted
   * @throws InterruptedException if interrupted
   */
  public static void delete(Path copy) throws IOException, InterruptedException {
    if (Files.exists(copy, LinkOption.NOFOLLOW_LINKS)) {
      run(Duration.ofSeconds(60), "rm", "-rf", "--one-file-system", copy.toString());
    }
  }

  private static Optional<String> debianCodename() throws IOException {
    Path osRelease = Path.of("/etc/os-release");
    if (!Files.isReadable(osRelease)) {
      return Optional.empty();
    }
    boolean debian = false;
    String codename = null;
    for (String line : Files.readAllLines(osRelease, StandardCharsets.UTF_8)) {
      String value = line.substring(line.indexOf('=') + 1).replace("\"", "");
      if (line.startsWith("ID=")) {
        debian = value.equals("debian");
      } else if (line.startsWith("VERSION_CODENAME=") && value.matches("[a-z]+")) {
        codename = value;
      }
    }
    return debian ? Optional.ofNullable(codename) : Optional.empty();
  }

  private static void buildDebian(String codename, Path target)
      throws IOException, InterruptedException {
    Files.createDirectories(target.getParent());
    Path building = Files.createTempDirectory(target.getParent(), ".building-");
    try {
      run(Duration.ofMinutes(3), "mmdebstrap", "--quiet", "--variant=extract",
          "--include=libc6,libc-bin", codename, building.toString());
      // an image has no device nodes (the runtime mounts a tmpfs on /dev) ...
      deleteTree(building.resolve("dev"));
      Files.createDirectories(building.resolve("dev"));
      // ... and a linker cache, as its package installation leaves it
      run(Duration.ofSeconds(30), building.resolve("sbin/ldconfig").toString(), "-r",
          building.toString());
      Files.move(building, target, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      if (!Files.isExecutable(target.resolve("sbin/ldconfig"))) {
        throw e;
      }
      // another build finished first; use that one
    } finally {
      deleteTree(building);
    }
  }

  private static void copyHostLibc(Path root) throws IOException, InterruptedException {
    deleteTree(root);
    List<Path> files = new ArrayList<>();
    Matcher matcher = LDD_PATH.matcher(run(Duration.ofSeconds(10), "ldd", "/bin/sh"));
    while (matcher.find()) {
      files.add(Path.of(matcher.group(1)));
    }
    Path ldconfig = Stream.of("/sbin/ldconfig.real", "/sbin/ldconfig", "/usr/sbin/ldconfig")
        .map(Path::of).filter(Files::isExecutable).findFirst()
        .orElseThrow(() -> new IOException("no ldconfig on this host"));
    files.add(Path.of("/etc/ld.so.conf"));
    Path confDir = Path.of("/etc/ld.so.conf.d");
    if (Files.isDirectory(confDir)) {
      try (Stream<Path> confs = Files.list(confDir)) {
        confs.filter(Files::isRegularFile).forEach(files::add);
      }
    }
    for (Path file : files) {
      copyFollowingLinks(file, root.resolve(file.toString().substring(1)));
    }
    copyFollowingLinks(ldconfig, root.resolve("sbin/ldconfig"));
    Files.createDirectories(root.resolve("etc/ld.so.conf.d"));
    run(Duration.ofSeconds(30), root.resolve("sbin/ldconfig").toString(), "-r", root.toString());
  }

  private static void copyFollowingLinks(Path from, Path to) throws IOException {
    Files.createDirectories(to.getParent());
    Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }

  private static String run(Duration timeout, String... command)
      throws IOException, InterruptedException {
    Path output = Files.createTempFile("rootfs-command-", ".out");
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true)
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
          .redirectOutput(output.toFile()).start();
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        throw new IOException("timed out after " + timeout + ": " + String.join(" ", command));
      }
      String text = Files.readString(output, StandardCharsets.UTF_8);
      if (process.exitValue() != 0) {
        throw new IOException(String.join(" ", command) + " exited with " + process.exitValue()
            + ": " + text.strip());
      }
      return text;
    } finally {
      Files.deleteIfExists(output);
    }
  }
}
