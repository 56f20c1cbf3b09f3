package io.kavro.bench;

import java.util.ArrayList;
import java.util.List;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The state of a benchmark that measures warm {@link KavroSerdes}, each on a {@code mock://} registry of its own:
 * around every measured iteration it proves that none of them made a registry request, and after the trial it
 * closes them and whatever else it was handed, in the order handed. A subclass declares its own {@code @State}
 * scope, makes its serdes in its trial setup and hands them over with {@link #checked}; it has no iteration helper
 * and no trial teardown of its own (JMH would not order them against these).
 */
public abstract class WarmSerdesState {
  private final List<KavroSerdes> checked = new ArrayList<>();
  private final List<AutoCloseable> closed = new ArrayList<>();

  /** Serdes whose registry is checked around every measured iteration, and that close after the trial. */
  protected final KavroSerdes checked(KavroSerdes serdes) {
    checked.add(serdes);
    closed.add(serdes);
    return serdes;
  }

  /** Something else that closes after the trial, in its turn among the serdes. */
  protected final <T extends AutoCloseable> T closedAtEnd(T resource) {
    closed.add(resource);
    return resource;
  }

  @Setup(Level.Iteration)
  public void mark() {
    for (KavroSerdes serdes : checked) {
      serdes.mark();
    }
  }

  @TearDown(Level.Iteration)
  public void check() {
    for (KavroSerdes serdes : checked) {
      serdes.assertNoRequestsSinceMark();
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    for (AutoCloseable resource : closed) {
      resource.close();
    }
  }
}
