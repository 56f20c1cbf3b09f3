package io.kavro.serde;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The one thread per JVM (per class loader of Kavro) on which every deserializer's {@link TopicIds} asks kept
 * topic contexts again, and every serializer's subject name strategy asks its kept subjects again
 * ({@link io.kavro.serde.subject.RegistryAwareStrategy#refreshInBackground}, given by {@link WriteRouter}): started on
 * the first such refresh, and gone after {@link #KEEP_ALIVE_SECONDS} idle. No serde
 * owns a thread, so a serde never closed (a Connect task restarted, a converter configured again) leaks none; the
 * thread's factory captures nothing, but a refresh queued holds what it asks for (a deserializer's topic contexts, a
 * serializer's strategy and its registry client) until it has run: a serializer closed meanwhile has its refreshes
 * return without asking the registry. A daemon thread. Thread-safe.
 */
final class RegistryRefresher {
  /** How long the thread waits idle for another refresh before it ends. */
  static final long KEEP_ALIVE_SECONDS = 60;
  /** The thread's name. */
  static final String THREAD_NAME = "kavro-serde-refresh";

  private RegistryRefresher() {}

  /** The shared executor; its thread is started on the first task. */
  static Executor executor() {
    return Holder.EXECUTOR;
  }

  /** Made when first asked for (the holder idiom): a JVM whose serdes never ask again makes none. */
  private static final class Holder {
    static final ThreadPoolExecutor EXECUTOR = create();
  }

  private static ThreadPoolExecutor create() {
    ThreadPoolExecutor executor = new ThreadPoolExecutor(1, 1, KEEP_ALIVE_SECONDS, TimeUnit.SECONDS,
        new LinkedBlockingQueue<>(), RegistryRefresher::thread);
    executor.allowCoreThreadTimeOut(true);
    return executor;
  }

  private static Thread thread(Runnable task) {
    Thread thread = new Thread(task, THREAD_NAME);
    thread.setDaemon(true);
    // not the context class loader of whichever caller happened to start it (a Connect plugin's, say)
    thread.setContextClassLoader(RegistryRefresher.class.getClassLoader());
    return thread;
  }
}
