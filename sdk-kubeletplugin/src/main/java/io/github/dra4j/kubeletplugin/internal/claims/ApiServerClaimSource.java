package io.github.dra4j.kubeletplugin.internal.claims;

import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.GroupVersionForDiscovery;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.github.dra4j.kubeletplugin.internal.api.ApiDeadline;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads claims with one GET each, negotiating the {@code resource.k8s.io} version like the Go
 * helper: it tries the version that last worked first (v1 at the start), and a 404 moves it to
 * the next one, wrapping around: v1, v1beta2, v1beta1. An API server without v1 thus costs one
 * extra GET once, not per claim.
 *
 * <p>Unlike the Go helper, a 404 first asks the API server's discovery (cached for a minute)
 * which versions it serves: if it serves the version just tried, the claim does not exist, and
 * the answer is that one 404 instead of three GETs. Only when discovery cannot be read are the
 * other versions tried blindly. Each GET goes through the API client's HTTP client without
 * fabric8's resource DSL ({@link ClaimGet}), so the API client never logs its "unstable version"
 * warning for the SDK's own fallback either. All of a read, discovery included, ends by the
 * kubelet call's deadline ({@link ApiDeadline}). Older versions are converted to v1. Thread-safe;
 * owned by one plugin.
 */
public final class ApiServerClaimSource implements ClaimSource {

  private static final Logger LOG = LoggerFactory.getLogger(ApiServerClaimSource.class);
  private static final ClaimVersion[] ORDER = ClaimVersion.values();
  /** The API group of ResourceClaims, for discovery and for the GET's path. */
  static final String GROUP = "resource.k8s.io";
  private static final Duration DISCOVERY_TTL = Duration.ofMinutes(1);

  private final Supplier<KubernetesClient> clients;
  private volatile ClaimConversion conversion;
  private final LongSupplier nanoTime;
  private final AtomicInteger current = new AtomicInteger();
  private volatile Discovery discovery;
  private volatile ClaimGet gets;

  /** What discovery said and when; {@code served} is null when it could not be read. */
  private record Discovery(Set<ClaimVersion> served, long readAtNanos) {}

  /**
   * Creates the source.
   *
   * @param client the API client (borrowed; not closed here)
   */
  public ApiServerClaimSource(KubernetesClient client) {
    this(() -> client, System::nanoTime);
  }

  /**
   * Creates the source over a client that may still be being made: it is asked for at each read.
   *
   * @param clients gives the API client (borrowed; not closed here)
   */
  public ApiServerClaimSource(Supplier<KubernetesClient> clients) {
    this(clients, System::nanoTime);
  }

  ApiServerClaimSource(Supplier<KubernetesClient> clients, LongSupplier nanoTime) {
    this.clients = clients;
    this.nanoTime = nanoTime;
  }

  /** Claim conversions with the client's serialization, made at the first read. */
  private ClaimConversion conversion(KubernetesClient client) {
    ClaimConversion made = conversion;
    if (made == null) {
      made = new ClaimConversion(client.getKubernetesSerialization());
      conversion = made; // racing readers make equal ones; either may win
    }
    return made;
  }

  /**
   * The API version the next read starts with.
   *
   * @return {@code v1}, {@code v1beta2} or {@code v1beta1}
   */
  public String currentVersion() {
    return ORDER[current.get()].version();
  }

  /**
   * {@inheritDoc}
   *
   * <p>Every GET of the read ends by the deadline of the kubelet call running on this thread
   * (less a margin to answer in) or its cancellation; outside a call, {@link
   * ApiDeadline#WITHOUT_CALL_DEADLINE} after the read began.
   */
  @Override
  public ResourceClaim get(String namespace, String name, String expectedUid) {
    KubernetesClient client = clients.get();
    try (ApiDeadline deadline = ApiDeadline.ofCurrentCall()) {
      return get(client, namespace, name, deadline);
    }
  }

  private ResourceClaim get(KubernetesClient client, String namespace, String name,
      ApiDeadline deadline) {
    int start = current.get();
    Set<ClaimVersion> served = null;
    for (int attempt = 0; attempt < ORDER.length; attempt++) {
      int index = (start + attempt) % ORDER.length;
      ClaimVersion version = ORDER[index];
      if (served != null && !served.contains(version)) {
        continue;
      }
      HasMetadata found = gets(client).get(version.version(), version.type(), namespace, name,
          deadline);
      if (found != null) {
        current.set(index);
        return conversion(client).toV1(found, version);
      }
      if (attempt == 0) {
        served = servedVersions(client, deadline);
      }
      if (served != null && served.contains(version)) {
        break; // the version is served, so the claim itself is missing
      }
    }
    throw new KubernetesClientException(
        "resourceclaims.resource.k8s.io \"" + name + "\" not found",
        HttpURLConnection.HTTP_NOT_FOUND,
        null);
  }

  /** The GETs through this client, made at the first read (and again if the client changes). */
  private ClaimGet gets(KubernetesClient client) {
    ClaimGet made = gets;
    if (made == null || !made.isFor(client)) {
      made = ClaimGet.of(client);
      gets = made; // racing readers make equal ones; either may win
    }
    return made;
  }

  /** The versions the API server serves, from discovery cached for a minute; null if unknown. */
  private Set<ClaimVersion> servedVersions(KubernetesClient client, ApiDeadline deadline) {
    Discovery known = discovery;
    long now = nanoTime.getAsLong();
    if (known != null && now - known.readAtNanos() < DISCOVERY_TTL.toNanos()) {
      return known.served();
    }
    Set<ClaimVersion> served = null;
    try {
      APIGroup group = gets(client).group(deadline);
      if (group != null && group.getVersions() != null) {
        served = EnumSet.noneOf(ClaimVersion.class);
        for (GroupVersionForDiscovery version : group.getVersions()) {
          for (ClaimVersion candidate : ORDER) {
            if (candidate.version().equals(version.getVersion())) {
              served.add(candidate);
            }
          }
        }
      }
    } catch (KubernetesClientException e) {
      LOG.debug("Discovery of {} failed; trying every version: {}", GROUP, e.toString());
    }
    discovery = new Discovery(served == null ? null : Set.copyOf(served), now);
    return discovery.served();
  }
}
