/**
 * The ${driverName} DRA driver: {@link ${package}.DeviceDriver} puts the device backend, the
 * published devices and the SDK's claim lifecycle together; {@link
 * ${package}.DeviceClaimDriver} prepares and unprepares one claim.
 */
package ${package};
