package io.kavro.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * {@code kavro stack}, as the help lists it. {@code cli/bin/kavro stack} runs the testkit's stack itself (a broker
 * and a registry need Kafka's server artifacts, which the console jar does not carry); run through the jar alone,
 * this says so.
 */
@Command(name = "stack", mixinStandardHelpOptions = true,
    description = "Start a Kafka broker and a schema registry (compatibility BACKWARD) on 127.0.0.1 for manual use, "
        + "print the export lines for them, and stop on Ctrl-C. Runs through cli/bin/kavro, from a build of the "
        + "project. Options: --kafka-port N, --registry-port N.")
final class StackCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    throw new CliException("kavro stack runs through cli/bin/kavro (mvn -B package -DskipTests -pl testkit,cli "
        + "-am first): the console jar carries no broker", 2);
  }
}
