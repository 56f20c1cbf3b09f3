package io.kavro.cli;

import io.kavro.registry.config.RegistryConfig;
import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.schematools.Causes;
import io.kavro.schematools.SchemaFileException;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/**
 * {@code kavro}: Kavro's console tool. Reads and writes Avro topics as JSON lines, and works the schema
 * registry through Kavro's own client. Exit status: 0 on success, 1 when something failed (one line on
 * standard error says what), 2 for a usage error. The yes-or-no commands ({@code schema check},
 * {@code schema compatibility --schema}) exit 0 for yes, 1 for no, and 3 when they could not answer.
 */
@Command(name = "kavro", mixinStandardHelpOptions = true, version = "kavro 0.1.0",
    description = "Avro on Kafka with a schema registry, from the console.",
    subcommands = {ConsumeCommand.class, ProduceCommand.class, SchemaCommand.class, DecodeCommand.class,
        StackCommand.class, DekCommand.class})
public final class Kavro implements Runnable {

  /** Runs the tool and exits with its status. */
  public static void main(String[] args) {
    System.exit(run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
  }

  /** Runs the tool with these streams; returns the exit status. */
  public static int run(PrintWriter out, PrintWriter err, String... args) {
    CommandLine line = new CommandLine(new Kavro());
    line.setOut(out);
    line.setErr(err);
    line.setCaseInsensitiveEnumValuesAllowed(true);
    line.setExecutionExceptionHandler((e, cmd, parsed) -> {
      cmd.getErr().println("kavro: " + message(e));
      // A schema file that cannot be used is a usage error, as every other wrong argument.
      return e instanceof CliException cli ? cli.exitCode() : e instanceof SchemaFileException ? 2 : 1;
    });
    return line.execute(args);
  }

  /** One line that says what failed, with no stack trace and no secret (URLs lose their user info). */
  static String message(Throwable e) {
    Throwable registry = Causes.find(e, SchemaRegistryException.class).orElse(null);
    if (registry instanceof RegistryUnavailableException unavailable) {
      return "cannot reach the schema registry" + (unavailable.url() == null ? "" : " at "
          + RegistryConfig.redact(unavailable.url())) + ": " + RegistryConfig.redact(unavailable.getMessage());
    }
    String text = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    return RegistryConfig.redact(text);
  }

  @Override
  public void run() {
    throw new CliException("a command is required: consume, produce, schema, decode, stack or dek (kavro --help)", 2);
  }
}
