package io.kavro.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.SchemaRegistryException;
import io.kavro.schematools.Causes;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** What {@code produce} says of a failure at the registry, whatever shape the failure's cause chain has. */
class RegistryRefusalsTest {
  /** Two exceptions whose causes point at each other: initCause allows the cycle that the constructors do not. */
  private static RuntimeException cycle() {
    RuntimeException outer = new RuntimeException("write failed");
    IllegalStateException inner = new IllegalStateException("inner", outer);
    outer.initCause(inner);
    return outer;
  }

  /**
   * {@code work}'s answer within five seconds, else a failure. On a daemon thread: a walk that never ends fails the
   * test and leaves the test JVM free to exit (JUnit's own {@code @Timeout} cannot stop a loop).
   */
  private static <T> T withinFiveSeconds(Callable<T> work) throws Exception {
    FutureTask<T> task = new FutureTask<>(work);
    Thread thread = new Thread(task, "cause-chain-walk");
    thread.setDaemon(true);
    thread.start();
    try {
      return task.get(5, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError("the walk of a cyclic cause chain did not end", e);
    }
  }

  @Test
  void describe_cyclicCauseChain_endsAndIsNotTheRegistrys() throws Exception {
    RuntimeException failure = cycle();
    assertThat(failure.getCause().getCause()).as("the chain is a cycle").isSameAs(failure);
    assertThat(withinFiveSeconds(() -> Optional.ofNullable(RegistryRefusals.describe(failure)))).isEmpty();
  }

  @Test
  void message_cyclicCauseChain_endsWithTheFailuresOwnMessage() throws Exception {
    assertThat(withinFiveSeconds(() -> Kavro.message(cycle()))).isEqualTo("write failed");
  }

  @Test
  void describe_registryFailureWithinTheBound_isTheRegistrys() {
    Throwable failure = new SchemaRegistryException("the registry said no");
    for (int depth = 1; depth < Causes.MAX_CAUSES; depth++) {
      failure = new RuntimeException("wrapper " + depth, failure);
    }
    assertThat(RegistryRefusals.describe(failure)).isNotNull();
    assertThat(RegistryRefusals.describe(new RuntimeException("one too deep", failure))).isNull();
  }

  @Test
  void causes_findsTheFirstOfAType_withinSixteen() throws Exception {
    assertThat(Causes.find(cycle(), IllegalStateException.class)).get().extracting(Throwable::getMessage)
        .isEqualTo("inner");
    assertThat(withinFiveSeconds(() -> Causes.find(cycle(), java.io.UncheckedIOException.class))).isEmpty();
  }
}
