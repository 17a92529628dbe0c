package io.github.dra4j.cel;

import java.util.AbstractMap;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The outer map of {@code device.attributes} and {@code device.capacity}: domain to (identifier to
 * value).
 *
 * <p>It reproduces a Kubernetes quirk: looking up a domain never misses. An unknown domain yields
 * an empty map, also for field selection and {@code has()} (so {@code
 * has(device.attributes.anything)} is true), while the {@code in} operator ({@link
 * #containsRealKey}), {@code size()} and iteration only see the domains the device really has.
 *
 * <p>Immutable after construction; safe to share between threads.
 */
final class DomainMap extends AbstractMap<String, Map<String, Object>> {

  private final Map<String, Map<String, Object>> domains;

  DomainMap(Map<String, Map<String, Object>> domains) {
    this.domains = Collections.unmodifiableMap(new LinkedHashMap<>(new TreeMap<>(domains)));
  }

  @Override
  public Map<String, Object> get(Object key) {
    Map<String, Object> inner = domains.get(key);
    return inner != null ? inner : Map.of();
  }

  @Override
  public boolean containsKey(Object key) {
    return key instanceof String;
  }

  /** Returns true only for domains the device really has (CEL's {@code in}). */
  boolean containsRealKey(Object key) {
    return domains.containsKey(key);
  }

  @Override
  public int size() {
    return domains.size();
  }

  @Override
  public Set<Entry<String, Map<String, Object>>> entrySet() {
    return domains.entrySet();
  }

  @Override
  public Set<String> keySet() {
    return domains.keySet();
  }
}
