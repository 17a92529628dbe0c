package io.github.dra4j.cli.explain;

import io.github.dra4j.cli.explain.ClaimReport.AllocatedDevice;
import io.github.dra4j.cli.explain.ClaimReport.Finding;
import io.github.dra4j.structured.AllocationExplanation.ClaimExplanation;
import io.github.dra4j.structured.AllocationExplanation.DeviceVerdict;
import io.github.dra4j.structured.AllocationExplanation.NotConsidered;
import io.github.dra4j.structured.AllocationExplanation.Reason;
import io.github.dra4j.structured.AllocationExplanation.RequestExplanation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Renders a {@link Report} for people: the target, each claim with its state and checks ({@code
 * ok} or {@code !!} in front), the Events of its pods, then per node tried the allocator's verdict,
 * the slices it leaves out and, per request, every device considered with the reason it cannot
 * serve the request, or the devices it would get; nodes with the same answer share one section.
 * Stateless.
 */
final class TextRenderer {

  /** Node names printed in the heading of a section shared by several nodes. */
  private static final int NAMES = 5;

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
    events(out, report.events());
    // Nodes with the same answer share one section (on a large cluster, most nodes have none of
    // the devices and the same answer).
    Map<String, List<String>> groups = new LinkedHashMap<>();
    for (NodeAttempt attempt : report.nodes()) {
      groups.computeIfAbsent(attempt(attempt), k -> new ArrayList<>()).add(attempt.node());
    }
    groups.forEach((body, nodes) -> out.append('\n').append(nodes.size() == 1
        ? "Node " + nodes.get(0) : "Nodes " + names(nodes)).append(body));
    return out.toString();
  }

  /** Up to {@value #NAMES} node names, then how many more. */
  private static String names(List<String> nodes) {
    if (nodes.size() <= NAMES) {
      return String.join(", ", nodes) + " (" + nodes.size() + ")";
    }
    return String.join(", ", nodes.subList(0, NAMES)) + " and " + (nodes.size() - NAMES)
        + " more (" + nodes.size() + ")";
  }

  /** A node's section without the node's name: the same text for the same answer. */
  private static String attempt(NodeAttempt attempt) {
    StringBuilder out = new StringBuilder(": ");
    out.append(attempt.outcome().equals("allocatable") ? "would allocate" : attempt.message());
    out.append('\n');
    for (NotConsidered skipped : attempt.explanation().notConsidered()) {
      out.append("  ").append(describe(skipped)).append('\n');
    }
    for (ClaimExplanation claim : attempt.claims()) {
      out.append("  claim ").append(claim.claim()).append('\n');
      for (RequestExplanation request : claim.requests()) {
        request(out, request, attempt.outcome().equals("allocatable"));
      }
    }
    return out.toString();
  }

  /** {@code pool driver/pool (slices a, b): reason}, or {@code slice a: reason}. */
  static String describe(NotConsidered skipped) {
    String slices = (skipped.slices().size() == 1 ? "slice " : "slices ")
        + String.join(", ", skipped.slices());
    return skipped.poolId().isEmpty() ? slices + ": " + skipped.reason()
        : "pool " + skipped.poolId() + " (" + slices + "): " + skipped.reason();
  }

  private static void events(StringBuilder out, EventLog events) {
    if (events.pods().isEmpty()) {
      return;
    }
    out.append('\n').append("Events of pod").append(events.pods().size() == 1 ? " " : "s ")
        .append(String.join(", ", events.pods())).append(" (FailedScheduling, FailedPrepare"
            + "DynamicResources, FailedUnprepareDynamicResources; newest first)\n");
    if (events.error() != null) {
      out.append("  ").append(events.error()).append('\n');
    } else if (events.events().isEmpty()) {
      out.append("  none\n");
    }
    for (EventLog.PodEvent event : events.events()) {
      out.append("  pod ").append(event.pod()).append(": ").append(event.type()).append(' ')
          .append(event.reason()).append(" (x").append(event.count()).append(", ")
          .append(event.age()).append(" ago").append(event.source().isEmpty() ? ""
              : ", from " + event.source())
          .append("): ").append(event.message()).append('\n');
    }
  }

  private static void request(StringBuilder out, RequestExplanation request, boolean allocatable) {
    out.append("    request ").append(request.request());
    if (request.error().isPresent()) {
      out.append(": error: ").append(request.error().get()).append('\n');
      return;
    }
    out.append(" (class ").append(request.deviceClass()).append(", ").append(request.mode())
        .append(' ').append(request.count()).append("): ").append(request.usable()).append(" of ")
        .append(request.devices().size())
        .append(request.devices().size() == 1 ? " device" : " devices")
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
    for (NotConsidered unmatched : request.unmatchedElsewhere()) {
      out.append("      ").append(describe(unmatched)).append('\n');
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
