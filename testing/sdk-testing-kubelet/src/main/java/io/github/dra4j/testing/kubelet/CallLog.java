package io.github.dra4j.testing.kubelet;

import com.google.protobuf.Message;
import io.github.dra4j.core.option.OptionChecks;
import io.grpc.Status;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.Predicate;

/**
 * Every call the fake kubelet made on plugins, oldest first, for tests to assert on.
 *
 * <p>Thread-safe: the kubelet appends from its own threads while a test reads; readers get
 * immutable snapshots. The log keeps the newest {@code capacity} records and drops older ones. It
 * belongs to one {@link FakeKubelet} and survives {@link FakeKubelet#restart()}.
 */
public final class CallLog {

  private final int capacity;
  private final Clock clock;
  private final Deque<CallRecord> records = new ArrayDeque<>();
  private long sequence;

  CallLog(int capacity, Clock clock) {
    this.capacity = OptionChecks.atLeast(capacity, 1, "callLogCapacity");
    this.clock = clock;
  }

  /**
   * All kept records, oldest first.
   *
   * @return an immutable snapshot
   */
  public synchronized List<CallRecord> entries() {
    return List.copyOf(records);
  }

  /**
   * The kept records of one method, oldest first.
   *
   * @param method the method
   * @return an immutable snapshot
   */
  public List<CallRecord> entries(KubeletMethod method) {
    return matching(r -> r.method() == method);
  }

  /**
   * The kept records that match a condition, oldest first.
   *
   * @param condition which records to return
   * @return an immutable snapshot
   */
  public synchronized List<CallRecord> matching(Predicate<CallRecord> condition) {
    return records.stream().filter(condition).toList();
  }

  /**
   * How many records were ever appended, including dropped ones.
   *
   * @return the sequence number of the newest record, 0 if none
   */
  public synchronized long total() {
    return sequence;
  }

  /** Forgets all records; sequence numbers keep counting. */
  public synchronized void clear() {
    records.clear();
  }

  /** The current time, from the clock the records are stamped with. */
  Instant now() {
    return clock.instant();
  }

  synchronized CallRecord append(
      Instant startedAt,
      KubeletMethod method,
      String driver,
      String target,
      String service,
      Message request,
      Message response,
      Status status) {
    Duration duration = Duration.between(startedAt, clock.instant());
    CallRecord record = new CallRecord(
        ++sequence, startedAt, duration.isNegative() ? Duration.ZERO : duration, method, driver,
        target, service, request, response, status);
    records.addLast(record);
    while (records.size() > capacity) {
      records.removeFirst();
    }
    return record;
  }
}
