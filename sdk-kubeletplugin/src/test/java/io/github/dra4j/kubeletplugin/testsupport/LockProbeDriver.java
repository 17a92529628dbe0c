package io.github.dra4j.kubeletplugin.testsupport;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.kubeletplugin.PrepareResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;

/**
 * A driver that appends {@code <instance> begin <uid>} and {@code <instance> end <uid>} lines to
 * a shared file around a pause in each prepare. With working cross-process serialization the file
 * shows strictly alternating begin/end pairs even when two processes are called at once.
 */
public final class LockProbeDriver extends RecordingDriver {

  private final String instance;
  private final Path log;
  private final long pauseMillis;

  /**
   * Creates the driver.
   *
   * @param instance name written on each line
   * @param log the shared file
   * @param pauseMillis how long each prepare holds the lock
   */
  public LockProbeDriver(String instance, Path log, long pauseMillis) {
    super(TestPlugins.DRIVER);
    this.instance = instance;
    this.log = log;
    this.pauseMillis = pauseMillis;
  }

  @Override
  public Map<String, PrepareResult> prepareResourceClaims(List<ResourceClaim> claims,
      CallContext context)
      throws Exception {
    String uids = String.join(",", claims.stream().map(c -> c.getMetadata().getUid()).toList());
    append(instance + " begin " + uids);
    Thread.sleep(pauseMillis);
    append(instance + " end " + uids);
    return super.prepareResourceClaims(claims, context);
  }

  private void append(String line) {
    try {
      // One small O_APPEND write per line: lines of two processes never mix within a line.
      Files.writeString(log, line + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
