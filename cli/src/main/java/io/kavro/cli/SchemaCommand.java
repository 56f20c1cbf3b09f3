package io.kavro.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kavro.registry.CompatibilityInForce;
import io.kavro.registry.CompatibilityLevel;
import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.registry.SubjectVersion;
import io.kavro.registry.contract.DataContract;
import io.kavro.schematools.LevelMismatch;
import io.kavro.schematools.SchemaFiles;
import io.kavro.schematools.SchemaImports;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kavro schema ...}: the registry's REST API as commands, through Kavro's own client (retries, failover,
 * auth and TLS from {@code --command-config}). Each prints JSON.
 */
@Command(name = "schema", mixinStandardHelpOptions = true,
    description = "Work the schema registry.")
final class SchemaCommand {
  @Spec
  picocli.CommandLine.Model.CommandSpec spec;

  private PrintWriter out() {
    return spec.commandLine().getOut();
  }

  private static SchemaRegistryClient registry(ClientOptions client) {
    return SchemaRegistryClients.create(client.config());
  }

  @Command(name = "subjects",
      description = "List the subjects.")
  int subjects(@Mixin ClientOptions client, @Mixin HelpOption help) {
    try (SchemaRegistryClient registry = registry(client)) {
      out().println(JsonLines.line(JsonLines.MAPPER.valueToTree(registry.subjects())));
    }
    return 0;
  }

  @Command(name = "versions",
      description = "List a subject's versions.")
  int versions(@Mixin ClientOptions client, @Mixin HelpOption help,
      @Option(names = "--subject", required = true, paramLabel = "SUBJECT", description = "The subject.")
      String subject) {
    try (SchemaRegistryClient registry = registry(client)) {
      out().println(JsonLines.line(JsonLines.MAPPER.valueToTree(registry.versions(subject))));
    }
    return 0;
  }

  @Command(name = "get",
      description = "Print a schema: by --id (with its --subject where ids count per subject: schema-repo), or a "
          + "--subject's --version (latest by default).")
  int get(@Mixin ClientOptions client, @Mixin HelpOption help,
      @Option(names = "--id", paramLabel = "ID", description = "The schema id.") Integer id,
      @Option(names = "--subject", paramLabel = "SUBJECT", description = "The subject.") String subject,
      @Option(names = "--version", defaultValue = "latest", paramLabel = "VERSION",
          description = "A version number, or latest.")
      String version) {
    try (SchemaRegistryClient registry = registry(client)) {
      ObjectNode line = JsonLines.MAPPER.createObjectNode();
      Schema schema;
      if (id != null) {
        if (subject == null && registry.idsPerSubject()) {
          throw new CliException("schema get --id needs --subject: this registry numbers schemas per subject", 2);
        }
        schema = (subject == null ? registry : registry.forSubject(subject)).schemaById(id);
        if (subject != null) {
          line.put("subject", subject);
        }
        line.put("id", id);
      } else if (subject != null) {
        SubjectVersion found = version.equals("latest") ? registry.latestVersion(subject)
            : registry.version(subject, parseVersion(version));
        line.put("subject", found.subject()).put("version", found.version()).put("id", found.id());
        schema = found.schema();
      } else {
        throw new CliException("schema get needs --id or --subject", 2);
      }
      line.set("schema", JsonLines.MAPPER.readTree(schema.toString()));
      out().println(JsonLines.line(line));
    } catch (IOException e) {
      throw new CliException(e.getMessage());
    }
    return 0;
  }

  /** The types a schema file takes from elsewhere: {@code --reference} and {@code --imports}. */
  static final class ReferenceOptions {
    @Option(names = "--reference", paramLabel = "NAME=SUBJECT:VERSION", converter = ReferenceConverter.class,
        description = "A type the schema uses that a subject's version defines (a schema reference); VERSION is a "
            + "number or latest. Repeat for each.")
    List<SchemaImports.Wanted> references = new ArrayList<>();

    @Option(names = "--imports", paramLabel = "DIR", description = "A directory of .avsc files that the schema's "
        + "types come from, importing each other: each one the schema needs is registered first under its type's "
        + "full name and referenced.")
    Path imports;

    /** The options' names, which the messages of {@link SchemaImports} use. */
    static final SchemaImports.Labels LABELS = new SchemaImports.Labels("--imports", "--reference");

    /** The schema file, read with the types these options name; {@code options} is null when none is given. */
    static SchemaImports.Resolved resolve(ReferenceOptions options, SchemaRegistryClient registry, Path file,
        SchemaImports.ImportedFiles importedFiles) {
      if (options == null || options.references.isEmpty() && options.imports == null) {
        return new SchemaImports.Resolved(read(file), List.of());
      }
      return SchemaImports.against(registry, LABELS).withImportedFiles(importedFiles)
          .resolve(file, options.references, Optional.ofNullable(options.imports));
    }
  }

  /** The schema file asked about under a subject: {@code --subject}, {@code --schema} and its references. */
  static final class SubjectSchema {
    @Option(names = "--subject", required = true, paramLabel = "SUBJECT", description = "The subject.")
    String subject;

    @Option(names = "--schema", required = true, paramLabel = "FILE", description = "The schema (.avsc).")
    Path file;

    @ArgGroup(exclusive = false)
    ReferenceOptions referenceOptions;

    /** The schema file, read with the types it takes from elsewhere, its imported files registered or looked up. */
    SchemaImports.Resolved resolve(SchemaRegistryClient registry, SchemaImports.ImportedFiles importedFiles) {
      return ReferenceOptions.resolve(referenceOptions, registry, file, importedFiles);
    }
  }

  /** Parses {@code --reference}, so that a malformed one is a usage error before anything is sent. */
  static final class ReferenceConverter implements picocli.CommandLine.ITypeConverter<SchemaImports.Wanted> {
    @Override
    public SchemaImports.Wanted convert(String value) {
      try {
        return parseReference(value);
      } catch (CliException e) {
        throw new picocli.CommandLine.TypeConversionException(e.getMessage());
      }
    }
  }

  /** {@code name=subject:version}, the version a number or {@code latest} (0 in the result). */
  static SchemaImports.Wanted parseReference(String text) {
    int equals = text.indexOf('=');
    int colon = text.lastIndexOf(':');
    if (equals <= 0 || colon < equals + 2 || colon == text.length() - 1) {
      throw new CliException("--reference must be NAME=SUBJECT:VERSION (com.acme.Order=com.acme.Order:1), was '"
          + text + "'", 2);
    }
    String version = text.substring(colon + 1);
    int number = -1;
    if (version.equals("latest")) {
      number = 0;
    } else if (version.chars().allMatch(Character::isDigit) && version.length() < 10) {
      number = Integer.parseInt(version);
    }
    if (number < 0 || version.equals("0")) {
      throw new CliException("--reference '" + text + "': the version must be a number from 1 or latest", 2);
    }
    return new SchemaImports.Wanted(text.substring(0, equals), text.substring(equals + 1, colon), number);
  }

  @Command(name = "register",
      description = "Register a schema under a subject, with its data contract (--rule-set, --metadata) if given; "
      + "prints its id, and the references it was registered with. A contract the registry does not keep (it shows "
      + "none when read back) is an error naming the subject.")
  int register(@Mixin ClientOptions client, @Mixin HelpOption help, @Mixin SubjectSchema schema,
      @Mixin ContractOptions contractOptions) {
    DataContract contract = contractOptions.contract();
    try (SchemaRegistryClient registry = registry(client)) {
      SchemaImports.Resolved resolved = schema.resolve(registry, SchemaImports.ImportedFiles.REGISTER);
      int id = contract.equals(DataContract.NONE)
          ? registry.register(schema.subject, resolved.schema(), resolved.references())
          : registry.register(schema.subject, resolved.schema(), resolved.references(), contract);
      if (!contract.equals(DataContract.NONE)) {
        // Read back by a client of its own, which has no answer of the registration cached.
        try (SchemaRegistryClient fresh = registry(client)) {
          contract.droppedBy(fresh.forSubject(schema.subject).contractOf(id), schema.subject, id)
              .ifPresent(lost -> {
                throw new CliException(lost);
              });
        }
      }
      ObjectNode line = JsonLines.MAPPER.createObjectNode().put("id", id);
      if (!resolved.references().isEmpty()) {
        line.set("references", JsonLines.MAPPER.valueToTree(resolved.references()));
      }
      out().println(JsonLines.line(line));
    }
    return 0;
  }

  /** The exit status of a yes-or-no command that could not answer: neither yes (0) nor no (1). */
  static final int NO_ANSWER = 3;

  private static CliException noAnswer(SchemaRegistryException e) {
    CliException failed = new CliException(Kavro.message(e), NO_ANSWER);
    failed.initCause(e);
    return failed;
  }

  @Command(name = "check",
      description = "Is this schema registered under the subject? Exit 0 when it is, 1 when "
      + "it is not, 3 when there is no answer (the registry failed).")
  int check(@Mixin ClientOptions client, @Mixin HelpOption help, @Mixin SubjectSchema schema) {
    try (SchemaRegistryClient registry = registry(client)) {
      SchemaImports.Resolved resolved = schema.resolve(registry, SchemaImports.ImportedFiles.LOOK_UP);
      SubjectVersion found = registry.lookup(schema.subject, resolved.schema(), resolved.references());
      out().println(JsonLines.line(JsonLines.MAPPER.createObjectNode().put("registered", true)
          .put("subject", schema.subject).put("version", found.version()).put("id", found.id())));
      return 0;
    } catch (SchemaNotFoundException e) {
      out().println(JsonLines.line(JsonLines.MAPPER.createObjectNode().put("registered", false)
          .put("subject", schema.subject)));
      return 1;
    } catch (SchemaRegistryException e) {
      throw noAnswer(e);
    }
  }

  @Command(name = "compatibility",
      description = "With --schema: can the subject take it? Exit 0 when it can, 1 "
      + "when not, 3 when there is no answer (an unknown subject, a registry failure). "
      + "With --level: set the subject's level (or the global one without --subject). Otherwise: print the level; "
      + "with --subject, the level in force and its source: the subject's own, or global when it sets none.")
  int compatibility(@Mixin ClientOptions client, @Mixin HelpOption help,
      @Option(names = "--subject", paramLabel = "SUBJECT", description = "The subject.") String subject,
      @Option(names = "--schema", paramLabel = "FILE", description = "The schema (.avsc) to test.") Path file,
      @Option(names = "--level", paramLabel = "LEVEL", description = "Set this level: NONE, BACKWARD, FORWARD, "
          + "FULL, or their _TRANSITIVE forms.") CompatibilityLevel level) {
    try (SchemaRegistryClient registry = registry(client)) {
      if (file != null) {
        if (subject == null) {
          throw new CliException("compatibility --schema needs --subject", 2);
        }
        io.kavro.registry.CompatibilityCheck check;
        try {
          check = registry.checkCompatibility(subject, read(file));
        } catch (SchemaNotFoundException e) {
          throw new CliException("subject '" + subject + "' does not exist, so it has nothing to be compatible "
              + "with: " + e.getMessage(), NO_ANSWER);
        } catch (SchemaRegistryException e) {
          throw noAnswer(e);
        }
        ObjectNode answer = JsonLines.MAPPER.createObjectNode().put("compatible", check.compatible());
        if (!check.messages().isEmpty()) {
          answer.set("messages", JsonLines.MAPPER.valueToTree(check.messages()));
        }
        out().println(JsonLines.line(answer));
        return check.compatible() ? 0 : 1;
      }
      if (level != null) {
        if (subject == null) {
          registry.setCompatibility(level);
        } else {
          registry.setCompatibility(subject, level);
        }
      }
      if (subject == null) {
        out().println(JsonLines.line(JsonLines.MAPPER.createObjectNode()
            .put("compatibility", registry.compatibility().name())));
        return 0;
      }
      CompatibilityInForce current = registry.compatibilityInForce(subject);
      out().println(JsonLines.line(JsonLines.MAPPER.createObjectNode().put("subject", subject)
          .put("compatibility", current.level().name()).put("scope", current.scope().label())));
      if (level != null) {
        mismatch(subject, level, current).ifPresent(spec.commandLine().getErr()::println);
      }
    }
    return 0;
  }

  /**
   * What to say when the level a subject was set to is not the one the registry applies afterwards: "kavro: the
   * registry answers level FULL (the subject's own) for subject 's' after setting BACKWARD". Apicurio is named only
   * where its rule explains it: it keeps no subject level {@code NONE}, so setting one removes the subject's own level
   * and the global one applies. Empty when the levels agree.
   */
  static Optional<String> mismatch(String subject, CompatibilityLevel set, CompatibilityInForce current) {
    return LevelMismatch.afterSetting(subject, set, current).map(sentence -> "kavro: " + sentence);
  }

  @Command(name = "delete",
      description = "Delete a subject, or one --version of it; --permanent after a soft "
      + "delete.")
  int delete(@Mixin ClientOptions client, @Mixin HelpOption help,
      @Option(names = "--subject", required = true, paramLabel = "SUBJECT", description = "The subject.")
      String subject,
      @Option(names = "--version", paramLabel = "VERSION", description = "One version, not the whole subject.")
      Integer version,
      @Option(names = "--permanent", description = "Delete for good what was soft-deleted before.") boolean permanent) {
    try (SchemaRegistryClient registry = registry(client)) {
      if (version != null) {
        int deleted = permanent ? registry.deleteVersionPermanently(subject, version)
            : registry.deleteVersion(subject, version);
        out().println(JsonLines.line(JsonLines.MAPPER.createObjectNode().put("deleted", deleted)));
      } else {
        List<Integer> deleted = permanent ? registry.deleteSubjectPermanently(subject)
            : registry.deleteSubject(subject);
        out().println(JsonLines.line(JsonLines.MAPPER.createObjectNode().set("deleted",
            JsonLines.MAPPER.valueToTree(deleted))));
      }
    }
    return 0;
  }

  private static int parseVersion(String version) {
    try {
      return Integer.parseInt(version);
    } catch (NumberFormatException e) {
      throw new CliException("--version must be a number or latest, was '" + version + "'", 2);
    }
  }

  private static Schema read(Path file) {
    String what = "--schema " + file;
    String text = SchemaFiles.read(what, file);
    try {
      return new Schema.Parser().parse(text);
    } catch (AvroRuntimeException e) {
      // Avro 1.12 says "Undefined schema" with an AvroTypeException, 1.11 "Undefined name" with a parse error.
      throw new CliException(what + SchemaFiles.problem(e) + (e.getMessage() != null
          && e.getMessage().startsWith("Undefined") ? " (a type defined elsewhere: --reference or --imports)" : ""),
          2);
    }
  }
}
