package io.github.dra4j.cli.explain;

import static io.github.dra4j.cli.explain.AllocatedClaimChecks.nonNull;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.github.dra4j.cli.explain.ClaimReport.Finding;
import io.github.dra4j.structured.AllocatorInputs;
import io.github.dra4j.structured.StructuredAllocator;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Explains a claim, a pod's claims or a claim template from a {@link ClusterState}: the checks of
 * {@link AllocatedClaimChecks} for allocated claims, and for the others the allocator's
 * explanation on each node they could go to (the {@code --node} given, else the pod's node or
 * nominated node, else every node). A pod's pending claims are tried together, as the scheduler
 * does. Immutable.
 */
final class TargetExplainer {

  /** Thrown when an object the explanation needs does not exist; the message names it. */
  static final class NotFound extends Exception {
    private static final long serialVersionUID = 1L;

    NotFound(String message) {
      super(message);
    }
  }

  private final ClusterState state;
  private final String nodeFlag;
  private final StructuredAllocator allocator;
  private final Function<String, ResourceClaimTemplate> templates;
  private final BiFunction<String, List<EventReader.PodRef>, EventLog> events;

  /**
   * Creates an explainer.
   *
   * @param templates looks up a claim template of the target's namespace by name, null if absent
   * @param events reads the Events about pods of a namespace
   */
  TargetExplainer(ClusterState state, String nodeFlag, StructuredAllocator allocator,
      Function<String, ResourceClaimTemplate> templates,
      BiFunction<String, List<EventReader.PodRef>, EventLog> events) {
    this.state = state;
    this.nodeFlag = nodeFlag;
    this.allocator = allocator;
    this.templates = templates;
    this.events = events;
  }

  /** One claim of the target: the claim (a template's stand-in) and where it came from. */
  private record Entry(ResourceClaim claim, String source, String podClaimName) {}

  Report claim(String namespace, String name) throws NotFound {
    ResourceClaim claim = state.claim(namespace, name).orElseThrow(
        () -> new NotFound("resourceclaim " + name + " not found in namespace " + namespace));
    List<String> notes = new ArrayList<>();
    Pod user = null;
    List<Pod> users = new ArrayList<>();
    for (Pod pod : state.pods()) {
      if (uses(pod, name)) {
        users.add(pod);
        notes.add("used by pod " + pod.getMetadata().getName() + describeNode(pod));
        if (user == null || (user.getSpec().getNodeName() == null
            && pod.getSpec().getNodeName() != null)) {
          user = pod;
        }
      }
    }
    return build("ResourceClaim", namespace, name, notes,
        List.of(new Entry(claim, "ResourceClaim", null)), user, users, null);
  }

  Report pod(Pod pod) throws NotFound {
    String namespace = pod.getMetadata().getNamespace();
    List<String> notes = new ArrayList<>();
    notes.add("pod " + pod.getMetadata().getName() + describeNode(pod));
    List<Entry> entries = new ArrayList<>();
    Map<String, String> generated = new java.util.HashMap<>();
    if (pod.getStatus() != null) {
      for (PodResourceClaimStatus s : nonNull(pod.getStatus().getResourceClaimStatuses())) {
        if (s.getResourceClaimName() != null) {
          generated.put(s.getName(), s.getResourceClaimName());
        }
      }
    }
    for (PodResourceClaim ref : nonNull(pod.getSpec().getResourceClaims())) {
      String claimName = ref.getResourceClaimName() != null
          ? ref.getResourceClaimName() : generated.get(ref.getName());
      if (claimName != null) {
        ResourceClaim claim = state.claim(namespace, claimName).orElseThrow(() -> new NotFound(
            "resourceclaim " + claimName + " (pod claim " + ref.getName() + ") not found in"
                + " namespace " + namespace));
        entries.add(new Entry(claim, "ResourceClaim", ref.getName()));
      } else if (ref.getResourceClaimTemplateName() != null) {
        String templateName = ref.getResourceClaimTemplateName();
        ResourceClaimTemplate template = templates.apply(templateName);
        if (template == null) {
          throw new NotFound("resourceclaimtemplate " + templateName + " (pod claim "
              + ref.getName() + ") not found in namespace " + namespace);
        }
        notes.add("pod claim " + ref.getName() + ": no claim made from template " + templateName
            + " yet, the template stands in for it");
        entries.add(new Entry(standIn(template), "ResourceClaimTemplate", ref.getName()));
      }
    }
    if (entries.isEmpty()) {
      notes.add("the pod has no resource claims");
    }
    return build("Pod", namespace, pod.getMetadata().getName(), notes, entries, pod, List.of(pod),
        null);
  }

  Report template(ResourceClaimTemplate template) {
    String namespace = template.getMetadata().getNamespace();
    String name = template.getMetadata().getName();
    return build("ResourceClaimTemplate", namespace, name,
        List.of("a claim made from this template, as a pod would get it"),
        List.of(new Entry(standIn(template), "ResourceClaimTemplate", null)), null, List.of(),
        new Finding("template", true, "not a claim: explains the claim a pod would get"));
  }

  /** A claim as a pod would get it from the template (named after the template). */
  private static ResourceClaim standIn(ResourceClaimTemplate template) {
    return new ResourceClaimBuilder().withNewMetadata()
        .withNamespace(template.getMetadata().getNamespace())
        .withName(template.getMetadata().getName()).endMetadata()
        .withSpec(template.getSpec() == null ? null : template.getSpec().getSpec()).build();
  }

  /**
   * Builds the report.
   *
   * @param pod the pod the claims are explained for (its node is tried), or null
   * @param related the pods whose Events to read, with those the claims are reserved for
   */
  private Report build(String kind, String namespace, String name, List<String> notes,
      List<Entry> entries, Pod pod, List<Pod> related, Finding extra) {
    List<String> allNotes = new ArrayList<>(notes);
    List<ClaimReport> claims = new ArrayList<>();
    List<ResourceClaim> pending = new ArrayList<>();
    for (Entry entry : entries) {
      ResourceClaim claim = entry.claim();
      List<Finding> admin = AdminAccessCheck.check(claim,
          entry.source().equals("ResourceClaimTemplate"), state);
      if (claim.getStatus() != null && claim.getStatus().getAllocation() != null) {
        claims.add(AllocatedClaimChecks.check(claim, entry.podClaimName(), pod, state)
            .withFindings(admin));
        continue;
      }
      pending.add(claim);
      List<Finding> findings = new ArrayList<>();
      if (extra != null) {
        findings.add(extra);
      }
      if (claim.getMetadata().getDeletionTimestamp() != null) {
        findings.add(new Finding("deletion", false, "the claim is being deleted"));
      }
      findings.addAll(admin);
      claims.add(new ClaimReport(namespace, claim.getMetadata().getName(), entry.source(),
          entry.podClaimName(), "pending", null, List.of(), List.of(), findings));
    }
    List<NodeAttempt> attempts = new ArrayList<>();
    if (!pending.isEmpty()) {
      List<Node> nodes = nodesToTry(pod, allNotes);
      for (Node node : nodes) {
        AllocatorInputs inputs = AllocatorInputs.builder().deviceClasses(state.classes())
            .slices(state.slices()).node(node).allocatedClaims(state.allocatedClaims()).build();
        attempts.add(new NodeAttempt(node.getMetadata().getName(),
            allocator.explain(pending, inputs)));
      }
    }
    return new Report(kind, namespace, name, allNotes, claims, attempts,
        events.apply(namespace, podRefs(related, entries)));
  }

  /** The related pods, then the pods the claims are reserved for, each once. */
  private List<EventReader.PodRef> podRefs(List<Pod> related, List<Entry> entries) {
    Map<String, EventReader.PodRef> refs = new java.util.LinkedHashMap<>();
    for (Pod pod : related) {
      refs.putIfAbsent(pod.getMetadata().getName(), ref(pod));
    }
    for (Entry entry : entries) {
      if (entry.claim().getStatus() == null) {
        continue;
      }
      for (var consumer : nonNull(entry.claim().getStatus().getReservedFor())) {
        if ("pods".equals(consumer.getResource()) && consumer.getName() != null) {
          refs.computeIfAbsent(consumer.getName(), podName -> state.pods().stream()
              .filter(p -> podName.equals(p.getMetadata().getName())).findFirst()
              .map(TargetExplainer::ref)
              .orElse(new EventReader.PodRef(podName, consumer.getUid(), true)));
        }
      }
    }
    return List.copyOf(refs.values());
  }

  private static EventReader.PodRef ref(Pod pod) {
    return new EventReader.PodRef(pod.getMetadata().getName(), pod.getMetadata().getUid(),
        pod.getSpec() != null && pod.getSpec().getNodeName() != null
            && !pod.getSpec().getNodeName().isEmpty());
  }

  private List<Node> nodesToTry(Pod pod, List<String> notes) {
    String chosen = nodeFlag;
    String why = "--node";
    if (chosen == null && pod != null && pod.getSpec().getNodeName() != null) {
      chosen = pod.getSpec().getNodeName();
      why = "the node of pod " + pod.getMetadata().getName();
    } else if (chosen == null && pod != null && pod.getStatus() != null
        && pod.getStatus().getNominatedNodeName() != null) {
      chosen = pod.getStatus().getNominatedNodeName();
      why = "the nominated node of pod " + pod.getMetadata().getName();
    }
    if (chosen != null) {
      String name = chosen;
      Node node = state.node(name)
          .orElseThrow(() -> new NotFoundUnchecked("node " + name + " not found"));
      notes.add("pending claims tried on node " + name + " (" + why + ")");
      return List.of(node);
    }
    List<Node> all = new ArrayList<>(state.nodes());
    all.sort(Comparator.comparing(n -> n.getMetadata().getName()));
    notes.add(all.isEmpty() ? "the cluster has no nodes to try the pending claims on"
        : "pending claims tried on every node (" + all.size() + "); --node picks one");
    return all;
  }

  private static boolean uses(Pod pod, String claimName) {
    if (pod.getSpec() != null && nonNull(pod.getSpec().getResourceClaims()).stream()
        .map(PodResourceClaim::getResourceClaimName).anyMatch(claimName::equals)) {
      return true;
    }
    return pod.getStatus() != null && nonNull(pod.getStatus().getResourceClaimStatuses())
        .stream().map(PodResourceClaimStatus::getResourceClaimName)
        .anyMatch(n -> Objects.equals(n, claimName));
  }

  private static String describeNode(Pod pod) {
    Function<Pod, String> nominated = p -> p.getStatus() == null
        ? null : p.getStatus().getNominatedNodeName();
    if (pod.getSpec() != null && pod.getSpec().getNodeName() != null) {
      return " (on node " + pod.getSpec().getNodeName() + ")";
    }
    return nominated.apply(pod) != null
        ? " (not bound, nominated for node " + nominated.apply(pod) + ")" : " (not scheduled)";
  }

  /** A node named by --node or the pod that does not exist; the message names it. */
  static final class NotFoundUnchecked extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NotFoundUnchecked(String message) {
      super(message);
    }
  }
}
