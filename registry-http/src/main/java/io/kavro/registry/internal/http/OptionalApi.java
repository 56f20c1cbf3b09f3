package io.kavro.registry.internal.http;

import io.kavro.registry.UnsupportedRegistryApiException;
import java.time.Duration;

/**
 * The APIs that a registry may lack while its core API (Confluent's subjects and ids) answers: newer parts of
 * Confluent's, and Apicurio's own.
 *
 * <p>What counts as the registry's answer that it lacks one differs:
 * <ul>
 *   <li>For Apicurio's own APIs (asked only from an Apicurio URL), a JSON or empty 404 without a registry error code,
 *       or Apicurio 3's 204 without a body, while the core API answers (the client asks it) says the API is missing;
 *       any other success without JSON (a login page's 200) is an outage. That is remembered for
 *       {@link #MISSING_TTL}, then asked again: a registry may be upgraded, and a node that answered so may have
 *       been one still rolling out. A 404 whose body is a page of text (a proxy's) is an outage.</li>
 *   <li>For Confluent's GUID, metadata and associations APIs, only an answer in a shape the kind of registry the URL
 *       leads to is known to give for a path it does not serve (the list is {@link MissingApiAnswers}'s) says so,
 *       while the core API answers, and is remembered likewise; any other 404 (an empty body, HTML, JSON without
 *       Confluent's error code from a URL of Confluent's kind: a load balancer's, a proxy's, a gateway's) and a
 *       success without JSON (a login page) is an outage, retried and failed over: a GUID-framed record or a
 *       {@code use.latest.with.metadata} write fails retriably, and the serde falls back to the topic's subject only
 *       on the registry's own word.</li>
 *   <li>For the DEK registry, only its own answers count: its error codes 4047x ({@link #DEK_KEY_NOT_FOUND},
 *       "Key not found", for a KEK or a DEK, which is an empty lookup, never a missing API). Any other 404 (a
 *       proxy's HTML page, a JSON {@code error_code} 404, a {@code 40400} or another API's 404xx) is an outage,
 *       retried and failed over like a 503: field encryption must never be switched off by a transient answer. A
 *       registry without the API thus fails every encrypted record retriably, which is fail-closed.</li>
 * </ul>
 */
public enum OptionalApi {
  GUIDS("Confluent's GUID API (GET /schemas/guids/{guid}, Confluent Platform 8 and later)", true, true),
  METADATA("Confluent's metadata API (GET /subjects/{subject}/metadata, Confluent Platform 7.4 and later)", true,
      true),
  DEK_REGISTRY("Confluent's DEK registry API (/dek-registry/v1, Confluent Platform 7.5 and later)", false, false),
  APICURIO_V3("Apicurio's v3 API (GET /apis/registry/v3/ids/..., Apicurio Registry 3)", true, false),
  APICURIO_V2("Apicurio's v2 API (GET /apis/registry/v2/ids/..., Apicurio Registry 2)", true, false),
  ASSOCIATIONS("Confluent's associations API (GET /associations/resources/..., Confluent Platform 8.3 and later)",
      true, true);

  /** How long the registry's answer that it lacks an API is remembered before the API is asked again. */
  public static final Duration MISSING_TTL = UnsupportedRegistryApiException.REMEMBERED_FOR;

  public final String description;
  /**
   * Whether a 404 without the registry's own error code may say that the registry lacks the API (the client then
   * asks the core API); when false, such a 404 is an outage.
   */
  final boolean learnedFromBare404;
  /**
   * Whether only a 404 of a shape that a kind of registry is known to answer for a path it does not serve says that
   * the registry lacks the API ({@link MissingApiAnswers}); any other 404 (an empty body or JSON without Confluent's
   * error code from a URL of Confluent's kind, a page of text) is an outage. For Confluent's GUID, metadata and
   * associations APIs: a proxy's 404 must never fail a record not retriably, nor make the serde write under the
   * fallback's subjects.
   */
  final boolean knownAnswersOnly;

  /**
   * Whether only the registry's own answer in a shape {@link MissingApiAnswers} knows says that it lacks this API:
   * then an answer that is not one (a 2xx without JSON from a login page or a proxy, a 404 of another shape) is an
   * outage, never learned as a missing API.
   */
  public boolean knownAnswersOnly() {
    return knownAnswersOnly;
  }

  OptionalApi(String description, boolean learnedFromBare404, boolean knownAnswersOnly) {
    this.description = description;
    this.learnedFromBare404 = learnedFromBare404;
    this.knownAnswersOnly = knownAnswersOnly;
  }

  /** The DEK registry's "key not found" (a KEK or a DEK): an empty lookup, never a missing API. */
  public static final int DEK_KEY_NOT_FOUND = 40470;
  /** How messages name the DEK registry's own 404 codes. */
  static final String DEK_REGISTRY_CODES = DEK_KEY_NOT_FOUND / 10 + "x";

  /** Whether a 404's {@code error_code} is one of the DEK registry's own ({@value #DEK_KEY_NOT_FOUND} to 40479). */
  static boolean dekRegistryNotFound(int errorCode) {
    return errorCode / 10 == DEK_KEY_NOT_FOUND / 10;
  }
}
