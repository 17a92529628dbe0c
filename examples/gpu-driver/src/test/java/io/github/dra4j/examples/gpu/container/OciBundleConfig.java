package io.github.dra4j.examples.gpu.container;

import io.github.dra4j.testing.cdi.injection.OciContainer;
import io.github.dra4j.testing.cdi.injection.OciMount;
import java.nio.file.Path;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code config.json} of a test container: a minimal OCI runtime spec like {@code crun spec}'s
 * default (root user, the usual namespaces and kernel file systems, few capabilities, every device
 * denied), into which the CDI-edited parts of an {@link OciContainer} are merged. Stateless and
 * thread-safe.
 */
final class OciBundleConfig {
  /** The environment a container starts with before CDI edits. */
  static final String PATH_ENV = "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

  private static final JsonMapper MAPPER = JsonMapper.builder().build();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final List<String> CAPABILITIES = List.of("CAP_AUDIT_WRITE", "CAP_KILL",
      "CAP_NET_BIND_SERVICE");
  private static final List<String> NAMESPACES = List.of("pid", "network", "ipc", "uts", "mount");
  private static final List<OciMount> KERNEL_MOUNTS = List.of(
      new OciMount("/proc", "proc", "proc", List.of()),
      new OciMount("/dev", "tmpfs", "tmpfs", List.of("nosuid", "strictatime", "mode=755",
          "size=65536k")),
      new OciMount("/dev/pts", "devpts", "devpts", List.of("nosuid", "noexec", "newinstance",
          "ptmxmode=0666", "mode=0620")),
      new OciMount("/dev/shm", "tmpfs", "shm", List.of("nosuid", "noexec", "nodev", "mode=1777",
          "size=65536k")),
      new OciMount("/dev/mqueue", "mqueue", "mqueue", List.of("nosuid", "noexec", "nodev")),
      new OciMount("/sys", "sysfs", "sysfs", List.of("nosuid", "noexec", "nodev", "ro")));

  private OciBundleConfig() {}

  /**
   * Returns the container a runtime starts from before CDI edits: the kernel mounts and {@code
   * PATH}, as root.
   *
   * @return the container
   */
  static OciContainer baseContainer() {
    OciContainer.Builder builder = OciContainer.builder().env(PATH_ENV).user(0, 0);
    KERNEL_MOUNTS.forEach(builder::mount);
    return builder.build();
  }

  /**
   * Writes the {@code config.json} of a container whose CDI-edited parts are {@code edited}.
   *
   * @param edited the container after CDI edits ({@link #baseContainer()} plus the claim's edits)
   * @param rootfs the root file system, absolute
   * @param command the process's arguments
   * @return compact JSON, with {@code root.path} as the first field of {@code root}
   */
  static String write(OciContainer edited, Path rootfs, List<String> command) {
    ObjectNode edits = (ObjectNode) MAPPER.readTree(edited.toOciJson());
    ObjectNode config = NODES.objectNode();
    config.put("ociVersion", "1.0.2");
    ObjectNode process = config.putObject("process");
    process.put("terminal", false);
    process.set("user", edits.path("process").path("user"));
    strings(process.putArray("args"), command);
    process.set("env", edits.path("process").path("env"));
    process.put("cwd", "/");
    ObjectNode capabilities = process.putObject("capabilities");
    for (String set : List.of("bounding", "effective", "permitted")) {
      strings(capabilities.putArray(set), CAPABILITIES);
    }
    ObjectNode rlimit = process.putArray("rlimits").addObject();
    rlimit.put("type", "RLIMIT_NOFILE").put("hard", 1024).put("soft", 1024);
    process.put("noNewPrivileges", true);
    ObjectNode root = config.putObject("root");
    root.put("path", rootfs.toAbsolutePath().toString());
    root.put("readonly", false);
    config.put("hostname", "cdi-test");
    config.set("mounts", edits.path("mounts"));
    if (edits.has("hooks")) {
      config.set("hooks", edits.get("hooks"));
    }
    config.set("linux", linux(edits.path("linux")));
    return MAPPER.writeValueAsString(config);
  }

  private static ObjectNode linux(JsonNode edits) {
    ObjectNode linux = NODES.objectNode();
    ArrayNode rules = linux.putObject("resources").putArray("devices");
    rules.addObject().put("allow", false).put("access", "rwm");
    for (JsonNode rule : edits.path("resources").path("devices")) {
      rules.add(rule);
    }
    for (String field : List.of("devices", "intelRdt", "netDevices")) {
      if (edits.has(field)) {
        linux.set(field, edits.get(field));
      }
    }
    ArrayNode namespaces = linux.putArray("namespaces");
    NAMESPACES.forEach(type -> namespaces.addObject().put("type", type));
    strings(linux.putArray("maskedPaths"), List.of("/proc/acpi", "/proc/kcore", "/proc/keys",
        "/proc/latency_stats", "/proc/timer_list", "/proc/timer_stats", "/proc/sched_debug",
        "/sys/firmware", "/proc/scsi"));
    strings(linux.putArray("readonlyPaths"), List.of("/proc/asound", "/proc/bus", "/proc/fs",
        "/proc/irq", "/proc/sys", "/proc/sysrq-trigger"));
    return linux;
  }

  private static void strings(ArrayNode array, List<String> values) {
    values.forEach(array::add);
  }
}
