package io.kavro.examples;

import io.kavro.testkit.LocalStack;
import java.io.PrintStream;

/**
 * The demo: runs every example against an embedded Kafka broker and Apicurio Registry on 127.0.0.1 (the
 * default), or against an existing Kafka and registry, printing what happens, then a summary.
 *
 * <p>Exit status: 0 on success, 1 when something failed (with a one-line reason), 2 for bad arguments.
 */
public final class Demo {
  private Demo() {}

  /**
   * Runs the demo and exits with its status, always: under {@code mvn -Pdemo} (exec:java) this exit ends Maven
   * too, so a failure ends with the demo's one line, not Maven's error report.
   */
  public static void main(String[] args) {
    int status = run(args, System.out, System.err);
    System.out.flush();
    System.err.flush();
    System.exit(status);
  }

  /** Runs the demo; returns the exit status. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    DemoOptions options;
    try {
      options = DemoOptions.parse(args);
    } catch (IllegalArgumentException e) {
      err.println("Demo: " + e.getMessage());
      err.println(DemoOptions.USAGE);
      return 2;
    }
    if (options.help()) {
      out.println(DemoOptions.USAGE);
      return 0;
    }
    long start = System.nanoTime();
    LocalStack stack = null;
    DemoScenarios scenarios = null;
    try {
      Endpoints endpoints;
      if (options.external()) {
        endpoints = new Endpoints(options.bootstrapServers(), options.registryUrl());
        out.println("Using Kafka at " + endpoints.bootstrapServers() + " and the schema registry at "
            + endpoints.registryUrl());
      } else {
        out.println("Starting an embedded Kafka broker and Apicurio Registry on 127.0.0.1 ...");
        stack = LocalStack.start(options.kafkaPort(), options.registryPort());
        endpoints = new Endpoints(stack.bootstrapServers(), stack.registryUrl());
        out.println("Kafka at " + endpoints.bootstrapServers() + ", schema registry at " + endpoints.registryUrl());
      }
      Preflight.check(endpoints);
      scenarios = new DemoScenarios(endpoints, out);
      scenarios.genericRecords();
      scenarios.specificRecords();
      scenarios.reflection();
      scenarios.evolution();
      scenarios.streams();
      scenarios.batch(options.records());
      scenarios.summary(start);
      return 0;
    } catch (Exception e) {
      err.println();
      err.println("Demo failed: " + e.getMessage());
      return 1;
    } finally {
      if (scenarios != null) {
        scenarios.close();
      }
      if (stack != null) {
        out.println("Stopping the embedded Kafka broker and schema registry.");
        stack.close();
      }
    }
  }
}
