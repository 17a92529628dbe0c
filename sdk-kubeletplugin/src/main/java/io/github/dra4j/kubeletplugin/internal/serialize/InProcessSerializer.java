package io.github.dra4j.kubeletplugin.internal.serialize;

import java.util.concurrent.locks.ReentrantLock;

/** Serializes calls of one plugin with a fair in-process lock. Owned by that plugin. */
final class InProcessSerializer implements CallSerializer {

  private final ReentrantLock lock = new ReentrantLock(true);

  @Override
  public Permit acquire() throws InterruptedException {
    lock.lockInterruptibly();
    return lock::unlock;
  }
}
