package io.kavro.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.config.RegistryConfig;
import io.kavro.serde.AvroSerdeConfig;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.serde.WireFormat;
import io.kavro.testkit.KavroStackExtension;
import io.kavro.testkit.TestStack;
import java.io.IOException;
import java.io.StringReader;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import okhttp3.tls.HandshakeCertificates;
import okhttp3.tls.HeldCertificate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Producer and consumer properties as a Confluent user has them, with only the class names changed, loaded
 * into Kavro and run on a real broker and a real registry (Apicurio) behind a TLS proxy that needs a client
 * certificate: every key is understood, and acts as Confluent's does.
 */
@ExtendWith(KavroStackExtension.class)
class ConfluentConfigurationTest {
  private static final HeldCertificate CA = new HeldCertificate.Builder().certificateAuthority(0).build();
  private static final HeldCertificate CLIENT_CA = new HeldCertificate.Builder().certificateAuthority(0).build();
  private static final HeldCertificate CLIENT = new HeldCertificate.Builder().signedBy(CLIENT_CA)
      .commonName("billing-app").build();

  private final TestStack stack;
  private final KafkaFixture kafka;

  ConfluentConfigurationTest(TestStack stack) {
    this.stack = stack;
    this.kafka = new KafkaFixture(stack);
  }

  private FaultyProxy mutualTlsProxy() throws IOException {
    HeldCertificate cert = new HeldCertificate.Builder().signedBy(CA).addSubjectAlternativeName("127.0.0.1").build();
    HandshakeCertificates server = new HandshakeCertificates.Builder().heldCertificate(cert, CA.certificate())
        .addTrustedCertificate(CLIENT_CA.certificate()).build();
    java.net.URI uri = java.net.URI.create(stack.registryUrl());
    return new FaultyProxy(uri.getHost(), uri.getPort(), server.sslContext().getServerSocketFactory(), true);
  }

  /** Properties text with the PEM material inline, as a secret store would render it. */
  private static Map<String, Object> load(String text) throws IOException {
    Properties properties = new Properties();
    properties.load(new StringReader(text
        .replace("${CA}", CA.certificatePem().replace("\n", "\\n"))
        .replace("${KEY}", CLIENT.privateKeyPkcs8Pem().replace("\n", "\\n"))
        .replace("${CHAIN}", CLIENT.certificatePem().replace("\n", "\\n"))));
    Map<String, Object> config = new HashMap<>();
    properties.forEach((key, value) -> config.put((String) key, value));
    return config;
  }

  @Test
  void confluentProducerAndConsumerProperties_runAsTheyAre() throws Exception {
    try (FaultyProxy proxy = mutualTlsProxy()) {
      String topic = kafka.topic("confluent-config");
      Map<String, Object> producer = load("""
          bootstrap.servers=%s
          key.serializer=org.apache.kafka.common.serialization.StringSerializer
          value.serializer=io.kavro.serde.KafkaAvroSerializer
          schema.registry.url=%s
          basic.auth.credentials.source=SASL_INHERIT
          sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required \\
              username="billing" password="b1ll1ng-secret";
          request.header.X-Client-App=billing
          schema.registry.ssl.truststore.type=PEM
          schema.registry.ssl.truststore.certificates=${CA}
          schema.registry.ssl.keystore.type=PEM
          schema.registry.ssl.keystore.key=${KEY}
          schema.registry.ssl.keystore.certificate.chain=${CHAIN}
          schema.registry.ssl.enabled.protocols=TLSv1.2,TLSv1.3
          auto.register.schemas=true
          use.latest.version=true
          latest.compatibility.strict=true
          latest.cache.ttl.sec=-1
          latest.cache.size=100
          avro.remove.java.properties=true
          value.subject.name.strategy=io.confluent.kafka.serializers.subject.TopicNameStrategy
          value.schema.id.serializer=io.confluent.kafka.serializers.schema.id.HeaderSchemaIdSerializer
          linger.ms=5
          """.formatted(stack.bootstrapServers(), proxy.via(stack.registryUrl())));
      Map<String, Object> consumer = load("""
          bootstrap.servers=%s
          group.id=billing-readers
          auto.offset.reset=earliest
          key.deserializer=org.apache.kafka.common.serialization.StringDeserializer
          value.deserializer=io.kavro.serde.KafkaAvroDeserializer
          schema.registry.url=%s
          schema.registry.ssl.truststore.type=PEM
          schema.registry.ssl.truststore.certificates=${CA}
          schema.registry.ssl.keystore.type=PEM
          schema.registry.ssl.keystore.key=${KEY}
          schema.registry.ssl.keystore.certificate.chain=${CHAIN}
          value.schema.id.deserializer=io.confluent.kafka.serializers.schema.id.DualSchemaIdDeserializer
          specific.avro.reader=false
          """.formatted(stack.bootstrapServers(), proxy.via(stack.registryUrl())));

      // Each key is understood: parsed into Kavro's typed settings.
      AvroSerdeConfig parsed = new AvroSerdeConfig(producer, false);
      RegistryConfig registry = parsed.registryConfig();
      assertThat(parsed.autoRegisterSchemas()).isTrue();
      assertThat(parsed.useLatestVersion()).isTrue();
      assertThat(parsed.schemaIdInHeader()).isTrue();
      assertThat(parsed.removeJavaProperties()).isTrue();
      assertThat(parsed.useLogicalTypeConverters()).isFalse();
      assertThat(registry.latestCacheTtl()).isEqualTo(RegistryConfig.NO_EXPIRY);
      assertThat(registry.latestCacheSize()).isEqualTo(100);
      assertThat(registry.basicAuthUserInfo().value()).isEqualTo("billing:b1ll1ng-secret");
      assertThat(registry.requestHeaders()).containsEntry("X-Client-App", "billing");
      assertThat(registry.tls().keystoreType()).isEqualTo("PEM");
      assertThat(registry.toString()).doesNotContain("b1ll1ng-secret").doesNotContain("PRIVATE KEY");

      // And acts as Confluent's does: auto-registration wins over use.latest.version, the id goes to the header
      // (Apicurio has no GUIDs: the id form), and the consumer with Dual reads it back through mutual TLS.
      kafka.produce(producer, List.of(new ProducerRecord<>(topic, "k", RegistryOutageTest.event(11))));
      List<ConsumerRecord<String, Object>> read = kafka.consume(consumer, topic, 1);

      assertThat(read.get(0).value()).hasToString(RegistryOutageTest.event(11).toString());
      byte[] header = read.get(0).headers().lastHeader(WireFormat.VALUE_SCHEMA_ID_HEADER).value();
      assertThat(header[0]).isEqualTo(WireFormat.MAGIC_BYTE);
    }
  }
}
