package io.github.dra4j.cdi.codec;

import io.github.dra4j.cdi.spec.CdiSpec;
import io.github.dra4j.cdi.spec.ContainerEdits;
import io.github.dra4j.cdi.spec.Device;
import io.github.dra4j.cdi.spec.DeviceNode;
import io.github.dra4j.cdi.spec.Hook;
import io.github.dra4j.cdi.spec.IntelRdt;
import io.github.dra4j.cdi.spec.Mount;
import io.github.dra4j.cdi.spec.NetDevice;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;

/**
 * Writes a spec as compact JSON field by field, with Jackson's streaming generator.
 *
 * <p>The spec types carry Jackson annotations, and an object mapper writes the same bytes, but
 * only after it has introspected every type: reflection, generic signatures and a proxy class per
 * annotation type, some 0.1 s of a driver's start-up, when the common spec is written before the
 * plugin's sockets are up. The rules here are the annotations' (a test holds the two to the same
 * bytes): fields in the order the spec's JSON schema lists them; the version, kind, devices,
 * names, paths and edits always; other strings, lists and maps only when not empty; {@code
 * intelRdt}, {@code fileMode}, {@code uid}, {@code gid}, {@code timeout} and {@code schemata}
 * only when set; {@code major} and {@code minor} only when not 0; {@code enableMonitoring} only
 * when true. Annotation maps are already sorted by key.
 *
 * <p>Stateless and thread-safe.
 */
final class SpecJsonWriter {

  private final JsonFactory factory = new JsonFactory();

  /**
   * Serializes a spec.
   *
   * @param spec the spec
   * @return UTF-8 JSON
   */
  byte[] write(CdiSpec spec) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(512);
    try (JsonGenerator json = factory.createGenerator(ObjectWriteContext.empty(), out)) {
      json.writeStartObject();
      json.writeStringProperty("cdiVersion", spec.cdiVersion());
      json.writeStringProperty("kind", spec.kind());
      annotations(json, spec.annotations());
      json.writeName("devices");
      json.writeStartArray();
      for (Device device : spec.devices()) {
        device(json, device);
      }
      json.writeEndArray();
      json.writeName("containerEdits");
      edits(json, spec.containerEdits());
      json.writeEndObject();
    }
    return out.toByteArray();
  }

  private static void device(JsonGenerator json, Device device) {
    json.writeStartObject();
    json.writeStringProperty("name", device.name());
    annotations(json, device.annotations());
    json.writeName("containerEdits");
    edits(json, device.containerEdits());
    json.writeEndObject();
  }

  private static void edits(JsonGenerator json, ContainerEdits edits) {
    json.writeStartObject();
    array(json, "env", edits.env(), JsonGenerator::writeString);
    array(json, "deviceNodes", edits.deviceNodes(), SpecJsonWriter::deviceNode);
    array(json, "netDevices", edits.netDevices(), SpecJsonWriter::netDevice);
    array(json, "hooks", edits.hooks(), SpecJsonWriter::hook);
    array(json, "mounts", edits.mounts(), SpecJsonWriter::mount);
    if (edits.intelRdt() != null) {
      intelRdt(json, edits.intelRdt());
    }
    array(json, "additionalGids", edits.additionalGids(), JsonGenerator::writeNumber);
    json.writeEndObject();
  }

  private static void netDevice(JsonGenerator json, NetDevice device) {
    json.writeStartObject();
    json.writeStringProperty("hostInterfaceName", device.hostInterfaceName());
    json.writeStringProperty("name", device.name());
    json.writeEndObject();
  }

  private static void mount(JsonGenerator json, Mount mount) {
    json.writeStartObject();
    json.writeStringProperty("hostPath", mount.hostPath());
    json.writeStringProperty("containerPath", mount.containerPath());
    array(json, "options", mount.options(), JsonGenerator::writeString);
    text(json, "type", mount.type());
    json.writeEndObject();
  }

  private static void deviceNode(JsonGenerator json, DeviceNode node) {
    json.writeStartObject();
    json.writeStringProperty("path", node.path());
    text(json, "hostPath", node.hostPath());
    text(json, "type", node.type());
    if (node.major() != 0) {
      json.writeNumberProperty("major", node.major());
    }
    if (node.minor() != 0) {
      json.writeNumberProperty("minor", node.minor());
    }
    if (node.fileMode() != null) {
      json.writeNumberProperty("fileMode", node.fileMode().intValue());
    }
    text(json, "permissions", node.permissions());
    if (node.uid() != null) {
      json.writeNumberProperty("uid", node.uid().longValue());
    }
    if (node.gid() != null) {
      json.writeNumberProperty("gid", node.gid().longValue());
    }
    json.writeEndObject();
  }

  private static void hook(JsonGenerator json, Hook hook) {
    json.writeStartObject();
    json.writeStringProperty("hookName", hook.hookName());
    json.writeStringProperty("path", hook.path());
    array(json, "args", hook.args(), JsonGenerator::writeString);
    array(json, "env", hook.env(), JsonGenerator::writeString);
    if (hook.timeout() != null) {
      json.writeNumberProperty("timeout", hook.timeout().intValue());
    }
    json.writeEndObject();
  }

  private static void intelRdt(JsonGenerator json, IntelRdt rdt) {
    json.writeName("intelRdt");
    json.writeStartObject();
    text(json, "closID", rdt.closID());
    text(json, "l3CacheSchema", rdt.l3CacheSchema());
    text(json, "memBwSchema", rdt.memBwSchema());
    if (rdt.schemata() != null) {
      json.writeName("schemata");
      json.writeStartArray();
      for (String line : rdt.schemata()) {
        json.writeString(line);
      }
      json.writeEndArray();
    }
    if (rdt.enableMonitoring()) {
      json.writeBooleanProperty("enableMonitoring", true);
    }
    json.writeEndObject();
  }

  private static void annotations(JsonGenerator json, Map<String, String> annotations) {
    if (annotations.isEmpty()) {
      return;
    }
    json.writeName("annotations");
    json.writeStartObject();
    for (Map.Entry<String, String> entry : annotations.entrySet()) {
      json.writeStringProperty(entry.getKey(), entry.getValue());
    }
    json.writeEndObject();
  }

  /** Writes a list as an array named {@code name}, or nothing when it is empty. */
  private static <T> void array(JsonGenerator json, String name, List<T> values,
      BiConsumer<JsonGenerator, T> element) {
    if (values.isEmpty()) {
      return;
    }
    json.writeName(name);
    json.writeStartArray();
    for (T value : values) {
      element.accept(json, value);
    }
    json.writeEndArray();
  }

  private static void text(JsonGenerator json, String name, String value) {
    if (!value.isEmpty()) {
      json.writeStringProperty(name, value);
    }
  }
}
