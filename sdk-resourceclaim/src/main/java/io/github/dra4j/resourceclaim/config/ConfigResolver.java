package io.github.dra4j.resourceclaim.config;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.OpaqueDeviceConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.resourceclaim.AllocatedDevice;
import io.github.dra4j.resourceclaim.DriverAllocation;
import io.github.dra4j.resourceclaim.RequestReference;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Decides which configuration applies to each device the scheduler allocated to one driver in a
 * claim. Immutable and thread-safe.
 *
 * <p>The scheduler copies the configurations of the DeviceClasses and of the claim into {@code
 * status.allocation.devices.config[]}, marking each {@code FromClass} or {@code FromClaim}. Rules,
 * from lowest to highest precedence: the driver's defaults, then every {@code FromClass} entry,
 * then every {@code FromClaim} entry; among entries of one kind a later one beats an earlier one.
 * An entry with an empty {@code requests} list is a catch-all for all requests; otherwise it
 * applies to the results of the requests it names, where {@code gpu} also covers the
 * sub-requests {@code gpu/<any>} and {@code gpu/large} covers only itself.
 *
 * <p>For each allocated device the resolver looks from the highest precedence down and takes the
 * first entry that covers the device's request. When that entry's type says it does not apply to
 * the device ({@link DeviceConfig#appliesTo}), a catch-all is passed over and the search goes on,
 * but an entry that names the request is an error: someone asked for that configuration on that
 * request. Entries of other drivers are ignored; an entry without an {@code opaque}
 * configuration that could apply to this driver's devices is an error, since this driver cannot
 * read it. Every entry of this driver is decoded, whether or not it wins for some device, so the
 * same claim is accepted or refused no matter which devices were allocated.
 *
 * <p>A problem names the entry where the user wrote it, not where the scheduler copied it:
 * {@code ResourceClaim spec.devices.config[0].opaque.parameters...} for the claim's first entry
 * even when a DeviceClass's entries come before it in the status, and {@code DeviceClass
 * gpu.example.com spec.config[0]...} for a class's. {@link #resolve(ResourceClaim)} can tell
 * them apart from the claim's spec; {@link #resolve(List, DriverAllocation)}, which has only the
 * status entries, names {@code status.allocation.devices.config[i]}.
 *
 * @param <C> the common supertype of the scheme's configuration types
 */
public final class ConfigResolver<C> {

  private final ConfigScheme<C> scheme;
  private final String driverName;
  private final List<C> defaults;

  private ConfigResolver(ConfigScheme<C> scheme, String driverName, List<C> defaults) {
    this.scheme = scheme;
    this.driverName = driverName;
    this.defaults = defaults;
  }

  /**
   * A resolver for one driver.
   *
   * @param scheme the driver's configuration types
   * @param driverName the driver's name, as in {@code opaque.driver} and allocation results
   * @param defaults the driver's default configurations, lowest precedence, each applying to all
   *     requests; later defaults beat earlier ones. Normalized and validated here.
   * @param <C> the common supertype of the scheme's configuration types
   * @return the resolver
   * @throws IllegalArgumentException if a default's type is not registered with the scheme or a
   *     default is invalid ({@link ConfigException})
   */
  public static <C> ConfigResolver<C> of(ConfigScheme<C> scheme, String driverName,
      List<? extends C> defaults) {
    Objects.requireNonNull(scheme, "scheme");
    Objects.requireNonNull(driverName, "driverName");
    List<C> checked = new ArrayList<>();
    for (int i = 0; i < defaults.size(); i++) {
      try {
        checked.add(scheme.check(defaults.get(i)));
      } catch (ConfigException e) {
        throw e.under("defaults[" + i + "]");
      }
    }
    return new ConfigResolver<>(scheme, driverName, List.copyOf(checked));
  }

  /**
   * Resolves the configurations of an allocated claim for this resolver's driver.
   *
   * @param claim a {@code resource.k8s.io/v1} claim with {@code status.allocation} set
   * @return the groups, as {@link #resolve(List, DriverAllocation)} returns them
   * @throws ConfigException listing every problem found, each at the field where the user wrote
   *     it: {@code ResourceClaim spec.devices.config[j]} or {@code DeviceClass <name>
   *     spec.config[k]}
   * @throws IllegalArgumentException if the claim is not allocated or a result is malformed
   */
  public List<ConfigGroup<C>> resolve(ResourceClaim claim) {
    DriverAllocation allocation = DriverAllocation.of(claim, driverName);
    return resolve(claim.getStatus().getAllocation().getDevices().getConfig(), allocation,
        ConfigOrigins.of(claim));
  }

  /**
   * Resolves which configuration applies to each of the driver's allocated devices.
   *
   * @param configs the claim's {@code status.allocation.devices.config[]}; null means none
   * @param allocation this driver's view of the claim
   * @return one group per configuration that applies to at least one device, ordered from lowest
   *     to highest precedence (driver defaults, class entries, claim entries, each by index);
   *     every device of the allocation is in exactly one group
   * @throws ConfigException listing every problem found: entries that cannot be decoded or are
   *     invalid, entries this driver cannot read, entries naming a request whose device they do
   *     not apply to, and devices no configuration applies to
   * @throws IllegalArgumentException if the allocation is for another driver
   */
  public List<ConfigGroup<C>> resolve(List<DeviceAllocationConfiguration> configs,
      DriverAllocation allocation) {
    return resolve(configs, allocation, ConfigOrigins.statusOnly());
  }

  private List<ConfigGroup<C>> resolve(List<DeviceAllocationConfiguration> configs,
      DriverAllocation allocation, ConfigOrigins origins) {
    if (!driverName.equals(allocation.driverName())) {
      throw new IllegalArgumentException("allocation is for driver " + allocation.driverName()
          + ", this resolver for " + driverName);
    }
    List<ConfigProblem> problems = new ArrayList<>();
    List<Candidate<C>> candidates = new ArrayList<>();
    for (int i = 0; i < defaults.size(); i++) {
      candidates.add(new Candidate<>(ConfigSource.DRIVER_DEFAULT, i, "defaults[" + i + "]",
          List.of(), defaults.get(i)));
    }
    for (int i = 0; configs != null && i < configs.size(); i++) {
      Candidate<C> candidate = read(i, origins.path(i), configs.get(i), allocation, problems);
      if (candidate != null) {
        candidates.add(candidate);
      }
    }
    candidates.sort(Comparator.comparing((Candidate<C> c) -> c.source())
        .thenComparingInt(Candidate::index));

    Map<Candidate<C>, List<AllocatedDevice>> groups = new LinkedHashMap<>();
    for (AllocatedDevice device : allocation.devices()) {
      Candidate<C> chosen = choose(candidates, device, problems);
      if (chosen != null) {
        groups.computeIfAbsent(chosen, c -> new ArrayList<>()).add(device);
      }
    }
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
    return candidates.stream().filter(groups::containsKey)
        .map(c -> new ConfigGroup<>(c.config(), c.source(), c.index(), groups.get(c)))
        .toList();
  }

  /** Reads entry {@code index}; null when it is not this driver's or is broken (reported). */
  private Candidate<C> read(int index, String path, DeviceAllocationConfiguration entry,
      DriverAllocation allocation, List<ConfigProblem> problems) {
    if (entry == null) {
      return null;
    }
    List<RequestReference> requests = new ArrayList<>();
    List<ConfigProblem> requestProblems = new ArrayList<>();
    List<String> names = entry.getRequests() == null ? List.of() : entry.getRequests();
    for (int j = 0; j < names.size(); j++) {
      try {
        requests.add(RequestReference.parse(String.valueOf(names.get(j))));
      } catch (IllegalArgumentException e) {
        requestProblems.add(new ConfigProblem(path + ".requests[" + j + "]", e.getMessage()));
      }
    }
    OpaqueDeviceConfiguration opaque = entry.getOpaque();
    if (opaque == null) {
      // Without an opaque part there is no driver name to tell whose the entry is: it is ours
      // to refuse when it could apply to one of our devices.
      boolean ours = (requests.isEmpty() && requestProblems.isEmpty())
          || allocation.devices().stream()
              .anyMatch(d -> requests.stream().anyMatch(r -> r.covers(d.request())));
      if (ours) {
        problems.add(new ConfigProblem(path, "not an opaque configuration; driver "
            + driverName + " reads only opaque configurations"));
      }
      return null;
    }
    if (!driverName.equals(opaque.getDriver())) {
      return null;
    }
    problems.addAll(requestProblems);
    ConfigSource source = null;
    if ("FromClass".equals(entry.getSource())) {
      source = ConfigSource.CLASS;
    } else if ("FromClaim".equals(entry.getSource())) {
      source = ConfigSource.CLAIM;
    } else {
      problems.add(new ConfigProblem(path + ".source", "unknown value "
          + (entry.getSource() == null ? "null" : StrictJson.quote(entry.getSource()))
          + ", want \"FromClass\" or \"FromClaim\""));
    }
    C config = null;
    try {
      config = scheme.decodeParameters(opaque.getParameters());
    } catch (ConfigException e) {
      problems.addAll(e.under(path + ".opaque").problems());
    }
    if (source == null || !requestProblems.isEmpty()) {
      return null;
    }
    // A config that failed to decode stays a candidate without an object, so that the devices
    // it would have configured are not silently given a lower-precedence one.
    return new Candidate<>(source, index, path, List.copyOf(requests), config);
  }

  private Candidate<C> choose(List<Candidate<C>> candidates, AllocatedDevice device,
      List<ConfigProblem> problems) {
    for (int i = candidates.size() - 1; i >= 0; i--) {
      Candidate<C> candidate = candidates.get(i);
      boolean catchAll = candidate.requests().isEmpty();
      if (!catchAll && candidate.requests().stream().noneMatch(r -> r.covers(device.request()))) {
        continue;
      }
      if (candidate.config() == null) {
        return null;
      }
      if (appliesTo(candidate.config(), device)) {
        return candidate;
      }
      if (!catchAll) {
        problems.add(new ConfigProblem(candidate.path(), scheme.typeName(candidate.config())
            + " does not apply to device " + describe(device)));
        return null;
      }
    }
    problems.add(new ConfigProblem("", "no configuration of driver " + driverName
        + " applies to device " + describe(device)));
    return null;
  }

  private static boolean appliesTo(Object config, AllocatedDevice device) {
    return !(config instanceof DeviceConfig<?> typed) || typed.appliesTo(device);
  }

  private static String describe(AllocatedDevice device) {
    return device.fullName() + " (request " + StrictJson.quote(device.request().toString())
        + ")";
  }

  /**
   * A configuration that may apply; {@code config} is null when it failed to decode. The path
   * names where the user wrote it.
   */
  private record Candidate<C>(ConfigSource source, int index, String path,
      List<RequestReference> requests, C config) {}
}
