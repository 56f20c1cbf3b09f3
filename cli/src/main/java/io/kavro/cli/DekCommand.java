package io.kavro.cli;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.rules.encryption.DekRewrap;
import java.io.PrintWriter;
import java.util.HashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kavro dek ...}: the DEK registry's keys. {@code kavro dek rewrap} re-wraps the DEKs of a KEK under its
 * current KMS key version ({@link DekRewrap}), as Confluent's {@code rewrap-deks} does, with a dry run and counts.
 */
@Command(name = "dek", mixinStandardHelpOptions = true,
    description = "Work the DEK registry (field encryption's keys).")
final class DekCommand {
  /** Confluent's prefix for the encryption executors' settings, stripped as its {@code RewrapDeks} strips it. */
  static final String EXECUTOR_PARAM_PREFIX = "rule.executors._default_.param.";
  /** The exit status of a run that the KMS or the registry stopped for now: run again. */
  static final int STOPPED = 3;

  @Spec
  picocli.CommandLine.Model.CommandSpec spec;

  @Command(name = "rewrap",
      description = {"Re-wrap every DEK of a KEK (or of one --subject under it) under the KEK's current KMS key "
          + "version: each DEK is unwrapped and wrapped again by the KMS, and stored back. The key itself never "
          + "changes, so every record stays readable. Run it after rotating the KMS key, and before disabling the "
          + "old key version. Safe to run again.",
          "KMS settings (credentials, secret, ...) come as the serde takes them: in --command-config or --property, "
              + "bare or as " + EXECUTOR_PARAM_PREFIX + "<name>; the KEK's kmsProps are laid over them.",
          "Prints a line per DEK that failed or was skipped (each DEK with --verbose), then the counts. Exit "
              + "status: 0 when every DEK was done, 1 when some failed, " + STOPPED + " when the KMS or the "
              + "registry could not answer for now (run again)."})
  int rewrap(@Mixin ClientOptions client, @Mixin HelpOption help,
      @Option(names = "--kek", required = true, paramLabel = "NAME", description = "The KEK.") String kek,
      @Option(names = "--subject", paramLabel = "SUBJECT",
          description = "Only this subject's DEKs (default: every subject with DEKs under the KEK).") String subject,
      @Option(names = "--dry-run", description = "Unwrap and wrap again, but store nothing: what would be done.")
      boolean dryRun,
      @Option(names = "--include-deleted", negatable = true, defaultValue = "true", fallbackValue = "true",
          description = "Soft-deleted DEKs too, which readers of old records may need (default: true).")
      boolean deleted,
      @Option(names = "--verbose", description = "A line for every DEK.") boolean verbose) {
    Map<String, Object> config = client.config();
    PrintWriter out = spec.commandLine().getOut();
    try (SchemaRegistryClient registry = SchemaRegistryClients.create(config)) {
      DekRewrap.Counts counts;
      try {
        counts = new DekRewrap(registry.dekRegistry(), kmsConfigs(config)).run(kek, subject, deleted, dryRun,
            result -> {
              if (verbose || result.outcome() == DekRewrap.Outcome.FAILED
                  || result.outcome() == DekRewrap.Outcome.SKIPPED) {
                out.println(line(result));
              }
            });
      } catch (DekRewrap.StoppedException e) {
        out.println(e.counts());
        out.flush();
        // refused settings or credentials need a fix first: 1, not the status that says "run it again"
        boolean refused = e.getCause() instanceof io.kavro.serde.rules.RuleDeploymentException;
        throw refused ? new CliException(e.getMessage()) : new CliException(e.getMessage(), STOPPED);
      } catch (IllegalArgumentException e) {
        throw new CliException(e.getMessage());
      }
      out.println((dryRun ? "dry run: " : "") + counts);
      if (counts.failed() > 0) {
        throw new CliException(counts.failed() + " DEK(s) of KEK '" + kek + "' could not be re-wrapped (listed "
            + "above); the others were");
      }
    }
    return 0;
  }

  /** One DEK's line: subject, algorithm, version, outcome and reason, tab-separated. Names no key material. */
  static String line(DekRewrap.Result result) {
    return result.subject() + "\t" + result.algorithm() + "\tversion " + result.version()
        + (result.deleted() ? " (deleted)" : "") + "\t" + result.outcome()
        + (result.reason() == null ? "" : "\t" + result.reason());
  }

  /** The settings, with those under {@link #EXECUTOR_PARAM_PREFIX} also under their bare names, which win. */
  static Map<String, Object> kmsConfigs(Map<String, Object> config) {
    Map<String, Object> kms = new HashMap<>(config);
    config.forEach((key, value) -> {
      if (key.startsWith(EXECUTOR_PARAM_PREFIX)) {
        kms.put(key.substring(EXECUTOR_PARAM_PREFIX.length()), value);
      }
    });
    return kms;
  }
}
