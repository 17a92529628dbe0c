package io.github.dra4j.kubeletplugin.internal.metadata;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.github.dra4j.cdi.name.Kind;
import io.github.dra4j.cdi.spec.CdiSpec;
import io.github.dra4j.cdi.spec.Mount;
import io.github.dra4j.cdi.store.SpecDirectory;
import io.github.dra4j.cdi.store.SpecFileName;
import io.github.dra4j.cdi.store.WriteMode;
import io.github.dra4j.core.file.BoundedFileReader;
import io.github.dra4j.core.file.RefusedFileException;
import io.github.dra4j.core.name.NameRules;
import io.github.dra4j.kubeletplugin.PreparedDevice;
import io.github.dra4j.kubeletplugin.internal.logging.LogText;
import io.github.dra4j.resourceclaim.ClaimReference;
import io.github.dra4j.resourceclaim.RequestReference;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.MappingIterator;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes the device-metadata files containers read (KEP-5304, alpha in Kubernetes 1.36): per prepared claim
 * and request, a {@code metadata.json} under the plugin data directory and a CDI spec that mounts
 * it read-only into the container; removes both on unprepare.
 *
 * <p>There is one file per top-level request. When devices serve several sub-requests of one
 * request ({@code gpu/small}, {@code gpu/large}), the first reference in device order owns the
 * file (the Go helper picks one at random).
 *
 * <p>Files are replaced atomically (temporary file and rename), so a container never reads a
 * half-written file. Request names come from the driver and become directory names, so they are
 * checked to be DNS labels first; claim namespace, name and UID were checked on arrival.
 * Thread-safe as far as the file system is: the plugin's serialization lock orders calls.
 */
public final class MetadataWriter {

  /** The one metadata API version there is. */
  public static final String V1ALPHA1 = "metadata.resource.k8s.io/v1alpha1";

  /** Where containers find the files. */
  public static final String CONTAINER_DIRECTORY = "/var/run/kubernetes.io/dra-device-attributes";

  /** Annotation naming the pod's claim for template-generated claims. */
  public static final String POD_CLAIM_NAME_ANNOTATION = "resource.kubernetes.io/pod-claim-name";

  private static final Logger LOG = LoggerFactory.getLogger(MetadataWriter.class);
  private static final String FILE = "metadata.json";
  private static final Set<PosixFilePermission> FILE_MODE = PosixFilePermissions
      .fromString("rw-r--r--");
  private static final Set<PosixFilePermission> DIRECTORY_MODE = PosixFilePermissions
      .fromString("rwxr-xr-x");
  /** The largest metadata file read back: a thousand devices' attributes. */
  private static final int MAX_FILE_BYTES = 1 << 20;

  private final String driverName;
  private final Path metadataRoot;
  private final Path cdiDirectory;
  private final SpecDirectory specs;
  private final Kind kind;
  private final List<String> versions;
  private final Supplier<KubernetesSerialization> serialization;
  private final JsonMapper json = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT)
      .build();

  /**
   * Creates the writer.
   *
   * @param driverName the driver name (also the CDI vendor of the metadata specs)
   * @param pluginDataDirectory where {@code dra-device-metadata/} goes
   * @param cdiDirectory where the metadata CDI specs go
   * @param requestedVersions metadata API versions to write, newest first
   * @param serialization the API client's serialization, for attribute and network objects;
   *     asked for at the first write, so the client may still be being made when this is
   * @throws IllegalArgumentException {@code none of the requested metadata API versions [...] are
   *     supported} if no requested version is known
   */
  public MetadataWriter(String driverName, Path pluginDataDirectory, Path cdiDirectory,
      List<String> requestedVersions, Supplier<KubernetesSerialization> serialization) {
    this.driverName = driverName;
    this.serialization = serialization;
    this.metadataRoot = pluginDataDirectory.resolve("dra-device-metadata");
    this.cdiDirectory = cdiDirectory;
    this.specs = SpecDirectory.at(cdiDirectory);
    this.kind = Kind.of(driverName, "metadata");
    this.versions = requestedVersions.stream().filter(V1ALPHA1::equals).distinct().toList();
    if (versions.isEmpty()) {
      throw new IllegalArgumentException("none of the requested metadata API versions ["
          + String.join(" ", requestedVersions) + "] are supported");
    }
  }

  /**
   * Writes the metadata of a freshly prepared claim.
   *
   * @param claim the claim as fetched
   * @param devices the driver's devices for it
   * @return CDI device ID of the metadata spec per base request name
   * @throws IOException if a file cannot be written
   */
  public Map<String, String> write(ResourceClaim claim, List<PreparedDevice> devices)
      throws IOException {
    Map<String, List<PreparedDevice>> byRequest = new LinkedHashMap<>();
    for (PreparedDevice device : devices) {
      for (String ref : device.requests()) {
        byRequest.computeIfAbsent(ref, r -> new ArrayList<>()).add(device);
      }
    }
    String namespace = claim.getMetadata().getNamespace();
    String name = claim.getMetadata().getName();
    String uid = claim.getMetadata().getUid();
    Map<String, String> annotations = claim.getMetadata().getAnnotations();
    String podClaimName = annotations == null ? null : annotations.get(POD_CLAIM_NAME_ANNOTATION);
    Map<String, String> ids = new LinkedHashMap<>();
    for (Map.Entry<String, List<PreparedDevice>> entry : byRequest.entrySet()) {
      String base = RequestReference.baseRequest(entry.getKey());
      if (ids.containsKey(base)) {
        // One file per top-level request: two sub-requests of one request cannot both have it.
        // Go lets a random one win; here the first in device order does.
        LOG.debug("Device metadata of request {} already written for {}",
            LogText.quote(entry.getKey()), LogText.quote(base));
        continue;
      }
      if (NameRules.dnsLabel(base).isPresent()) {
        LOG.warn("Not writing device metadata for request {} of claim {}: not a DNS label",
            LogText.quote(base), LogText.quote(namespace + "/" + name));
        continue;
      }
      Path hostFile = hostFile(namespace, name, base);
      writeDocument(hostFile, new MetadataDocument(
          namespace, name, uid, 1, podClaimName, entry.getKey(), entry.getValue()), true);
      String deviceName = uid + "_" + base;
      CdiSpec spec = CdiSpec.builder().kind(kind)
          .device(deviceName, edits -> edits.mount(Mount.bind(hostFile.toString(),
              containerPath(driverName, podClaimName, name, base), "ro")))
          .build();
      specs.write(spec, new SpecFileName(driverName + "_metadata_" + deviceName + ".json"),
          WriteMode.REPLACE);
      ids.put(base, spec.qualifiedDeviceNames().get(0).toString());
    }
    return ids;
  }

  /**
   * Removes a claim's metadata directory and CDI specs; missing files are fine.
   *
   * @param claim the unprepared claim
   * @throws IOException with a message naming the directory or file (worded as a Go driver's)
   */
  public void cleanUp(ClaimReference claim) throws IOException {
    Path directory = claimDirectory(claim.namespace(), claim.name());
    try {
      deleteTree(directory);
    } catch (IOException e) {
      throw new IOException("remove metadata directory " + directory + ": " + e.getMessage(), e);
    }
    String pattern = driverName + "_metadata_" + claim.uid() + "_*.json";
    if (!Files.isDirectory(cdiDirectory)) {
      return;
    }
    List<Path> found = new ArrayList<>();
    try (DirectoryStream<Path> specs = Files.newDirectoryStream(cdiDirectory, pattern)) {
      specs.forEach(found::add);
    } catch (IOException | DirectoryIteratorException e) {
      IOException cause = e instanceof DirectoryIteratorException d ? d.getCause()
          : (IOException) e;
      throw new IOException("glob CDI specs " + cdiDirectory.resolve(pattern) + ": "
          + cause.getMessage(), cause);
    }
    for (Path spec : found) {
      if (Files.isDirectory(spec, LinkOption.NOFOLLOW_LINKS)
          || (Files.exists(spec, LinkOption.NOFOLLOW_LINKS) && Files.readAttributes(spec,
              BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isOther())) {
        // Not a spec this plugin wrote (a bind mount of a missing file leaves a directory):
        // leave it, or the claim's unprepare would fail on every retry.
        LOG.warn("Not removing {}: not a spec file the plugin wrote", spec);
        continue;
      }
      try {
        Files.deleteIfExists(spec);
      } catch (IOException e) {
        throw new IOException("remove CDI spec " + spec + ": " + e.getMessage(), e);
      }
    }
  }

  /**
   * Rewrites the metadata of one request of a prepared claim with new devices, for data known only
   * after prepare: generation goes up by one, the pod claim name is kept.
   *
   * @param claim the prepared claim
   * @param requestRef {@code req} or {@code req/sub}
   * @param devices the request's devices now
   * @throws IOException {@code request "<ref>" not found in prepared claim <ns>/<name>} if the
   *     claim's request has no metadata file, or a read/write error
   */
  public void updateRequest(ClaimReference claim, String requestRef, List<PreparedDevice> devices)
      throws IOException {
    String base = RequestReference.baseRequest(requestRef);
    Path hostFile = NameRules.dnsLabel(base).isEmpty()
        ? hostFile(claim.namespace(), claim.name(), base) : null;
    if (hostFile == null || !Files.exists(hostFile)) {
      throw new NoSuchFileException(String.valueOf(hostFile), null, "request \"" + requestRef
          + "\" not found in prepared claim " + claim.namespacedName());
    }
    Map<String, Object> previous = firstKnownVersion(hostFile);
    Map<?, ?> meta = (Map<?, ?>) previous.get("metadata");
    long generation = meta.get("generation") instanceof Number n ? n.longValue() : 0;
    Object podClaimName = previous.get("podClaimName");
    try {
      // An unprepare may remove the claim's directory meanwhile: do not create it again.
      writeDocument(hostFile, new MetadataDocument(claim.namespace(), claim.name(), claim.uid(),
          generation + 1, podClaimName == null ? null : podClaimName.toString(), requestRef,
          devices), false);
    } catch (NoSuchFileException e) {
      throw new NoSuchFileException(hostFile.toString(), null, "request \"" + requestRef
          + "\" not found in prepared claim " + claim.namespacedName());
    }
  }

  /**
   * Where containers see the file: under {@value #CONTAINER_DIRECTORY}, by claim (or by the pod's
   * claim name for a claim made from a template), request and driver.
   *
   * @param driverName the driver name
   * @param podClaimName pod claim name of a template-generated claim, or null
   * @param claimName the claim name
   * @param baseRequest the top-level request
   * @return the path inside the container
   */
  static String containerPath(
      String driverName, String podClaimName, String claimName, String baseRequest) {
    String owner = podClaimName != null && !podClaimName.isEmpty()
        ? "resourceclaimtemplates/" + podClaimName
        : "resourceclaims/" + claimName;
    return CONTAINER_DIRECTORY + "/" + owner + "/" + baseRequest + "/" + driverName
        + "-metadata.json";
  }

  private Path claimDirectory(String namespace, String name) {
    return metadataRoot.resolve(namespace + "_" + name);
  }

  private Path hostFile(String namespace, String name, String baseRequest) {
    return claimDirectory(namespace, name).resolve(baseRequest).resolve(FILE);
  }

  private void writeDocument(Path file, MetadataDocument document, boolean createParents)
      throws IOException {
    StringBuilder stream = new StringBuilder();
    for (String version : versions) {
      stream
          .append(
              json.writeValueAsString(document.toTree(version, driverName, serialization.get())))
          .append('\n');
    }
    writeAtomically(file, stream.toString(), createParents);
  }

  private Map<String, Object> firstKnownVersion(Path file) throws IOException {
    byte[] bytes;
    try {
      // The plugin wrote it, never as a link; anything else there is refused, not read.
      bytes = BoundedFileReader.read(file, MAX_FILE_BYTES, LinkOption.NOFOLLOW_LINKS);
    } catch (RefusedFileException e) {
      throw new IOException("metadata file " + e.getMessage(), e);
    }
    try (MappingIterator<Map<String, Object>> objects = json.readerFor(Map.class)
        .readValues(bytes)) {
      List<String> unknown = new ArrayList<>();
      boolean any = false;
      while (objects.hasNext()) {
        any = true;
        Map<String, Object> object = objects.next();
        if (versions.contains(String.valueOf(object.get("apiVersion")))) {
          return object;
        }
        unknown.add(String.valueOf(object.get("apiVersion")));
      }
      throw new IOException(any
          ? "no compatible metadata version found in stream (unknown versions: " + unknown + ")"
          : "no metadata objects found in stream");
    }
  }

  private static void writeAtomically(Path file, String content, boolean createParents)
      throws IOException {
    Path directory = file.getParent();
    if (createParents) {
      createDirectories(directory);
    }
    Path temporary = Files.createTempFile(directory, ".dra4j-", ".tmp");
    try {
      Files.writeString(temporary, content, StandardCharsets.UTF_8);
      Files.setPosixFilePermissions(temporary, FILE_MODE);
      Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(temporary);
    }
  }

  private static void createDirectories(Path directory) throws IOException {
    if (!Files.isDirectory(directory)) {
      Files.createDirectories(directory, PosixFilePermissions.asFileAttribute(DIRECTORY_MODE));
    }
  }

  private static void deleteTree(Path directory) throws IOException {
    if (!Files.exists(directory)) {
      return;
    }
    List<Path> paths;
    try (Stream<Path> walk = Files.walk(directory)) {
      paths = walk.sorted(Comparator.reverseOrder()).toList();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    for (Path path : paths) {
      Files.deleteIfExists(path);
    }
  }
}
