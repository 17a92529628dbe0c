package io.github.dra4j.testing.cdi.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.dra4j.cdi.codec.SpecCodec;
import io.github.dra4j.cdi.name.Kind;
import io.github.dra4j.cdi.spec.CdiSpec;
import io.github.dra4j.cdi.store.SpecDirectory;
import io.github.dra4j.cdi.validation.SpecValidator;
import io.github.dra4j.cdi.validation.ValidationRules;
import io.github.dra4j.testing.cdi.registry.CdiRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * dra4j-cdi's atomic replace as a container runtime sees it: a writer rewrites one spec file many
 * times with contents of very different sizes while reader threads keep reading it, directly and
 * through the runtime's registry scan. A reader must never see a partial or missing file.
 */
class AtomicReplaceTest {
  private static final Kind KIND = Kind.of("vendor.com", "gpu");
  private static final int REWRITES = 300;
  private static final int MIN_READS = 50;

  @TempDir
  Path dir;

  /** A spec with {@code devices} devices whose spec-level env records that count. */
  private static CdiSpec specWith(int devices) {
    CdiSpec.Builder builder = CdiSpec.builder().kind(KIND)
        .edits(e -> e.env("DEVICE_COUNT", Integer.toString(devices)));
    for (int i = 0; i < devices; i++) {
      int n = i;
      builder.device("gpu" + n, e -> e.env("GPU_" + n, "x".repeat(200)).deviceNode("/dev/gpu" + n));
    }
    return builder.build();
  }

  private static void checkWhole(CdiSpec spec, Queue<String> failures) {
    if (!SpecValidator.problems(spec, ValidationRules.RUNTIME).isEmpty()) {
      failures.add("invalid: " + SpecValidator.problems(spec, ValidationRules.RUNTIME));
    }
    String declared = spec.containerEdits().env().get(0);
    if (!declared.equals("DEVICE_COUNT=" + spec.devices().size())) {
      failures.add("mixed content: " + declared + " with " + spec.devices().size() + " devices");
    }
  }

  @Test
  void readersNeverSeeAPartialFile() throws Exception {
    SpecDirectory specs = SpecDirectory.at(dir);
    Path file = specs.writeTransient(specWith(1), "claim");
    AtomicBoolean writerDone = new AtomicBoolean();
    AtomicInteger directReads = new AtomicInteger();
    AtomicInteger registryReads = new AtomicInteger();
    Queue<String> failures = new ConcurrentLinkedQueue<>();

    Thread direct = new Thread(() -> {
      while (!writerDone.get() || directReads.get() < MIN_READS) {
        try {
          checkWhole(SpecCodec.standard().read(Files.readAllBytes(file), file.toString()),
              failures);
        } catch (Exception e) {
          failures.add("direct read: " + e);
        }
        directReads.incrementAndGet();
      }
    });
    Thread registry = new Thread(() -> {
      while (!writerDone.get() || registryReads.get() < MIN_READS) {
        CdiRegistry loaded = CdiRegistry.load(List.of(dir));
        if (!loaded.errors().isEmpty()) {
          failures.add("registry errors: " + loaded.errors());
        } else if (loaded.specFiles().size() != 1) {
          failures.add("registry saw " + loaded.specFiles().size() + " files");
        } else {
          checkWhole(loaded.specFiles().get(0).spec(), failures);
        }
        registryReads.incrementAndGet();
      }
    });
    direct.start();
    registry.start();
    try {
      for (int i = 0; i < REWRITES; i++) {
        specs.writeTransient(specWith(i % 2 == 0 ? 150 : 1 + i % 7), "claim");
      }
    } finally {
      writerDone.set(true);
      direct.join(TimeUnit.MINUTES.toMillis(2));
      registry.join(TimeUnit.MINUTES.toMillis(2));
    }

    assertThat(direct.isAlive()).isFalse();
    assertThat(registry.isAlive()).isFalse();
    assertThat(failures).isEmpty();
    assertThat(directReads.get()).isGreaterThanOrEqualTo(MIN_READS);
    assertThat(registryReads.get()).isGreaterThanOrEqualTo(MIN_READS);
    try (var files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .as("no temporary files left").containsExactly(file.getFileName().toString());
    }
  }
}
