package io.github.dra4j.webhook.internal.tls;

import io.github.dra4j.core.file.BoundedFileReader;
import io.github.dra4j.core.file.RefusedFileException;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * The server's TLS key and certificate chain, read from two PEM files and read again by {@link
 * #reloadIfChanged()} when their contents change, so that connections opened after a rotation
 * (cert-manager rewrites the files of a mounted Secret in place) get the new certificate without a
 * restart. Connections already open keep the certificate they started with.
 *
 * <p>Each load is a generation with its own alias, and the previous generation stays readable, so
 * a handshake that picked an alias just before a reload still gets the key and chain of that
 * alias. A change that cannot be read, or whose key does not match its certificate (a writer that
 * has replaced one file but not yet the other), keeps the current generation. Thread-safe: the
 * TLS engine calls it from any thread while one thread reloads.
 */
public final class ReloadingKeyManager extends X509ExtendedKeyManager {

  /** The most either file may hold: far more than any chain a webhook serves. */
  static final int MAX_FILE_BYTES = 1 << 20;

  private final Path certificateFile;
  private final Path keyFile;
  private final String certificateName;
  private final String keyName;
  private final Object reloadLock = new Object();
  private volatile Generation current;
  private volatile Generation previous;
  /** Digest of the file contents last looked at, loaded or not; guarded by reloadLock. */
  private byte[] lastSeen;

  private ReloadingKeyManager(Path certificateFile, Path keyFile, String certificateName,
      String keyName, Generation first, byte[] digest) {
    this.certificateFile = certificateFile;
    this.keyFile = keyFile;
    this.certificateName = certificateName;
    this.keyName = keyName;
    this.current = first;
    this.previous = first;
    this.lastSeen = digest;
  }

  /**
   * Loads the files for the first time.
   *
   * @param certificateFile the PEM certificate chain, leaf first
   * @param keyFile the PEM private key
   * @param certificateName how messages name the certificate file, such as {@code
   *     TLS_CERT_FILE="/tls/tls.crt"}
   * @param keyName how messages name the key file
   * @return the key manager
   * @throws IOException if a file cannot be read, its message naming the file and why in one
   *     line, such as {@code TLS_CERT_FILE="/tls/tls.crt": no such file}
   * @throws IllegalArgumentException naming the file and what is wrong with its content
   */
  public static ReloadingKeyManager load(Path certificateFile, Path keyFile,
      String certificateName, String keyName) throws IOException {
    Contents contents = Contents.read(certificateFile, keyFile, certificateName, keyName);
    return new ReloadingKeyManager(certificateFile, keyFile, certificateName, keyName,
        Generation.of(1, contents.parse(certificateName, keyName)), contents.digest());
  }

  /**
   * Reads the files again and switches to their contents if they changed.
   *
   * @return true if a new certificate is in use, false if the files are unchanged
   * @throws IOException if a file cannot be read; the current certificate stays
   * @throws IllegalArgumentException if the changed contents are unusable; the current
   *     certificate stays, and the same contents are not reported again
   */
  public boolean reloadIfChanged() throws IOException {
    synchronized (reloadLock) {
      Contents contents = Contents.read(certificateFile, keyFile, certificateName, keyName);
      byte[] digest = contents.digest();
      if (Arrays.equals(digest, lastSeen)) {
        return false;
      }
      lastSeen = digest;
      PemFiles.Identity identity = contents.parse(certificateName, keyName);
      Generation next = Generation.of(current.number() + 1, identity);
      previous = current;
      current = next;
      return true;
    }
  }

  /**
   * The leaf certificate new connections get.
   *
   * @return the current certificate
   */
  public X509Certificate certificate() {
    return current.identity().chain()[0];
  }

  @Override
  public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
    return current.delegate().chooseEngineServerAlias(keyType, issuers, engine);
  }

  @Override
  public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
    return current.delegate().chooseServerAlias(keyType, issuers, socket);
  }

  @Override
  public String[] getServerAliases(String keyType, Principal[] issuers) {
    return current.delegate().getServerAliases(keyType, issuers);
  }

  @Override
  public X509Certificate[] getCertificateChain(String alias) {
    Generation generation = byAlias(alias);
    return generation == null ? null : generation.identity().chain().clone();
  }

  @Override
  public PrivateKey getPrivateKey(String alias) {
    Generation generation = byAlias(alias);
    return generation == null ? null : generation.identity().key();
  }

  @Override
  public String[] getClientAliases(String keyType, Principal[] issuers) {
    return null;
  }

  @Override
  public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
    return null;
  }

  @Override
  public String chooseEngineClientAlias(String[] keyType, Principal[] issuers,
      SSLEngine engine) {
    return null;
  }

  private Generation byAlias(String alias) {
    Generation now = current;
    if (now.alias().equals(alias)) {
      return now;
    }
    Generation before = previous;
    return before.alias().equals(alias) ? before : null;
  }

  /** One loaded key pair and the JDK key manager that picks it for a handshake. */
  private record Generation(int number, String alias, PemFiles.Identity identity,
      X509ExtendedKeyManager delegate) {

    static Generation of(int number, PemFiles.Identity identity) {
      String alias = "webhook-" + number;
      try {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        char[] password = new char[0];
        store.setKeyEntry(alias, identity.key(), password, identity.chain());
        KeyManagerFactory factory = KeyManagerFactory.getInstance("SunX509");
        factory.init(store, password);
        for (KeyManager manager : factory.getKeyManagers()) {
          if (manager instanceof X509ExtendedKeyManager extended) {
            return new Generation(number, alias, identity, extended);
          }
        }
        throw new IllegalStateException("the JDK offers no X509ExtendedKeyManager");
      } catch (GeneralSecurityException | IOException e) {
        throw new IllegalArgumentException("cannot use the key and certificate: "
            + e.getMessage(), e);
      }
    }
  }

  /** The text of both files. */
  private record Contents(String certificate, String key) {

    static Contents read(Path certificateFile, Path keyFile, String certificateName,
        String keyName) throws IOException {
      return new Contents(text(certificateFile, certificateName), text(keyFile, keyName));
    }

    /**
     * One file's text: bounded and never a FIFO (a mounted Secret's files are links, which are
     * followed); Latin-1 decodes any bytes, and what is not PEM is then reported by the parser.
     */
    private static String text(Path file, String name) throws IOException {
      try {
        return new String(BoundedFileReader.read(file, MAX_FILE_BYTES),
            StandardCharsets.ISO_8859_1);
      } catch (NoSuchFileException e) {
        throw new IOException(name + ": no such file", e);
      } catch (AccessDeniedException e) {
        throw new IOException(name + ": cannot read it: permission denied", e);
      } catch (RefusedFileException e) {
        throw new IOException(name + ": " + e.getReason(), e);
      } catch (IOException e) {
        throw new IOException(name + ": cannot read it: " + e, e);
      }
    }

    PemFiles.Identity parse(String certificateName, String keyName) {
      return PemFiles.read(certificate, key, certificateName, keyName);
    }

    byte[] digest() {
      try {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        sha.update(certificate.getBytes(StandardCharsets.ISO_8859_1));
        sha.update((byte) 0);
        sha.update(key.getBytes(StandardCharsets.ISO_8859_1));
        return sha.digest();
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("no SHA-256 in this JDK", e);
      }
    }
  }
}
