package io.github.dra4j.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatusBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.github.dra4j.kubelet.wire.dra.v1.Claim;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.kubeletplugin.PluginContext;
import io.github.dra4j.kubeletplugin.testsupport.ClaimFixtures;
import io.github.dra4j.resourceclaim.AllocatedDevice;
import io.github.dra4j.resourceclaim.DriverAllocation;
import io.github.dra4j.resourceslice.DriverResources;
import io.github.dra4j.resourceslice.Pool;
import io.github.dra4j.testing.apiserver.ApiRequest;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import io.github.dra4j.testing.kubelet.KubeletClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's ClusterRole is exactly what the SDK uses: every request a plugin with the claim
 * lifecycle makes in a full run (start, publish, prepare with device status, unprepare, shut down) is recorded by the
 * in-memory API server and compared, as (API group, resource, verb), with the role's rules.
 */
class RbacTest {

  private static final String DRIVER = "gpu.example.com";
  private static final Path README = Path.of("..", "README.md");
  /** Checked by the API server when status.devices is written, never requested as such. */
  private static final String AUTHORIZATION_ONLY = "resource.k8s.io resourceclaims/driver";

  @TempDir
  Path root;

  /** Prepares each device with an env variable and reports its status. */
  private static final class StatusDriver implements ClaimDriver<Void> {
    private PluginContext context;

    @Override
    public void start(PluginContext plugin) {
      this.context = plugin;
    }

    @Override
    public PreparedClaim<Void> prepare(DriverAllocation allocation, ResourceClaim claim,
        CallContext call) {
      PreparedClaim.Builder<Void> prepared = PreparedClaim.builder(null);
      for (AllocatedDevice device : allocation.devices()) {
        prepared.device(device, edits -> edits.env("GPU", device.device()));
      }
      // Prepare does not wait for the write; the test reads the claim's status afterwards.
      var unused = context.claimStatus().report(claim, allocation.devices().stream()
          .map(d -> new AllocatedDeviceStatusBuilder().withPool(d.pool()).withDevice(d.device())
              .withData(Map.of("healthy", true)).build())
          .toList());
      return prepared.build();
    }

    @Override
    public void unprepare(DriverAllocation allocation, Void state, CallContext call) {}

    @Override
    public void rollback(DriverAllocation allocation, Optional<Void> state, CallContext call) {
      // prepare changes nothing on the node
    }
  }

  @Test
  void theDocumentedRoleIsExactlyWhatAFullRunUses() throws Exception {
    Set<String> used = new TreeSet<>();
    try (InMemoryApiServer server = InMemoryApiServer.builder().build().start()) {
      server.client().nodes().resource(new NodeBuilder().withNewMetadata().withName("node-1")
          .endMetadata().build()).create();
      ResourceClaim claim = ClaimFixtures.store(server.client(),
          ClaimFixtures.allocated("default", "c", DRIVER));
      server.clearRequests();
      Path dir = Files.createDirectories(root.resolve("p"));
      try (KubeletPlugin plugin = KubeletPlugin.builder(
          ClaimLifecycle.builder(new StatusDriver(), Void.class)
              .cdiDirectory(Files.createDirectories(dir.resolve("cdi"))).build())
          .driverName(DRIVER).kubeClient(server.newClient()).nodeName("node-1")
          .registrarDirectory(Files.createDirectories(dir.resolve("reg")))
          .pluginDataDirectory(Files.createDirectories(dir.resolve("data")))
          .apiServer(a -> a.withClaimStatus(true)).shutdown(s -> s.withCloseOnShutdown(false))
          .start();
          KubeletClient kubelet = KubeletClient.create()) {
        plugin.publishResources(DriverResources.of("node-1", Pool.builder()
            .devices(List.of(new DeviceBuilder().withName("gpu-0").build())).build()));
        Claim ref = KubeletClient.claim("default", "c", claim.getMetadata().getUid());
        assertThat(kubelet.prepare(plugin.draSocket(), ref)
            .getClaimsOrThrow(claim.getMetadata().getUid()).getError()).isEmpty();
        await().atMost(Duration.ofSeconds(30)).until(() -> statusEntries(server, claim) == 1);
        assertThat(kubelet.unprepare(plugin.draSocket(), ref)
            .getClaimsOrThrow(claim.getMetadata().getUid()).getError()).isEmpty();
        await().atMost(Duration.ofSeconds(30)).until(() -> statusEntries(server, claim) == 0);
        await().atMost(Duration.ofSeconds(30)).until(() -> slices(server).size() == 1);
        // A device more: the slice is updated; no devices at all: it is deleted.
        plugin.publishResources(DriverResources.of("node-1", Pool.builder()
            .devices(List.of(new DeviceBuilder().withName("gpu-0").build(),
                new DeviceBuilder().withName("gpu-1").build()))
            .build()));
        await().atMost(Duration.ofSeconds(30)).until(() -> slices(server).size() == 1
            && slices(server).get(0).getSpec().getDevices().size() == 2);
        plugin.publishResources(DriverResources.empty());
        await().atMost(Duration.ofSeconds(30)).until(() -> slices(server).isEmpty());
      }
      TimeUnit.MILLISECONDS.sleep(200);
      for (ApiRequest request : server.requests()) {
        if (request.verb() != null) {
          used.add(permission(request));
        }
      }
    }

    Set<String> granted = granted(readmeRole());
    assertThat(granted).contains(AUTHORIZATION_ONLY + " associated-node:update",
        AUTHORIZATION_ONLY + " associated-node:patch");
    granted.removeIf(p -> p.startsWith(AUTHORIZATION_ONLY + " "));
    assertThat(used).as("requests the plugin made").isEqualTo(granted);
  }

  private static List<io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice> slices(
      InMemoryApiServer server) {
    return server.client()
        .resources(io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice.class)
        .list().getItems();
  }

  private static int statusEntries(InMemoryApiServer server, ResourceClaim claim) {
    ResourceClaim current = server.client().resource(claim).get();
    return current.getStatus().getDevices() == null ? 0
        : current.getStatus().getDevices().size();
  }

  /** {@code <group> <resource>[/<subresource>] <verb>}, as RBAC names them. */
  private static String permission(ApiRequest request) {
    String resource = request.resource().resource();
    Matcher sub = Pattern.compile("/" + resource + "/[^/?]+/([a-z]+)").matcher(request.path());
    if (sub.find()) {
      resource = resource + "/" + sub.group(1);
    }
    String verb = request.verb().name().toLowerCase(Locale.ROOT).replace("_", "");
    String group = request.resource().group();
    return (group.isEmpty() ? "core" : group) + " " + resource + " " + verb;
  }

  private static ClusterRole readmeRole() throws Exception {
    Matcher yaml = Pattern.compile("```yaml\\n(apiVersion: rbac.authorization.k8s.io/v1\\n"
        + "kind: ClusterRole\\n.*?)```", Pattern.DOTALL).matcher(Files.readString(README));
    assertThat(yaml.find()).as("the README's ClusterRole").isTrue();
    return Serialization.unmarshal(yaml.group(1), ClusterRole.class);
  }

  private static Set<String> granted(ClusterRole role) {
    Set<String> granted = new TreeSet<>();
    for (PolicyRule rule : role.getRules()) {
      for (String group : rule.getApiGroups()) {
        for (String resource : rule.getResources()) {
          for (String verb : rule.getVerbs()) {
            granted.add((group.isEmpty() ? "core" : group) + " " + resource + " " + verb);
          }
        }
      }
    }
    return granted;
  }
}
