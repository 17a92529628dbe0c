package io.github.dra4j.core.stability;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks API that follows a Kubernetes feature which is alpha (behind a feature gate that is off by
 * default) in at least one Kubernetes version this release of dra4j supports: on such a cluster
 * the API works only once the operator turns the gate on, in the API server, the scheduler and
 * the kubelet as the feature needs.
 *
 * <p>While the feature is alpha in the newest Kubernetes version dra4j supports ({@link #beta()}
 * is empty), the marked API may change or go in a minor release of dra4j, never in a patch
 * release, and the changelog lists each change under "Changed (alpha)". From the dra4j release
 * that supports the Kubernetes version making the feature beta, the API keeps the usual
 * compatibility promises; the mark stays, with {@link #beta()} set, as long as a supported
 * Kubernetes version still has the feature off by default.
 *
 * <p>On a record component the mark reaches the component's accessor. The mark stays in the Javadoc and in the class files (retention {@code RUNTIME}), so a build
 * can list or forbid the alpha API a driver uses.
 *
 * <pre>{@code
 * @KubernetesAlpha(feature = "DRADeviceTaints", since = "1.33", beta = "1.36")
 * public interface HealthTaints { ... }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.CONSTRUCTOR, ElementType.FIELD,
    ElementType.RECORD_COMPONENT})
public @interface KubernetesAlpha {

  /**
   * The Kubernetes feature gate the marked API depends on, as a cluster operator sets it, for
   * example {@code "DRADeviceTaints"} (kube-apiserver, scheduler and kubelet gates share the
   * name); for a feature whose gate is not settled yet, its enhancement, such as
   * {@code "KEP-5304"}.
   *
   * @return the feature gate's name
   */
  String feature();

  /**
   * The first Kubernetes minor version with the feature as alpha, for example {@code "1.33"}.
   *
   * @return a Kubernetes version, {@code major.minor}
   */
  String since();

  /**
   * The first Kubernetes minor version with the feature beta and on by default, or empty while it
   * is alpha in every Kubernetes version dra4j supports.
   *
   * @return a Kubernetes version, {@code major.minor}, or {@code ""}
   */
  String beta() default "";
}
