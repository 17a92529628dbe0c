package io.github.dra4j.kubeletplugin.internal.node;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.github.dra4j.kubelet.wire.dra.v1.Claim;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourceResponse;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesRequest;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesResponse;
import io.github.dra4j.kubelet.wire.dra.v1.NodeUnprepareResourceResponse;
import io.github.dra4j.kubelet.wire.dra.v1.NodeUnprepareResourcesRequest;
import io.github.dra4j.kubelet.wire.dra.v1.NodeUnprepareResourcesResponse;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.kubeletplugin.DraDriver;
import io.github.dra4j.kubeletplugin.PrepareResult;
import io.github.dra4j.kubeletplugin.UnprepareResult;
import io.github.dra4j.kubeletplugin.internal.claims.ClaimSource;
import io.github.dra4j.kubeletplugin.internal.logging.LogText;
import io.github.dra4j.kubeletplugin.internal.logging.LoggedFailure;
import io.github.dra4j.kubeletplugin.internal.metadata.MetadataWriter;
import io.github.dra4j.kubeletplugin.internal.observability.ClaimFailure;
import io.github.dra4j.kubeletplugin.internal.observability.ClaimMeters;
import io.github.dra4j.kubeletplugin.internal.observability.ClaimOutcomes;
import io.github.dra4j.kubeletplugin.internal.serialize.CallSerializer;
import io.github.dra4j.resourceclaim.ClaimReference;
import io.github.dra4j.resourceclaim.config.ConfigException;
import io.grpc.Status;
import io.grpc.StatusException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Prepares and unprepares claims for the kubelet: checks the request, fetches claims, calls the
 * driver under the serialization lock, writes or removes device metadata, and builds the answer,
 * one entry per requested claim UID.
 *
 * <p>Works on the v1 wire messages; {@link NodeServiceDefinitions} serves it as v1 and v1beta1.
 * A problem with one claim (a malformed reference, a claim that is not allocated or got replaced,
 * a bad device from the driver) fails that claim only, with a message naming the claim and what is
 * wrong (worded as a Go driver's where it has one, so log searches carry over); the other claims
 * of the call proceed. The whole call fails only if the request is too big, the lock cannot be
 * taken, the driver throws, or too many calls wait for the API server already (RESOURCE_EXHAUSTED,
 * before anything of the call waits). Thread-safe; owned by one plugin.
 */
public final class NodeService {

  /** MDC key holding the claim or claims being worked on. */
  public static final String MDC_CLAIM = io.github.dra4j.core.logging.MdcKeys.CLAIM;

  private static final Logger LOG = LoggerFactory.getLogger(NodeService.class);

  private final DraDriver driver;
  private final ClaimResolver resolver;
  private final CallSerializer serializer;
  private final int maxClaimsPerCall;
  private final MetadataStep metadata;
  private final Function<String, CallContext> contexts;
  private final ClaimOutcomes outcomes;
  private final Consumer<ClaimReference> unprepared;

  /**
   * Creates the service.
   *
   * @param driver the driver to call
   * @param claims where claims are read from
   * @param serializer the serialization policy
   * @param maxClaimsPerCall largest accepted batch
   * @param metadata writer of device-metadata files, or null when the feature is off
   * @param contexts builds the driver's context of the gRPC call running on the calling thread,
   *     given the kubelet's method name
   * @param meters counts each claim's outcome
   * @param unprepared told of each claim unprepared successfully, such as to clear its device
   *     status; must not block
   */
  public NodeService(DraDriver driver, ClaimSource claims, CallSerializer serializer,
      int maxClaimsPerCall, MetadataWriter metadata, Function<String, CallContext> contexts,
      ClaimMeters meters, Consumer<ClaimReference> unprepared) {
    this.driver = driver;
    this.resolver = new ClaimResolver(claims);
    this.serializer = serializer;
    this.maxClaimsPerCall = maxClaimsPerCall;
    this.metadata = new MetadataStep(metadata);
    this.contexts = contexts;
    this.outcomes = new ClaimOutcomes(meters);
    this.unprepared = unprepared;
  }

  /**
   * Handles {@code NodePrepareResources}.
   *
   * @param request the kubelet's request
   * @return one entry per requested claim UID
   * @throws StatusException INVALID_ARGUMENT for an oversized batch; UNKNOWN when locking or the
   *     driver fails as a whole; CANCELLED when interrupted; RESOURCE_EXHAUSTED when a claim must
   *     be read and too many calls wait for the API server already
   */
  public NodePrepareResourcesResponse prepare(NodePrepareResourcesRequest request)
      throws StatusException {
    Map<String, ClaimFailure> failures = new HashMap<>();
    long start = System.nanoTime();
    NodePrepareResourcesResponse response;
    try {
      response = prepareClaims(request, failures);
    } catch (StatusException | RuntimeException e) {
      outcomes.prepareFailed(ClaimFailure.ofCall(e), request.getClaimsCount(),
          System.nanoTime() - start);
      throw e;
    }
    outcomes.prepared(request.getClaimsList(), response.getClaimsMap(), failures,
        System.nanoTime() - start);
    return response;
  }

  /**
   * Prepares the claims, putting why each failed claim failed in {@code failures}. The driver is
   * called once, with every claim that could be read and, for a claim it holds as prepared
   * ({@link DraDriver#isPrepared}), only the claim's metadata: a claim goes through the driver
   * once per call. If the hint turns out wrong, the driver reads the claim itself ({@link
   * io.github.dra4j.kubeletplugin.PluginContext#claimLookup()}); its answer is final.
   */
  private NodePrepareResourcesResponse prepareClaims(NodePrepareResourcesRequest request,
      Map<String, ClaimFailure> failures) throws StatusException {
    checkBatch(request.getClaimsCount());
    Map<String, NodePrepareResourceResponse> answers = new LinkedHashMap<>();
    Map<String, ClaimReference> accepted = new LinkedHashMap<>();
    Map<String, ResourceClaim> claims = new LinkedHashMap<>();
    for (ClaimReference ref : acceptedReferences(request.getClaimsList(), (uid, message) -> {
      answers.put(uid, prepareError(message));
      failures.put(uid, ClaimFailure.INVALID_REQUEST);
    }, "prepare")) {
      // Device metadata is written from the full claim, so then every claim is read.
      if (!metadata.enabled() && driver.isPrepared(ref)) {
        claims.put(ref.uid(), metadataOnly(ref));
        accepted.put(ref.uid(), ref);
        continue;
      }
      try (MDC.MDCCloseable ignored = MDC.putCloseable(MDC_CLAIM, ref.toString())) {
        try {
          claims.put(ref.uid(), resolver.resolve(ref));
          accepted.put(ref.uid(), ref);
        } catch (ClaimResolver.ClaimProblem problem) {
          LOG.warn("Cannot prepare claim {}: {}", ref, LogText.text(problem.getMessage()));
          answers.put(ref.uid(), prepareError(problem.getMessage()));
          failures.put(ref.uid(), ClaimFailure.CLAIM_UNAVAILABLE);
        }
      }
    }
    if (!claims.isEmpty()) {
      Map<String, PrepareResult> results = prepareCall(accepted, claims);
      accepted.forEach((uid, ref) -> {
        PrepareResult result = results.get(uid);
        NodePrepareResourceResponse answer = PrepareAnswer.of(ref, result);
        if (result != null && result.isFailed()) {
          logFailure("prepare", ref, result.error(), result.cause());
          failures.put(uid, ClaimFailure.ofCause(result.cause()));
        } else if (!answer.getError().isEmpty()) {
          logFailure("prepare", ref, answer.getError(), null); // no result, or bad devices
        }
        answers.put(uid, answer);
      });
    }
    return NodePrepareResourcesResponse.newBuilder().putAllClaims(answers).build();
  }

  /** One serialized driver call for the given claims, with device metadata written. */
  private Map<String, PrepareResult> prepareCall(Map<String, ClaimReference> accepted,
      Map<String, ResourceClaim> claims) throws StatusException {
    Map<String, PrepareResult> results = callDriver(accepted.values(),
        "prepare resource claims", () -> metadata.written(driver.prepareResourceClaims(
            List.copyOf(claims.values()), contexts.apply("NodePrepareResources")), claims));
    reportUnknown(results.keySet(), accepted, "prepare");
    return results;
  }

  /**
   * A claim as the driver gets it when it holds it as prepared ({@link DraDriver#isPrepared}):
   * namespace, name and UID, no spec or status.
   */
  private static ResourceClaim metadataOnly(ClaimReference ref) {
    return new ResourceClaimBuilder().withNewMetadata().withNamespace(ref.namespace())
        .withName(ref.name()).withUid(ref.uid()).endMetadata().build();
  }

  /**
   * Handles {@code NodeUnprepareResources}.
   *
   * @param request the kubelet's request
   * @return one entry per requested claim UID
   * @throws StatusException as for {@link #prepare}
   */
  public NodeUnprepareResourcesResponse unprepare(NodeUnprepareResourcesRequest request)
      throws StatusException {
    Map<String, ClaimFailure> failures = new HashMap<>();
    long start = System.nanoTime();
    NodeUnprepareResourcesResponse response;
    try {
      response = unprepareClaims(request, failures);
    } catch (StatusException | RuntimeException e) {
      outcomes.unprepareFailed(ClaimFailure.ofCall(e), request.getClaimsCount(),
          System.nanoTime() - start);
      throw e;
    }
    outcomes.unprepared(request.getClaimsList(), response.getClaimsMap(), failures,
        System.nanoTime() - start);
    return response;
  }

  /** Unprepares the claims, putting why each failed claim failed in {@code failures}. */
  private NodeUnprepareResourcesResponse unprepareClaims(NodeUnprepareResourcesRequest request,
      Map<String, ClaimFailure> failures) throws StatusException {
    checkBatch(request.getClaimsCount());
    Map<String, NodeUnprepareResourceResponse> answers = new LinkedHashMap<>();
    Map<String, ClaimReference> accepted = new LinkedHashMap<>();
    for (ClaimReference ref : acceptedReferences(request.getClaimsList(),
        (uid, message) -> {
          answers.put(uid, unprepareError(message));
          failures.put(uid, ClaimFailure.INVALID_REQUEST);
        }, "unprepare")) {
      accepted.put(ref.uid(), ref);
    }
    if (!accepted.isEmpty()) {
      List<ClaimReference> refs = List.copyOf(accepted.values());
      Map<String, UnprepareResult> results = callDriver(refs, "unprepare resource claims",
          () -> metadata.removed(driver.unprepareResourceClaims(refs,
              contexts.apply("NodeUnprepareResources")), accepted));
      accepted.forEach((uid, ref) -> {
        UnprepareResult result = results.get(uid);
        String error = result == null
            ? "driver returned no result for claim " + ref.namespacedName()
            : result.isFailed() ? result.error() : "";
        if (!error.isEmpty()) {
          logFailure("unprepare", ref, error, result == null ? null : result.cause());
          failures.put(uid, ClaimFailure.ofCause(result == null ? null : result.cause()));
        }
        answers.put(uid, unprepareError(error));
        if (error.isEmpty()) {
          unprepared.accept(ref);
        }
      });
      reportUnknown(results.keySet(), accepted, "unprepare");
    }
    return NodeUnprepareResourcesResponse.newBuilder().putAllClaims(answers).build();
  }

  /** Logs a claim the driver failed, with the driver's exception when it gave one. */
  private static void logFailure(String operation, ClaimReference ref, String error,
      Throwable cause) {
    try (MDC.MDCCloseable ignored = MDC.putCloseable(MDC_CLAIM, ref.toString())) {
      if (cause == null || cause instanceof ConfigException) {
        // a claim's own bad configuration: the message says it all, a stack trace only hides it
        LOG.warn("Driver failed to {} claim {}: {}", operation, ref, LogText.text(error));
      } else {
        LOG.warn("Driver failed to {} claim {}: {}", operation, ref, LogText.text(error), cause);
      }
    }
  }

  /** Receives the error answer for a claim that failed its checks. */
  private interface Rejection {
    void reject(String uid, String message);
  }

  private List<ClaimReference> acceptedReferences(
      List<Claim> claims, Rejection rejection, String operation) {
    List<ClaimReference> refs = new ArrayList<>(claims.size());
    Set<String> seen = new HashSet<>();
    Set<String> duplicated = new HashSet<>();
    for (Claim claim : claims) {
      if (!seen.add(claim.getUid())) {
        duplicated.add(claim.getUid());
      }
    }
    for (int i = 0; i < claims.size(); i++) {
      Claim claim = claims.get(i);
      Optional<String> problem = ClaimRequestCheck.problem(i, claim);
      if (problem.isEmpty() && duplicated.contains(claim.getUid())) {
        // Answers are keyed by UID, so two claims with one UID cannot both be answered.
        problem = Optional.of("claim #" + i + ": uid " + claim.getUid()
            + " appears more than once in the request");
      }
      if (problem.isPresent()) {
        LOG.warn("Rejecting {} of {}", operation, LogText.text(problem.get()));
        rejection.reject(claim.getUid(), problem.get());
        continue;
      }
      refs.add(new ClaimReference(claim.getNamespace(), claim.getName(), claim.getUid()));
    }
    return refs;
  }

  /** The driver call: serialized, logged with the claims in context, errors mapped to status. */
  private <T> Map<String, T> callDriver(
      Collection<ClaimReference> refs, String operation, DriverCall<T> call)
      throws StatusException {
    String claims = refs.size() == 1 ? refs.iterator().next().toString()
        : refs.stream().map(ClaimReference::toString).collect(Collectors.joining(","));
    try (MDC.MDCCloseable ignored = MDC.putCloseable(MDC_CLAIM, claims);
        CallSerializer.Permit permit = acquire()) {
      Map<String, T> results = call.run();
      return results == null ? Map.of() : results;
    } catch (StatusException e) {
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw Status.CANCELLED.withDescription(operation + ": interrupted").asException();
    } catch (Exception e) {
      // The try's MDC is closed before a catch runs: the line names the claims again.
      try (MDC.MDCCloseable again = MDC.putCloseable(MDC_CLAIM, claims)) {
        LOG.error("{} failed for {}", operation, claims, e);
      }
      throw Status.UNKNOWN.withDescription(operation + ": " + e.getMessage())
          .withCause(new LoggedFailure(e)).asException();
    }
  }

  @FunctionalInterface
  private interface DriverCall<T> {
    Map<String, T> run() throws Exception;
  }

  private CallSerializer.Permit acquire() throws StatusException, InterruptedException {
    try {
      return serializer.acquire();
    } catch (IOException e) {
      throw Status.UNKNOWN.withDescription("serialize gRPC: " + e.getMessage()).withCause(e)
          .asException();
    }
  }

  private void checkBatch(int count) throws StatusException {
    if (count > maxClaimsPerCall) {
      throw Status.INVALID_ARGUMENT
          .withDescription("request lists " + count + " claims; at most " + maxClaimsPerCall
              + " are accepted per call (option ServiceOptions.maxClaimsPerCall)")
          .asException();
    }
  }

  private static void reportUnknown(
      Set<String> returned, Map<String, ClaimReference> requested, String operation) {
    for (String uid : returned) {
      if (!requested.containsKey(uid)) {
        LOG.warn("Driver's {} returned a result for claim UID {} that was not requested; "
            + "dropping it", operation, uid);
      }
    }
  }

  private static NodePrepareResourceResponse prepareError(String message) {
    return NodePrepareResourceResponse.newBuilder().setError(message).build();
  }

  private static NodeUnprepareResourceResponse unprepareError(String message) {
    return NodeUnprepareResourceResponse.newBuilder().setError(message).build();
  }
}
