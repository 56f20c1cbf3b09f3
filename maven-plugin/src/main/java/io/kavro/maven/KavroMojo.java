package io.kavro.maven;

import io.kavro.registry.IncompatibleSchemaException;
import io.kavro.registry.InvalidSchemaException;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.registry.config.RegistryConfigException;
import io.kavro.schematools.SchemaFileException;
import java.io.File;
import java.nio.file.Path;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * What every goal shares: {@code skip} (and Confluent's {@code kafka-schema-registry.skip}), the project's folder
 * that relative paths start from, and one way to fail.
 *
 * <p>A build that fails says what failed and why in Maven's one-line error, never in a stack trace alone: a schema
 * or compatibility problem (a file that is not an Avro schema, a schema the subject cannot take, a reader that
 * cannot read a version) is a {@link MojoFailureException}; a problem of the setup (settings, a registry that is
 * unreachable or refuses the credentials, a subject that does not exist) is a {@link MojoExecutionException}, and so
 * is any other failure, named by its class and message, rather than Maven's "Execution ... failed".
 *
 * <p>Maven injects parameters into the fields of a goal and of its superclasses, so the parameters that goals
 * share by name are declared once here and in {@link RegistryMojo}; the work is done by small classes the goals
 * call.
 */
public abstract class KavroMojo extends AbstractMojo {
  /** Skips the goal; {@code -Dkavro.skip}. */
  @Parameter(property = "kavro.skip", defaultValue = "false")
  boolean skip;

  /**
   * Confluent's plugin's {@code -Dkafka-schema-registry.skip} (a user or system property), so that a build script
   * written for that plugin skips these goals too. Read-only: in the pom, give {@code <skip>}.
   */
  @Parameter(defaultValue = "${kafka-schema-registry.skip}", readonly = true)
  String confluentSkip;

  /** The project's folder: relative paths of the configuration start there. */
  @Parameter(defaultValue = "${project.basedir}", readonly = true, required = true)
  File basedir;

  /** Runs the goal, unless skipped, and turns a failure into Maven's, with its message. */
  @Override
  public final void execute() throws MojoExecutionException, MojoFailureException {
    if (skip) {
      getLog().info("Skipped (skip=true: <skip> or -Dkavro.skip)");
      return;
    }
    // Maven reads "-Dkafka-schema-registry.skip" without a value as true.
    if (confluentSkip != null && confluentSkip.strip().equalsIgnoreCase("true")) {
      getLog().info("Skipped (kafka-schema-registry.skip=true, the property of Confluent's plugin)");
      return;
    }
    try {
      run();
    } catch (SchemaFileException e) {
      throw new MojoFailureException(e.getMessage(), e);
    } catch (IncompatibleSchemaException | InvalidSchemaException e) {
      throw new MojoFailureException(Failures.describe(e), e);
    } catch (RegistryConfigException e) {
      throw new MojoExecutionException("the registry settings are wrong: " + e.getMessage(), e);
    } catch (SchemaRegistryException e) {
      throw new MojoExecutionException(Failures.describe(e), e);
    } catch (IllegalArgumentException e) { // a parameter's value, named by the message
      throw new MojoExecutionException(Failures.describe(e), e);
    } catch (RuntimeException e) { // a bug, or a library's failure: named, never "Execution failed: null"
      String name = e.getClass().getSimpleName();
      throw new MojoExecutionException(e.getMessage() == null ? name : name + ": " + Failures.describe(e), e);
    }
  }

  /** The goal's work. */
  abstract void run() throws MojoExecutionException, MojoFailureException;

  /** {@code file} for messages: from {@code base} when it is under it, else whole. */
  static Path shown(Path base, Path file) {
    return file.startsWith(base) ? base.relativize(file) : file;
  }

  /** {@code file} as given, from the project's folder when it is relative. */
  final Path path(File file) {
    return file.isAbsolute() ? file.toPath() : basedir.toPath().resolve(file.toPath()).normalize();
  }
}
