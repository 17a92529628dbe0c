package io.github.dra4j.core.file;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes the temporary files a crashed writer left in a directory, e.g. at start-up. A writer
 * killed between creating its temporary file and renaming it leaves the file behind; nothing
 * else removes it. Only regular files (not links or directories) directly in the directory whose
 * whole name matches the pattern and that were last modified at least a minimum age ago are
 * removed, so a write in progress in another process is not disturbed. Stateless.
 */
public final class LeftoverFiles {
  private static final Logger LOG = LoggerFactory.getLogger(LeftoverFiles.class);

  private LeftoverFiles() {}

  /**
   * Removes the temporary files {@link AtomicFileWriter} creates ({@link
   * AtomicFileWriter#TEMPORARY_FILE_NAMES}) that are at least {@code minimumAge} old.
   *
   * @param directory the directory; a missing one has no leftovers
   * @param minimumAge how old a file must be to count as left behind; pick more than the
   *     longest write takes, e.g. a minute
   * @return the files removed, sorted by name
   * @throws IOException if the directory cannot be read or a file cannot be removed
   */
  public static List<Path> removeTemporaryFiles(Path directory, Duration minimumAge)
      throws IOException {
    return remove(directory, AtomicFileWriter.TEMPORARY_FILE_NAMES, minimumAge);
  }

  /**
   * Removes the regular files of a directory whose whole name matches a pattern and that are at
   * least {@code minimumAge} old, e.g. the temporary files of an older naming scheme.
   *
   * @param directory the directory; a missing one has no leftovers
   * @param names the pattern the whole file name must match
   * @param minimumAge how old a file must be (last modification) to be removed
   * @return the files removed, sorted by name
   * @throws IOException if the directory cannot be read or a file cannot be removed
   */
  public static List<Path> remove(Path directory, Pattern names, Duration minimumAge)
      throws IOException {
    Objects.requireNonNull(names, "names");
    Instant cutoff = Instant.now().minus(Objects.requireNonNull(minimumAge, "minimumAge"));
    List<Path> removed = new ArrayList<>();
    if (!Files.isDirectory(directory)) {
      return removed;
    }
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory,
        entry -> names.matcher(entry.getFileName().toString()).matches())) {
      for (Path entry : entries) {
        BasicFileAttributes attributes;
        try {
          attributes = Files.readAttributes(entry, BasicFileAttributes.class,
              LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
          continue; // renamed or removed by its writer meanwhile
        }
        if (attributes.isRegularFile()
            && attributes.lastModifiedTime().toInstant().isBefore(cutoff)
            && Files.deleteIfExists(entry)) {
          LOG.info("removed leftover temporary file {}", entry);
          removed.add(entry);
        }
      }
    }
    removed.sort(Comparator.comparing(Path::getFileName));
    return removed;
  }
}
