package io.github.dra4j.examples.gpu.config;

/** How GPUs are shared between the processes of the containers that use a claim. */
public enum Strategy {
  /** Processes take turns on the GPU, each for a time slice. */
  TimeSlicing,
  /** CUDA MPS: processes run at once, each limited to a share of threads and memory. */
  MPS
}
