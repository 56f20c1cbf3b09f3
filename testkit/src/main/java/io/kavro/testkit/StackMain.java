package io.kavro.testkit;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * {@code kavro stack}: the local stack for manual use, until Ctrl-C. The registry defaults to {@code BACKWARD}, as
 * Confluent's does (Apicurio's own default is {@code NONE}, which would call any change compatible), and keeps data
 * contracts (rule sets and metadata) and a DEK registry, as Confluent's does: {@link LocalStack}'s {@link
 * DataContractLayer} in front of Apicurio, which alone would drop them. It prints the
 * {@code export} lines that the console tool reads ({@code KAVRO_BOOTSTRAP_SERVERS},
 * {@code KAVRO_SCHEMA_REGISTRY_URL}).
 * Options: {@code --kafka-port N} ({@value #KAFKA_PORT} by default), {@code --registry-port N}
 * ({@value #REGISTRY_PORT} by default), 0 for any free port; {@code --help}. The defaults are the ports a Confluent
 * user expects, the same on every run; one that is taken is an error that names it and its option, never a
 * silent move to another port.
 */
public final class StackMain {
  /** The broker's port unless {@code --kafka-port} says otherwise: Kafka's usual one. */
  public static final int KAFKA_PORT = 9092;

  /** The registry's port unless {@code --registry-port} says otherwise: Confluent Schema Registry's usual one. */
  public static final int REGISTRY_PORT = 8081;

  static final String USAGE = """
      Usage: kavro stack [--kafka-port N] [--registry-port N] [-h]
      Start a Kafka broker and a schema registry (compatibility BACKWARD, as Confluent's; it keeps data contracts and
      DEKs) on 127.0.0.1 for manual use, print the export lines for them, and stop on Ctrl-C.
            --kafka-port N      Broker port (default: %d; 0 for any free port).
            --registry-port N   Registry port (default: %d; 0 for any free port).
        -h, --help              Show this help message and exit.
      A port that is taken is an error naming it: stop what holds it, or choose another with its option.
      """.formatted(KAFKA_PORT, REGISTRY_PORT);

  private StackMain() {}

  /** Starts the stack and waits; Ctrl-C (or a kill) stops it. */
  public static void main(String[] args) throws InterruptedException {
    int status = run(args, System.out, System.err, new CountDownLatch(1));
    if (status != 0) {
      System.exit(status); // after a clean stop the JVM is already shutting down: exit must not be called then
    }
  }

  /**
   * Parses {@code args}, then runs the stack until {@code stop} opens or the JVM shuts down; the exit status: 0
   * (also for {@code --help}), 1 when the stack could not start (a port taken), 2 for a usage error.
   */
  static int run(String[] args, PrintStream out, PrintStream err, CountDownLatch stop) throws InterruptedException {
    int kafkaPort = KAFKA_PORT;
    int registryPort = REGISTRY_PORT;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (arg.equals("-h") || arg.equals("--help")) {
        out.print(USAGE);
        out.flush();
        return 0;
      }
      if (!arg.equals("--kafka-port") && !arg.equals("--registry-port")) {
        err.println("kavro stack: unknown option '" + arg + "'; options: --kafka-port N, --registry-port N, --help");
        return 2;
      }
      if (i + 1 == args.length) {
        err.println("kavro stack: " + arg + " needs a port (from 0 to 65535)");
        return 2;
      }
      String value = args[++i];
      Integer port = port(value);
      if (port == null) {
        err.println("kavro stack: " + arg + " must be a port from 0 to 65535, was '" + value + "'");
        return 2;
      }
      if (arg.equals("--kafka-port")) {
        kafkaPort = port;
      } else {
        registryPort = port;
      }
    }
    if (kafkaPort != 0 && kafkaPort == registryPort) {
      err.println("kavro stack: --kafka-port and --registry-port are both " + kafkaPort + ": give them two ports");
      return 2;
    }
    String taken = taken(kafkaPort, "the Kafka broker", "--kafka-port");
    if (taken == null) {
      taken = taken(registryPort, "the schema registry", "--registry-port");
    }
    if (taken != null) {
      err.println("kavro stack: " + taken);
      return 1;
    }
    return run(kafkaPort, registryPort, out, err, stop);
  }

  /** Why {@code port} cannot be had, naming the option that changes it; {@code null} if it is free (or 0). */
  private static String taken(int port, String what, String option) {
    if (port == 0) {
      return null;
    }
    try {
      Ports.requireFree(port, what);
      return null;
    } catch (IllegalStateException e) {
      return "port " + port + " on 127.0.0.1 is already in use, so " + what + " cannot have it: stop what holds "
          + "it, or choose another port with " + option + " N (0 for any free port)";
    }
  }

  /** Runs until {@code stop} opens or the JVM shuts down; the exit status. */
  private static int run(int kafkaPort, int registryPort, PrintStream out, PrintStream err, CountDownLatch stop)
      throws InterruptedException {
    LocalStack stack;
    try {
      stack = LocalStack.start(kafkaPort, registryPort);
    } catch (RuntimeException e) {
      err.println("kavro stack: " + e.getMessage());
      return 1;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Thread hook = new Thread(() -> {
      stop.countDown();
      try {
        stopped.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "kavro-stack-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    try (stack) {
      backward(stack.registryUrl());
      out.println("# Kafka and a schema registry (compatibility BACKWARD, as Confluent's; it keeps data contracts and "
          + "DEKs) are up; Ctrl-C stops them.");
      out.println("export KAVRO_BOOTSTRAP_SERVERS=" + stack.bootstrapServers());
      out.println("export KAVRO_SCHEMA_REGISTRY_URL=" + stack.registryUrl());
      out.flush();
      stop.await();
    } finally {
      out.println("# stopped");
      out.flush();
      stopped.countDown();
    }
    return 0;
  }

  /** Sets the registry's global compatibility level to BACKWARD, through Confluent's REST API. */
  static void backward(String registryUrl) throws InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(URI.create(registryUrl + "/config"))
        .timeout(Duration.ofSeconds(30))
        .header("Content-Type", "application/vnd.schemaregistry.v1+json")
        .PUT(HttpRequest.BodyPublishers.ofString("{\"compatibility\":\"BACKWARD\"}")).build();
    try {
      HttpResponse<String> answer = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
      if (answer.statusCode() / 100 != 2) {
        throw new IllegalStateException("the registry refused compatibility BACKWARD: HTTP " + answer.statusCode()
            + " " + answer.body());
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot set the registry's compatibility: " + e, e);
    }
  }

  /** The port {@code value} names, from 0 to 65535; {@code null} if it names none. */
  private static Integer port(String value) {
    try {
      int port = Integer.parseInt(value);
      return port >= 0 && port <= 65535 ? port : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
