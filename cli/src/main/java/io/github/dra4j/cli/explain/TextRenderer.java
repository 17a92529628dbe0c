package io.github.dra4j.cli.explain;

import io.github.dra4j.cli.explain.ClaimReport.AllocatedDevice;
import io.github.dra4j.cli.explain.ClaimReport.Finding;
import io.github.dra4j.structured.AllocationExplanation.ClaimExplanation;
import io.github.dra4j.structured.AllocationExplanation.DeviceVerdict;
import io.github.dra4j.structured.AllocationExplanation.Reason;
import io.github.dra4j.structured.AllocationExplanation.RequestExplanation;
import java.util.Locale;

/**
 * Renders a {@link Report} for people: the target, each claim with its state and checks ({@code
 * ok} or {@code !!} in front), then per node tried the allocator's verdict and, per request, every
 * device considered with the reason it cannot serve the request, or the devices it would get.
 * Stateless.
 */
final class TextRenderer {

  private TextRenderer() {}

  static String render(Report report) {
    StringBuilder out = new StringBuilder();
    out.append(report.kind()).append(' ').append(report.namespace()).append('/')
        .append(report.name()).append('\n');
    report.notes().forEach(note -> out.append("  ").append(note).append('\n'));
    for (ClaimReport claim : report.claims()) {
      out.append('\n').append("Claim ").append(claim.namespace()).append('/').append(claim.name());
      if (claim.podClaimName() != null) {
        out.append(" (pod claim ").append(claim.podClaimName()).append(')');
      }
      if (!claim.source().equals("ResourceClaim")) {
        out.append(" (from template)");
      }
      out.append(": ").append(claim.state());
      if (claim.node() != null) {
        out.append(" on node ").append(claim.node());
      }
      out.append('\n');
      for (AllocatedDevice device : claim.devices()) {
        out.append("  request ").append(device.request()).append(": ").append(device.device())
            .append(device.adminAccess() ? " (admin access)" : "").append('\n');
        device.conditions().forEach(c -> out.append("    condition ").append(c).append('\n'));
      }
      for (Finding finding : claim.findings()) {
        out.append(finding.ok() ? "  ok " : "  !! ").append(finding.message()).append('\n');
      }
    }
    for (NodeAttempt attempt : report.nodes()) {
      out.append('\n').append("Node ").append(attempt.node()).append(": ");
      out.append(attempt.outcome().equals("allocatable") ? "would allocate" : attempt.message());
      out.append('\n');
      for (ClaimExplanation claim : attempt.claims()) {
        out.append("  claim ").append(claim.claim()).append('\n');
        for (RequestExplanation request : claim.requests()) {
          request(out, request, attempt.outcome().equals("allocatable"));
        }
      }
    }
    return out.toString();
  }

  private static void request(StringBuilder out, RequestExplanation request, boolean allocatable) {
    out.append("    request ").append(request.request());
    if (request.error().isPresent()) {
      out.append(": error: ").append(request.error().get()).append('\n');
      return;
    }
    out.append(" (class ").append(request.deviceClass()).append(", ").append(request.mode())
        .append(' ').append(request.count()).append("): ").append(request.usable()).append(" of ")
        .append(request.devices().size()).append(request.devices().size() == 1 ? " device" : " devices")
        .append(" usable\n");
    if (!request.allocated().isEmpty()) {
      out.append("      would get ").append(String.join(", ", request.allocated())).append('\n');
    }
    for (DeviceVerdict device : request.devices()) {
      out.append("      ").append(device.id()).append(": ").append(words(device.reason()));
      if (!device.detail().isEmpty()) {
        out.append(" - ").append(device.detail());
      }
      out.append('\n');
    }
    if (request.devices().isEmpty()) {
      out.append("      no device of the class is published for this node\n");
    } else if (!allocatable && request.usable() >= Math.max(1, request.count())) {
      out.append("      enough devices are usable one by one; together they fail (the claim's"
          + " constraints, or other requests take them)\n");
    }
  }

  /** {@code CLASS_SELECTOR_FALSE} as {@code class selector false}. */
  static String words(Reason reason) {
    return reason.name().toLowerCase(Locale.ROOT).replace('_', ' ');
  }
}
