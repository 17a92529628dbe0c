package io.github.dra4j.resourceslice.internal.sync;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.github.dra4j.resourceslice.DroppedFieldsException;
import io.github.dra4j.resourceslice.ErrorHandler;
import io.github.dra4j.resourceslice.Owner;
import io.github.dra4j.resourceslice.PoolValidationException;
import io.github.dra4j.resourceslice.Slice;
import io.github.dra4j.resourceslice.internal.client.BoundedClient;
import io.github.dra4j.resourceslice.internal.client.SliceClient;
import io.github.dra4j.resourceslice.internal.compare.SemanticEquality;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pool sync, as Go's {@code syncPool}: read the pool's slices from the cache, refuse an invalid pool, delete everything of a pool no longer desired, otherwise plan with {@link PoolPlan}
 * and execute in the order delete obsolete, update changed, create missing. Every stored answer is
 * checked for dropped fields. Used by the controller's single worker thread only; not thread-safe.
 */
public final class PoolSync {

  private static final Logger LOG = LoggerFactory.getLogger(PoolSync.class);

  /**
   * The fixed inputs of syncs.
   *
   * @param newSlices builds the slices to create (driver, owner, node name)
   * @param client used to look up the owner Node's UID, with bounded requests
   * @param slices the version-negotiating slice client
   * @param cache the slice view
   * @param errorHandler receives validation and dropped-field reports
   * @param metrics write counters
   */
  public record Setup(
      NewSlices newSlices,
      KubernetesClient client,
      SliceClient slices,
      SliceCache cache,
      ErrorHandler errorHandler,
      SyncMetrics metrics) {}

  private final Setup setup;
  private final KubernetesSerialization serialization;
  private final SemanticEquality equality;
  private String ownerUid;

  /**
   * Creates the sync.
   *
   * @param setup the fixed inputs
   */
  public PoolSync(Setup setup) {
    this.setup = setup;
    this.serialization = setup.client().getKubernetesSerialization();
    this.equality = new SemanticEquality(serialization);
    Owner owner = setup.newSlices().owner();
    this.ownerUid = owner == null ? null : owner.uid();
  }

  /**
   * Syncs one pool.
   *
   * @param poolName the pool
   * @param state the desired state (its slices take on what the server stored)
   * @return true if slices were created (the caller re-syncs after the mutation-cache TTL)
   * @throws SyncException if a read or write failed; the caller retries with backoff
   * @throws PoolValidationException if the pool is invalid: it is left as it is until the next
   *     update
   */
  public boolean sync(String poolName, DesiredState state) {
    List<ResourceSlice> current = setup.cache().pool(poolName);
    DesiredPool pool = state.pools().get(poolName);
    if (pool != null && !pool.violations().isEmpty()) {
      throw new PoolValidationException(poolName, pool.violations());
    }
    if (pool == null) {
      if (!current.isEmpty()) {
        LOG.debug("Deleting {} slices of pool {} which is no longer published", current.size(),
            poolName);
      }
      delete(current);
      return false;
    }
    resolveOwnerUid();
    PoolPlan plan = PoolPlan.compute(pool, current, equality);
    LOG.debug("Sync of pool {}: {} current, {} obsolete, {} missing, generation {}{}", poolName,
        current.size(), plan.obsolete().size(), plan.missingCount(), plan.generation(),
        plan.bumped() ? " (bumped)" : "");
    delete(plan.obsolete());
    for (int i = 0; i < plan.matched().size(); i++) {
      ResourceSlice existing = plan.matched().get(i);
      if (existing != null && (plan.bumped() || plan.changed().get(i))) {
        ResourceSlice stored;
        try {
          stored = setup.slices().update(updated(existing, pool, i, plan));
        } catch (KubernetesClientException e) {
          throw new SyncException("update resource slice", e);
        }
        setup.metrics().updated();
        stored(pool, i, stored, "update ResourceSlice");
      }
    }
    boolean created = false;
    for (int i = 0; i < plan.matched().size(); i++) {
      if (plan.matched().get(i) == null) {
        ResourceSlice stored;
        try {
          stored = setup.slices().create(created(pool, i, plan));
        } catch (KubernetesClientException e) {
          throw new SyncException("create resource slice", e);
        }
        setup.metrics().created();
        created = true;
        stored(pool, i, stored, "create ResourceSlice");
      }
    }
    return created;
  }

  private void delete(List<ResourceSlice> obsolete) {
    for (ResourceSlice slice : obsolete) {
      setup.cache().deletedByController(slice);
      try {
        if (setup.slices().delete(slice)) {
          setup.metrics().deleted();
        }
      } catch (KubernetesClientException e) {
        setup.cache().deletionFailed(slice);
        throw new SyncException("remove slices: delete resource slice", e);
      }
    }
  }

  /** Rule G14: a Node owner without UID is looked up once per controller. */
  private void resolveOwnerUid() {
    Owner owner = setup.newSlices().owner();
    if (owner == null || !owner.isNode() || !ownerUid.isEmpty()) {
      return;
    }
    Node node;
    String what = "retrieve node \"" + owner.name() + "\"";
    try {
      node = setup.client().nodes().withName(owner.name()).get();
    } catch (KubernetesClientException e) {
      // Without an answer (a timeout, a refused connection) the URL says which server it was.
      throw new SyncException(what, e.getCode() > 0 ? e : new KubernetesClientException("GET "
          + BoundedClient.url(setup.client(), "api/v1/nodes/" + owner.name()) + ": "
          + e.getMessage(), e));
    }
    if (node == null) {
      throw new SyncException(what,
          new KubernetesClientException("nodes \"" + owner.name() + "\" not found", 404, null));
    }
    ownerUid = Objects.toString(node.getMetadata().getUid(), "");
  }

  /** Rule G21: the slice as {@link NewSlices} builds it, with the plan's generation. */
  private ResourceSlice created(DesiredPool pool, int index, PoolPlan plan) {
    return setup.newSlices().build(ownerUid,
        PoolPlan.header(pool.name(), plan.generation(), pool.slices().size()), index,
        pool.nodeSelector(), pool.allNodes(), pool.slices().get(index).toSlice());
  }

  /** Rule G20: the cached object with the desired spec, carrying over taint times. */
  private ResourceSlice updated(ResourceSlice existing, DesiredPool pool, int index,
      PoolPlan plan) {
    DesiredSlice desired = pool.slices().get(index);
    ResourceSlice slice = serialization.clone(existing);
    ResourceSliceSpec spec = slice.getSpec();
    spec.setPool(PoolPlan.header(pool.name(), plan.generation(), pool.slices().size()));
    spec.setNodeSelector(pool.nodeSelector());
    spec.setAllNodes(pool.allNodes() ? Boolean.TRUE : null);
    spec.setSharedCounters(desired.sharedCounters());
    spec.setPerDeviceNodeSelection(desired.perDeviceNodeSelection());
    Map<String, Device> existingByName = new HashMap<>();
    if (existing.getSpec().getDevices() != null) {
      existing.getSpec().getDevices().forEach(d -> existingByName.put(d.getName(), d));
    }
    List<Device> devices = copies(desired.devices());
    for (Device device : devices) {
      Device before = existingByName.get(device.getName());
      if (before == null || device.getTaints() == null || before.getTaints() == null) {
        continue;
      }
      for (DeviceTaint taint : device.getTaints()) {
        if (taint.getTimeAdded() != null) {
          continue;
        }
        before.getTaints().stream()
            .filter(t -> t.getTimeAdded() != null && sameTaint(t, taint))
            .findFirst()
            .ifPresent(t -> taint.setTimeAdded(t.getTimeAdded()));
      }
    }
    spec.setDevices(devices);
    return slice;
  }

  private static boolean sameTaint(DeviceTaint a, DeviceTaint b) {
    return Objects.equals(Objects.toString(a.getKey(), ""), Objects.toString(b.getKey(), ""))
        && Objects.equals(Objects.toString(a.getValue(), ""), Objects.toString(b.getValue(), ""))
        && Objects.equals(Objects.toString(a.getEffect(), ""), Objects.toString(b.getEffect(), ""));
  }

  /** Rule G22: remember the answer, adopt server-set taint times, detect dropped fields. */
  private void stored(DesiredPool pool, int index, ResourceSlice actual, String message) {
    setup.cache().written(actual);
    DesiredSlice desired = pool.slices().get(index);
    ResourceSliceSpec spec = actual.getSpec();
    List<Device> stored = spec.getDevices() == null ? List.of() : spec.getDevices();
    for (int i = 0; i < Math.min(desired.devices().size(), stored.size()); i++) {
      List<DeviceTaint> wanted = desired.devices().get(i).getTaints();
      List<DeviceTaint> got = stored.get(i).getTaints();
      if (wanted == null || got == null) {
        continue;
      }
      for (int k = 0; k < Math.min(wanted.size(), got.size()); k++) {
        if (wanted.get(k).getTimeAdded() == null && got.get(k).getTimeAdded() != null) {
          wanted.get(k).setTimeAdded(got.get(k).getTimeAdded());
        }
      }
    }
    if (Objects.equals(desired.perDeviceNodeSelection(), spec.getPerDeviceNodeSelection())
        && equality.equal(desired.sharedCounters(), spec.getSharedCounters())
        && equality.devices(desired.devices(), spec.getDevices(), false)) {
      return;
    }
    Slice before = desired.toSlice();
    List<String> features = DroppedFields.detect(desired, spec);
    Slice after = new Slice(copies(stored), copySets(spec.getSharedCounters()),
        spec.getPerDeviceNodeSelection());
    desired.acceptStored(after.devices(), after.sharedCounters(), after.perDeviceNodeSelection());
    setup.errorHandler().handle(
        new DroppedFieldsException(pool.name(), index, before, after, features), message);
  }

  private List<Device> copies(List<Device> devices) {
    List<Device> copies = new ArrayList<>(devices == null ? 0 : devices.size());
    if (devices != null) {
      devices.forEach(d -> copies.add(serialization.clone(d)));
    }
    return copies;
  }

  private List<CounterSet> copySets(List<CounterSet> sets) {
    List<CounterSet> copies = new ArrayList<>(sets == null ? 0 : sets.size());
    if (sets != null) {
      sets.forEach(s -> copies.add(serialization.clone(s)));
    }
    return copies;
  }
}
