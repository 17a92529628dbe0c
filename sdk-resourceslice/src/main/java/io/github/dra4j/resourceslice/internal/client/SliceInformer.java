package io.github.dra4j.resourceslice.internal.client;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fabric8 informer on ResourceSlices with a server-side field selector, in the version the
 * server serves (tried in {@link SliceClient}'s negotiation order: a 404 on the first list moves
 * to the next version), delivering every object as the {@code v1} model. No resync. After the
 * first list the informer keeps retrying failed lists and watches with backoff.
 *
 * <p>Thread safety: events arrive on fabric8's informer thread, one at a time.
 */
public final class SliceInformer implements AutoCloseable {

  /**
   * Receives informer events as v1 objects: the informer's own objects when it watches v1,
   * conversions otherwise. Listeners must not modify them.
   */
  public interface Listener {
    /**
     * A slice appeared (initial list or watch).
     *
     * @param slice the slice
     */
    void added(ResourceSlice slice);

    /**
     * A slice changed.
     *
     * @param before the previous state
     * @param after the new state
     */
    void updated(ResourceSlice before, ResourceSlice after);

    /**
     * A slice disappeared.
     *
     * @param slice the last known state
     */
    void deleted(ResourceSlice slice);
  }

  private static final Logger LOG = LoggerFactory.getLogger(SliceInformer.class);
  private static final String POOL_INDEX = "spec.pool.name";

  private final SharedIndexInformer<HasMetadata> informer;
  private final SliceVersion version;
  private final SliceConversion conversion;

  private SliceInformer(SharedIndexInformer<HasMetadata> informer, SliceVersion version,
      SliceConversion conversion) {
    this.informer = informer;
    this.version = version;
    this.conversion = conversion;
  }

  /**
   * Starts an informer and waits for its first list.
   *
   * @param client the fabric8 client
   * @param slices the negotiating client whose remembered version is used and updated
   * @param fieldSelector field selector requirements, e.g. {@code spec.driver} to the driver name
   * @param listener receives events
   * @param timeout how long to wait for the first successful list
   * @return the running informer
   * @throws KubernetesClientException the 404 of the last version if none is served, or the
   *     list's error, or when the timeout expires {@code list ResourceSlices at <url>: no
   *     successful list within <timeout>} with the last error
   * @throws InterruptedException if interrupted while waiting
   */
  public static SliceInformer start(
      KubernetesClient client,
      SliceClient slices,
      Map<String, String> fieldSelector,
      Listener listener,
      Duration timeout)
      throws InterruptedException {
    SliceVersion version = slices.version();
    KubernetesClientException notFound = null;
    long deadline = System.nanoTime() + timeout.toNanos();
    for (int attempt = 0; attempt < SliceVersion.values().length; attempt++) {
      try {
        FirstList.await(client, version, fieldSelector, deadline, timeout);
      } catch (KubernetesClientException e) {
        if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND) {
          throw e;
        }
        notFound = e;
        version = version.next();
        slices.useVersion(version);
        continue;
      }
      AtomicReference<Throwable> lastError = new AtomicReference<>();
      SharedIndexInformer<HasMetadata> informer = client.resources(version.resourceType())
          .withFields(fieldSelector).runnableInformer(0);
      informer.exceptionHandler((started, error) -> {
        Throwable previous = lastError.getAndSet(error);
        if (!started && isNotFound(error)) {
          return false;
        }
        // One line per new error, not one per retry: the same error again is for debugging.
        if (previous == null || !error.toString().equals(previous.toString())) {
          LOG.warn("ResourceSlice informer: {} (retrying)", error.toString());
        } else {
          LOG.debug("ResourceSlice informer: {} (retrying)", error.toString());
        }
        return true;
      });
      informer.addIndexers(Map.of(POOL_INDEX, slice -> List.of(poolName(slice))));
      informer.addEventHandler(new Converting(slices.conversion(), listener));
      try {
        long left = Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
        informer.start().toCompletableFuture().get(left, TimeUnit.MILLISECONDS);
        slices.useVersion(version);
        return new SliceInformer(informer, version, slices.conversion());
      } catch (ExecutionException e) {
        informer.stop();
        Throwable cause = e.getCause() != null ? e.getCause() : e;
        if (!isNotFound(cause)) {
          KubernetesClientException failed = asClientException(cause);
          throw new KubernetesClientException("list ResourceSlices at "
              + BoundedClient.slicesUrl(client, version) + ": " + failed.getMessage(),
              failed.getCode(), failed.getStatus());
        }
        notFound = asClientException(cause);
        version = version.next();
        slices.useVersion(version);
      } catch (InterruptedException e) {
        // Cut short (the controller's owner is closing): the informer must not go on retrying.
        informer.stop();
        throw e;
      } catch (TimeoutException e) {
        informer.stop();
        Throwable cause = lastError.get();
        throw new KubernetesClientException("list ResourceSlices at "
            + BoundedClient.slicesUrl(client, version) + ": no successful list within " + timeout
            + (cause == null ? "" : ", last error: " + FirstList.cause(cause)), cause);
      }
    }
    throw notFound;
  }

  private static String poolName(HasMetadata slice) {
    String name = null;
    if (slice instanceof ResourceSlice v1 && v1.getSpec() != null
        && v1.getSpec().getPool() != null) {
      name = v1.getSpec().getPool().getName();
    } else if (slice instanceof io.fabric8.kubernetes.api.model.resource.v1beta2.ResourceSlice b2
        && b2.getSpec() != null && b2.getSpec().getPool() != null) {
      name = b2.getSpec().getPool().getName();
    } else if (slice instanceof io.fabric8.kubernetes.api.model.resource.v1beta1.ResourceSlice b1
        && b1.getSpec() != null && b1.getSpec().getPool() != null) {
      name = b1.getSpec().getPool().getName();
    }
    return name == null ? "" : name;
  }

  private static boolean isNotFound(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof KubernetesClientException k
          && k.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
        return true;
      }
    }
    return false;
  }

  private static KubernetesClientException asClientException(Throwable error) {
    return error instanceof KubernetesClientException k
        ? k
        : new KubernetesClientException(error.getMessage(), error);
  }

  /**
   * Returns the informer's current slices of one pool, as v1 (for {@code v1} the informer's own
   * objects, which callers must not modify; otherwise fresh conversions).
   *
   * @param poolName the pool
   * @return the slices whose {@code spec.pool.name} is the pool
   */
  public List<ResourceSlice> pool(String poolName) {
    List<HasMetadata> items = informer.getIndexer().byIndex(POOL_INDEX, poolName);
    if (version == SliceVersion.V1) {
      return items.stream().map(ResourceSlice.class::cast).toList();
    }
    return items.stream().map(conversion::toV1).toList();
  }

  /**
   * Returns the version the informer watches.
   *
   * @return the served version
   */
  public SliceVersion version() {
    return version;
  }

  /** Stops the informer. */
  @Override
  public void close() {
    informer.stop();
  }

  /** Converts events of older versions to v1 before handing them to the listener. */
  private record Converting(SliceConversion conversion, Listener listener)
      implements
        ResourceEventHandler<HasMetadata> {

    @Override
    public void onAdd(HasMetadata obj) {
      listener.added(v1(obj));
    }

    @Override
    public void onUpdate(HasMetadata oldObj, HasMetadata newObj) {
      listener.updated(v1(oldObj), v1(newObj));
    }

    @Override
    public void onDelete(HasMetadata obj, boolean deletedFinalStateUnknown) {
      listener.deleted(v1(obj));
    }

    private ResourceSlice v1(HasMetadata obj) {
      return obj instanceof ResourceSlice slice ? slice : conversion.toV1(obj);
    }
  }
}
