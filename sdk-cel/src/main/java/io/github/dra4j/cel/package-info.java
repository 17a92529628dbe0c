/**
 * The CEL environment Kubernetes compiles and evaluates DRA device selectors in ({@code
 * DeviceClass.spec.selectors} and the selectors of claim requests), on cel-java: the counterpart
 * of Go's {@code k8s.io/dynamic-resource-allocation/cel}. Compile errors, runtime errors and results
 * read as Kubernetes' do. Follows Kubernetes 1.36 (the DRA CEL package, the API server's CEL
 * libraries it pins, cel-go 0.27), plus the changes merged for 1.37 that this page names.
 *
 * <ul>
 *   <li>{@link io.github.dra4j.cel.DeviceSelectorEnvironment}: where expressions compile. {@link
 *       io.github.dra4j.cel.DeviceSelectorEnvironment#stored()} is the shared stored-expressions
 *       environment the scheduler uses (everything, whatever the version); {@link
 *       io.github.dra4j.cel.DeviceSelectorEnvironment#newExpressions} is what an API server
 *       accepts in a created or changed selector, described by {@link
 *       io.github.dra4j.cel.NewExpressionOptions} (server and compatibility {@link
 *       io.github.dra4j.cel.KubernetesVersion}, feature gates);
 *   <li>{@link io.github.dra4j.cel.CompiledSelector}, evaluated against a {@link
 *       io.github.dra4j.cel.SelectorDevice} (a device as the {@code device} variable shows it) to
 *       a {@link io.github.dra4j.cel.SelectorResult}: match, no match, or failure; {@link
 *       io.github.dra4j.cel.SelectorCompileException} when an expression does not compile;
 *   <li>{@link io.github.dra4j.cel.SelectorExplainer}: which published devices a selector matches
 *       and why the others do not, as a {@link io.github.dra4j.cel.SelectorExplanation}.
 * </ul>
 *
 * <p>Evaluating a selector, and checking it the way an API server of a given release checks a
 * new selector (e.g. in a driver's CI):
 *
 * <pre>{@code
 * CompiledSelector selector = DeviceSelectorEnvironment.stored()
 *     .compile("device.attributes[\"gpu.example.com\"].model.startsWith(\"A100\")");
 * boolean matches = selector.evaluate(SelectorDevice.of("gpu.example.com", device)).matches();
 *
 * DeviceSelectorEnvironment apiServer134 = DeviceSelectorEnvironment.newExpressions(
 *     NewExpressionOptions.forServer(KubernetesVersion.parse("1.34")));
 * try {
 *   apiServer134.compile("[1, 2].sort() == [1, 2]");
 * } catch (SelectorCompileException e) {
 *   // rejected when created on a 1.34 API server: compilation failed: ... undeclared reference to 'sort'
 * }
 * }</pre>
 *
 * <p>Threading: every type here is immutable and safe to share between threads. The only mutable
 * state is inside each environment: its bounded, thread-safe compile cache and the equally bounded
 * caches of parsed quantity literals and regular expressions. There is no other static state; the
 * shared stored environment is built lazily, once per JVM.
 *
 * <p>Alpha and beta Kubernetes features: {@code device.allowMultipleAllocations} follows consumable
 * capacity (gate {@code DRAConsumableCapacity}, beta and on by default in 1.36); list-valued
 * attributes and {@code includes()} follow list-typed attributes (gate {@code
 * DRAListTypeAttributes}, alpha in 1.36, off by default). With that gate off, list values are not
 * read, as in Kubernetes 1.36 ({@link io.github.dra4j.cel.SelectorDevice#of(String,
 * io.fabric8.kubernetes.api.model.resource.v1.Device, boolean)}); the changes merged for 1.37
 * read them in the stored environment whatever the gate. Both may still change before 1.37.
 *
 * <p>Cost: {@link io.github.dra4j.cel.CompiledSelector#estimatedMaxCost()} is the static worst-case
 * cost the API server estimates before accepting a new or changed selector, and {@link
 * io.github.dra4j.cel.CompiledSelector#exceedsCostLimit()} tells whether it exceeds {@link
 * io.github.dra4j.cel.DeviceSelectorEnvironment#COST_LIMIT} (the API server's {@code Forbidden:
 * too complex, exceeds cost limit}). It follows cel-go's checker estimate with the Kubernetes
 * library costs and the sizes Kubernetes declares for the {@code device} variable, computed only
 * when asked.
 *
 * <p>Deliberately not done: cel-go's exact runtime cost; a per-evaluation budget of comprehension
 * iterations stands in for the runtime limit. The 10 Ki expression length limit is left to API
 * validation. Compatibility versions before 1.29 are not modelled, nor is the authorizer library
 * (useless in selectors). The URL and format libraries may differ from Go in rare edge cases and
 * shorten some error texts.
 */
package io.github.dra4j.cel;
