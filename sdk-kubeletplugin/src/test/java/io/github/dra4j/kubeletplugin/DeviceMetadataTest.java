package io.github.dra4j.kubeletplugin;

import static io.github.dra4j.kubeletplugin.testsupport.TestPlugins.DRIVER;
import static io.github.dra4j.testing.kubelet.KubeletClient.claim;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.github.dra4j.kubelet.wire.dra.v1.Device;
import io.github.dra4j.kubeletplugin.testsupport.ClaimFixtures;
import io.github.dra4j.kubeletplugin.testsupport.HostileFiles;
import io.github.dra4j.kubeletplugin.testsupport.RecordingDriver;
import io.github.dra4j.kubeletplugin.testsupport.TestPlugins;
import io.github.dra4j.resourceclaim.ClaimReference;
import io.github.dra4j.testing.cdi.registry.CdiRegistry;
import io.github.dra4j.testing.kubelet.KubeletClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Device metadata: files, CDI specs a runtime accepts, injection, update, cleanup. */
@EnableKubernetesMockClient(crud = true)
class DeviceMetadataTest {

  KubernetesClient client;
  @TempDir
  Path root;

  private static PreparedDevice a100(String... requests) {
    return PreparedDevice.builder("node-1", "gpu-0").request(requests)
        .cdiDeviceId("example.com/gpu=gpu-0")
        .metadata(new DeviceMetadata(Map.of("example.com/model",
            new DeviceAttributeBuilder().withString("A100").build()), null))
        .build();
  }

  @Test
  void preparedRequestsGetAMetadataFileAMountingCdiSpecAndTheInjectedId() throws Exception {
    RecordingDriver driver = new RecordingDriver(DRIVER)
        .answering(c -> PrepareResult.prepared(a100("gpu/small"),
            PreparedDevice.builder("node-1", "gpu-1").request("gpu").build()));
    ResourceClaim template = ClaimFixtures.allocated("default", "pod-gpu-x7k2", DRIVER);
    template.getMetadata().setAnnotations(
        Map.of("resource.kubernetes.io/pod-claim-name", "gpu-claim"));
    String uid = ClaimFixtures.store(client, template).getMetadata().getUid();
    Path cdi = root.resolve("cdi");
    Path data = root.resolve("plugins").resolve(DRIVER);

    try (KubeletPlugin plugin = TestPlugins.builder(driver, client, root)
        .metadata(m -> m.withEnabled(true)).cdiDirectory(cdi).start();
        KubeletClient kubelet = KubeletClient.create()) {
      List<Device> devices = kubelet.prepare(plugin.draSocket(),
          claim("default", "pod-gpu-x7k2", uid)).getClaimsOrThrow(uid).getDevicesList();

      String metadataId = DRIVER + "/metadata=" + uid + "_gpu";
      assertThat(devices.get(0).getCdiDeviceIdsList())
          .containsExactly("example.com/gpu=gpu-0", metadataId);
      assertThat(devices.get(1).getCdiDeviceIdsList()).as("injected once per request").isEmpty();

      Path file = data.resolve("dra-device-metadata/default_pod-gpu-x7k2/gpu/metadata.json");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
          .isEqualTo("rw-r--r--");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())))
          .isEqualTo("rwxr-xr-x");
      Map<String, Object> document = parse(file);
      assertThat(document.keySet())
          .containsExactly("kind", "apiVersion", "metadata", "podClaimName", "requests");
      assertThat(document).containsEntry("apiVersion", "metadata.resource.k8s.io/v1alpha1")
          .containsEntry("podClaimName", "gpu-claim");
      assertThat(document.get("metadata")).isEqualTo(Map.of("name", "pod-gpu-x7k2",
          "namespace", "default", "uid", uid, "generation", 1));
      assertThat(document.get("requests"))
          .as("one file per top-level request: the first reference in device order owns it")
          .isEqualTo(List.of(Map.of("name", "gpu/small",
              "devices", List.of(Map.of("driver", DRIVER, "pool", "node-1", "name", "gpu-0",
                  "attributes", Map.of("example.com/model", Map.of("string", "A100")))))));

      CdiRegistry registry = CdiRegistry.load(List.of(cdi));
      assertThat(registry.errors()).isEmpty();
      var mounts = registry.resolve(List.of(metadataId)).edits().mounts();
      assertThat(mounts).singleElement().satisfies(mount -> {
        assertThat(mount.hostPath()).isEqualTo(file.toString());
        assertThat(mount.containerPath()).isEqualTo("/var/run/kubernetes.io/dra-device-attributes"
            + "/resourceclaimtemplates/gpu-claim/gpu/" + DRIVER + "-metadata.json");
        assertThat(mount.options()).containsExactly("ro", "bind");
      });

      plugin.updateRequestMetadata(new ClaimReference("default", "pod-gpu-x7k2", uid),
          "gpu/small", List.of(a100("gpu/small")));
      Map<String, Object> updated = parse(file);
      assertThat(((Map<?, ?>) updated.get("metadata")).get("generation")).isEqualTo(2);
      assertThat(updated).containsEntry("podClaimName", "gpu-claim");

      assertThat(kubelet.unprepare(plugin.draSocket(), claim("default", "pod-gpu-x7k2", uid))
          .getClaimsOrThrow(uid).getError()).isEmpty();
      assertThat(data.resolve("dra-device-metadata/default_pod-gpu-x7k2")).doesNotExist();
      try (var specs = Files.list(cdi)) {
        assertThat(specs).isEmpty();
      }
    }
  }

  @Test
  void aHugeMetadataFileFailsTheUpdateNamingItsSizeAndTheLimit() throws Exception {
    RecordingDriver driver = new RecordingDriver(DRIVER)
        .answering(c -> PrepareResult.prepared(a100("gpu")));
    String uid = ClaimFixtures.store(client, ClaimFixtures.allocated("default", "big", DRIVER))
        .getMetadata().getUid();
    Path file = root.resolve("plugins").resolve(DRIVER)
        .resolve("dra-device-metadata/default_big/gpu/metadata.json");
    try (KubeletPlugin plugin = TestPlugins.builder(driver, client, root)
        .metadata(m -> m.withEnabled(true)).cdiDirectory(root.resolve("cdi")).start();
        KubeletClient kubelet = KubeletClient.create()) {
      assertThat(kubelet.prepare(plugin.draSocket(), claim("default", "big", uid))
          .getClaimsOrThrow(uid).getError()).isEmpty();
      Files.delete(file);
      HostileFiles.sparse(file, 3L << 30);

      assertThatThrownBy(() -> plugin.updateRequestMetadata(
          new ClaimReference("default", "big", uid), "gpu", List.of(a100("gpu"))))
          .isInstanceOf(IOException.class)
          .hasMessageContaining(file.toString())
          .hasMessageContaining("3221225472 bytes, more than the limit of");
      assertThat(kubelet.unprepare(plugin.draSocket(), claim("default", "big", uid))
          .getClaimsOrThrow(uid).getError()).isEmpty();
    }
  }

  @Test
  void aClaimWhoseDevicesFailTheCheckGetsNoMetadataFiles() throws Exception {
    RecordingDriver driver = new RecordingDriver(DRIVER).answering(c -> PrepareResult.prepared(
        PreparedDevice.builder("node-1", "gpu-0").request("gpu")
            .cdiDeviceId("not a CDI id").build()));
    String uid = ClaimFixtures.store(client, ClaimFixtures.allocated("default", "bad", DRIVER))
        .getMetadata().getUid();
    Path cdi = root.resolve("cdi");

    try (KubeletPlugin plugin = TestPlugins.builder(driver, client, root)
        .metadata(m -> m.withEnabled(true)).cdiDirectory(cdi).start();
        KubeletClient kubelet = KubeletClient.create()) {
      assertThat(kubelet.prepare(plugin.draSocket(), claim("default", "bad", uid))
          .getClaimsOrThrow(uid).getError()).contains("not a CDI id");

      assertThat(root.resolve("plugins").resolve(DRIVER).resolve("dra-device-metadata")
          .resolve("default_bad")).doesNotExist();
      if (Files.exists(cdi)) {
        try (var specs = Files.list(cdi)) {
          assertThat(specs).isEmpty();
        }
      }
    }
  }

  @Test
  void anUpdateAfterUnprepareDoesNotBringTheFilesBack() throws Exception {
    RecordingDriver driver = new RecordingDriver(DRIVER)
        .answering(c -> PrepareResult.prepared(a100("gpu")));
    String uid = ClaimFixtures.store(client, ClaimFixtures.allocated("default", "gone", DRIVER))
        .getMetadata().getUid();
    ClaimReference ref = new ClaimReference("default", "gone", uid);
    Path directory = root.resolve("plugins").resolve(DRIVER)
        .resolve("dra-device-metadata/default_gone");

    try (KubeletPlugin plugin = TestPlugins.builder(driver, client, root)
        .metadata(m -> m.withEnabled(true)).cdiDirectory(root.resolve("cdi")).start();
        KubeletClient kubelet = KubeletClient.create()) {
      kubelet.prepare(plugin.draSocket(), claim("default", "gone", uid));
      assertThat(directory.resolve("gpu/metadata.json")).exists();
      kubelet.unprepare(plugin.draSocket(), claim("default", "gone", uid));

      assertThatThrownBy(() -> plugin.updateRequestMetadata(ref, "gpu", List.of(a100("gpu"))))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("request \"gpu\" not found in prepared claim default/gone");
      assertThat(directory).doesNotExist();
    }
  }

  @Test
  void updatingARequestThatWasNeverPreparedNamesTheRequestAndClaim() {
    try (KubeletPlugin plugin = TestPlugins.builder(new RecordingDriver(DRIVER), client, root)
        .metadata(m -> m.withEnabled(true)).cdiDirectory(root.resolve("cdi")).start()) {
      assertThatThrownBy(() -> plugin.updateRequestMetadata(
          new ClaimReference("default", "nope", "u1"), "gpu", List.of()))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("request \"gpu\" not found in prepared claim default/nope");
    }
  }

  @Test
  void metadataMustBeEnabledAndNeedsAKnownVersion() {
    try (KubeletPlugin plugin = TestPlugins.builder(new RecordingDriver(DRIVER), client, root)
        .start()) {
      assertThatThrownBy(() -> plugin.updateRequestMetadata(
          new ClaimReference("default", "c", "u"), "gpu", List.of()))
          .hasMessage("device metadata is not enabled");
    }
    assertThatThrownBy(() -> TestPlugins.builder(new RecordingDriver(DRIVER), client, root)
        .metadata(m -> m.withEnabled(true).withVersions("metadata.resource.k8s.io/v9")).start())
        .isInstanceOf(PluginStartException.class)
        .hasMessage("initialize device metadata: none of the requested metadata API versions"
            + " [metadata.resource.k8s.io/v9] are supported");
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> parse(Path file) throws IOException {
    String content = Files.readString(file);
    assertThat(content).endsWith("}\n");
    return client.getKubernetesSerialization().unmarshal(content, Map.class);
  }
}
