/**
 * The driver's configuration API: the {@link ${package}.config.DriverConfig} type a claim or a
 * DeviceClass carries as opaque parameters, and the one configuration scheme the kubelet plugin
 * and the admission webhook both decode it with.
 */
package ${package}.config;
