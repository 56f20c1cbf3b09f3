package io.kavro.serde.framing;

import io.kavro.registry.ApicurioId;
import java.util.Arrays;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.ConfigException;

/**
 * What the deserializer reads after a payload's magic byte {@code 0x00}: Confluent's 4-byte schema id (Kavro's
 * own framing), or one of the ids Apicurio's serdes write there, through their id handler and
 * {@code apicurio.registry.use-id}. Bytes alone cannot tell a 4-byte id from an 8-byte one, nor a global id from a
 * content id, so this is configured per deserializer ({@code key.schema.id.prefix}, {@code value.schema.id.prefix}),
 * never guessed. A {@code 0x01} GUID prefix is read whichever is configured, and so are ids in headers with the
 * default {@code DualSchemaIdDeserializer}.
 */
public enum SchemaIdPrefix {
  /** Confluent's {@code 0x00} and a 4-byte schema id of the Confluent-compatible API (the default). */
  CONFLUENT("confluent", 4, null),
  /** {@code 0x00} and an 8-byte Apicurio global id: Apicurio 2's default id handler with its default global ids. */
  APICURIO_GLOBAL_ID_8("apicurio-global-id-8", 8, ApicurioId.Kind.GLOBAL_ID),
  /** {@code 0x00} and a 4-byte Apicurio content id: Apicurio 3's default. */
  APICURIO_CONTENT_ID_4("apicurio-content-id-4", 4, ApicurioId.Kind.CONTENT_ID),
  /** {@code 0x00} and a 4-byte Apicurio global id ({@code Legacy4ByteIdHandler} with global ids). */
  APICURIO_GLOBAL_ID_4("apicurio-global-id-4", 4, ApicurioId.Kind.GLOBAL_ID),
  /** {@code 0x00} and an 8-byte Apicurio content id (the 8-byte id handler with content ids). */
  APICURIO_CONTENT_ID_8("apicurio-content-id-8", 8, ApicurioId.Kind.CONTENT_ID);

  private final String configValue;
  private final int idBytes;
  private final ApicurioId.Kind apicurioKind;

  SchemaIdPrefix(String configValue, int idBytes, ApicurioId.Kind apicurioKind) {
    this.configValue = configValue;
    this.idBytes = idBytes;
    this.apicurioKind = apicurioKind;
  }

  /** Its value in the configuration. */
  public String configValue() {
    return configValue;
  }

  /** Bytes of the prefix: the magic byte and the id. */
  public int size() {
    return 1 + idBytes;
  }

  /** The kind of Apicurio id it holds, or {@code null} for Confluent's schema id. */
  public ApicurioId.Kind apicurioKind() {
    return apicurioKind;
  }

  /**
   * The Apicurio id in the prefix at {@code offset}, which holds at least {@link #size()} bytes; for
   * {@link #CONFLUENT} there is none.
   */
  ApicurioId apicurioId(byte[] payload, int offset) {
    long id = 0;
    for (int i = 1; i <= idBytes; i++) {
      id = id << 8 | payload[offset + i] & 0xff;
    }
    return new ApicurioId(apicurioKind, idBytes == 4 ? id & 0xffffffffL : id);
  }

  /**
   * The prefix configured as {@code value} under {@code key}.
   *
   * @throws ConfigException naming the allowed values when it is none of them
   */
  public static SchemaIdPrefix parse(String key, String value) {
    for (SchemaIdPrefix prefix : values()) {
      if (prefix.configValue.equalsIgnoreCase(value.trim())) {
        return prefix;
      }
    }
    throw new ConfigException(key, value, "must be one of " + Arrays.stream(values())
        .map(SchemaIdPrefix::configValue).collect(Collectors.joining(", ")));
  }
}
