package io.github.dra4j.examples.gpu.nvml.internal;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.Structure;

/**
 * The NVML structs the backend reads, laid out as in {@code nvml.h} (JNA adds the platform's
 * padding, as a C compiler does). Each instance is filled by one call and owned by the caller
 * that made it; none is shared between threads.
 */
public final class NvmlStructs {

  private NvmlStructs() {}

  /** {@code nvmlPciInfo_t}, as {@code nvmlDeviceGetPciInfo_v3} fills it. */
  @Structure.FieldOrder({"busIdLegacy", "domain", "bus", "device", "pciDeviceId",
      "pciSubSystemId", "busId"})
  public static final class PciInfo extends Structure {
    /** The legacy bus ID ({@code NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE}, 16 bytes). */
    public byte[] busIdLegacy = new byte[16];
    /** The PCI domain. */
    public int domain;
    /** The bus. */
    public int bus;
    /** The device on the bus. */
    public int device;
    /** The combined device and vendor ID. */
    public int pciDeviceId;
    /** The combined subsystem and subsystem vendor ID. */
    public int pciSubSystemId;
    /** The bus ID, {@code domain:bus:device.function} (32 bytes). */
    public byte[] busId = new byte[32];

    /** Creates an empty struct for a call to fill. */
    public PciInfo() {}

    /**
     * The bus ID as text.
     *
     * @return for example {@code 00000000:1B:00.0}
     */
    public String busIdText() {
      return Native.toString(busId);
    }
  }

  /** {@code nvmlMemory_t}, as {@code nvmlDeviceGetMemoryInfo} fills it. */
  @Structure.FieldOrder({"total", "free", "used"})
  public static final class MemoryInfo extends Structure {
    /** Installed memory in bytes. */
    public long total;
    /** Unallocated memory in bytes. */
    public long free;
    /** Allocated memory in bytes. */
    public long used;

    /** Creates an empty struct for a call to fill. */
    public MemoryInfo() {}
  }

  /**
   * {@code nvmlGpuInstanceInfo_t}, as {@code nvmlGpuInstanceGetInfo} fills it; the nested {@code
   * nvmlGpuInstancePlacement_t} is flattened into {@code placementStart} and {@code
   * placementSize} (same layout).
   */
  @Structure.FieldOrder({"device", "id", "profileId", "placementStart", "placementSize"})
  public static final class GpuInstanceInfo extends Structure {
    /** The parent GPU's handle. */
    public Pointer device;
    /** The GPU instance's ID. */
    public int id;
    /** The GPU instance profile's ID. */
    public int profileId;
    /** The first memory slice of the placement. */
    public int placementStart;
    /** How many memory slices the placement has. */
    public int placementSize;

    /** Creates an empty struct for a call to fill. */
    public GpuInstanceInfo() {}
  }

  /**
   * {@code nvmlGpuInstanceProfileInfo_t} (version 1), as {@code
   * nvmlDeviceGetGpuInstanceProfileInfo} fills it.
   */
  @Structure.FieldOrder({"id", "isP2pSupported", "sliceCount", "instanceCount",
      "multiprocessorCount", "copyEngineCount", "decoderCount", "encoderCount", "jpegCount",
      "ofaCount", "memorySizeMB"})
  public static final class GpuInstanceProfileInfo extends Structure {
    /** The profile's ID. */
    public int id;
    /** Whether peer-to-peer is supported (0 or 1). */
    public int isP2pSupported;
    /** GPU slices. */
    public int sliceCount;
    /** How many instances of the profile fit on the GPU. */
    public int instanceCount;
    /** Streaming multiprocessors. */
    public int multiprocessorCount;
    /** Copy engines. */
    public int copyEngineCount;
    /** Video decoders. */
    public int decoderCount;
    /** Video encoders. */
    public int encoderCount;
    /** JPEG engines. */
    public int jpegCount;
    /** Optical-flow engines. */
    public int ofaCount;
    /** Memory in MiB. */
    public long memorySizeMB;

    /** Creates an empty struct for a call to fill. */
    public GpuInstanceProfileInfo() {}
  }

  /** {@code nvmlEventData_t}, as {@code nvmlEventSetWait_v2} fills it. */
  @Structure.FieldOrder({"device", "eventType", "eventData", "gpuInstanceId",
      "computeInstanceId"})
  public static final class EventData extends Structure {
    /** The GPU the event happened on. */
    public Pointer device;
    /** The event's type, one bit of {@code nvmlEventType*}. */
    public long eventType;
    /** The Xid for an Xid event (999 if unknown); 0 otherwise. */
    public long eventData;
    /** The GPU instance the Xid is attributed to, 0xFFFFFFFF if none. */
    public int gpuInstanceId;
    /** The compute instance the Xid is attributed to, 0xFFFFFFFF if none. */
    public int computeInstanceId;

    /** Creates an empty struct for a call to fill. */
    public EventData() {}
  }
}
