package io.github.dra4j.examples.gpu.command;

import io.github.dra4j.examples.gpu.demo.GpuDemo;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code gpu-driver demo}: the driver's whole story on a simulated node, printed step by step. */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Runs the driver on a simulated node and prints each step (no cluster, no GPU).")
public final class DemoCommand implements Callable<Integer> {

  @Override
  public Integer call() {
    return new GpuDemo(System.out).run();
  }
}
