package io.kavro.it;

import io.kavro.testkit.EmbeddedSchemaRepo;

/**
 * schema-repo's server ({@link EmbeddedSchemaRepo}, a child JVM), one for every test class of this JVM that uses
 * it: started on first use, closed when the test JVM exits. Its users take subjects of their own and change no
 * setting of the server's; a test that stops a server starts one of its own.
 */
final class SharedSchemaRepo {
  private static EmbeddedSchemaRepo repository;

  private SharedSchemaRepo() {}

  static synchronized EmbeddedSchemaRepo repository() {
    if (repository == null) {
      EmbeddedSchemaRepo started = EmbeddedSchemaRepo.start(0);
      Runtime.getRuntime().addShutdownHook(new Thread(started::close, "shared-schema-repo-stop"));
      repository = started;
    }
    return repository;
  }
}
