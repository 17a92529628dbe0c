package io.github.dra4j.benchmarks.webhook;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A self-signed certificate for {@code localhost} with its key, written as PEM files the webhook
 * reads, and a client TLS context that trusts it. The key is EC P-256, as cert-manager's ECDSA
 * setting makes it.
 *
 * @param certificateFile the PEM certificate
 * @param keyFile the PEM PKCS #8 key
 * @param clientContext trusts the certificate
 */
record SelfSignedTls(Path certificateFile, Path keyFile, SSLContext clientContext) {

  static SelfSignedTls create(Path directory) throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    KeyPair keys = generator.generateKeyPair();
    X500Name name = new X500Name("CN=localhost");
    Instant now = Instant.now();
    JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(name, BigInteger.ONE,
        Date.from(now.minus(1, ChronoUnit.HOURS)), Date.from(now.plus(1, ChronoUnit.DAYS)), name,
        keys.getPublic());
    builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(
        new GeneralName[] {new GeneralName(GeneralName.dNSName, "localhost")}));
    X509Certificate certificate = new JcaX509CertificateConverter().getCertificate(
        builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));
    Path certificateFile = directory.resolve("tls.crt");
    Path keyFile = directory.resolve("tls.key");
    Files.writeString(certificateFile, pem(certificate));
    Files.writeString(keyFile, pem(new JcaPKCS8Generator(keys.getPrivate(), null).generate()));

    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("webhook", certificate);
    TrustManagerFactory factory =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, factory.getTrustManagers(), null);
    return new SelfSignedTls(certificateFile, keyFile, context);
  }

  private static String pem(Object object) throws IOException {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      writer.writeObject(object);
    }
    return out.toString();
  }
}
