package io.github.dra4j.testing.apiserver;

import static io.github.dra4j.testing.apiserver.DraObjects.DRIVER;
import static io.github.dra4j.testing.apiserver.DraObjects.LABEL_DETAIL;
import static io.github.dra4j.testing.apiserver.DraObjects.assertInvalid;
import static io.github.dra4j.testing.apiserver.DraObjects.cause;
import static io.github.dra4j.testing.apiserver.DraObjects.claim;
import static io.github.dra4j.testing.apiserver.DraObjects.refused;
import static io.github.dra4j.testing.apiserver.DraObjects.slice;
import static io.github.dra4j.testing.apiserver.DraObjects.template;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1beta1.DeviceRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1beta2.DeviceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How the in-memory API server's configuration and state shape the API rules, seen through
 * fabric8: feature gates from the builder drop the fields behind them, the older served versions
 * are checked with {@code v1} field paths, {@code enforceApiRules(false)} stores what is sent, and
 * admin access to devices follows the label of the claim's namespace.
 */
class ApiRulesConfigurationTest {

  private static final String FORBIDDEN_ADMIN = "admin access to devices requires the"
      + " `resource.kubernetes.io/admin-access: true` label on the containing namespace";

  private final List<InMemoryApiServer> servers = new ArrayList<>();

  @AfterEach
  void stop() {
    servers.forEach(InMemoryApiServer::close);
  }

  private KubernetesClient client(UnaryOperator<InMemoryApiServerBuilder> configuration) {
    InMemoryApiServer server = configuration.apply(InMemoryApiServer.builder()).build().start();
    servers.add(server);
    return server.client();
  }

  private static ResourceSlice storedSlice(KubernetesClient client, ResourceSlice slice) {
    var slices = client.dynamicResourceAllocation().v1().resourcesSlices();
    slices.resource(slice).create();
    return slices.withName(slice.getMetadata().getName()).get();
  }

  @Test
  void featureGatesFromTheBuilderDropTheFieldsBehindThemAndTheDefaultsKeepThem() {
    ResourceSlice tainted = slice("tainted", "gpu-0");
    tainted.getSpec().getDevices().get(0).setTaints(List.of(new DeviceTaintBuilder()
        .withKey("k").withValue("v").withEffect("NoSchedule").build()));
    ResourceSlice shared = slice("shared", "gpu-0");
    shared.getSpec().getDevices().get(0).setAllowMultipleAllocations(true);

    KubernetesClient noTaints = client(b -> b.featureGates("DRADeviceTaints=false"));
    assertThat(storedSlice(noTaints, tainted).getSpec().getDevices().get(0).getTaints())
        .isEmpty();
    KubernetesClient noSharing = client(b -> b.featureGates("DRAConsumableCapacity=false"));
    assertThat(storedSlice(noSharing, shared).getSpec().getDevices().get(0)
        .getAllowMultipleAllocations()).isNull();

    KubernetesClient defaults = client(UnaryOperator.identity());
    assertThat(storedSlice(defaults, tainted).getSpec().getDevices().get(0).getTaints())
        .singleElement().satisfies(taint -> assertThat(taint.getValue()).isEqualTo("v"));
    assertThat(storedSlice(defaults, shared).getSpec().getDevices().get(0)
        .getAllowMultipleAllocations()).isTrue();
  }

  @Test
  void olderServedVersionsAreCheckedWithV1FieldPaths() {
    KubernetesClient client = client(builder -> builder
        .enableGroupVersion("resource.k8s.io/v1beta2")
        .enableGroupVersion("resource.k8s.io/v1beta1"));

    var betaSlice = new io.fabric8.kubernetes.api.model.resource.v1beta2.ResourceSliceBuilder()
        .withNewMetadata().withName("beta").endMetadata()
        .withNewSpec().withDriver(DRIVER).withNodeName("node-1")
        .withNewPool().withName("node-1").withGeneration(1L).withResourceSliceCount(1L).endPool()
        .withDevices(new DeviceBuilder().withName("GPU-0").build()).endSpec().build();
    assertInvalid(refused(() -> client.resource(betaSlice).create()), "ResourceSlice", "beta",
        "spec.devices[0].name: Invalid value: \"GPU-0\": " + LABEL_DETAIL,
        cause("FieldValueInvalid", "spec.devices[0].name",
            "Invalid value: \"GPU-0\": " + LABEL_DETAIL));

    var betaClaim = new io.fabric8.kubernetes.api.model.resource.v1beta1.ResourceClaimBuilder()
        .withNewMetadata().withName("beta").withNamespace("default").endMetadata()
        .withNewSpec().withNewDevices().withRequests(new DeviceRequestBuilder().withName("gpu")
            .withDeviceClassName(DRIVER).withCount(-1L).build())
        .endDevices().endSpec().build();
    assertInvalid(refused(() -> client.resource(betaClaim).create()), "ResourceClaim", "beta",
        "spec.devices.requests[0].exactly.count: Invalid value: -1: must be greater than zero",
        cause("FieldValueInvalid", "spec.devices.requests[0].exactly.count",
            "Invalid value: -1: must be greater than zero"));

    betaClaim.getSpec().getDevices().getRequests().get(0).setCount(null);
    var stored = client.resource(betaClaim).create();
    assertThat(stored.getApiVersion()).isEqualTo("resource.k8s.io/v1beta1");
    assertThat(stored.getSpec().getDevices().getRequests().get(0).getCount()).isEqualTo(1L);
  }

  @Test
  void withoutEnforcementAnInvalidObjectIsStoredAsSent() {
    KubernetesClient client = client(b -> b.enforceApiRules(false));
    var slices = client.dynamicResourceAllocation().v1().resourcesSlices();

    slices.resource(slice("planted", "GPU-0")).create();
    ResourceClaim sent = claim("planted", -1);
    client.resource(sent).create();

    assertThat(slices.withName("planted").get().getSpec().getDevices().get(0).getName())
        .isEqualTo("GPU-0");
    assertThat(client.resource(sent).get().getSpec().getDevices().getRequests().get(0)
        .getExactly()).satisfies(exactly -> {
          assertThat(exactly.getCount()).isEqualTo(-1L);
          assertThat(exactly.getAllocationMode()).as("no defaults either").isNull();
        });

    servers.get(0).enforceApiRules(true);
    refused(() -> slices.resource(slice("second", "GPU-0")).create());
  }

  @Test
  void adminAccessFollowsTheLabelOfTheNamespace() {
    KubernetesClient client = client(UnaryOperator.identity());
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("admin")
        .addToLabels("resource.kubernetes.io/admin-access", "true").endMetadata().build())
        .create();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("plain")
        .endMetadata().build()).create();

    for (String namespace : List.of("plain", "default")) {
      ResourceClaim claim = adminClaim(namespace);
      assertInvalid(refused(() -> client.resource(claim).create()), "ResourceClaim", "admin",
          "spec.devices.requests[0].exactly.adminAccess: Forbidden: " + FORBIDDEN_ADMIN,
          cause("FieldValueForbidden", "spec.devices.requests[0].exactly.adminAccess",
              "Forbidden: " + FORBIDDEN_ADMIN));
    }
    ResourceClaimTemplate template = template("admin", 1);
    template.getMetadata().setNamespace("plain");
    template.getSpec().getSpec().getDevices().getRequests().get(0).getExactly()
        .setAdminAccess(true);
    assertInvalid(refused(() -> client.resource(template).create()), "ResourceClaimTemplate",
        "admin", "spec.devices.requests[0].exactly.adminAccess: Forbidden: " + FORBIDDEN_ADMIN,
        cause("FieldValueForbidden", "spec.devices.requests[0].exactly.adminAccess",
            "Forbidden: " + FORBIDDEN_ADMIN));

    ResourceClaim admitted = client.resource(adminClaim("admin")).create();
    assertThat(admitted.getSpec().getDevices().getRequests().get(0).getExactly()
        .getAdminAccess()).isTrue();
    template.getMetadata().setNamespace("admin");
    client.resource(template).create();
  }

  private static ResourceClaim adminClaim(String namespace) {
    ResourceClaim claim = claim("admin", 1);
    claim.getMetadata().setNamespace(namespace);
    claim.getSpec().getDevices().getRequests().get(0).getExactly().setAdminAccess(true);
    return claim;
  }
}
