package io.github.dra4j.testing.cdi.injection;

import io.github.dra4j.cdi.spec.HookName;
import io.github.dra4j.cdi.spec.IntelRdt;
import java.util.List;
import java.util.TreeMap;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes an {@link OciContainer} as OCI runtime-spec JSON: the field names, nesting, key order
 * and omission of empty optional fields of the runtime-spec Go types, so the text equals what
 * Go's encoder writes for the same parts of a {@code config.json}. Stateless and thread-safe.
 */
final class OciJson {
  private static final JsonMapper MAPPER = JsonMapper.builder().build();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private OciJson() {}

  static String write(OciContainer container) {
    ObjectNode root = NODES.objectNode();
    ObjectNode process = root.putObject("process");
    ObjectNode user = process.putObject("user");
    user.put("uid", container.uid());
    user.put("gid", container.gid());
    if (!container.additionalGids().isEmpty()) {
      ArrayNode gids = user.putArray("additionalGids");
      container.additionalGids().forEach(gids::add);
    }
    strings(process, "env", container.env());
    if (!container.mounts().isEmpty()) {
      ArrayNode mounts = root.putArray("mounts");
      container.mounts().forEach(m -> mount(mounts.addObject(), m));
    }
    if (!container.hooks().isEmpty()) {
      ObjectNode hooks = root.putObject("hooks");
      for (HookName name : HookName.values()) {
        List<OciHook> list = container.hooks(name);
        if (!list.isEmpty()) {
          ArrayNode array = hooks.putArray(name.jsonName());
          list.forEach(h -> hook(array.addObject(), h));
        }
      }
    }
    ObjectNode linux = linux(container);
    if (!linux.isEmpty()) {
      root.set("linux", linux);
    }
    return MAPPER.writeValueAsString(root);
  }

  private static ObjectNode linux(OciContainer container) {
    ObjectNode linux = NODES.objectNode();
    if (!container.deviceRules().isEmpty()) {
      ArrayNode rules = linux.putObject("resources").putArray("devices");
      for (OciDeviceRule rule : container.deviceRules()) {
        ObjectNode node = rules.addObject();
        node.put("allow", rule.allow());
        text(node, "type", rule.type());
        node.put("major", rule.major());
        node.put("minor", rule.minor());
        text(node, "access", rule.access());
      }
    }
    if (!container.devices().isEmpty()) {
      ArrayNode devices = linux.putArray("devices");
      for (OciDevice device : container.devices()) {
        ObjectNode node = devices.addObject();
        node.put("path", device.path());
        node.put("type", device.type());
        node.put("major", device.major());
        node.put("minor", device.minor());
        if (device.fileMode() != null) {
          node.put("fileMode", device.fileMode());
        }
        if (device.uid() != null) {
          node.put("uid", device.uid());
        }
        if (device.gid() != null) {
          node.put("gid", device.gid());
        }
      }
    }
    if (container.intelRdt() != null) {
      intelRdt(linux.putObject("intelRdt"), container.intelRdt());
    }
    if (!container.netDevices().isEmpty()) {
      ObjectNode netDevices = linux.putObject("netDevices");
      // Keys sorted, so the text equals what the runtimes (Go's JSON encoder) write.
      new TreeMap<>(container.netDevices()).forEach(
          (host, name) -> text(netDevices.putObject(host), "name", name));
    }
    return linux;
  }

  private static void mount(ObjectNode node, OciMount mount) {
    node.put("destination", mount.destination());
    text(node, "type", mount.type());
    text(node, "source", mount.source());
    strings(node, "options", mount.options());
  }

  private static void hook(ObjectNode node, OciHook hook) {
    node.put("path", hook.path());
    strings(node, "args", hook.args());
    strings(node, "env", hook.env());
    if (hook.timeout() != null) {
      node.put("timeout", hook.timeout());
    }
  }

  private static void intelRdt(ObjectNode node, IntelRdt rdt) {
    text(node, "closID", rdt.closID());
    text(node, "l3CacheSchema", rdt.l3CacheSchema());
    text(node, "memBwSchema", rdt.memBwSchema());
    if (rdt.schemata() != null) {
      strings(node, "schemata", rdt.schemata());
    }
    if (rdt.enableMonitoring()) {
      node.put("enableMonitoring", true);
    }
  }

  /** An optional string: left out when empty, as Go's {@code omitempty} does. */
  private static void text(ObjectNode node, String field, String value) {
    if (value != null && !value.isEmpty()) {
      node.put(field, value);
    }
  }

  /** An optional list: left out when empty. */
  private static void strings(ObjectNode node, String field, List<String> values) {
    if (!values.isEmpty()) {
      ArrayNode array = node.putArray(field);
      values.forEach(array::add);
    }
  }
}
