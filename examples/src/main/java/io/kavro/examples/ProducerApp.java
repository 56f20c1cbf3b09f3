package io.kavro.examples;

import java.util.Properties;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Produces generic {@code User} records whose schema comes from {@code avro/user-v1.avsc}. Kavro is
 * configured only through producer properties: copy them into your own app.
 *
 * <pre>ProducerApp &lt;bootstrap servers&gt; &lt;schema registry url&gt; [topic] [count]</pre>
 */
public final class ProducerApp {
  private ProducerApp() {}

  public static void main(String[] args) throws Exception {
    produce(new Endpoints(args[0], args[1]), args.length > 2 ? args[2] : "users",
        args.length > 3 ? Integer.parseInt(args[3]) : 10);
  }

  /** Sends {@code count} users to {@code topic} and waits for every acknowledgement. */
  public static void produce(Endpoints endpoints, String topic, int count) throws Exception {
    Schema schema = AvroFiles.load("avro/user-v1.avsc");

    Properties props = new Properties();
    props.put("bootstrap.servers", endpoints.bootstrapServers());
    props.put("key.serializer", "org.apache.kafka.common.serialization.StringSerializer");
    props.put("value.serializer", "io.kavro.serde.KafkaAvroSerializer");
    props.put("schema.registry.url", endpoints.registryUrl());

    try (KafkaProducer<String, GenericRecord> producer = new KafkaProducer<>(props)) {
      for (int i = 0; i < count; i++) {
        GenericRecord user = new GenericData.Record(schema);
        user.put("id", (long) i);
        user.put("name", "user-" + i);
        user.put("email", i % 2 == 0 ? "user" + i + "@example.com" : null);
        // The first send registers the schema under "<topic>-value"; later sends reuse its id.
        producer.send(new ProducerRecord<>(topic, "user-" + i, user));
      }
      producer.flush();
    }
  }
}
