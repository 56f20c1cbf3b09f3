package io.kavro.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code kavro stack}, as the help lists it. {@code cli/bin/kavro stack} runs the testkit's stack itself
 * ({@code io.kavro.testkit.StackMain}, whose options and defaults these are: a broker and a registry need Kafka's
 * server artifacts, which the console jar does not carry); run through the jar alone, this says so.
 */
@Command(name = "stack",
    description = {"Start a Kafka broker and a schema registry (compatibility BACKWARD, as Confluent's; it keeps "
        + "data contracts and DEKs) on 127.0.0.1 for manual use, print the export lines for them, and stop on "
        + "Ctrl-C. Runs through cli/bin/kavro, from a build of the project.",
        "A port that is taken is an error naming it: stop what holds it, or choose another with its option."})
final class StackCommand implements Callable<Integer> {
  @Mixin
  HelpOption help;

  @Option(names = "--kafka-port", paramLabel = "N", defaultValue = "9092",
      description = "Broker port (default: ${DEFAULT-VALUE}; 0 for any free port).")
  int kafkaPort;

  @Option(names = "--registry-port", paramLabel = "N", defaultValue = "8081",
      description = "Registry port (default: ${DEFAULT-VALUE}; 0 for any free port).")
  int registryPort;

  @Override
  public Integer call() {
    throw new CliException("kavro stack runs through cli/bin/kavro (mvn -B package -DskipTests -pl testkit,cli "
        + "-am first): the console jar carries no broker", 2);
  }
}
