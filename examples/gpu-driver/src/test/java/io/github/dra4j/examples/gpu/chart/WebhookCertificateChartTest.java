package io.github.dra4j.examples.gpu.chart;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.github.dra4j.testing.tls.IssuedCertificate;
import io.github.dra4j.testing.tls.KeyEncoding;
import io.github.dra4j.testing.tls.TestCertificateAuthority;
import io.github.dra4j.webhook.WebhookRegistration;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Where the webhook's serving certificate comes from ({@code webhook-certificate.yaml}) and how
 * the API server comes to trust it: a cert-manager Certificate from the chart's self-signed
 * Issuer, from an existing Issuer or ClusterIssuer, or an existing Secret; the CA bundle from
 * cert-manager's CA injector or from {@code webhook.tls.caBundle}. In every case the webhook
 * configuration is the one the SDK's {@link WebhookRegistration} builds, and the pod mounts the
 * Secret the certificate is in.
 */
class WebhookCertificateChartTest {

  private static final String SERVICE = "gpu-dra4j-gpu-driver-webhook";

  private static String caPem;

  @BeforeAll
  static void makeCa() throws Exception {
    caPem = TestCertificateAuthority.create().certificatePem();
  }

  @Test
  void byDefaultASelfSignedIssuerOfTheChartIssuesTheCertificate() {
    Rendered rendered = Helm.require().template("--set", "webhook.enabled=true");

    GenericKubernetesResource issuer = rendered.generic("Issuer");
    assertThat(spec(issuer)).containsOnlyKeys("selfSigned");
    assertThat(spec(rendered.generic("Certificate")).get("issuerRef"))
        .isEqualTo(Map.of("kind", "Issuer", "name", issuer.getMetadata().getName()));
    assertMountsCertificateSecret(rendered);
    assertRegistration(rendered, WebhookRegistration.forDriver("gpu.example.com")
        .service(Helm.NAMESPACE, SERVICE).injectCaFrom(Helm.NAMESPACE, SERVICE));
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(textBlock = """
      Issuer,        acme-ca,  cert-manager.io
      ClusterIssuer, corp-pki, cert-manager.io
      ClusterIssuer, aws-pca,  awspca.cert-manager.io
      """)
  void anExistingIssuerIssuesTheCertificateAndNoIssuerIsMade(String kind, String name,
      String group) {
    Rendered rendered = Helm.require().template("--set", "webhook.enabled=true",
        "--set", "webhook.tls.issuerRef.kind=" + kind,
        "--set", "webhook.tls.issuerRef.name=" + name,
        "--set", "webhook.tls.issuerRef.group=" + group);

    assertThat(rendered.all(GenericKubernetesResource.class))
        .extracting(GenericKubernetesResource::getKind).as("no Issuer of the chart's")
        .containsExactly("Certificate");
    Map<String, Object> certificate = spec(rendered.generic("Certificate"));
    assertThat(certificate.get("issuerRef"))
        .isEqualTo(Map.of("group", group, "kind", kind, "name", name));
    assertThat(certificate.get("dnsNames")).isEqualTo(List.of(SERVICE + ".dra4j-system.svc",
        SERVICE + ".dra4j-system.svc.cluster.local"));
    assertMountsCertificateSecret(rendered);
    assertRegistration(rendered, WebhookRegistration.forDriver("gpu.example.com")
        .service(Helm.NAMESPACE, SERVICE).injectCaFrom(Helm.NAMESPACE, SERVICE));
  }

  @Test
  void anExistingSecretIsMountedAndTheGivenCaBundleTrusted() {
    for (String bundle : List.of(caPem, base64(caPem))) {
      Rendered rendered = Helm.require().template("--set", "webhook.enabled=true",
          "--set", "webhook.tls.source=secret", "--set", "webhook.tls.secretName=webhook-tls",
          caBundle(bundle)[0], caBundle(bundle)[1]);

      assertThat(rendered.all(GenericKubernetesResource.class)).as("no cert-manager object")
          .isEmpty();
      assertThat(secretVolume(rendered)).isEqualTo("webhook-tls");
      ValidatingWebhookConfiguration configuration = rendered
          .one(ValidatingWebhookConfiguration.class);
      assertThat(configuration.getMetadata().getAnnotations()).as("no CA injection")
          .isNullOrEmpty();
      assertThat(decoded(configuration)).isEqualTo(caPem.strip() + "\n");
      assertRegistration(rendered, WebhookRegistration.forDriver("gpu.example.com")
          .service(Helm.NAMESPACE, SERVICE).caBundle(caPem.strip() + "\n"));
    }
  }

  @Test
  void aCaBundleGivenWithCertManagerReplacesTheInjection() {
    Rendered rendered = Helm.require().template("--set", "webhook.enabled=true",
        "--set", "webhook.tls.issuerRef.kind=ClusterIssuer",
        "--set", "webhook.tls.issuerRef.name=corp-pki", caBundle(caPem)[0], caBundle(caPem)[1]);

    assertMountsCertificateSecret(rendered);
    assertRegistration(rendered, WebhookRegistration.forDriver("gpu.example.com")
        .service(Helm.NAMESPACE, SERVICE).caBundle(caPem.strip() + "\n"));
  }

  @Test
  void incompleteOrWrongTlsValuesAreRefusedNamingThem() throws Exception {
    IssuedCertificate server = TestCertificateAuthority.create().issue("webhook");
    String withKey = server.chainPem() + server.keyPem(KeyEncoding.PKCS8);
    String[][] cases = {
        {"webhook.tls.source=secret",
            "webhook.tls.source is \"secret\": set webhook.tls.secretName"},
        {"webhook.tls.source=secret,webhook.tls.secretName=webhook-tls",
            "webhook.tls.source is \"secret\": set webhook.tls.caBundle"},
        {"webhook.tls.secretName=webhook-tls",
            "webhook.tls.secretName (webhook-tls) is read only with webhook.tls.source=secret"},
        {"webhook.tls.caBundle=bm90IGEgY2VydGlmaWNhdGU=",
            "webhook.tls.caBundle is neither PEM certificates"},
        {"webhook.tls.caBundle=-----BEGIN CERTIFICATE-----",
            "webhook.tls.caBundle is neither PEM certificates"},
    };
    for (String[] refused : cases) {
      assertRefused(refused[1], "--set", "webhook.enabled=true," + refused[0]);
    }
    assertRefused("webhook.tls.caBundle holds a private key", "--set", "webhook.enabled=true",
        caBundle(withKey)[0], caBundle(withKey)[1]);
  }

  /** {@code --values} with webhook.tls.caBundle, written as YAML (PEM has several lines). */
  private static String[] caBundle(String bundle) {
    return Helm.valuesFile(Serialization.asYaml(
        Map.of("webhook", Map.of("tls", Map.of("caBundle", bundle)))));
  }

  private static void assertRefused(String message, String... args) {
    Helm.Result result = Helm.require().templateResult(Helm.NAMESPACE, args);
    assertThat(result.exitCode()).as("refused:\n%s", result.describe()).isNotZero();
    assertThat(result.stderr()).as(result.describe()).contains(message);
  }

  /** The pod mounts the Certificate's Secret. */
  private static void assertMountsCertificateSecret(Rendered rendered) {
    assertThat(secretVolume(rendered)).as("the mounted Secret is the Certificate's")
        .isEqualTo(spec(rendered.generic("Certificate")).get("secretName"));
  }

  private static String secretVolume(Rendered rendered) {
    Volume tls = rendered.one(Deployment.class).getSpec().getTemplate().getSpec().getVolumes()
        .stream().filter(v -> v.getName().equals("tls")).findFirst().orElseThrow();
    return tls.getSecret().getSecretName();
  }

  /** The chart's configuration, labels aside, is the SDK's. */
  private static void assertRegistration(Rendered rendered, WebhookRegistration expected) {
    assertThat(withoutLabels(rendered.one(ValidatingWebhookConfiguration.class)))
        .as("the chart's ValidatingWebhookConfiguration (labels aside) against the SDK's")
        .isEqualTo(withoutLabels(expected.build()));
  }

  private static String decoded(ValidatingWebhookConfiguration configuration) {
    String bundle = configuration.getWebhooks().get(0).getClientConfig().getCaBundle();
    return new String(Base64.getDecoder().decode(bundle), StandardCharsets.US_ASCII);
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.US_ASCII));
  }

  /** Labels removed (the chart labels what it installs), no annotations the same as none. */
  private static ValidatingWebhookConfiguration withoutLabels(
      ValidatingWebhookConfiguration configuration) {
    Map<String, String> annotations = configuration.getMetadata().getAnnotations();
    return new ValidatingWebhookConfigurationBuilder(configuration)
        .editMetadata().withLabels(Map.of())
        .withAnnotations(annotations == null || annotations.isEmpty() ? null : annotations)
        .endMetadata().build();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> spec(GenericKubernetesResource resource) {
    Object spec = resource.getAdditionalProperties().get("spec");
    assertThat(spec).as("%s spec", resource.getKind()).isInstanceOf(Map.class);
    return (Map<String, Object>) spec;
  }
}
