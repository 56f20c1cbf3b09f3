package io.kavro.testkit;

import java.lang.reflect.Method;

/**
 * The entry point of the registry's child JVM: starts a thread that halts this JVM as soon as the parent
 * process is gone (even if the parent was killed and ran no shutdown hook), then runs the real main class.
 *
 * <p>Uses the JDK only: it runs on the registry's class path, not ours.
 */
public final class ParentWatchdog {
  private ParentWatchdog() {}

  /** {@code <parent pid> <main class> [args...]}. */
  public static void main(String[] args) throws Exception {
    long parent = Long.parseLong(args[0]);
    ProcessHandle.of(parent).ifPresentOrElse(
        handle -> handle.onExit().thenRun(() -> Runtime.getRuntime().halt(0)),
        () -> Runtime.getRuntime().halt(0));
    String[] rest = new String[args.length - 2];
    System.arraycopy(args, 2, rest, 0, rest.length);
    Method main = Class.forName(args[1]).getMethod("main", String[].class);
    main.invoke(null, (Object) rest);
  }
}
