package io.github.dra4j.testing.tls;

/** The algorithm of a key a {@link TestCertificateAuthority} makes. */
public enum KeyAlgorithm {
  /** ECDSA on the P-256 curve, cert-manager's {@code privateKey.algorithm: ECDSA}. */
  EC,
  /** RSA with 2048-bit keys, cert-manager's default. */
  RSA
}
