package io.github.dra4j.testing.tls;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.security.PrivateKey;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.sec.ECPrivateKey;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.util.io.pem.PemObject;

/** PEM text of certificates and keys, written with BouncyCastle. Stateless. */
final class Pem {

  private Pem() {}

  /** A certificate or another object BouncyCastle's PEM writer knows, as PEM. */
  static String of(Object object) {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      writer.writeObject(object);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  /** A private key in the given encoding. */
  static String key(PrivateKey key, KeyEncoding encoding) {
    try {
      if (encoding == KeyEncoding.PKCS8) {
        return of(new JcaPKCS8Generator(key, null).generate());
      }
      PrivateKeyInfo info = PrivateKeyInfo.getInstance(key.getEncoded());
      if (key.getAlgorithm().equals("RSA")) {
        return of(new PemObject("RSA PRIVATE KEY",
            info.parsePrivateKey().toASN1Primitive().getEncoded()));
      }
      // SEC 1 with the curve's name inside, as openssl and Go's x509 (cert-manager) write it.
      ECPrivateKey inner = ECPrivateKey.getInstance(info.parsePrivateKey());
      ECPrivateKey sec1 = new ECPrivateKey(256, inner.getKey(),
          info.getPrivateKeyAlgorithm().getParameters());
      return of(new PemObject("EC PRIVATE KEY", sec1.getEncoded()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
