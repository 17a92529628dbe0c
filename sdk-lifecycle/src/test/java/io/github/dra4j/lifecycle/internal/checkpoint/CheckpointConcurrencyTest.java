package io.github.dra4j.lifecycle.internal.checkpoint;

import static io.github.dra4j.lifecycle.internal.checkpoint.CheckpointSamples.started;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Threads and stores of one JVM on one checkpoint, and readers racing a writer. */
class CheckpointConcurrencyTest {

  @TempDir
  Path dir;
  private Path file;
  private CheckpointFile first;
  private CheckpointFile second;
  private final ExecutorService threads = Executors.newCachedThreadPool();

  @BeforeEach
  void open() throws Exception {
    file = dir.resolve("checkpoint.json");
    first = CheckpointFile.open(file);
    second = CheckpointFile.open(file);
  }

  @AfterEach
  void close() throws Exception {
    threads.shutdownNow();
    assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    first.close();
    second.close();
  }

  /** Takes a session of the store on another thread, then reads; signals when it has it. */
  private Future<CheckpointData> readInTurn(CheckpointFile store, CountDownLatch locked) {
    return threads.submit(() -> {
      try (CheckpointFile.Session session = store.lock()) {
        locked.countDown();
        return session.read().data();
      }
    });
  }

  @Test
  void twoStoresOnOneFileInOneJvmTakeTurns() throws Exception {
    CountDownLatch locked = new CountDownLatch(1);
    Future<CheckpointData> waiting;
    try (CheckpointFile.Session session = first.lock()) {
      waiting = readInTurn(second, locked);
      assertThat(locked.await(300, TimeUnit.MILLISECONDS)).as("second store got in").isFalse();
      session.write(CheckpointData.empty().with("by-first", started("by-first")));
    }

    assertThat(waiting.get(10, TimeUnit.SECONDS).entry("by-first")).isPresent();
  }

  @Test
  void threadsOfOneStoreTakeTurns() throws Exception {
    CountDownLatch locked = new CountDownLatch(1);
    Future<CheckpointData> waiting;
    try (CheckpointFile.Session session = first.lock()) {
      waiting = readInTurn(first, locked);
      assertThat(locked.await(300, TimeUnit.MILLISECONDS)).as("second thread got in").isFalse();
      session.write(CheckpointData.empty().with("by-main", started("by-main")));
    }

    assertThat(waiting.get(10, TimeUnit.SECONDS).entry("by-main")).isPresent();
  }

  @Test
  void aThreadWaitingForTheFileLockCanBeInterruptedAndTheStoreStaysUsable() throws Exception {
    CompletableFuture<String> outcome = new CompletableFuture<>();
    Thread waiter = new Thread(() -> {
      try (CheckpointFile.Session session = second.lock()) {
        outcome.complete("locked");
      } catch (InterruptedException e) {
        outcome.complete("interrupted");
      } catch (Exception e) {
        outcome.completeExceptionally(e);
      }
    });
    try (CheckpointFile.Session session = first.lock()) {
      waiter.start();
      assertThatThrownBy(() -> outcome.get(300, TimeUnit.MILLISECONDS))
          .isInstanceOf(TimeoutException.class);
      waiter.interrupt();
      assertThat(outcome.get(10, TimeUnit.SECONDS)).isEqualTo("interrupted");
    }
    waiter.join(10_000);

    assertThat(readInTurn(second, new CountDownLatch(1)).get(10, TimeUnit.SECONDS))
        .isEqualTo(CheckpointData.empty());
  }

  @Test
  void readersNeverSeeAPartialFileWhileAWriterRewritesIt() throws Exception {
    CheckpointData bulky = CheckpointChild.bulky(100);
    AtomicBoolean writing = new AtomicBoolean(true);
    AtomicBoolean firstWriteDone = new AtomicBoolean();
    AtomicInteger decoded = new AtomicInteger();
    List<String> failures = new CopyOnWriteArrayList<>();
    Future<?> reader = threads.submit(() -> {
      while (writing.get()) {
        boolean written = firstWriteDone.get();
        try {
          CheckpointCodec.decode(Files.readAllBytes(file));
          decoded.incrementAndGet();
        } catch (NoSuchFileException e) {
          if (written) {
            failures.add("file missing after the first write");
          }
        } catch (Exception e) {
          failures.add(e.toString());
        }
      }
      return null;
    });

    try (CheckpointFile.Session session = first.lock()) {
      for (int i = 0; i < 200; i++) {
        String uid = String.format("claim-%05d", i % 100);
        session.write(bulky.with(uid, started("round-" + i)));
        firstWriteDone.set(true);
      }
    } finally {
      writing.set(false);
    }
    reader.get(30, TimeUnit.SECONDS);

    assertThat(failures).isEmpty();
    assertThat(decoded.get()).as("reads that overlapped the writes").isGreaterThan(20);
    assertThat(first.writes()).isEqualTo(200);
    try (Stream<Path> entries = Files.list(dir)) {
      assertThat(entries.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder("checkpoint.json", "checkpoint.json.lock");
    }
  }
}
