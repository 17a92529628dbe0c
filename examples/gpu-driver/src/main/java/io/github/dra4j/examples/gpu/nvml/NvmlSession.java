package io.github.dra4j.examples.gpu.nvml;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import io.github.dra4j.examples.gpu.discovery.DiscoveryException;
import io.github.dra4j.examples.gpu.nvml.internal.NvmlLibrary;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * NVML loaded from one file and initialized: from {@link #open} ({@code nvmlInitWithFlags}) to
 * {@link #close} ({@code nvmlShutdown}). Every call goes through {@link #status} or {@link
 * #check}, which turn a missing symbol into {@code NVML_ERROR_FUNCTION_NOT_FOUND} and a failure
 * into an {@link NvmlException} naming the call and {@code nvmlErrorString}.
 *
 * <p>Thread-safe: NVML itself is, and the only state here is the open flag. The {@link
 * NvmlBackend} owns the session; discovery and the health source borrow it and must stop using
 * it before the backend closes it (calls after that fail with {@code Uninitialized}). The library
 * stays loaded after close (JNA keeps it; unloading under a running thread would crash).
 */
final class NvmlSession implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(NvmlSession.class);

  private final NvmlLibrary library;
  private final Path path;
  private final AtomicBoolean open = new AtomicBoolean(true);

  private NvmlSession(NvmlLibrary library, Path path) {
    this.library = library;
    this.path = path;
  }

  /**
   * Loads the library from {@code path} and initializes it with {@code nvmlInitWithFlags(
   * NVML_INIT_FLAG_NO_GPUS)} (a node without GPUs is not an error, it has none), or {@code
   * nvmlInit_v2} where the library lacks that.
   *
   * @throws DiscoveryException if the file cannot be loaded or initialization fails
   */
  static NvmlSession open(Path path) throws DiscoveryException {
    NvmlLibrary library;
    try {
      library = Native.load(path.toString(), NvmlLibrary.class);
    } catch (UnsatisfiedLinkError e) {
      throw new DiscoveryException("cannot load NVML from " + path + ": " + e.getMessage(), e);
    }
    NvmlSession session = new NvmlSession(library, path);
    String call = "nvmlInitWithFlags";
    int result = session.status(call,
        () -> library.nvmlInitWithFlags(NvmlLibrary.INIT_FLAG_NO_GPUS));
    if (result == NvmlLibrary.ERROR_FUNCTION_NOT_FOUND) {
      call = "nvmlInit_v2";
      result = session.status(call, library::nvmlInit_v2);
    }
    if (result != NvmlLibrary.SUCCESS) {
      session.open.set(false);
      throw new DiscoveryException(call + " of " + path + " failed: "
          + session.describe(result) + " (is the NVIDIA kernel driver loaded, and does it match"
          + " the library's version?)");
    }
    LOG.debug("NVML initialized from {}", path);
    return session;
  }

  /** The loaded library; call it only through {@link #status} or {@link #check}. */
  NvmlLibrary library() {
    return library;
  }

  /** The file the library was loaded from. */
  Path path() {
    return path;
  }

  /**
   * Makes a call and returns its code: {@code NVML_ERROR_UNINITIALIZED} without calling once
   * closed, {@code NVML_ERROR_FUNCTION_NOT_FOUND} if the library lacks the function.
   */
  int status(String call, IntSupplier function) {
    if (!open.get()) {
      return NvmlLibrary.ERROR_UNINITIALIZED;
    }
    try {
      return function.getAsInt();
    } catch (UnsatisfiedLinkError e) {
      LOG.debug("{} is not in {}: {}", call, path, e.getMessage());
      return NvmlLibrary.ERROR_FUNCTION_NOT_FOUND;
    }
  }

  /**
   * Makes a call that must succeed.
   *
   * @param call the NVML function's name
   * @param subject what it was about, for the message (for example {@code GPU 3}); may be empty
   * @throws NvmlException if it returned something other than success
   */
  void check(String call, String subject, IntSupplier function) throws NvmlException {
    int result = status(call, function);
    if (result != NvmlLibrary.SUCCESS) {
      throw failure(call, subject, result);
    }
  }

  /**
   * Makes a call that fills a text buffer.
   *
   * @param size the buffer's size ({@code NVML_*_BUFFER_SIZE})
   * @throws NvmlException if it failed
   */
  String text(String call, String subject, int size, TextCall function) throws NvmlException {
    byte[] buffer = new byte[size];
    check(call, subject, () -> function.call(buffer, size));
    return Native.toString(buffer, "UTF-8");
  }

  /**
   * Makes a call that fills one {@code unsigned int} (or {@code int}).
   *
   * @throws NvmlException if it failed
   */
  int number(String call, String subject, NumberCall function) throws NvmlException {
    IntByReference value = new IntByReference();
    check(call, subject, () -> function.call(value));
    return value.getValue();
  }

  /**
   * Makes a call that fills one handle.
   *
   * @throws NvmlException if it failed
   */
  Pointer handle(String call, String subject, HandleCall function) throws NvmlException {
    PointerByReference value = new PointerByReference();
    check(call, subject, () -> function.call(value));
    return value.getValue();
  }

  /** An NVML call that fills a text buffer. */
  @FunctionalInterface
  interface TextCall {
    int call(byte[] buffer, int length);
  }

  /** An NVML call that fills a number. */
  @FunctionalInterface
  interface NumberCall {
    int call(IntByReference value);
  }

  /** An NVML call that fills a handle. */
  @FunctionalInterface
  interface HandleCall {
    int call(PointerByReference value);
  }

  /** The exception for a failed call. */
  NvmlException failure(String call, String subject, int result) {
    String about = subject.isEmpty() ? "" : " for " + subject;
    String why = result == NvmlLibrary.ERROR_UNINITIALIZED && !open.get()
        ? "NVML is shut down (the backend was closed)" : describe(result);
    return new NvmlException(call + about + " failed: " + why, result);
  }

  /** A result code as {@code nvmlErrorString} describes it, with the number. */
  String describe(int result) {
    String text;
    try {
      text = library.nvmlErrorString(result);
    } catch (UnsatisfiedLinkError e) {
      text = null;
    }
    return (text == null || text.isBlank() ? "error" : text) + " (" + result + ")";
  }

  /** Whether {@link #close} has not been called yet. */
  boolean isOpen() {
    return open.get();
  }

  /** Calls {@code nvmlShutdown} once; logs a failure instead of throwing. */
  @Override
  public void close() {
    if (!open.compareAndSet(true, false)) {
      return;
    }
    int result;
    try {
      result = library.nvmlShutdown();
    } catch (UnsatisfiedLinkError e) {
      result = NvmlLibrary.ERROR_FUNCTION_NOT_FOUND;
    }
    if (result != NvmlLibrary.SUCCESS) {
      LOG.warn("nvmlShutdown of {} failed: {}", path, describe(result));
    } else {
      LOG.debug("NVML shut down ({})", path);
    }
  }
}
