package io.github.dra4j.testing.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.github.dra4j.resourceclaim.config.ConfigScheme;
import io.github.dra4j.webhook.AdmissionReviewHandler;
import io.github.dra4j.webhook.AdmissionWebhookServer;
import java.io.ByteArrayInputStream;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.interfaces.ECPrivateKey;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidator;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import javax.net.ssl.SSLHandshakeException;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The test CA, its certificates and the Secret volume, checked by the JDK's own PKIX validator
 * and PEM-independent parsers, and end to end by the SDK's webhook server reading the volume
 * over verified HTTPS while the certificate is renewed.
 */
class TestCertificatesTest {

  @TempDir
  Path root;

  @ParameterizedTest
  @EnumSource(KeyAlgorithm.class)
  void issuesACertificateTheJdkValidatesAgainstTheCaForLocalhost(KeyAlgorithm algorithm)
      throws Exception {
    TestCertificateAuthority ca = TestCertificateAuthority.create();
    IssuedCertificate issued = ca.issue("server", algorithm);

    CertificateFactory factory = CertificateFactory.getInstance("X.509");
    List<Certificate> chain = List.copyOf(factory.generateCertificates(
        new ByteArrayInputStream(issued.chainPem().getBytes(StandardCharsets.US_ASCII))));
    assertThat(chain).containsExactly(issued.certificate(), ca.certificate());
    PKIXParameters parameters = new PKIXParameters(Set.of(new TrustAnchor(ca.certificate(),
        null)));
    parameters.setRevocationEnabled(false);
    CertPathValidator.getInstance("PKIX").validate(
        factory.generateCertPath(List.of(issued.certificate())), parameters);

    X509Certificate server = issued.certificate();
    assertThat(server.getSubjectX500Principal().getName()).isEqualTo("CN=server");
    assertThat(server.getSubjectAlternativeNames().stream().map(name -> (Object) name.get(1)))
        .containsExactly("localhost", "127.0.0.1");
    assertThat(server.getPublicKey().getAlgorithm()).isEqualTo(algorithm.name());
    assertThat(server.getBasicConstraints()).isEqualTo(-1);
    assertThat(ca.certificate().getBasicConstraints()).isEqualTo(Integer.MAX_VALUE);
    assertThat(ca.issue("other").certificate().getSerialNumber())
        .isNotEqualTo(server.getSerialNumber());
  }

  @ParameterizedTest
  @EnumSource(KeyAlgorithm.class)
  void writesKeysInBothEncodingsThatDecodeToTheSameKey(KeyAlgorithm algorithm) throws Exception {
    IssuedCertificate issued = TestCertificateAuthority.create().issue("server", algorithm);

    String pkcs8 = issued.keyPem(KeyEncoding.PKCS8);
    assertThat(pkcs8).startsWith("-----BEGIN PRIVATE KEY-----");
    byte[] der = Base64.getMimeDecoder().decode(pkcs8.replaceAll("-----[A-Z ]+-----", ""));
    assertThat(KeyFactory.getInstance(algorithm.name())
        .generatePrivate(new PKCS8EncodedKeySpec(der))).isEqualTo(issued.key());

    String traditional = issued.keyPem(KeyEncoding.TRADITIONAL);
    assertThat(traditional).startsWith(algorithm == KeyAlgorithm.RSA
        ? "-----BEGIN RSA PRIVATE KEY-----" : "-----BEGIN EC PRIVATE KEY-----");
    try (PEMParser parser = new PEMParser(new StringReader(traditional))) {
      PrivateKey read = new JcaPEMKeyConverter()
          .getPrivateKey(((PEMKeyPair) parser.readObject()).getPrivateKeyInfo());
      if (algorithm == KeyAlgorithm.EC) { // SEC 1 adds the curve, so compare the secret itself
        assertThat(((ECPrivateKey) read).getS()).isEqualTo(((ECPrivateKey) issued.key()).getS());
      } else {
        assertThat(read).isEqualTo(issued.key());
      }
    }

    Path certificate = root.resolve("tls.crt");
    Path key = root.resolve("tls.key");
    issued.writeTo(certificate, key, KeyEncoding.PKCS8);
    assertThat(Files.readString(certificate)).isEqualTo(issued.chainPem());
    assertThat(Files.readString(key)).isEqualTo(pkcs8);
  }

  @Test
  void aVolumeUpdateSwapsAllThreeFilesThroughDataAndLeavesOneGeneration() throws Exception {
    TestCertificateAuthority ca = TestCertificateAuthority.create();
    TlsSecretVolume volume = TlsSecretVolume.create(root.resolve("tls"));
    IssuedCertificate first = ca.issue("first");
    volume.update(first);

    assertThat(Files.readString(volume.certificateFile())).isEqualTo(first.chainPem());
    assertThat(Files.readString(volume.keyFile()))
        .isEqualTo(first.keyPem(KeyEncoding.TRADITIONAL));
    assertThat(Files.readString(volume.caFile())).isEqualTo(ca.certificatePem());
    for (Path file : List.of(volume.certificateFile(), volume.keyFile(), volume.caFile())) {
      assertThat(Files.readSymbolicLink(file))
          .isEqualTo(Path.of("..data", file.getFileName().toString()));
    }
    Path before = Files.readSymbolicLink(root.resolve("tls/..data"));

    IssuedCertificate second = ca.issue("second");
    volume.update(second, KeyEncoding.PKCS8);

    assertThat(Files.readString(volume.certificateFile())).isEqualTo(second.chainPem());
    assertThat(Files.readString(volume.keyFile())).isEqualTo(second.keyPem(KeyEncoding.PKCS8));
    assertThat(Files.readSymbolicLink(root.resolve("tls/..data"))).isNotEqualTo(before);
    try (Stream<Path> entries = Files.list(root.resolve("tls"))) {
      assertThat(entries.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder("..data", "tls.crt", "tls.key", "ca.crt",
              Files.readSymbolicLink(root.resolve("tls/..data")).toString());
    }
  }

  @Test
  void theWebhookServerReadsTheVolumeAndServesARenewedCertificateToNewClients()
      throws Exception {
    TestCertificateAuthority ca = TestCertificateAuthority.create();
    TlsSecretVolume volume = TlsSecretVolume.create(root.resolve("tls"));
    volume.update(ca.issue("first"));
    ConfigScheme<Object> scheme = ConfigScheme.builder().build();
    try (AdmissionWebhookServer server = AdmissionWebhookServer.builder(
        AdmissionReviewHandler.of("gpu.example.com", scheme))
        .tls(volume.certificateFile(), volume.keyFile()).port(0)
        .certificateCheckInterval(Duration.ofMillis(100)).start()) {
      URI ready = URI.create("https://localhost:" + server.port() + "/readyz");
      HttpResponse<String> answer = HttpClient.newBuilder().sslContext(ca.clientContext())
          .build().send(HttpRequest.newBuilder(ready).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(answer.statusCode()).isEqualTo(200);
      assertThat(((X509Certificate) answer.sslSession().orElseThrow().getPeerCertificates()[0])
          .getSubjectX500Principal().getName()).isEqualTo("CN=first");

      // Another CA's client refuses the server: the context trusts its own CA only.
      HttpClient stranger = HttpClient.newBuilder()
          .sslContext(TestCertificateAuthority.create().clientContext()).build();
      assertThatThrownBy(() -> stranger.send(HttpRequest.newBuilder(ready).build(),
          HttpResponse.BodyHandlers.ofString())).isInstanceOf(SSLHandshakeException.class)
          .hasRootCauseInstanceOf(CertPathBuilderException.class);

      volume.update(ca.issue("second"));
      await().atMost(Duration.ofSeconds(30)).until(() -> server.certificate()
          .getSubjectX500Principal().getName().equals("CN=second"));
      HttpResponse<String> renewed = HttpClient.newBuilder().sslContext(ca.clientContext())
          .build().send(HttpRequest.newBuilder(ready).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(((X509Certificate) renewed.sslSession().orElseThrow().getPeerCertificates()[0])
          .getSubjectX500Principal().getName()).isEqualTo("CN=second");
    }
  }
}
