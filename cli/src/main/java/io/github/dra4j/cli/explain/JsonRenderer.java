package io.github.dra4j.cli.explain;

import io.github.dra4j.cli.explain.ClaimReport.AllocatedDevice;
import io.github.dra4j.cli.explain.ClaimReport.Finding;
import io.github.dra4j.structured.AllocationExplanation.ClaimExplanation;
import io.github.dra4j.structured.AllocationExplanation.DeviceVerdict;
import io.github.dra4j.structured.AllocationExplanation.NotConsidered;
import io.github.dra4j.structured.AllocationExplanation.RequestExplanation;
import java.util.List;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Renders a {@link Report} as JSON for scripts, in the shape {@code docs/explain.md} documents
 * ({@code "apiVersion": "dra4j.io/explain/v1"}): fields are only ever added to it, never renamed
 * or removed. Stateless.
 */
final class JsonRenderer {

  /** The shape's version, the first field of every document. */
  static final String API_VERSION = "dra4j.io/explain/v1";

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private JsonRenderer() {}

  static String render(Report report) {
    ObjectNode root = JSON.createObjectNode();
    root.put("apiVersion", API_VERSION);
    ObjectNode target = root.putObject("target");
    target.put("kind", report.kind());
    target.put("namespace", report.namespace());
    target.put("name", report.name());
    ArrayNode notes = root.putArray("notes");
    report.notes().forEach(notes::add);
    ArrayNode claims = root.putArray("claims");
    for (ClaimReport claim : report.claims()) {
      ObjectNode c = claims.addObject();
      c.put("namespace", claim.namespace());
      c.put("name", claim.name());
      c.put("source", claim.source());
      c.put("podClaimName", claim.podClaimName());
      c.put("state", claim.state());
      c.put("node", claim.node());
      ArrayNode devices = c.putArray("devices");
      for (AllocatedDevice device : claim.devices()) {
        ObjectNode d = devices.addObject();
        d.put("request", device.request());
        d.put("device", device.device());
        d.put("adminAccess", device.adminAccess());
        ArrayNode conditions = d.putArray("conditions");
        device.conditions().forEach(conditions::add);
      }
      ArrayNode reservedFor = c.putArray("reservedFor");
      claim.reservedFor().forEach(reservedFor::add);
      ArrayNode findings = c.putArray("findings");
      for (Finding finding : claim.findings()) {
        findings.addObject().put("check", finding.check()).put("ok", finding.ok())
            .put("message", finding.message());
      }
    }
    ObjectNode events = root.putObject("events");
    ArrayNode pods = events.putArray("pods");
    report.events().pods().forEach(pods::add);
    events.put("error", report.events().error());
    ArrayNode items = events.putArray("items");
    for (EventLog.PodEvent event : report.events().events()) {
      items.addObject().put("pod", event.pod()).put("type", event.type())
          .put("reason", event.reason()).put("count", event.count())
          .put("lastSeen", event.lastSeen()).put("age", event.age())
          .put("source", event.source()).put("message", event.message());
    }
    ArrayNode nodes = root.putArray("nodes");
    for (NodeAttempt attempt : report.nodes()) {
      ObjectNode n = nodes.addObject();
      n.put("node", attempt.node());
      n.put("outcome", attempt.outcome());
      n.put("message", attempt.message());
      notConsidered(n.putArray("notConsidered"), attempt.explanation().notConsidered());
      ArrayNode nodeClaims = n.putArray("claims");
      for (ClaimExplanation claim : attempt.claims()) {
        ObjectNode c = nodeClaims.addObject();
        c.put("claim", claim.claim());
        ArrayNode requests = c.putArray("requests");
        for (RequestExplanation request : claim.requests()) {
          request(requests.addObject(), request);
        }
      }
    }
    return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
  }

  private static void notConsidered(ArrayNode array, List<NotConsidered> lines) {
    for (NotConsidered line : lines) {
      ObjectNode o = array.addObject().put("driver", line.driver()).put("pool", line.pool());
      ArrayNode slices = o.putArray("slices");
      line.slices().forEach(slices::add);
      o.put("reason", line.reason());
    }
  }

  private static void request(ObjectNode r, RequestExplanation request) {
    r.put("request", request.request());
    r.put("deviceClass", request.deviceClass());
    r.put("mode", request.mode());
    r.put("count", request.count());
    r.put("error", request.error().orElse(null));
    r.put("usable", request.usable());
    ArrayNode allocated = r.putArray("allocated");
    request.allocated().forEach(allocated::add);
    ArrayNode devices = r.putArray("devices");
    for (DeviceVerdict device : request.devices()) {
      devices.addObject()
          .put("driver", device.driver())
          .put("pool", device.pool())
          .put("device", device.device())
          .put("slice", device.slice())
          .put("reason", device.reason().name())
          .put("detail", device.detail());
    }
    notConsidered(r.putArray("unmatchedElsewhere"), request.unmatchedElsewhere());
  }
}
