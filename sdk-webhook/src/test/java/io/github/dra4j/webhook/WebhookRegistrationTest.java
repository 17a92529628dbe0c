package io.github.dra4j.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class WebhookRegistrationTest {

  private static final Path README = Path.of("..", "README.md");

  private static WebhookRegistration readmeRegistration() {
    return WebhookRegistration.forDriver("gpu.example.com")
        .service("gpu-driver", "gpu-driver-webhook")
        .injectCaFrom("gpu-driver", "gpu-driver-webhook");
  }

  @Test
  void theRegistrationSendsClaimsAndTemplatesOfEveryVersionToTheWebhook() {
    ValidatingWebhookConfiguration configuration = readmeRegistration().build();

    ValidatingWebhook webhook = configuration.getWebhooks().get(0);
    assertThat(configuration.getMetadata().getName())
        .isEqualTo("gpu.example.com-resource-claim-parameters");
    assertThat(webhook.getName()).isEqualTo("resource-claim-parameters.gpu.example.com");
    assertThat(webhook.getRules()).singleElement().satisfies(rule -> {
      assertThat(rule.getApiGroups()).containsExactly("resource.k8s.io");
      assertThat(rule.getApiVersions()).containsExactly("v1", "v1beta2", "v1beta1");
      assertThat(rule.getOperations()).containsExactly("CREATE", "UPDATE");
      assertThat(rule.getResources()).containsExactly("resourceclaims", "resourceclaimtemplates");
      assertThat(rule.getScope()).isEqualTo("Namespaced");
    });
    assertThat(webhook.getSideEffects()).isEqualTo("None");
    assertThat(webhook.getAdmissionReviewVersions()).containsExactly("v1");
    assertThat(webhook.getClientConfig().getService().getPath())
        .isEqualTo(AdmissionWebhookServerBuilder.DEFAULT_PATH);
    assertThat(webhook.getClientConfig().getCaBundle()).isNull();
  }

  @Test
  void theReadmeShowsWhatTheRegistrationBuilds() throws Exception {
    Matcher yaml = Pattern.compile("```yaml\\n(apiVersion: admissionregistration.k8s.io/v1\\n"
        + "kind: ValidatingWebhookConfiguration\\n.*?)```", Pattern.DOTALL)
        .matcher(Files.readString(README));
    assertThat(yaml.find()).as("the README's ValidatingWebhookConfiguration").isTrue();

    ValidatingWebhookConfiguration shown = Serialization.unmarshal(yaml.group(1),
        ValidatingWebhookConfiguration.class);

    assertThat(shown).isEqualTo(readmeRegistration().build());
  }

  @Test
  void theApiServerStoresTheRegistration() throws Exception {
    String ca = new TestCertificates().caPem();
    ValidatingWebhookConfiguration configuration = WebhookRegistration
        .forDriver("gpu.example.com").service("gpu-driver", "gpu-driver-webhook")
        .caBundle(ca).failurePolicy("Ignore").timeoutSeconds(5).build();
    try (InMemoryApiServer server = InMemoryApiServer.builder().build().start()) {
      KubernetesClient client = server.client();

      client.resource(configuration).create();
      ValidatingWebhookConfiguration stored = client.admissionRegistration().v1()
          .validatingWebhookConfigurations()
          .withName("gpu.example.com-resource-claim-parameters").get();

      ValidatingWebhook webhook = stored.getWebhooks().get(0);
      assertThat(webhook.getRules()).isEqualTo(WebhookRegistration.rules());
      assertThat(webhook.getFailurePolicy()).isEqualTo("Ignore");
      assertThat(webhook.getTimeoutSeconds()).isEqualTo(5);
      assertThat(new String(Base64.getDecoder().decode(webhook.getClientConfig().getCaBundle()),
          StandardCharsets.US_ASCII)).isEqualTo(ca);
    }
  }

  @Test
  void badValuesAreRefusedNamingThem() {
    assertThatThrownBy(() -> WebhookRegistration.forDriver("GPU_driver"))
        .hasMessageStartingWith("driverName \"GPU_driver\": Invalid value: \"GPU_driver\": a"
            + " lowercase RFC 1123 subdomain must consist of");
    // The server takes this driver name, but not the names the registration makes of it.
    assertThatThrownBy(() -> WebhookRegistration.forDriver("GPU.example.com"))
        .hasMessage("driverName \"GPU.example.com\": must be lower case, as it names the"
            + " ValidatingWebhookConfiguration (GPU.example.com-resource-claim-parameters) and its"
            + " webhook (resource-claim-parameters.GPU.example.com), which must be lower-case DNS"
            + " subdomains");
    assertThatThrownBy(() -> WebhookRegistration.forDriver("gpu.example.com")
        .service("gpu-driver", "Webhook"))
        .hasMessageStartingWith("serviceName \"Webhook\": ");
    assertThatThrownBy(() -> WebhookRegistration.forDriver("gpu.example.com")
        .failurePolicy("Retry"))
        .hasMessage("failurePolicy must be Fail or Ignore, got Retry");
    assertThatThrownBy(() -> WebhookRegistration.forDriver("gpu.example.com")
        .timeoutSeconds(31))
        .hasMessage("timeoutSeconds must be between 1 and 30, got 31");
    assertThatThrownBy(() -> WebhookRegistration.forDriver("gpu.example.com").build())
        .hasMessage("service(namespace, name) is required");
  }
}
