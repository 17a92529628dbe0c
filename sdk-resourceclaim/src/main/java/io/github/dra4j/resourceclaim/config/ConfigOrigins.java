package io.github.dra4j.resourceclaim.config;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaimConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Where each entry of {@code status.allocation.devices.config[]} was written by a user: the
 * scheduler copies the configurations of the DeviceClasses first and the claim's after them, so
 * entry 1 of the status can be the claim's entry 0. A problem is reported at the user's own
 * field: {@code DeviceClass <name> spec.config[<k>]} or {@code ResourceClaim
 * spec.devices.config[<j>]}. Where the origin cannot be told (a claim without its spec), the
 * status path is kept. Immutable.
 *
 * <p>The scheduler's rules this follows: for each request in order (a {@code firstAvailable}
 * request with the class of the subrequest it chose), the first time a DeviceClass is seen, one
 * {@code FromClass} entry per entry of the class's {@code spec.config}, in order; then the claim's
 * {@code spec.devices.config} entries in order as {@code FromClaim}, dropping those that name only
 * subrequests that were not chosen; an entry covering every request loses its {@code requests}.
 */
final class ConfigOrigins {

  static final String STATUS = "status.allocation.devices.config";

  private final List<String> paths;

  private ConfigOrigins(List<String> paths) {
    this.paths = paths;
  }

  /** Origins that only know the status: every entry keeps its status path. */
  static ConfigOrigins statusOnly() {
    return new ConfigOrigins(List.of());
  }

  /**
   * Works out the origin of every status entry of an allocated claim.
   *
   * @param claim the claim with spec and status
   * @return the origins
   */
  static ConfigOrigins of(ResourceClaim claim) {
    List<DeviceAllocationConfiguration> status = claim.getStatus().getAllocation().getDevices()
        .getConfig();
    if (status == null || status.isEmpty() || claim.getSpec() == null
        || claim.getSpec().getDevices() == null) {
      return statusOnly();
    }
    Map<String, String> classes = classesByResultRequest(claim);
    List<DeviceClaimConfiguration> written = claim.getSpec().getDevices().getConfig() == null
        ? List.of() : claim.getSpec().getDevices().getConfig();
    List<String> paths = new ArrayList<>(status.size());
    Map<String, Integer> perClass = new HashMap<>();
    int next = 0;
    for (int i = 0; i < status.size(); i++) {
      DeviceAllocationConfiguration entry = status.get(i);
      String path = null;
      if (entry != null && "FromClass".equals(entry.getSource())) {
        String className = classOf(entry.getRequests(), classes);
        if (className != null) {
          int k = perClass.merge(className, 1, Integer::sum) - 1;
          path = "DeviceClass " + className + " spec.config[" + k + "]";
        }
      } else if (entry != null && "FromClaim".equals(entry.getSource())) {
        int j = match(entry, written, next);
        if (j >= 0) {
          path = "ResourceClaim spec.devices.config[" + j + "]";
          next = j + 1;
        }
      }
      paths.add(path);
    }
    return new ConfigOrigins(paths);
  }

  /**
   * The user's path of status entry {@code index}.
   *
   * @param index the index in {@code status.allocation.devices.config[]}
   * @return such as {@code ResourceClaim spec.devices.config[0]}, or the status path
   */
  String path(int index) {
    String path = index < paths.size() ? paths.get(index) : null;
    return path != null ? path : STATUS + "[" + index + "]";
  }

  /**
   * The class of each request name a result or a class entry can carry: {@code name} for a
   * request with {@code exactly}, {@code name/sub} for each subrequest of one with {@code
   * firstAvailable}, and {@code name} for the subrequest the scheduler chose.
   */
  private static Map<String, String> classesByResultRequest(ResourceClaim claim) {
    Map<String, String> chosen = new HashMap<>();
    List<DeviceRequestAllocationResult> results = claim.getStatus().getAllocation().getDevices()
        .getResults();
    for (DeviceRequestAllocationResult result : results == null
        ? List.<DeviceRequestAllocationResult> of() : results) {
      String request = result.getRequest();
      int slash = request == null ? -1 : request.indexOf('/');
      if (slash > 0) {
        chosen.putIfAbsent(request.substring(0, slash), request);
      }
    }
    Map<String, String> classes = new HashMap<>();
    List<DeviceRequest> requests = claim.getSpec().getDevices().getRequests();
    for (DeviceRequest request : requests == null ? List.<DeviceRequest> of() : requests) {
      String name = request.getName();
      if (request.getExactly() != null) {
        classes.put(name, request.getExactly().getDeviceClassName());
      } else if (request.getFirstAvailable() != null) {
        for (DeviceSubRequest sub : request.getFirstAvailable()) {
          String full = name + "/" + sub.getName();
          classes.put(full, sub.getDeviceClassName());
          if (full.equals(chosen.get(name))) {
            classes.put(name, sub.getDeviceClassName());
          }
        }
      }
    }
    return classes;
  }

  /** The one class a class entry's requests (all requests when empty) belong to, or null. */
  private static String classOf(List<String> requests, Map<String, String> classes) {
    Set<String> names = new LinkedHashSet<>();
    if (requests == null || requests.isEmpty()) {
      classes.forEach((request, className) -> {
        if (request.indexOf('/') < 0) {
          names.add(className);
        }
      });
    } else {
      for (String request : requests) {
        names.add(classes.get(request));
      }
    }
    return names.size() == 1 && !names.contains(null) ? names.iterator().next() : null;
  }

  /** The index of the claim entry a {@code FromClaim} status entry copies, from {@code from}. */
  private static int match(DeviceAllocationConfiguration entry,
      List<DeviceClaimConfiguration> written, int from) {
    List<String> requests = entry.getRequests() == null ? List.of() : entry.getRequests();
    for (int j = from; j < written.size(); j++) {
      DeviceClaimConfiguration candidate = written.get(j);
      if (candidate == null || !Objects.equals(candidate.getOpaque(), entry.getOpaque())) {
        continue;
      }
      List<String> own = candidate.getRequests() == null ? List.of() : candidate.getRequests();
      if (own.equals(requests) || requests.isEmpty()) {
        return j;
      }
    }
    return -1;
  }
}
