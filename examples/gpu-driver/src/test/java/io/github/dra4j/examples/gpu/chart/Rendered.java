package io.github.dra4j.examples.gpu.chart;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The objects of one {@code helm template} run, each read by fabric8 into its typed model class
 * (cert-manager's kinds, which fabric8 does not model, as {@link GenericKubernetesResource}).
 * Reading checks every document: it must be one object with apiVersion, kind and name, and a
 * typed object must hold no field its model does not know (a misspelt or misplaced field would
 * otherwise be dropped by the API server without a word).
 */
final class Rendered {

  private static final Pattern SEPARATOR = Pattern.compile("(?m)^---\\s*$");
  private static final Pattern SOURCE = Pattern.compile("(?m)^# Source: (.*)$");

  private final List<HasMetadata> objects;
  private final IdentityHashMap<HasMetadata, String> sources;
  private final String command;

  private Rendered(List<HasMetadata> objects, IdentityHashMap<HasMetadata, String> sources,
      String command) {
    this.objects = objects;
    this.sources = sources;
    this.command = command;
  }

  /**
   * Reads the output of {@code helm template}.
   *
   * @param yaml the documents
   * @param command the command that printed them, for messages
   * @return the objects
   */
  static Rendered parse(String yaml, String command) {
    List<HasMetadata> objects = new ArrayList<>();
    IdentityHashMap<HasMetadata, String> sources = new IdentityHashMap<>();
    KubernetesSerialization serialization = new KubernetesSerialization();
    for (String document : SEPARATOR.split(yaml, -1)) {
      boolean empty = document.lines()
          .allMatch(line -> line.isBlank() || line.stripLeading().startsWith("#"));
      if (empty) {
        continue;
      }
      var sourceMatch = SOURCE.matcher(document);
      String source = sourceMatch.find() ? sourceMatch.group(1) : "(unknown template)";
      Object read = serialization.unmarshal(document);
      assertThat(read).as("%s: one Kubernetes object per document, got:\n%s", source, document)
          .isInstanceOf(HasMetadata.class);
      HasMetadata object = (HasMetadata) read;
      assertThat(object.getApiVersion()).as("%s: apiVersion", source).isNotBlank();
      assertThat(object.getKind()).as("%s: kind", source).isNotBlank();
      assertThat(object.getMetadata()).as("%s: metadata", source).isNotNull();
      assertThat(object.getMetadata().getName()).as("%s: metadata.name", source).isNotBlank();
      if (!(object instanceof GenericKubernetesResource)) {
        List<String> unknown = new ArrayList<>();
        unknownFields(object, object.getKind(), unknown, new IdentityHashMap<>());
        assertThat(unknown).as("%s: fields the %s model does not know (misspelt or misplaced?)",
            source, object.getKind()).isEmpty();
      }
      objects.add(object);
      sources.put(object, source);
    }
    return new Rendered(List.copyOf(objects), sources, command);
  }

  /** Collects the paths of fields fabric8 kept in an additionalProperties map. */
  private static void unknownFields(Object value, String path, List<String> unknown,
      Map<Object, Boolean> seen) {
    if (value == null || seen.put(value, Boolean.TRUE) != null) {
      return;
    }
    if (value instanceof Collection<?> collection) {
      int i = 0;
      for (Object item : collection) {
        unknownFields(item, path + "[" + i++ + "]", unknown, seen);
      }
      return;
    }
    if (value instanceof Map<?, ?> map) {
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        unknownFields(entry.getValue(), path + "[" + entry.getKey() + "]", unknown, seen);
      }
      return;
    }
    if (!value.getClass().getName().startsWith("io.fabric8.kubernetes.api.model.")) {
      return;
    }
    for (Method getter : value.getClass().getMethods()) {
      if (getter.getParameterCount() != 0 || Modifier.isStatic(getter.getModifiers())
          || getter.getDeclaringClass() == Object.class
          || !(getter.getName().startsWith("get") || getter.getName().startsWith("is"))) {
        continue;
      }
      Object child;
      try {
        child = getter.invoke(value);
      } catch (IllegalAccessException | InvocationTargetException e) {
        continue;
      }
      if (getter.getName().equals("getAdditionalProperties")) {
        if (child instanceof Map<?, ?> extra && !extra.isEmpty()) {
          extra.keySet().forEach(key -> unknown.add(path + "." + key));
        }
      } else {
        String name = getter.getName().startsWith("is")
            ? getter.getName().substring(2) : getter.getName().substring(3);
        unknownFields(child, path + "." + decapitalize(name), unknown, seen);
      }
    }
  }

  private static String decapitalize(String name) {
    return name.isEmpty() ? name : Character.toLowerCase(name.charAt(0)) + name.substring(1);
  }

  /** Every object, in Helm's order. */
  List<HasMetadata> objects() {
    return objects;
  }

  /** The kinds rendered. */
  Set<String> kinds() {
    return objects.stream().map(HasMetadata::getKind)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  /** The objects of a model class. */
  <T extends HasMetadata> List<T> all(Class<T> type) {
    return objects.stream().filter(type::isInstance).map(type::cast).toList();
  }

  /** The one object of a model class; fails if there are none or several. */
  <T extends HasMetadata> T one(Class<T> type) {
    List<T> found = all(type);
    assertThat(found).as("exactly one %s from %s; rendered %s", type.getSimpleName(), command,
        summary()).hasSize(1);
    return found.get(0);
  }

  /** The object of a model class with that name; fails if there is none. */
  <T extends HasMetadata> T named(Class<T> type, String name) {
    List<T> found = all(type).stream().filter(o -> name.equals(o.getMetadata().getName()))
        .toList();
    assertThat(found).as("one %s named %s from %s; rendered %s", type.getSimpleName(), name,
        command, summary()).hasSize(1);
    return found.get(0);
  }

  /** The one object of a kind fabric8 does not model (cert-manager's). */
  GenericKubernetesResource generic(String kind) {
    List<GenericKubernetesResource> found = all(GenericKubernetesResource.class).stream()
        .filter(o -> kind.equals(o.getKind())).toList();
    assertThat(found).as("exactly one %s from %s; rendered %s", kind, command, summary())
        .hasSize(1);
    return found.get(0);
  }

  /** The template an object came from. */
  String source(HasMetadata object) {
    return sources.getOrDefault(object, "(unknown template)");
  }

  /** The rendered objects as kind/name, for messages. */
  String summary() {
    return objects.stream().map(o -> o.getKind() + "/" + o.getMetadata().getName())
        .collect(Collectors.joining(", ", "[", "]"));
  }
}
