package io.github.dra4j.testing.kubelet;

import static java.nio.file.StandardWatchEventKinds.ENTRY_CREATE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_DELETE;
import static java.nio.file.StandardWatchEventKinds.OVERFLOW;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the plugin registry directory and its subdirectories (inotify, through the JDK's watch
 * service) for registration sockets, like the kubelet's plugin watcher: sockets already there at
 * start count as new, names starting with a dot and files that are not sockets are ignored, a
 * create event for a known socket (re-created at the same path) is reported as removed and added
 * again, a removed socket (or directory) as removed. Attribute changes such as the plugin's
 * {@code chmod} after binding are not events. After an event overflow the tree is rescanned and
 * sockets are compared by device and inode.
 *
 * <p>Owns its watch service and one daemon thread, which is the only one that touches the known
 * sockets after {@link #start(Path, Listener)}. Listener calls come from that thread, in event
 * order.
 */
final class RegistryWatcher implements AutoCloseable {

  /** Told about registration sockets. */
  interface Listener {
    /**
     * A socket appeared (or was re-created).
     *
     * @param socket its path
     */
    void socketAdded(Path socket);

    /**
     * A socket disappeared.
     *
     * @param socket its path
     */
    void socketRemoved(Path socket);
  }

  /** What makes a socket file "the same" when rescanning: device and inode. */
  private record SocketIdentity(Object device, Object inode) {}

  private static final Logger LOG = LoggerFactory.getLogger(RegistryWatcher.class);

  private final Path root;
  private final Listener listener;
  private final WatchService service;
  private final Map<WatchKey, Path> directories = new HashMap<>();
  private final Map<Path, SocketIdentity> sockets = new HashMap<>();
  private final Thread thread;

  private RegistryWatcher(Path root, Listener listener, WatchService service) {
    this.root = root;
    this.listener = listener;
    this.service = service;
    this.thread = new Thread(this::run, "dra4j-fake-kubelet-watch");
    this.thread.setDaemon(true);
  }

  /**
   * Creates the directory if missing, registers the tree, reports the sockets already there and
   * starts watching.
   *
   * @param root the registry directory
   * @param listener who is told
   * @return the running watcher
   * @throws IOException if the directory cannot be created or watched
   */
  static RegistryWatcher start(Path root, Listener listener) throws IOException {
    Files.createDirectories(root);
    RegistryWatcher watcher = new RegistryWatcher(root, listener,
        root.getFileSystem().newWatchService());
    try {
      watcher.watchTree(root);
    } catch (IOException | RuntimeException e) {
      watcher.service.close();
      throw e;
    }
    watcher.thread.start();
    return watcher;
  }

  private void run() {
    try {
      while (true) {
        WatchKey key = service.take();
        Path directory = directories.get(key);
        for (WatchEvent<?> event : key.pollEvents()) {
          if (event.kind() == OVERFLOW) {
            rescan();
          } else if (directory != null && event.kind() == ENTRY_CREATE) {
            created(directory.resolve((Path) event.context()));
          } else if (directory != null && event.kind() == ENTRY_DELETE) {
            deleted(directory.resolve((Path) event.context()));
          }
        }
        if (!key.reset()) {
          // Its sockets went with the parent's delete event. The end of a watch can come late (a
          // bound socket keeps a deleted directory alive), after a new directory took the path.
          directories.remove(key);
        }
      }
    } catch (ClosedWatchServiceException | InterruptedException stopped) {
      LOG.debug("Stopped watching {}", root);
    } catch (RuntimeException e) {
      LOG.error("Watching the plugin registry {} failed; no more sockets are discovered", root, e);
    }
  }

  private void watchTree(Path directory) throws IOException {
    if (isIgnored(directory) && !directory.equals(root)) {
      return;
    }
    directories.put(
        directory.register(service, ENTRY_CREATE, ENTRY_DELETE), directory);
    List<Path> children;
    try (Stream<Path> list = Files.list(directory)) {
      children = list.sorted().toList();
    }
    for (Path child : children) {
      created(child);
    }
  }

  /** A path appeared: a new directory is watched, a socket is (re-)registered. */
  private void created(Path path) {
    if (isIgnored(path)) {
      return;
    }
    if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
      if (!isWatched(path)) {
        try {
          watchTree(path);
        } catch (IOException e) {
          LOG.warn("Cannot watch plugin registry subdirectory {}: {}", path, e.toString());
        }
      }
      return;
    }
    SocketIdentity now = identity(path);
    if (now == null) {
      return;
    }
    if (sockets.remove(path) != null) {
      listener.socketRemoved(path);
    }
    sockets.put(path, now);
    listener.socketAdded(path);
  }

  /** A path disappeared: a known socket is deregistered, a directory's sockets too. */
  private void deleted(Path path) {
    if (sockets.remove(path) != null) {
      listener.socketRemoved(path);
    }
    forgetUnder(path);
  }

  /** Brings the known state of one path in line with the file system (after an overflow). */
  private void reconcile(Path path) {
    if (isIgnored(path)) {
      return;
    }
    if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
      created(path);
      return;
    }
    SocketIdentity now = identity(path);
    SocketIdentity known = sockets.get(path);
    if (Objects.equals(now, known)) {
      return;
    }
    if (known != null) {
      sockets.remove(path);
      listener.socketRemoved(path);
    }
    if (now != null) {
      sockets.put(path, now);
      listener.socketAdded(path);
    }
  }

  private void rescan() {
    for (Path known : new ArrayList<>(sockets.keySet())) {
      reconcile(known);
    }
    for (Path directory : new ArrayList<>(directories.values())) {
      if (!directory.equals(root) && !Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
        forgetUnder(directory);
      }
    }
    for (Path directory : new ArrayList<>(directories.values())) {
      try (Stream<Path> list = Files.list(directory)) {
        list.sorted().forEach(this::reconcile);
      } catch (IOException e) {
        LOG.debug("Cannot rescan {}: {}", directory, e.toString());
      }
    }
  }

  /** Deregisters the sockets below a removed directory and stops watching it and its subtree. */
  private void forgetUnder(Path directory) {
    for (Path known : new ArrayList<>(sockets.keySet())) {
      if (known.startsWith(directory) && !known.equals(directory)) {
        sockets.remove(known);
        listener.socketRemoved(known);
      }
    }
    directories.entrySet().removeIf(watched -> {
      boolean gone = watched.getValue().startsWith(directory) && !watched.getValue().equals(root);
      if (gone) {
        watched.getKey().cancel();
      }
      return gone;
    });
  }

  private boolean isWatched(Path directory) {
    return directories.containsValue(directory);
  }

  /**
   * Whether the kubelet would try to register a plugin at this path: a socket file whose name
   * does not start with a dot.
   *
   * @param path a file in the registry directory
   * @return true for a candidate registration socket
   */
  static boolean isRegistrationSocket(Path path) {
    return !isIgnored(path) && identity(path) != null;
  }

  private static boolean isIgnored(Path path) {
    Path name = path.getFileName();
    return name != null && name.toString().startsWith(".");
  }

  /** The identity of a socket file, or null if the path is missing or not a socket. */
  private static SocketIdentity identity(Path path) {
    try {
      Map<String, Object> attributes = Files.readAttributes(path, "unix:mode,dev,ino",
          LinkOption.NOFOLLOW_LINKS);
      Object mode = attributes.get("mode");
      if (!(mode instanceof Integer m) || (m & 0170000) != 0140000) {
        return null;
      }
      return new SocketIdentity(attributes.get("dev"), attributes.get("ino"));
    } catch (IOException | UnsupportedOperationException e) {
      return null;
    }
  }

  @Override
  public void close() {
    try {
      service.close();
    } catch (IOException e) {
      LOG.debug("Closing the watch service of {}: {}", root, e.toString());
    }
    try {
      thread.join(5000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
