package io.github.dra4j.webhook.internal.tls;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a TLS certificate chain and its private key from PEM text, in the forms cert-manager and
 * openssl write: certificates as {@code CERTIFICATE} blocks, the leaf first; the key as PKCS #8
 * ({@code PRIVATE KEY}), PKCS #1 ({@code RSA PRIVATE KEY}, cert-manager's default) or SEC 1
 * ({@code EC PRIVATE KEY}). Encrypted keys are refused: a webhook pod has no one to type a
 * password. Stateless.
 */
public final class PemFiles {

  private static final Pattern BLOCK = Pattern.compile(
      "-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\\s]*?)-----END \\1-----");
  private static final byte[] RSA_ENCRYPTION = Der.encode(Der.OID,
      new byte[] {0x2A, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xF7, 0x0D,
          0x01, 0x01, 0x01});
  private static final byte[] EC_PUBLIC_KEY = Der.encode(Der.OID,
      new byte[] {0x2A, (byte) 0x86, 0x48, (byte) 0xCE, 0x3D, 0x02, 0x01});
  private static final byte[] VERSION_0 = Der.encode(Der.INTEGER, new byte[] {0});

  private PemFiles() {}

  /** A certificate chain with its private key, checked to belong together. */
  // The chain goes to the TLS context as the array it wants; an identity is never compared.
  @SuppressWarnings("ArrayRecordComponent")
  public record Identity(PrivateKey key, X509Certificate[] chain) {}

  /**
   * Reads and checks a key pair.
   *
   * @param certificatePem the certificate file's text
   * @param keyPem the key file's text
   * @param certificateName how to name the certificate file in messages
   * @param keyName how to name the key file in messages
   * @return the identity
   * @throws IllegalArgumentException naming the file and what is wrong with it
   */
  public static Identity read(String certificatePem, String keyPem, String certificateName,
      String keyName) {
    X509Certificate[] chain = certificates(certificatePem, certificateName);
    PrivateKey key = privateKey(keyPem, keyName);
    if (!matches(key, chain[0])) {
      throw new IllegalArgumentException("private key " + keyName
          + " does not belong to the certificate in " + certificateName + " ("
          + chain[0].getSubjectX500Principal().getName() + ")");
    }
    return new Identity(key, chain);
  }

  static X509Certificate[] certificates(String pem, String name) {
    List<X509Certificate> chain = new ArrayList<>();
    CertificateFactory factory;
    try {
      factory = CertificateFactory.getInstance("X.509");
    } catch (CertificateException e) {
      throw new IllegalStateException("no X.509 support in this JDK", e);
    }
    Matcher blocks = BLOCK.matcher(pem);
    while (blocks.find()) {
      if (!blocks.group(1).equals("CERTIFICATE")) {
        continue;
      }
      try {
        chain.add((X509Certificate) factory.generateCertificate(
            new ByteArrayInputStream(decode(blocks.group(2), name))));
      } catch (CertificateException e) {
        throw new IllegalArgumentException("certificate " + (chain.size() + 1) + " in " + name
            + " cannot be read: " + e.getMessage(), e);
      }
    }
    if (chain.isEmpty()) {
      throw new IllegalArgumentException(name + " holds no PEM CERTIFICATE block");
    }
    return chain.toArray(X509Certificate[]::new);
  }

  static PrivateKey privateKey(String pem, String name) {
    Matcher blocks = BLOCK.matcher(pem);
    while (blocks.find()) {
      String type = blocks.group(1);
      switch (type) {
        case "PRIVATE KEY" -> {
          return pkcs8(decode(blocks.group(2), name), name);
        }
        case "RSA PRIVATE KEY" -> {
          return pkcs8(
              Der.encode(
                  Der.SEQUENCE,
                  VERSION_0,
                  Der.encode(Der.SEQUENCE, RSA_ENCRYPTION, Der.encode(Der.NULL)),
                  Der.encode(Der.OCTET_STRING, decode(blocks.group(2), name))),
              name);
        }
        case "EC PRIVATE KEY" -> {
          return pkcs8(sec1ToPkcs8(decode(blocks.group(2), name), name), name);
        }
        case "ENCRYPTED PRIVATE KEY" ->
          throw new IllegalArgumentException(
              name
                  + " holds an encrypted private key; "
                  + "the webhook needs it unencrypted, as cert-manager writes it");
        default -> {
          // EC PARAMETERS and other blocks before the key are skipped.
        }
      }
    }
    throw new IllegalArgumentException(name + " holds no PEM PRIVATE KEY, RSA PRIVATE KEY or "
        + "EC PRIVATE KEY block");
  }

  private static byte[] sec1ToPkcs8(byte[] sec1, String name) {
    byte[] curve = null;
    try {
      for (Der.Element element : Der.sequence(sec1)) {
        if (element.tag() == Der.CONTEXT_0) {
          curve = element.content();
        }
      }
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("EC private key in " + name + " cannot be read: "
          + e.getMessage(), e);
    }
    if (curve == null) {
      throw new IllegalArgumentException("EC private key in " + name
          + " does not name its curve");
    }
    return Der.encode(Der.SEQUENCE, VERSION_0, Der.encode(Der.SEQUENCE, EC_PUBLIC_KEY, curve),
        Der.encode(Der.OCTET_STRING, sec1));
  }

  private static PrivateKey pkcs8(byte[] der, String name) {
    PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
    for (String algorithm : List.of("RSA", "EC", "Ed25519")) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(spec);
      } catch (GeneralSecurityException | ClassCastException e) {
        // not this algorithm; try the next
      }
    }
    throw new IllegalArgumentException("private key in " + name
        + " is not an RSA, EC or Ed25519 key this JDK can read");
  }

  private static byte[] decode(String base64, String name) {
    try {
      return Base64.getMimeDecoder().decode(base64.getBytes(StandardCharsets.US_ASCII));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(name + " holds a PEM block that is not base64: "
          + e.getMessage(), e);
    }
  }

  /** Whether the key signs what the certificate's public key verifies. */
  private static boolean matches(PrivateKey key, X509Certificate certificate) {
    String algorithm = switch (key.getAlgorithm()) {
      case "RSA" -> "SHA256withRSA";
      case "EC" -> "SHA256withECDSA";
      case "Ed25519", "EdDSA" -> "Ed25519";
      default -> null;
    };
    if (algorithm == null) {
      return false;
    }
    try {
      byte[] challenge = "dra4j webhook key check".getBytes(StandardCharsets.US_ASCII);
      Signature signer = Signature.getInstance(algorithm);
      signer.initSign(key);
      signer.update(challenge);
      byte[] signature = signer.sign();
      Signature verifier = Signature.getInstance(algorithm);
      verifier.initVerify(certificate.getPublicKey());
      verifier.update(challenge);
      return verifier.verify(signature);
    } catch (GeneralSecurityException e) {
      return false;
    }
  }
}
