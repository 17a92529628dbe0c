package io.github.dra4j.testing.tls;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Objects;

/**
 * A server certificate a {@link TestCertificateAuthority} issued, with its private key and the
 * CA's certificate. Immutable.
 *
 * @param certificate the server certificate
 * @param key its private key
 * @param issuer the certificate of the CA that signed it
 */
public record IssuedCertificate(X509Certificate certificate, PrivateKey key,
    X509Certificate issuer) {

  /**
   * Checks that no part is missing.
   *
   * @param certificate the server certificate
   * @param key its private key
   * @param issuer the certificate of the CA that signed it
   */
  public IssuedCertificate {
    Objects.requireNonNull(certificate, "certificate");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(issuer, "issuer");
  }

  /**
   * The chain a server presents, as PEM: this certificate, then the CA's, as cert-manager's CA
   * issuer fills {@code tls.crt}.
   *
   * @return the PEM text
   */
  public String chainPem() {
    return Pem.of(certificate) + Pem.of(issuer);
  }

  /**
   * The private key as PEM.
   *
   * @param encoding how the key is written
   * @return the PEM text
   */
  public String keyPem(KeyEncoding encoding) {
    return Pem.key(key, Objects.requireNonNull(encoding, "encoding"));
  }

  /**
   * Writes the chain and the key to two files, replacing what they held.
   *
   * @param certificateFile where {@link #chainPem()} goes
   * @param keyFile where {@link #keyPem(KeyEncoding)} goes
   * @param encoding how the key is written
   * @throws IOException if a file cannot be written
   */
  public void writeTo(Path certificateFile, Path keyFile, KeyEncoding encoding)
      throws IOException {
    Files.writeString(certificateFile, chainPem());
    Files.writeString(keyFile, keyPem(encoding));
  }
}
