package io.github.dra4j.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.dra4j.core.stability.KubernetesAlpha;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * API that follows an alpha Kubernetes feature says so: every visible type, method, constructor
 * or field of the SDK's public packages that is named after such a feature, or takes or returns a
 * resource-API type that exists only for one, carries {@link KubernetesAlpha} (itself or on an
 * enclosing type), and every mark names a feature gate or enhancement and Kubernetes versions.
 * The test kit is left out: its API follows the Kubernetes API it simulates.
 */
class AlphaApiTest {

  /** Words that name an alpha (or recently alpha) feature of DRA in a member's or type's name. */
  private static final Pattern ALPHA_NAME = Pattern.compile("(?i)taint|sharedcounter"
      + "|consumablecapacity|bindingcondition|bindingandstatus|listtypeattribute|shareid|^share$"
      + "|partitionable|devicehealth|healthstate|devicemetadata|metadataversions");

  /** Resource-API model types that exist only for such a feature. */
  private static final Pattern ALPHA_TYPE = Pattern.compile("\\.(CounterSet|DeviceTaint\\w*"
      + "|DeviceCounterConsumption|CapacityRequestPolicy\\w*|DeviceToleration)\\b");

  /**
   * Classes whose API is the SDK's: not the test kit, not internals, and not the classes generated
   * from the kubelet's protos (they mirror the wire, field by field).
   */
  private static boolean isSdkClass(String name) {
    return !name.startsWith("io.github.dra4j.testing.") && !name.contains(".internal.")
        && !name.matches("io\\.github\\.dra4j\\.kubelet\\.wire\\.(dra|health|registration)\\..*")
        && !name.endsWith("package-info");
  }

  @Test
  void apiFollowingAlphaFeaturesIsMarked() throws Exception {
    List<String> unmarked = new ArrayList<>();
    for (Class<?> type : sdkTypes()) {
      if (!isMarked(type) && ALPHA_NAME.matcher(type.getSimpleName()).find()) {
        unmarked.add(type.getName());
      }
      for (Member member : visibleMembers(type)) {
        if (isMarked(type) || isMarked((AnnotatedElement) member)) {
          continue;
        }
        if (isGateName(member) || isRecordConstructor(type, member)) {
          continue;
        }
        boolean named = !(member instanceof Constructor<?>)
            && ALPHA_NAME.matcher(member.getName()).find();
        if (named || mentionsAlphaType(member)) {
          unmarked.add(type.getName() + "#" + member.getName());
        }
      }
    }
    assertThat(unmarked).as("API that follows an alpha Kubernetes feature without @KubernetesAlpha")
        .isEmpty();
  }

  @Test
  void everyMarkNamesItsFeatureAndVersions() throws Exception {
    Pattern version = Pattern.compile("1\\.\\d{2}");
    Pattern feature = Pattern.compile("[A-Z][A-Za-z]+|KEP-\\d+");
    List<String> bad = new ArrayList<>();
    int marks = 0;
    for (Class<?> type : sdkTypes()) {
      List<AnnotatedElement> elements = new ArrayList<>(visibleMembers(type).stream()
          .map(m -> (AnnotatedElement) m).toList());
      elements.add(type);
      for (AnnotatedElement element : elements) {
        KubernetesAlpha mark = element.getAnnotation(KubernetesAlpha.class);
        if (mark == null) {
          continue;
        }
        marks++;
        boolean ok = feature.matcher(mark.feature()).matches()
            && version.matcher(mark.since()).matches()
            && (mark.beta().isEmpty() || (version.matcher(mark.beta()).matches()
                && Integer.parseInt(mark.beta().substring(2)) > Integer
                    .parseInt(mark.since().substring(2))));
        if (!ok) {
          bad.add(element + ": " + mark);
        }
      }
    }
    assertThat(bad).isEmpty();
    assertThat(marks).as("the SDK has API for alpha features (taints, counters, capacity ...)")
        .isGreaterThan(10);
  }

  private static List<Class<?>> sdkTypes() throws Exception {
    List<Class<?>> types = new ArrayList<>();
    Set<String> seen = new TreeSet<>();
    for (Class<?> anchor : SdkClasses.MODULES) {
      for (String name : SdkClasses.classNames(anchor)) {
        if (!isSdkClass(name) || !seen.add(name)) {
          continue;
        }
        Class<?> type = Class.forName(name, false, anchor.getClassLoader());
        if (SdkClasses.isVisible(type.getModifiers()) && SdkClasses.isVisibleType(type)
            && !type.isSynthetic() && !type.isAnonymousClass()) {
          types.add(type);
        }
      }
    }
    return types;
  }

  private static List<Member> visibleMembers(Class<?> type) {
    return Stream.<Member[]> of(type.getDeclaredMethods(), type.getDeclaredConstructors(),
        type.getDeclaredFields())
        .<Member> flatMap(Stream::of)
        .filter(m -> SdkClasses.isVisible(m.getModifiers()) && !m.isSynthetic())
        .filter(m -> !(m instanceof Method method && method.isBridge()))
        .toList();
  }

  /** A type is marked when it or a type enclosing it carries the mark. */
  private static boolean isMarked(Class<?> type) {
    for (Class<?> t = type; t != null; t = t.getEnclosingClass()) {
      if (t.isAnnotationPresent(KubernetesAlpha.class)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isMarked(AnnotatedElement element) {
    return element.isAnnotationPresent(KubernetesAlpha.class);
  }

  /** Constants that are a feature gate's name (they name the gate, they do not use it). */
  private static boolean isGateName(Member member) {
    return member instanceof Field field && Modifier.isStatic(field.getModifiers())
        && field.getType() == String.class;
  }

  /**
   * A record's constructors take every component; the alpha ones are marked on the component
   * (and so on its accessor), not on the constructor the whole record needs.
   */
  private static boolean isRecordConstructor(Class<?> type, Member member) {
    return type.isRecord() && member instanceof Constructor<?>;
  }

  private static boolean mentionsAlphaType(Member member) {
    List<Type> types = new ArrayList<>();
    if (member instanceof Method method) {
      types.add(method.getGenericReturnType());
    }
    if (member instanceof Executable executable) {
      types.addAll(List.of(executable.getGenericParameterTypes()));
    }
    if (member instanceof Field field) {
      types.add(field.getGenericType());
    }
    return types.stream().anyMatch(t -> ALPHA_TYPE.matcher(t.getTypeName()).find());
  }
}
