package io.kavro.examples;

import io.kavro.examples.avro.Order;
import io.kavro.examples.avro.OrderStatus;
import io.kavro.serde.AvroSerde;
import java.util.Map;
import java.util.Properties;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

/**
 * A Kafka Streams app with {@link AvroSerde}s: reads generated {@link Order}s, keeps the paid ones, and
 * writes a generic {@code PaidOrder} summary per order.
 */
public final class StreamsApp {
  /** The output records' schema, built in code. */
  public static final Schema PAID_ORDER = SchemaBuilder.record("PaidOrder").namespace("io.kavro.examples")
      .fields().requiredString("id").requiredString("customer").requiredLong("cents").endRecord();

  private StreamsApp() {}

  /** The topology: {@code input} orders to {@code output} paid-order summaries. */
  public static Topology topology(String input, String output, String registryUrl) {
    AvroSerde<Order> orders = new AvroSerde<>();
    orders.configure(Map.of("schema.registry.url", registryUrl, "specific.avro.reader", true), false);
    AvroSerde<GenericRecord> summaries = new AvroSerde<>();
    summaries.configure(Map.of("schema.registry.url", registryUrl), false);

    StreamsBuilder builder = new StreamsBuilder();
    builder.stream(input, Consumed.with(Serdes.String(), orders))
        .filter((id, order) -> order.getStatus() == OrderStatus.PAID)
        .mapValues(order -> {
          GenericRecord paid = new GenericData.Record(PAID_ORDER);
          paid.put("id", order.getId());
          paid.put("customer", order.getCustomer());
          paid.put("cents", order.getAmount().movePointRight(2).longValueExact());
          return paid;
        })
        .to(output, Produced.with(Serdes.String(), summaries));
    return builder.build();
  }

  /** A started Streams app; close it to stop. */
  public static KafkaStreams start(Endpoints endpoints, String input, String output, String stateDir) {
    Properties props = new Properties();
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, "kavro-streams-example-" + input);
    props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, endpoints.bootstrapServers());
    props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir);
    props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 200);
    KafkaStreams streams = new KafkaStreams(topology(input, output, endpoints.registryUrl()), props);
    streams.start();
    return streams;
  }
}
