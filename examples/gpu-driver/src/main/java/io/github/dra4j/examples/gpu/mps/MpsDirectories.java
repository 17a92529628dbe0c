package io.github.dra4j.examples.gpu.mps;

import io.github.dra4j.cdi.spec.ContainerEdits;
import io.github.dra4j.cdi.spec.Mount;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The directories of one MPS daemon, {@code <plugin dir>/mps/<id>/}: {@code pipe} (the daemon's
 * {@code CUDA_MPS_PIPE_DIRECTORY}, shared with the claim's containers), {@code log} (its {@code
 * CUDA_MPS_LOG_DIRECTORY}, never given to containers) and {@code shm} (the daemon's and the
 * containers' {@code /dev/shm}), and the CDI edits that give a container the first and the last.
 * Static helpers; only touch the given directory.
 */
public final class MpsDirectories {

  /** Where a container finds the daemon's pipe directory, and its {@code CUDA_MPS_PIPE_DIRECTORY}. */
  public static final String CONTAINER_PIPE_DIRECTORY = "/tmp/nvidia-mps";

  /** The daemon's pid file in its pipe directory. */
  public static final String PID_FILE = "nvidia-cuda-mps-control.pid";

  private MpsDirectories() {}

  /**
   * Where the daemons' directories are.
   *
   * @param pluginDataDirectory the plugin's data directory
   * @return {@code <plugin dir>/mps}
   */
  public static Path root(Path pluginDataDirectory) {
    return pluginDataDirectory.resolve("mps");
  }

  /**
   * The pipe directory.
   *
   * @param directory a daemon's directory
   * @return {@code <directory>/pipe}
   */
  public static Path pipe(Path directory) {
    return directory.resolve("pipe");
  }

  /**
   * The log directory.
   *
   * @param directory a daemon's directory
   * @return {@code <directory>/log}
   */
  public static Path log(Path directory) {
    return directory.resolve("log");
  }

  /**
   * The shared-memory directory.
   *
   * @param directory a daemon's directory
   * @return {@code <directory>/shm}
   */
  public static Path shm(Path directory) {
    return directory.resolve("shm");
  }

  /**
   * Creates the three directories: {@code pipe} and {@code log} {@code rwxr-xr-x}, {@code shm}
   * {@code rwxrwxrwt} like {@code /dev/shm}, so that clients of any user can share memory.
   *
   * @param directory a daemon's directory
   * @throws IOException if one cannot be created
   */
  static void create(Path directory) throws IOException {
    var open = PosixFilePermissions.fromString("rwxr-xr-x");
    for (Path dir : new Path[] {directory, pipe(directory), log(directory)}) {
      Files.createDirectories(dir);
      Files.setPosixFilePermissions(dir, open);
    }
    Path shm = Files.createDirectories(shm(directory));
    try {
      Files.setAttribute(shm, "unix:mode", 01777); // sticky, like /dev/shm
    } catch (UnsupportedOperationException | IllegalArgumentException e) {
      Files.setPosixFilePermissions(shm, PosixFilePermissions.fromString("rwxrwxrwx"));
    }
  }

  /**
   * What each container of the group gets: {@code CUDA_MPS_PIPE_DIRECTORY=/tmp/nvidia-mps}, the
   * pipe directory bound there, and the shared-memory directory bound on {@code /dev/shm}, both
   * {@code rw,nosuid,nodev,bind}. The log directory is not given.
   *
   * @param directory a daemon's directory, as the host sees it (the plugin data directory has the
   *     same path in the plugin's container and on the host)
   * @return the edits
   */
  public static ContainerEdits containerEdits(Path directory) {
    return ContainerEdits.builder()
        .env("CUDA_MPS_PIPE_DIRECTORY", CONTAINER_PIPE_DIRECTORY)
        .mount(Mount.bind(pipe(directory).toString(), CONTAINER_PIPE_DIRECTORY, "rw", "nosuid",
            "nodev", "bind"))
        .mount(Mount.bind(shm(directory).toString(), "/dev/shm", "rw", "nosuid", "nodev",
            "bind"))
        .build();
  }

  /**
   * Removes a daemon's directory and everything in it, without following symbolic links; a
   * missing directory is fine.
   *
   * @param directory a daemon's directory
   * @throws IOException if something cannot be removed
   */
  public static void remove(Path directory) throws IOException {
    if (!Files.exists(directory, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    Files.walkFileTree(directory, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        Files.deleteIfExists(file);
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
        if (e instanceof NoSuchFileException) {
          return FileVisitResult.CONTINUE;
        }
        throw e;
      }

      @Override
      public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
        if (e != null && !(e instanceof NoSuchFileException)) {
          throw e;
        }
        Files.deleteIfExists(dir);
        return FileVisitResult.CONTINUE;
      }
    });
  }
}
