package io.github.dra4j.testing.tls;

/** How a private key is written as PEM. */
public enum KeyEncoding {
  /** {@code BEGIN PRIVATE KEY}: PKCS #8, cert-manager's {@code privateKey.encoding: PKCS8}. */
  PKCS8,
  /**
   * The algorithm's own form: {@code BEGIN RSA PRIVATE KEY} (PKCS #1) or {@code BEGIN EC PRIVATE
   * KEY} (SEC 1, with the curve's name inside), as openssl and cert-manager's default {@code
   * PKCS1} encoding write them.
   */
  TRADITIONAL
}
