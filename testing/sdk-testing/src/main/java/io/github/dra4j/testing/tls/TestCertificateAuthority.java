package io.github.dra4j.testing.tls;

import java.io.IOException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.HexFormat;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A certificate authority made in memory for a test: it issues server certificates for {@code
 * localhost} and {@code 127.0.0.1}, and gives a client TLS context that trusts it and nothing
 * else, so a test's client checks the chain and the host name as the API server checks a
 * webhook's. Its own key is EC P-256; certificates are valid from an hour ago for one day.
 *
 * <p>Thread-safe: certificates may be issued from several threads.
 */
public final class TestCertificateAuthority {

  private final X500Name name;
  private final KeyPair keys;
  private final X509Certificate certificate;
  private final AtomicLong serials = new AtomicLong(1);

  private TestCertificateAuthority(String commonName) throws GeneralSecurityException {
    name = new X500Name("CN=" + commonName);
    keys = keys(KeyAlgorithm.EC);
    JcaX509v3CertificateBuilder builder = builder(name, keys.getPublic());
    try {
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
      builder.addExtension(Extension.keyUsage, true,
          new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
    } catch (CertIOException e) {
      throw new GeneralSecurityException("cannot add the CA's extensions", e);
    }
    certificate = sign(builder);
  }

  /**
   * Makes a CA named {@code CN=dra4j test CA <random>}: a name of its own, so that a client
   * trusting another test CA finds no path to it, as with two real CAs.
   *
   * @return the CA
   * @throws GeneralSecurityException if the JDK cannot make an EC P-256 key
   */
  public static TestCertificateAuthority create() throws GeneralSecurityException {
    return new TestCertificateAuthority("dra4j test CA "
        + HexFormat.of().toHexDigits(new SecureRandom().nextLong()));
  }

  /**
   * Issues a server certificate with an EC P-256 key.
   *
   * @param commonName the subject's common name, to tell certificates apart
   * @return the certificate and its key
   * @throws GeneralSecurityException if the key cannot be made or the certificate signed
   */
  public IssuedCertificate issue(String commonName) throws GeneralSecurityException {
    return issue(commonName, KeyAlgorithm.EC);
  }

  /**
   * Issues a server certificate for {@code localhost} and {@code 127.0.0.1}.
   *
   * @param commonName the subject's common name, to tell certificates apart
   * @param algorithm the algorithm of the server's key
   * @return the certificate and its key
   * @throws GeneralSecurityException if the key cannot be made or the certificate signed
   */
  public IssuedCertificate issue(String commonName, KeyAlgorithm algorithm)
      throws GeneralSecurityException {
    Objects.requireNonNull(commonName, "commonName");
    KeyPair server = keys(Objects.requireNonNull(algorithm, "algorithm"));
    JcaX509v3CertificateBuilder builder = builder(new X500Name("CN=" + commonName),
        server.getPublic());
    try {
      builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(
          new GeneralName[] {new GeneralName(GeneralName.dNSName, "localhost"),
              new GeneralName(GeneralName.iPAddress, "127.0.0.1")}));
    } catch (CertIOException e) {
      throw new GeneralSecurityException("cannot add the server's names", e);
    }
    return new IssuedCertificate(sign(builder), server.getPrivate(), certificate);
  }

  /**
   * The CA's own certificate, what a webhook registration's {@code caBundle} holds.
   *
   * @return the certificate
   */
  public X509Certificate certificate() {
    return certificate;
  }

  /**
   * The CA's certificate as PEM.
   *
   * @return the PEM text
   */
  public String certificatePem() {
    return Pem.of(certificate);
  }

  /**
   * A client TLS context that trusts this CA and nothing else. Host names are checked by the
   * client that uses it ({@code java.net.http.HttpClient} does by default).
   *
   * @return a new context
   * @throws GeneralSecurityException if the JDK's TLS cannot be set up
   */
  public SSLContext clientContext() throws GeneralSecurityException {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    try {
      trust.load(null, null);
    } catch (IOException e) {
      throw new GeneralSecurityException("cannot make an empty trust store", e);
    }
    trust.setCertificateEntry("ca", certificate);
    TrustManagerFactory factory = TrustManagerFactory
        .getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, factory.getTrustManagers(), null);
    return context;
  }

  private JcaX509v3CertificateBuilder builder(X500Name subject, PublicKey key) {
    Instant now = Instant.now();
    return new JcaX509v3CertificateBuilder(name, BigInteger.valueOf(serials.getAndIncrement()),
        Date.from(now.minus(1, ChronoUnit.HOURS)), Date.from(now.plus(1, ChronoUnit.DAYS)),
        subject, key);
  }

  private X509Certificate sign(JcaX509v3CertificateBuilder builder)
      throws GeneralSecurityException {
    PrivateKey signer = keys.getPrivate();
    try {
      return new JcaX509CertificateConverter().getCertificate(
          builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer)));
    } catch (OperatorCreationException e) {
      throw new GeneralSecurityException("cannot sign with the CA's key", e);
    }
  }

  private static KeyPair keys(KeyAlgorithm algorithm) throws GeneralSecurityException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance(algorithm.name());
    if (algorithm == KeyAlgorithm.EC) {
      generator.initialize(new ECGenParameterSpec("secp256r1"));
    } else {
      generator.initialize(2048);
    }
    return generator.generateKeyPair();
  }
}
