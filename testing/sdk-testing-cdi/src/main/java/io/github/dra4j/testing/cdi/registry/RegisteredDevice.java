package io.github.dra4j.testing.cdi.registry;

import io.github.dra4j.cdi.name.QualifiedDeviceName;
import io.github.dra4j.cdi.spec.Device;

/**
 * A device a runtime can resolve, with the spec file it comes from.
 *
 * @param name its qualified name
 * @param device the device
 * @param specFile the file that defines it (the highest-priority one)
 */
public record RegisteredDevice(QualifiedDeviceName name, Device device, SpecFile specFile) {}
