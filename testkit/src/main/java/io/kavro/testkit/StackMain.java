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
 * Confluent's does (Apicurio's own default is {@code NONE}, which would call any change compatible). It prints the
 * {@code export} lines that the console tool reads ({@code KAVRO_BOOTSTRAP_SERVERS},
 * {@code KAVRO_SCHEMA_REGISTRY_URL}).
 * Options: {@code --kafka-port N}, {@code --registry-port N} (free ports by default).
 */
public final class StackMain {
  private StackMain() {}

  /** Starts the stack and waits; Ctrl-C (or a kill) stops it. */
  public static void main(String[] args) throws InterruptedException {
    int kafkaPort = 0;
    int registryPort = 0;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if ((arg.equals("--kafka-port") || arg.equals("--registry-port")) && i + 1 < args.length) {
        int port = port(arg, args[++i]);
        if (arg.equals("--kafka-port")) {
          kafkaPort = port;
        } else {
          registryPort = port;
        }
      } else {
        System.err.println("kavro stack: unknown option '" + arg + "'; options: --kafka-port N, --registry-port N");
        System.exit(2);
      }
    }
    int status = run(kafkaPort, registryPort, System.out, new CountDownLatch(1));
    if (status != 0) {
      System.exit(status); // after a clean stop the JVM is already shutting down: exit must not be called then
    }
  }

  /** Runs until {@code stop} opens or the JVM shuts down; the exit status. */
  static int run(int kafkaPort, int registryPort, PrintStream out, CountDownLatch stop) throws InterruptedException {
    LocalStack stack;
    try {
      stack = LocalStack.start(kafkaPort, registryPort);
    } catch (RuntimeException e) {
      System.err.println("kavro stack: " + e.getMessage());
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
      out.println("# Kafka and a schema registry (compatibility BACKWARD, as Confluent's) are up; Ctrl-C stops them.");
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

  private static int port(String option, String value) {
    try {
      int port = Integer.parseInt(value);
      if (port >= 0 && port <= 65535) {
        return port;
      }
    } catch (NumberFormatException e) {
      // the message below
    }
    System.err.println("kavro stack: " + option + " must be a port from 0 to 65535, was '" + value + "'");
    System.exit(2);
    return -1;
  }
}
