package io.github.dra4j.testing.tls;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Objects;

/**
 * A directory laid out as the kubelet mounts a {@code kubernetes.io/tls} Secret, such as the one
 * cert-manager keeps a webhook's certificate in: {@code tls.crt}, {@code tls.key} and {@code
 * ca.crt} are symbolic links through {@code ..data} to a directory holding the current contents.
 * An {@link #update} writes a new directory, swaps {@code ..data} to it with one atomic rename
 * and removes the old one, so a reader sees either the old files or the new ones, never a mix;
 * the link names themselves never change. Tests of a server that reloads its certificate use it
 * to renew the certificate the way a cluster does.
 *
 * <p>Not thread-safe: one test thread updates it (readers may be anywhere).
 */
public final class TlsSecretVolume {

  private static final List<String> FILES = List.of("tls.crt", "tls.key", "ca.crt");

  private final Path directory;
  private Path generation;
  private long generations;

  private TlsSecretVolume(Path directory) {
    this.directory = directory;
  }

  /**
   * Makes an empty volume; {@link #update} puts the first certificate into it.
   *
   * @param directory the directory the Secret is mounted on; created if missing
   * @return the volume
   * @throws IOException if the directory cannot be made
   */
  public static TlsSecretVolume create(Path directory) throws IOException {
    return new TlsSecretVolume(Files.createDirectories(directory));
  }

  /**
   * The certificate chain's file, {@code tls.crt}.
   *
   * @return the path
   */
  public Path certificateFile() {
    return directory.resolve("tls.crt");
  }

  /**
   * The private key's file, {@code tls.key}.
   *
   * @return the path
   */
  public Path keyFile() {
    return directory.resolve("tls.key");
  }

  /**
   * The CA certificate's file, {@code ca.crt}.
   *
   * @return the path
   */
  public Path caFile() {
    return directory.resolve("ca.crt");
  }

  /**
   * Puts a certificate in, its key written as cert-manager writes keys by default ({@link
   * KeyEncoding#TRADITIONAL}).
   *
   * @param issued the certificate, its key and its CA
   * @throws IOException if the files cannot be written
   */
  public void update(IssuedCertificate issued) throws IOException {
    update(issued, KeyEncoding.TRADITIONAL);
  }

  /**
   * Puts a certificate in, replacing the one there as the kubelet does when the Secret changes.
   *
   * @param issued the certificate, its key and its CA
   * @param encoding how the key is written
   * @throws IOException if the files cannot be written
   */
  public void update(IssuedCertificate issued, KeyEncoding encoding) throws IOException {
    Objects.requireNonNull(issued, "issued");
    Path next = Files.createDirectory(directory.resolve("..generation-" + ++generations));
    Files.writeString(next.resolve("tls.crt"), issued.chainPem());
    Files.writeString(next.resolve("tls.key"), issued.keyPem(encoding));
    Files.writeString(next.resolve("ca.crt"), Pem.of(issued.issuer()));
    Path link = Files.createSymbolicLink(directory.resolve("..data_tmp"), next.getFileName());
    Files.move(link, directory.resolve("..data"), StandardCopyOption.ATOMIC_MOVE);
    for (String file : FILES) {
      if (!Files.isSymbolicLink(directory.resolve(file))) {
        Files.createSymbolicLink(directory.resolve(file), Path.of("..data", file));
      }
    }
    if (generation != null) {
      for (String file : FILES) {
        Files.delete(generation.resolve(file));
      }
      Files.delete(generation);
    }
    generation = next;
  }
}
