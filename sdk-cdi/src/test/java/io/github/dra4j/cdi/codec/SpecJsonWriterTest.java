package io.github.dra4j.cdi.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.dra4j.cdi.spec.CdiSpec;
import io.github.dra4j.cdi.spec.ContainerEdits;
import io.github.dra4j.cdi.spec.Device;
import io.github.dra4j.cdi.spec.DeviceNode;
import io.github.dra4j.cdi.spec.Hook;
import io.github.dra4j.cdi.spec.IntelRdt;
import io.github.dra4j.cdi.spec.Mount;
import io.github.dra4j.cdi.spec.NetDevice;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The hand-written JSON of a spec is, byte for byte, what an object mapper writes from the spec
 * types' Jackson annotations, on edge cases and on random specs that set and leave out every
 * field; and what it writes reads back as the same spec.
 */
class SpecJsonWriterTest {

  /** The oracle: the spec types' annotations, as the codec's mapper applied them before. */
  private static final ObjectMapper ANNOTATIONS = JsonMapper.builder()
      .disable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
      .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
      .build();

  private final SpecJsonWriter writer = new SpecJsonWriter();

  @Test
  void edgeCasesAreWrittenAsTheAnnotationsSay() {
    List<CdiSpec> specs = List.of(
        new CdiSpec("0.3.0", "vendor.com/gpu", null, List.of(Device.of("0",
            ContainerEdits.builder().env("A", "1").build())), null),
        new CdiSpec("", "", Map.of(), List.of(), ContainerEdits.EMPTY),
        new CdiSpec("1.1.0", "k.io/c", Map.of("b", "2", "a", "\"quoted\"\n\\ é 日本"),
            List.of(new Device("d", Map.of("x", ""), new ContainerEdits(null,
                List.of(new DeviceNode("/dev/x", "", "", 0, 0, null, "", null, null),
                    new DeviceNode("/dev/y", "/host/y", "c", 195, 255, 0666, "rw", 0L,
                        4294967295L)),
                List.of(new NetDevice("eth0", "net1")),
                List.of(new Hook("createContainer", "/bin/h", List.of(), List.of(), null),
                    new Hook("poststop", "/bin/p", List.of("p", "--x"), List.of("E=1"), 0)),
                List.of(new Mount("/h", "/c", List.of(), ""),
                    new Mount("/h2", "/c2", List.of("ro", "bind"), "bind")),
                new IntelRdt("", "", "", null, false), List.of(0L, 4294967295L)))),
            new ContainerEdits(null, null, null, null, null,
                new IntelRdt("clos", "L3:0=f", "MB:0=100", List.of(), true), null)),
        new CdiSpec("1.0.0", "k.io/c", null, List.of(new Device("d", null,
            ContainerEdits.builder().intelRdt(new IntelRdt("", "", "", List.of("L3:0=1"),
                false)).build())),
            null));

    for (CdiSpec spec : specs) {
      assertSameAsTheAnnotations(spec);
    }
  }

  @Test
  void randomSpecsAreWrittenAsTheAnnotationsSay() {
    Random random = new Random(20261127);
    for (int i = 0; i < 2_000; i++) {
      assertSameAsTheAnnotations(new Specs(random).spec());
    }
  }

  private void assertSameAsTheAnnotations(CdiSpec spec) {
    String written = new String(writer.write(spec), StandardCharsets.UTF_8);

    assertThat(written).isEqualTo(ANNOTATIONS.writeValueAsString(spec));
    assertThat(ANNOTATIONS.readValue(written, CdiSpec.class)).isEqualTo(spec);
  }

  /** Random specs: every field set or left out, strings that need escaping now and then. */
  private static final class Specs {
    private static final String[] TEXT = {"", "a", "/dev/nvidia0", "x=y", "\"", "\\", "\n",
        "\u00e9\u65e5", "\u0001", " "};
    private final Random random;

    Specs(Random random) {
      this.random = random;
    }

    CdiSpec spec() {
      return new CdiSpec(text(), text(), map(), list(this::device), edits());
    }

    private Device device() {
      return new Device(text(), map(), random.nextBoolean() ? null : edits());
    }

    private ContainerEdits edits() {
      return new ContainerEdits(list(this::text), list(this::node),
          list(() -> new NetDevice(text(), text())), list(this::hook),
          list(() -> new Mount(text(), text(), list(this::text), text())),
          random.nextInt(3) == 0 ? new IntelRdt(text(), text(), text(),
              random.nextBoolean() ? null : list(this::text), random.nextBoolean()) : null,
          list(() -> (long) random.nextInt(Integer.MAX_VALUE)));
    }

    private DeviceNode node() {
      return new DeviceNode(text(), text(), text(),
          random.nextInt(3) == 0 ? 0 : random.nextInt(300),
          random.nextInt(3) == 0 ? 0 : random.nextInt(300),
          random.nextBoolean() ? null : random.nextInt(01000),
          text(), random.nextBoolean() ? null : (long) random.nextInt(70000),
          random.nextBoolean() ? null : (long) random.nextInt(70000));
    }

    private Hook hook() {
      return new Hook(text(), text(), list(this::text), list(this::text),
          random.nextBoolean() ? null : random.nextInt(100));
    }

    private String text() {
      return TEXT[random.nextInt(TEXT.length)];
    }

    private Map<String, String> map() {
      Map<String, String> map = new HashMap<>();
      for (int i = random.nextInt(3); i > 0; i--) {
        map.put(text() + i, text());
      }
      return map;
    }

    private <T> List<T> list(Supplier<T> element) {
      List<T> list = new ArrayList<>();
      for (int i = random.nextInt(3); i > 0; i--) {
        list.add(element.get());
      }
      return list;
    }
  }
}
