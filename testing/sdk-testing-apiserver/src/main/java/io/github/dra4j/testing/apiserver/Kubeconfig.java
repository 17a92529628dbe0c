package io.github.dra4j.testing.apiserver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Renders and writes a kubeconfig for a plain-HTTP server URL. Stateless. */
final class Kubeconfig {

  private static final String NAME = "dra4j-in-memory";

  private Kubeconfig() {}

  static String render(String url) {
    return String.join("\n",
        "apiVersion: v1",
        "kind: Config",
        "clusters:",
        "- name: " + NAME,
        "  cluster:",
        "    server: " + url.replaceAll("/$", ""),
        "contexts:",
        "- name: " + NAME,
        "  context:",
        "    cluster: " + NAME,
        "    user: " + NAME,
        "    namespace: default",
        "current-context: " + NAME,
        "preferences: {}",
        "users:",
        "- name: " + NAME,
        "  user:",
        "    token: " + NAME,
        "");
  }

  static Path write(String content, Path file) {
    try {
      Path parent = file.toAbsolutePath().getParent();
      Files.createDirectories(parent);
      Path temp = Files.createTempFile(parent, ".kubeconfig", ".tmp");
      Files.writeString(temp, content, StandardCharsets.UTF_8);
      Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("write kubeconfig \"" + file + "\": " + e.getMessage(), e);
    }
  }
}
