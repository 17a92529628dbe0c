package io.github.dra4j.testing.node;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;

/**
 * The directory a simulated node keeps its kubelet directories in: {@code
 * <java.io.tmpdir>/dra4j-<6 random letters>}, readable by its owner only. Short on purpose: a
 * plugin's sockets live below it ({@code plugins/<driver>/dra-<hash>.sock}) and a socket path
 * has 107 bytes at most, so with {@code /tmp} a driver name of the full 63 characters still
 * fits. Stateless.
 */
final class NodeDirectory {

  private static final int ATTEMPTS = 100;

  private NodeDirectory() {}

  /** Creates a new, empty directory that no other node uses. */
  static Path create() throws IOException {
    Path parent = Path.of(System.getProperty("java.io.tmpdir"));
    SecureRandom random = new SecureRandom();
    for (int attempt = 1;; attempt++) {
      StringBuilder name = new StringBuilder("dra4j-");
      for (int i = 0; i < 6; i++) {
        name.append((char) ('a' + random.nextInt(26)));
      }
      try {
        return Files.createDirectory(parent.resolve(name.toString()),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      } catch (FileAlreadyExistsException e) {
        if (attempt == ATTEMPTS) {
          throw e;
        }
      }
    }
  }
}
