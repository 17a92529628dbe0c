package io.github.dra4j.examples.gpu.command;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
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
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.io.pem.PemObject;

/**
 * A test CA and the volume of the {@code kubernetes.io/tls} Secret cert-manager keeps its
 * certificate in, laid out as the kubelet mounts it: {@code tls.crt}, {@code tls.key} and {@code
 * ca.crt} are links through {@code ..data} to a directory of the current contents, and an update
 * writes a new directory, swaps {@code ..data} at once and removes the old one. Keys are ECDSA
 * P-256 in SEC 1 PEM, as cert-manager writes the chart's {@code privateKey}; all made with
 * BouncyCastle, independent of the JDK code the webhook reads them with. Not thread-safe.
 */
final class WebhookCertificates {

  private static final String[] FILES = {"tls.crt", "tls.key", "ca.crt"};
  private static final X500Name CA_NAME = new X500Name("CN=dra4j webhook test CA");

  private final Path volume;
  private final KeyPair caKeys;
  private final X509Certificate ca;
  private long serial;
  private Path generation;

  /**
   * Creates the CA and an empty volume.
   *
   * @param volume the directory the Secret is mounted on; created
   */
  WebhookCertificates(Path volume) throws Exception {
    this.volume = Files.createDirectories(volume);
    caKeys = keys();
    JcaX509v3CertificateBuilder builder = builder(CA_NAME, caKeys);
    builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
    ca = sign(builder);
  }

  /** The server certificate chain the webhook is given, {@code tls.crt}. */
  Path certificateFile() {
    return volume.resolve("tls.crt");
  }

  /** The server's private key, {@code tls.key}. */
  Path keyFile() {
    return volume.resolve("tls.key");
  }

  /**
   * Issues a server certificate for {@code localhost} (its only name) and puts it with its key
   * into the volume, replacing the previous one as the kubelet does when the Secret changes.
   *
   * @param commonName the certificate's subject CN, to tell certificates apart
   * @return the certificate
   */
  X509Certificate issue(String commonName) throws Exception {
    KeyPair keys = keys();
    JcaX509v3CertificateBuilder builder = builder(new X500Name("CN=" + commonName), keys);
    builder.addExtension(Extension.subjectAlternativeName, false,
        new GeneralNames(new GeneralName(GeneralName.dNSName, "localhost")));
    X509Certificate certificate = sign(builder);
    // The leaf then its CA, as cert-manager's CA issuer fills tls.crt; ca.crt the CA alone.
    Path next = Files.createDirectory(volume.resolve("..generation-" + serial));
    Files.writeString(next.resolve("tls.crt"), pem(certificate) + pem(ca));
    Files.writeString(next.resolve("tls.key"), sec1(keys.getPrivate()));
    Files.writeString(next.resolve("ca.crt"), pem(ca));
    Path link = Files.createSymbolicLink(volume.resolve("..data_tmp"), next.getFileName());
    Files.move(link, volume.resolve("..data"), StandardCopyOption.ATOMIC_MOVE);
    for (String file : FILES) {
      if (!Files.isSymbolicLink(volume.resolve(file))) {
        Files.createSymbolicLink(volume.resolve(file), Path.of("..data", file));
      }
    }
    if (generation != null) {
      for (String file : FILES) {
        Files.delete(generation.resolve(file));
      }
      Files.delete(generation);
    }
    generation = next;
    return certificate;
  }

  /** A client TLS context that trusts this CA and nothing else. */
  SSLContext clientContext() throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("ca", ca);
    TrustManagerFactory factory =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, factory.getTrustManagers(), null);
    return context;
  }

  private JcaX509v3CertificateBuilder builder(X500Name subject, KeyPair keys) {
    Instant now = Instant.now();
    return new JcaX509v3CertificateBuilder(CA_NAME, BigInteger.valueOf(++serial),
        Date.from(now.minus(1, ChronoUnit.HOURS)), Date.from(now.plus(1, ChronoUnit.DAYS)),
        subject, keys.getPublic());
  }

  private X509Certificate sign(JcaX509v3CertificateBuilder builder) throws Exception {
    return new JcaX509CertificateConverter().getCertificate(
        builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(caKeys.getPrivate())));
  }

  private static KeyPair keys() throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    return generator.generateKeyPair();
  }

  private static String pem(Object object) throws IOException {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      writer.writeObject(object);
    }
    return out.toString();
  }

  /** {@code BEGIN EC PRIVATE KEY} with the curve's name inside, as Go's x509 writes it. */
  private static String sec1(PrivateKey key) throws IOException {
    PrivateKeyInfo info = PrivateKeyInfo.getInstance(key.getEncoded());
    ECPrivateKey inner = ECPrivateKey.getInstance(info.parsePrivateKey());
    ECPrivateKey sec1 = new ECPrivateKey(256, inner.getKey(),
        info.getPrivateKeyAlgorithm().getParameters());
    return pem(new PemObject("EC PRIVATE KEY", sec1.getEncoded()));
  }
}
