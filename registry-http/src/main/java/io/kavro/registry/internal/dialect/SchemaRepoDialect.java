package io.kavro.registry.internal.dialect;

import io.kavro.registry.IncompatibleSchemaException;
import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.registry.WrongRegistryUrlException;
import io.kavro.registry.internal.http.ErrorMapping;
import io.kavro.registry.internal.http.RegistryDialect;
import io.kavro.registry.internal.http.RestRequest;
import okhttp3.HttpUrl;

/**
 * How schema-repo (AVRO-1124, 0.1.x) answers. Its bodies are text, JSON only where asked for with exactly
 * {@code Accept: application/json} (its subject list and {@code /all}; elsewhere that header is harmless).
 *
 * <ul>
 *   <li>Its own "not found" is a 404 whose text starts {@code ERROR: } ({@code ERROR: This subject does not
 *       exist.}, {@code ERROR: This schema does not exist.}): a {@link SchemaNotFoundException}.</li>
 *   <li>A 404 without that text is no answer of schema-repo's: a wrong URL, or an outage, as with Confluent's
 *       protocol ({@link ErrorMapping}).</li>
 *   <li>A 403 to a registration, with an empty body or its Jetty's own error page ("Problem accessing ..."), is
 *       its validators' refusal (schema-repo gives no reason): an {@link IncompatibleSchemaException}, to which the
 *       client adds Avro's reason. A 403 with another body (a proxy's page) is an access denial, as ever.</li>
 *   <li>Everything else is mapped as for Confluent's protocol: 401/403 denied, 5xx, 408 and 429 retried.</li>
 * </ul>
 */
final class SchemaRepoDialect implements RegistryDialect {
  static final SchemaRepoDialect INSTANCE = new SchemaRepoDialect();
  /** The start of every error text of schema-repo's own. */
  static final String ERROR_PREFIX = "ERROR: ";
  /** What the error page of schema-repo's Jetty says, for an answer that has no entity of schema-repo's own. */
  static final String JETTY_ERROR_PAGE = "Problem accessing ";

  private SchemaRepoDialect() {}

  @Override
  public String accept() {
    return "application/json";
  }

  @Override
  public SchemaRegistryException toException(RestRequest request, int status, String body, String contentType,
      String url, HttpUrl base, HttpUrl endpoint) {
    String message = request.operation() + " failed: HTTP " + status + ": ";
    if (status == 404 && body.startsWith(ERROR_PREFIX)) {
      return new SchemaNotFoundException(message + ErrorMapping.shorten(body.strip()) + " (" + url + ")", status, -1,
          url, null);
    }
    if (status == 403 && request.method().equals("PUT") && (body.isBlank() || body.contains(JETTY_ERROR_PAGE))) {
      return new IncompatibleSchemaException(message + "the repository's validators refused the schema (" + url
          + ")", "the repository's validators refused the schema", status, -1, url, null);
    }
    if (status == 404 && base != null) {
      String answer = "HTTP " + status + ": " + (body.isBlank() ? "(empty body)" : ErrorMapping.shorten(body.strip()));
      return new WrongRegistryUrlException(message + "(no schema-repo answer: " + (body.isBlank() ? "empty body"
          : ErrorMapping.shorten(body.strip())) + ") (" + url + "); a 404 without schema-repo's 'ERROR:' text, so "
          + base + " is not the base URL of a schema-repo: check that schema.registry.url is the repository's "
          + "(http://host:port/schema-repo, its schema-repo.jetty.path) and that nothing in between answers for "
          + "it. A configuration error: not retried", base.toString(), answer, status, -1, url, null);
    }
    return ErrorMapping.toException(request.operation(), status, body, contentType, url, null);
  }
}
