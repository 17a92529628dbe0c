package io.github.dra4j.webhook;

import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperations;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperationsBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfigurationBuilder;
import io.github.dra4j.core.name.NameRules;
import io.github.dra4j.core.option.OptionChecks;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The {@code admissionregistration.k8s.io/v1} ValidatingWebhookConfiguration that sends a
 * driver's claims and claim templates to its {@link AdmissionWebhookServer}: {@code
 * resource.k8s.io} v1, v1beta2 and v1beta1 {@code resourceclaims} and {@code
 * resourceclaimtemplates}, CREATE and UPDATE, namespaced, {@code sideEffects: None}, {@code
 * admissionReviewVersions: [v1]}, reaching the webhook through a Service. A driver's installer can
 * create it with the API client, and a Helm chart writes the same thing in YAML (the README shows
 * it). Not thread-safe; build on one thread.
 */
public final class WebhookRegistration {

  /** The resources whose opaque configurations are validated. */
  public static final List<String> RESOURCES = List.of("resourceclaims",
      "resourceclaimtemplates");

  private final String driverName;
  private String serviceNamespace;
  private String serviceName;
  private int servicePort = 443;
  private String path = AdmissionWebhookServerBuilder.DEFAULT_PATH;
  private byte[] caBundle;
  private String failurePolicy = "Fail";
  private int timeoutSeconds = 10;
  private String injectCaFrom;

  private WebhookRegistration(String driverName) {
    this.driverName = driverName;
  }

  /**
   * Starts a registration for a driver's webhook.
   *
   * @param driverName the driver name, a lower-case DNS subdomain
   * @return a builder
   * @throws IllegalArgumentException if the API server would refuse the driver name (with its
   *     message), or if it has upper-case letters
   */
  public static WebhookRegistration forDriver(String driverName) {
    check(NameRules.driverName(driverName), "driverName", driverName);
    // Stricter than the server's driver name rule, which accepts upper case: the driver name is
    // part of the configuration's name and of its webhook's name, which the server requires to be
    // lower-case DNS subdomains.
    if (!NameRules.isDnsSubdomain(driverName, NameRules.DRIVER_NAME_MAX)) {
      throw new IllegalArgumentException("driverName \"" + driverName + "\": must be lower case,"
          + " as it names the ValidatingWebhookConfiguration (" + configurationName(driverName)
          + ") and its webhook (" + webhookName(driverName) + "), which must be lower-case DNS"
          + " subdomains");
    }
    return new WebhookRegistration(driverName);
  }

  private static String check(java.util.Optional<String> problem, String option, String value) {
    problem.ifPresent(p -> {
      throw new IllegalArgumentException(option + " \"" + value + "\": " + p);
    });
    return value;
  }

  /**
   * The rules every registration carries: which requests go to the webhook.
   *
   * @return one rule for the {@link #RESOURCES} in {@code resource.k8s.io} {@link
   *     AdmissionReviewHandler#VERSIONS}, CREATE and UPDATE, namespaced
   */
  public static List<RuleWithOperations> rules() {
    return List.of(new RuleWithOperationsBuilder()
        .withApiGroups("resource.k8s.io")
        .withApiVersions(AdmissionReviewHandler.VERSIONS)
        .withOperations("CREATE", "UPDATE")
        .withResources(RESOURCES)
        .withScope("Namespaced")
        .build());
  }

  /**
   * The Service in front of the webhook's pods. Required.
   *
   * @param namespace the Service's namespace, usually the driver's
   * @param name the Service's name
   * @return this builder
   */
  public WebhookRegistration service(String namespace, String name) {
    this.serviceNamespace = check(NameRules.dnsLabel(namespace), "serviceNamespace", namespace);
    this.serviceName = check(NameRules.dnsLabel(name), "serviceName", name);
    return this;
  }

  /**
   * The Service port; default 443.
   *
   * @param port 1 to 65535
   * @return this builder
   */
  public WebhookRegistration servicePort(int port) {
    this.servicePort = OptionChecks.between(port, 1, 65535, "servicePort");
    return this;
  }

  /**
   * The path; default {@value AdmissionWebhookServerBuilder#DEFAULT_PATH}, as the server's.
   *
   * @param path the server's {@link AdmissionWebhookServerBuilder#path(String)}
   * @return this builder
   */
  public WebhookRegistration path(String path) {
    this.path = Objects.requireNonNull(path, "path");
    return this;
  }

  /**
   * The CA certificate(s) the API server trusts for the webhook, PEM. Leave it out when
   * cert-manager's CA injector fills it in (annotation {@code cert-manager.io/inject-ca-from}).
   *
   * @param pem the PEM text of the CA certificates
   * @return this builder
   */
  public WebhookRegistration caBundle(String pem) {
    Objects.requireNonNull(pem, "caBundle");
    if (!pem.contains("-----BEGIN CERTIFICATE-----")) {
      throw new IllegalArgumentException("caBundle must be PEM certificates");
    }
    this.caBundle = pem.getBytes(StandardCharsets.US_ASCII);
    return this;
  }

  /**
   * Lets cert-manager's CA injector fill in the CA bundle from a Certificate, instead of {@link
   * #caBundle(String)}: sets the annotation {@code cert-manager.io/inject-ca-from}.
   *
   * @param namespace the Certificate's namespace
   * @param certificate the Certificate's name
   * @return this builder
   */
  public WebhookRegistration injectCaFrom(String namespace, String certificate) {
    check(NameRules.dnsLabel(namespace), "certificate namespace", namespace);
    check(NameRules.dnsSubdomain(certificate, NameRules.DNS_SUBDOMAIN_MAX), "certificate",
        certificate);
    this.injectCaFrom = namespace + "/" + certificate;
    return this;
  }

  /**
   * What the API server does when the webhook cannot be reached: {@code Fail} (default: an
   * invalid configuration never slips through) or {@code Ignore}.
   *
   * @param failurePolicy {@code Fail} or {@code Ignore}
   * @return this builder
   */
  public WebhookRegistration failurePolicy(String failurePolicy) {
    if (!"Fail".equals(failurePolicy) && !"Ignore".equals(failurePolicy)) {
      throw new IllegalArgumentException("failurePolicy must be Fail or Ignore, got "
          + failurePolicy);
    }
    this.failurePolicy = failurePolicy;
    return this;
  }

  /**
   * How long the API server waits for an answer; default 10.
   *
   * @param timeoutSeconds 1 to 30, the API's range
   * @return this builder
   */
  public WebhookRegistration timeoutSeconds(int timeoutSeconds) {
    this.timeoutSeconds = OptionChecks.between(timeoutSeconds, 1, 30, "timeoutSeconds");
    return this;
  }

  /**
   * The name of the webhook inside the configuration: {@code
   * resource-claim-parameters.<driver name>}, fully qualified as the API requires.
   *
   * @return the webhook name
   */
  public String webhookName() {
    return webhookName(driverName);
  }

  private static String webhookName(String driverName) {
    return "resource-claim-parameters." + driverName;
  }

  private static String configurationName(String driverName) {
    return driverName + "-resource-claim-parameters";
  }

  /**
   * The configuration.
   *
   * @return a ValidatingWebhookConfiguration named {@code <driver name>-resource-claim-parameters}
   * @throws IllegalStateException if {@link #service(String, String)} was not called
   */
  public ValidatingWebhookConfiguration build() {
    if (serviceName == null) {
      throw new IllegalStateException("service(namespace, name) is required");
    }
    return new ValidatingWebhookConfigurationBuilder()
        .withNewMetadata()
        .withName(configurationName(driverName))
        .withAnnotations(injectCaFrom == null ? null
            : Map.of("cert-manager.io/inject-ca-from", injectCaFrom))
        .endMetadata()
        .addNewWebhook()
        .withName(webhookName())
        .withNewClientConfig()
        .withNewService()
        .withNamespace(serviceNamespace)
        .withName(serviceName)
        .withPort(servicePort)
        .withPath(path)
        .endService()
        .withCaBundle(caBundle == null ? null
            : Base64.getEncoder().encodeToString(caBundle))
        .endClientConfig()
        .withRules(rules())
        .withFailurePolicy(failurePolicy)
        .withMatchPolicy("Equivalent")
        .withSideEffects("None")
        .withAdmissionReviewVersions("v1")
        .withTimeoutSeconds(timeoutSeconds)
        .endWebhook()
        .build();
  }
}
