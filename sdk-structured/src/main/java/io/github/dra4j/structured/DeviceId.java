package io.github.dra4j.structured;

/**
 * The identity of a published device: driver, pool and device name.
 *
 * @param driver the driver name
 * @param pool the pool name
 * @param device the device name
 */
record DeviceId(String driver, String pool, String device) {

  /** Returns {@code driver/pool/device}, the form Kubernetes uses in messages. */
  @Override
  public String toString() {
    return driver + "/" + pool + "/" + device;
  }
}
