package io.kavro.examples;

/**
 * The demo's command line.
 *
 * @param help {@code --help}
 * @param bootstrapServers {@code --bootstrap-servers}, or {@code null} for the embedded broker
 * @param registryUrl {@code --schema-registry-url}, or {@code null} for the embedded registry
 * @param kafkaPort {@code --kafka-port} of the embedded broker, 0 for any
 * @param registryPort {@code --registry-port} of the embedded registry, 0 for any
 * @param records {@code --records} in the larger batch
 */
public record DemoOptions(boolean help, String bootstrapServers, String registryUrl, int kafkaPort, int registryPort,
    int records) {

  static final String USAGE = """
      Usage: Demo [options]

      With no options, starts a Kafka broker and an Apicurio schema registry on 127.0.0.1, runs the examples
      against them, and stops them. With both --bootstrap-servers and --schema-registry-url, runs the same
      examples against an existing Kafka and registry instead (topics and subjects are named kavro-demo-*).

        --bootstrap-servers HOST:PORT   an existing Kafka cluster
        --schema-registry-url URL       an existing registry's Confluent-compatible API,
                                        e.g. http://host:8081 or http://host:8080/apis/ccompat/v7
        --kafka-port PORT               port of the embedded broker (default: any free port)
        --registry-port PORT            port of the embedded registry (default: any free port)
        --records N                     records in the larger batch (default: 50000)
        --help                          this text
      """;

  /**
   * Parses the arguments.
   *
   * @throws IllegalArgumentException naming the bad argument
   */
  public static DemoOptions parse(String... args) {
    boolean help = false;
    String bootstrap = null;
    String registry = null;
    int kafkaPort = 0;
    int registryPort = 0;
    int records = 50_000;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      switch (arg) {
        case "--help", "-h" -> help = true;
        case "--bootstrap-servers" -> bootstrap = value(args, ++i, arg);
        case "--schema-registry-url" -> registry = value(args, ++i, arg);
        case "--kafka-port" -> kafkaPort = number(value(args, ++i, arg), arg, 1, 65535);
        case "--registry-port" -> registryPort = number(value(args, ++i, arg), arg, 1, 65535);
        case "--records" -> records = number(value(args, ++i, arg), arg, 1, 10_000_000);
        default -> throw new IllegalArgumentException("unknown argument '" + arg + "'");
      }
    }
    if ((bootstrap == null) != (registry == null)) {
      throw new IllegalArgumentException("give both --bootstrap-servers and --schema-registry-url, or neither");
    }
    return new DemoOptions(help, bootstrap, registry, kafkaPort, registryPort, records);
  }

  /** Whether to use an existing Kafka and registry rather than the embedded ones. */
  public boolean external() {
    return bootstrapServers != null;
  }

  private static String value(String[] args, int index, String name) {
    if (index >= args.length || args[index].startsWith("--")) {
      throw new IllegalArgumentException(name + " needs a value");
    }
    return args[index];
  }

  private static int number(String value, String name, int min, int max) {
    try {
      int n = Integer.parseInt(value);
      if (n < min || n > max) {
        throw new IllegalArgumentException(name + " must be between " + min + " and " + max + ", was " + n);
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be a number, was '" + value + "'");
    }
  }
}
