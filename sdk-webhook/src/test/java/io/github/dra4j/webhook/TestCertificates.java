package io.github.dra4j.webhook;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.sec.ECPrivateKey;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.io.pem.PemObject;

/**
 * A test CA that issues server certificates for {@code localhost}, written as PEM in the key
 * encodings cert-manager and openssl use, made with BouncyCastle (an implementation independent of
 * the JDK's that the webhook reads them with). One per test; not thread-safe.
 */
final class TestCertificates {

  /** How a private key is written. */
  enum KeyEncoding {
    /** {@code BEGIN PRIVATE KEY}. */
    PKCS8,
    /** {@code BEGIN RSA PRIVATE KEY} or {@code BEGIN EC PRIVATE KEY}. */
    TRADITIONAL
  }

  /** The key algorithm. */
  enum Algorithm {
    RSA, EC
  }

  private static final AtomicLong SERIALS = new AtomicLong(System.nanoTime());

  private final KeyPair caKeys;
  private final X509Certificate ca;

  TestCertificates() throws Exception {
    caKeys = keys(Algorithm.EC);
    X500Name name = new X500Name("CN=dra4j test CA");
    Instant now = Instant.now();
    JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(name,
        BigInteger.valueOf(SERIALS.incrementAndGet()), Date.from(now.minus(1, ChronoUnit.HOURS)),
        Date.from(now.plus(1, ChronoUnit.DAYS)), name, caKeys.getPublic());
    builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
    ca = sign(builder, caKeys.getPrivate());
  }

  /** A server certificate and its key. */
  record Issued(X509Certificate certificate, PrivateKey key) {}

  Issued issue(Algorithm algorithm, String commonName) throws Exception {
    KeyPair keys = keys(algorithm);
    Instant now = Instant.now();
    JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
        new X500Name("CN=dra4j test CA"), BigInteger.valueOf(SERIALS.incrementAndGet()),
        Date.from(now.minus(1, ChronoUnit.HOURS)), Date.from(now.plus(1, ChronoUnit.DAYS)),
        new X500Name("CN=" + commonName), keys.getPublic());
    builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(
        new GeneralName[] {new GeneralName(GeneralName.dNSName, "localhost"),
            new GeneralName(GeneralName.iPAddress, "127.0.0.1")}));
    return new Issued(sign(builder, caKeys.getPrivate()), keys.getPrivate());
  }

  /** Writes the certificate (with the CA after it) and the key. */
  void write(Issued issued, KeyEncoding encoding, Path certificateFile, Path keyFile)
      throws IOException {
    Files.writeString(certificateFile, pem(issued.certificate()) + pem(ca));
    Files.writeString(keyFile, keyPem(issued.key(), encoding));
  }

  static String pem(Object object) throws IOException {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      writer.writeObject(object);
    }
    return out.toString();
  }

  static String keyPem(PrivateKey key, KeyEncoding encoding) throws IOException {
    if (encoding == KeyEncoding.PKCS8) {
      PemObject pkcs8 = new JcaPKCS8Generator(key, null).generate();
      return pem(pkcs8);
    }
    PrivateKeyInfo info = PrivateKeyInfo.getInstance(key.getEncoded());
    if (key.getAlgorithm().equals("RSA")) {
      return pem(new PemObject("RSA PRIVATE KEY",
          info.parsePrivateKey().toASN1Primitive().getEncoded()));
    }
    // SEC 1 with the curve's name inside, as openssl and Go's x509 (cert-manager) write it.
    ECPrivateKey inner = ECPrivateKey.getInstance(info.parsePrivateKey());
    ECPrivateKey sec1 = new ECPrivateKey(256, inner.getKey(),
        info.getPrivateKeyAlgorithm().getParameters());
    return pem(new PemObject("EC PRIVATE KEY", sec1.getEncoded()));
  }

  X509Certificate ca() {
    return ca;
  }

  String caPem() throws IOException {
    return pem(ca);
  }

  /** A client TLS context that trusts only this CA. */
  SSLContext clientContext() throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("ca", ca);
    TrustManagerFactory factory = TrustManagerFactory
        .getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, factory.getTrustManagers(), null);
    return context;
  }

  private static KeyPair keys(Algorithm algorithm) throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance(algorithm.name());
    if (algorithm == Algorithm.EC) {
      generator.initialize(new ECGenParameterSpec("secp256r1"));
    } else {
      generator.initialize(2048);
    }
    return generator.generateKeyPair();
  }

  private static X509Certificate sign(JcaX509v3CertificateBuilder builder, PrivateKey key)
      throws Exception {
    return new JcaX509CertificateConverter().getCertificate(
        builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(key)));
  }
}
