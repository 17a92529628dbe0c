/**
 * The rules kube-apiserver applies to {@code resource.k8s.io} objects, in one place, as
 * Kubernetes 1.36 applies them with its default feature gates: validation with the server's field
 * paths, error types and messages; the defaults it fills in; what its create, update and status
 * strategies keep, drop and set; the versions it serves and how it converts between them. The
 * in-memory API server enforces these rules on every write, the SDK checks what it writes with
 * them before sending it, and a driver checks the objects it ships in a plain unit test.
 *
 * <ul>
 *   <li>{@link io.github.dra4j.resourceapi.ResourceApiRules}: the entry point, for objects of
 *       fabric8's model ({@code validate}, {@code requireValid}, {@code validateUpdate}, {@code
 *       validateStatusUpdate}) and for JSON the way the server's write path sees it ({@code
 *       create}, {@code update}, {@code updateStatus}, each giving an {@link
 *       io.github.dra4j.resourceapi.Admission}: what would be stored, or the refused fields, and
 *       the warnings), plus {@code convert} between served versions and {@code servedVersions};
 *   <li>{@link io.github.dra4j.resourceapi.FieldError} and {@link
 *       io.github.dra4j.resourceapi.FieldErrorType}: one refused field, printed as the server
 *       prints it; {@link io.github.dra4j.resourceapi.InvalidResourceException}: the server's
 *       422 message for an object;
 *   <li>{@link io.github.dra4j.resourceapi.FeatureGates}: the DRA gates, in kube-apiserver's
 *       {@code --feature-gates} form too; {@link io.github.dra4j.resourceapi.ResourceLimits}:
 *       the size limits; {@link io.github.dra4j.resourceapi.GeneratedNames}: names from {@code
 *       generateName}.
 * </ul>
 *
 * <p>A driver's test that its DeviceClass (or slice, or claim template) is one a cluster accepts:
 *
 * <pre>{@code
 * ResourceApiRules.kubernetes136().requireValid(deviceClass);
 * // InvalidResourceException: DeviceClass.resource.k8s.io "gpu.example.com" is invalid:
 * //   spec.selectors[0].cel.expression: Invalid value: "device.driver = 'x'": compilation ...
 * }</pre>
 *
 * <p>Checking with other gates, or as a status update against the stored object:
 *
 * <pre>{@code
 * ResourceApiRules rules = ResourceApiRules.kubernetes136()
 *     .withFeatureGates(FeatureGates.kubernetes136().withSpec("DRADeviceTaints=false"));
 * List<FieldError> errors = rules.validateStatusUpdate(claimWithNewStatus, storedClaim);
 * }</pre>
 *
 * <p>Inside, one package per part of the server: {@code internal.write} runs a write step by
 * step; {@code internal.conversion}, {@code internal.defaults} and {@code internal.strategy}
 * do what the server does around validation; {@code internal.slice}, {@code internal.claim},
 * {@code internal.deviceclass} and {@code internal.taintrule} validate each kind with the shared
 * rules of {@code internal.device} and {@code internal.meta}, built from {@code internal.field}.
 * {@code docs/api-rules.md} says which Kubernetes release the rules follow, where 1.37 differs
 * and how to update them.
 */
package io.github.dra4j.resourceapi;
