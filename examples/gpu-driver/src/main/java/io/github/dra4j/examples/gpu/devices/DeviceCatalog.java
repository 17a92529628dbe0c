package io.github.dra4j.examples.gpu.devices;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequestPolicyBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.CounterBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSetBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacityBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumptionBuilder;
import io.github.dra4j.core.quantity.QuantityValue;
import io.github.dra4j.examples.gpu.discovery.Gpu;
import io.github.dra4j.examples.gpu.discovery.MigDevice;
import io.github.dra4j.resourceslice.DriverResources;
import io.github.dra4j.resourceslice.Pool;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The devices of this node as the driver offers them: built once from the discovered GPUs and the
 * {@link DeviceLayout}, published once (the plugin adds the taints of the devices' health). One pool,
 * named after the node; counter sets in their own slice. Immutable; thread-safe.
 *
 * <p>Attributes (in the driver's domain unless qualified): {@code type}, {@code uuid}, {@code
 * productName}, {@code brand}, {@code architecture}, {@code cudaComputeCapability}, {@code
 * driverVersion}, {@code cudaDriverVersion} (versions), {@code
 * resource.kubernetes.io/pciBusID} and {@code resource.kubernetes.io/pcieRoot} where known;
 * partitions add {@code partition}; MIG devices add {@code profile} and {@code parentUUID}.
 * Capacities: {@code memory} (bytes) and {@code compute} (100 = a whole GPU); MIG devices have
 * their engines instead of compute.
 *
 * <p>The names and value types are those of NVIDIA's DRA driver, so that selectors written for it
 * work unchanged when this driver is named {@code gpu.nvidia.com}. Not published: NVIDIA's {@code
 * index} and {@code minor} (which NVIDIA's driver dropped), {@code addressingMode} and the NUMA
 * node.
 */
public final class DeviceCatalog {

  /** The domain of the standard attributes every vendor's devices may carry. */
  public static final String STANDARD_DOMAIN = "resource.kubernetes.io/";

  private final String poolName;
  private final DeviceLayout layout;
  private final Map<String, GpuDevice> devices;
  private final List<Gpu> gpus;

  private DeviceCatalog(String poolName, DeviceLayout layout, List<Gpu> gpus) {
    this.poolName = poolName;
    this.layout = layout;
    this.gpus = List.copyOf(gpus);
    Map<String, GpuDevice> all = new LinkedHashMap<>();
    for (Gpu gpu : gpus) {
      if (gpu.migEnabled()) {
        for (MigDevice mig : gpu.migDevices()) {
          add(all, new GpuDevice(DeviceNames.mig(gpu, mig), DeviceType.MIG, gpu,
              OptionalInt.empty(), Optional.of(mig)));
        }
        continue;
      }
      add(all, new GpuDevice(DeviceNames.gpu(gpu), DeviceType.GPU, gpu, OptionalInt.empty(),
          Optional.empty()));
      for (int j = 0; j < layout.partitions(); j++) {
        add(all, new GpuDevice(DeviceNames.partition(gpu, j), DeviceType.PARTITION, gpu,
            OptionalInt.of(j), Optional.empty()));
      }
    }
    this.devices = Collections.unmodifiableMap(all);
  }

  private static void add(Map<String, GpuDevice> all, GpuDevice device) {
    if (all.putIfAbsent(device.name(), device) != null) {
      throw new IllegalArgumentException("two devices are named " + device.name()
          + "; two GPUs share a minor number or a MIG placement");
    }
  }

  /**
   * The catalog of a node.
   *
   * @param poolName the pool: the node's name
   * @param layout how the GPUs are offered
   * @param gpus the discovered GPUs
   * @return the catalog
   * @throws IllegalArgumentException if two devices would get one name
   */
  public static DeviceCatalog of(String poolName, DeviceLayout layout, List<Gpu> gpus) {
    return new DeviceCatalog(poolName, layout, gpus);
  }

  /**
   * The pool's name.
   *
   * @return the node's name
   */
  public String poolName() {
    return poolName;
  }

  /**
   * The discovered GPUs.
   *
   * @return the GPUs, in discovery order
   */
  public List<Gpu> gpus() {
    return gpus;
  }

  /**
   * Every device, by name, in the order published.
   *
   * @return the devices
   */
  public Map<String, GpuDevice> devices() {
    return devices;
  }

  /**
   * One device.
   *
   * @param name its name
   * @return the device, or empty if this node has none of that name
   */
  public Optional<GpuDevice> device(String name) {
    return Optional.ofNullable(devices.get(name));
  }

  /**
   * The devices of one GPU (itself, its partitions or its MIG devices).
   *
   * @param gpuUuid the GPU's UUID
   * @return the devices
   */
  public List<GpuDevice> devicesOf(String gpuUuid) {
    return devices.values().stream().filter(d -> d.gpu().uuid().equals(gpuUuid)).toList();
  }

  /**
   * The pool to publish, without taints: the plugin adds the taints of the devices' health
   * ({@link io.github.dra4j.examples.gpu.health.DeviceHealthTracker}).
   *
   * @return one pool named after the node
   */
  public DriverResources resources() {
    List<Device> published = new ArrayList<>();
    List<CounterSet> counterSets = new ArrayList<>();
    for (GpuDevice device : devices.values()) {
      published.add(toDevice(device));
    }
    if (layout.partitions() > 0) {
      for (Gpu gpu : gpus) {
        if (!gpu.migEnabled()) {
          counterSets.add(new CounterSetBuilder().withName(DeviceNames.counterSet(gpu))
              .addToCounters("memory", new CounterBuilder().withValue(bytes(gpu.memoryBytes()))
                  .build())
              .addToCounters("compute", new CounterBuilder().withValue(new Quantity(
                  Integer.toString(gpu.compute()))).build())
              .build());
        }
      }
    }
    Pool.Builder pool = Pool.builder().devices(published).devicesMayBeTainted(true);
    if (!counterSets.isEmpty()) {
      pool.sharedCounters(counterSets);
    }
    return DriverResources.of(poolName, pool.build());
  }

  private Device toDevice(GpuDevice device) {
    Gpu gpu = device.gpu();
    DeviceBuilder builder = new DeviceBuilder().withName(device.name())
        .withAttributes(attributes(device));
    if (device.mig().isPresent()) {
      builder.withCapacity(migCapacity(device.mig().get()));
    } else {
      long memory = device.partition().isPresent()
          ? gpu.memoryBytes() / layout.partitions() : gpu.memoryBytes();
      int compute = device.partition().isPresent()
          ? gpu.compute() / layout.partitions() : gpu.compute();
      builder.withCapacity(capacity(memory, compute));
      if (layout.partitions() > 0) {
        builder.withConsumesCounters(new DeviceCounterConsumptionBuilder()
            .withCounterSet(DeviceNames.counterSet(gpu))
            .addToCounters("memory", new CounterBuilder().withValue(bytes(memory)).build())
            .addToCounters("compute", new CounterBuilder().withValue(new Quantity(
                Integer.toString(compute))).build())
            .build());
      }
    }
    if (layout.allowMultipleAllocations()) {
      builder.withAllowMultipleAllocations(true);
    }
    return builder.build();
  }

  private Map<String, DeviceCapacity> capacity(long memory, int compute) {
    Map<String, DeviceCapacity> capacity = new LinkedHashMap<>();
    DeviceCapacityBuilder mem = new DeviceCapacityBuilder().withValue(bytes(memory));
    DeviceCapacityBuilder cpu = new DeviceCapacityBuilder().withValue(
        new Quantity(Integer.toString(compute)));
    if (layout.allowMultipleAllocations()) {
      // A claim takes the whole device unless it asks for less, in whole GiB and compute units.
      mem.withRequestPolicy(new CapacityRequestPolicyBuilder().withDefault(bytes(memory))
          .withNewValidRange().withMin(new Quantity("1Gi")).withStep(new Quantity("1Gi"))
          .withMax(bytes(memory)).endValidRange().build());
      cpu.withRequestPolicy(new CapacityRequestPolicyBuilder().withDefault(
          new Quantity(Integer.toString(compute))).withNewValidRange()
          .withMin(new Quantity("1")).withStep(new Quantity("1"))
          .withMax(new Quantity(Integer.toString(compute))).endValidRange().build());
    }
    capacity.put("memory", mem.build());
    capacity.put("compute", cpu.build());
    return capacity;
  }

  private static Map<String, DeviceCapacity> migCapacity(MigDevice mig) {
    Map<String, DeviceCapacity> capacity = new LinkedHashMap<>();
    capacity.put("memory", new DeviceCapacityBuilder().withValue(bytes(mig.memoryBytes())).build());
    capacity.put("multiprocessors", count(mig.multiprocessors()));
    capacity.put("copyEngines", count(mig.copyEngines()));
    capacity.put("decoders", count(mig.decoders()));
    capacity.put("encoders", count(mig.encoders()));
    capacity.put("jpegEngines", count(mig.jpegEngines()));
    capacity.put("ofaEngines", count(mig.ofaEngines()));
    return capacity;
  }

  private static DeviceCapacity count(int value) {
    return new DeviceCapacityBuilder().withValue(new Quantity(Integer.toString(value))).build();
  }

  private static Map<String, DeviceAttribute> attributes(GpuDevice device) {
    Gpu gpu = device.gpu();
    Map<String, DeviceAttribute> attributes = new LinkedHashMap<>();
    attributes.put("type", text(device.type().value()));
    attributes.put("uuid", text(device.uuid()));
    device.mig().ifPresent(mig -> {
      attributes.put("parentUUID", text(gpu.uuid()));
      attributes.put("profile", text(mig.profile()));
    });
    device.partition().ifPresent(p -> attributes.put("partition",
        new DeviceAttributeBuilder().withInt((long) p).build()));
    attributes.put("productName", text(gpu.productName()));
    attributes.put("brand", text(gpu.brand()));
    attributes.put("architecture", text(gpu.architecture()));
    attributes.put("cudaComputeCapability", version(gpu.cudaComputeCapability()));
    attributes.put("driverVersion", version(gpu.driverVersion()));
    attributes.put("cudaDriverVersion", version(gpu.cudaDriverVersion()));
    gpu.pciBusId().ifPresent(id -> attributes.put(STANDARD_DOMAIN + "pciBusID", text(id)));
    gpu.pcieRoot().ifPresent(root -> attributes.put(STANDARD_DOMAIN + "pcieRoot", text(root)));
    return attributes;
  }

  private static DeviceAttribute text(String value) {
    return new DeviceAttributeBuilder().withString(value).build();
  }

  private static DeviceAttribute version(String value) {
    return new DeviceAttributeBuilder().withVersion(value).build();
  }

  /** Bytes in the API server's canonical form (80Gi, not 85899345920), so nothing differs. */
  private static Quantity bytes(long value) {
    return new Quantity(QuantityValue.ofDecimal(BigDecimal.valueOf(value), true)
        .toKubernetesString());
  }
}
